package io.pdla.report;

import org.junit.jupiter.api.Test;
import java.nio.file.*;

class ScratchTest {
    @Test
    void write() throws Exception {
        KnownJob k = KnownJob.small();
        Files.writeString(Path.of("/tmp/tl.svg"), Svg.of(Charts.timeline(k.all(), 0), 1300, 300));
        Files.writeString(Path.of("/tmp/hist.svg"), Svg.of(Charts.requestSizes(new long[]{0,0,0,256,0,0,0,0,0,0}, new long[]{10,0,0,0,0,0,0,0,0,0}), 800, 400));
    }
}
