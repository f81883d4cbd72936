package io.pdla.report;

import org.junit.jupiter.api.Test;
import java.nio.file.Path;

class ScratchTest {
    @Test
    void write() throws Exception {
        KnownJob k = KnownJob.small();
        var s = k.stats();
        System.out.println("FILES " + s.files());
        System.out.println("SHARES " + io.pdla.patterns.rootcause.RootCauseAnalyzer.analyze(s.files(), s.bytesByRank()).criticalPath());
    }
}
