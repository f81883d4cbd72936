package io.pdla.cli;

import io.pdla.cli.demo.IterativeReader;
import io.pdla.mpiio.launch.MpjJob;
import io.pdla.mpiio.launch.RankMain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The create job of cli's {@link IterativeReader} on O_DIRECT (what {@code bench/online-pdla} runs first): real MPJ
 * multicore ranks, each writing its strided blocks from a 4 KiB-aligned direct buffer with concurrent extending
 * O_DIRECT writes, then one verified pass; the test then checks the file's size and every byte of it.
 *
 * <p>Sessions 15 and 17 saw such a job leave the first 4 KiB page of rank 3's first block zero. The cause was the
 * program's buffer: {@code allocateDirect(block + 4096).alignedSlice(4096)} is {@code block + 4096} bytes long when the
 * allocation happens to start on a page (about 1 allocation in 270 with glibc's malloc), and {@code clear()} before each
 * block gave the write that whole capacity back, so the rank wrote 4 KiB of zeros over the start of the next rank's
 * block. {@code -Dsun.nio.PageAlignDirectMemory=true} makes every direct buffer start on a page, so the first test meets
 * that case on every rank, every time.
 */
class IterativeReaderDirectWritesTest {
    @TempDir
    Path dir;

    @Test
    void pageAlignedDirectBuffersWriteExactlyTheirBlocks() throws Exception {
        createAndCheck(4, 16384, 64, List.of("-Dsun.nio.PageAlignDirectMemory=true"));
    }

    @Test
    void manyRanksOfSmallBlocksExtendTheFileConcurrently() throws Exception {
        // one 4 KiB page per write, six ranks racing at the end of the file: every write extends it
        createAndCheck(6, 4096, 256, List.of());
    }

    @Test
    void blocksOfWholeSectorsButNotWholePagesAreWrittenThroughTheCache() throws Exception {
        // 6 KiB blocks: offsets 512-byte (2 KiB) aligned, never a whole page long, so the driver sends them through the
        // page cache; the program's buffers must still hold a whole block (an aligned slice ends on a page: it held
        // 4 KiB of the 6 about half the time before alignedDirect rounded the allocation up)
        createAndCheck(4, 6144, 128, List.of());
    }

    private void createAndCheck(int ranks, int block, int segments, List<String> jvmOptions) throws Exception {
        String unsupported = DirectBenchCommand.directIoUnsupported(dir);
        assumeTrue(unsupported == null, () -> "O_DIRECT is not supported in the test's temporary directory " + dir + ": " + unsupported);
        Path file = dir.resolve("data-" + ranks + "-" + block + ".dat");
        List<String> args = List.of(file.toString(), Integer.toString(block), Integer.toString(segments), "1", "create", "direct");
        MpjJob.Builder job = MpjJob.builder(RankMain.class.getName()).processes(ranks).classPath(PdlaJar.classPath()).args(args)
                .env(RankMain.ENV_MAIN_CLASS, IterativeReader.class.getName());
        for (String o : jvmOptions) job.jvmOption(o);
        MpjJob.Result r = job.build().run(120);
        String why = "job of " + ranks + " ranks, " + block + "-byte blocks, " + segments + " segments " + jvmOptions + ":\n" + r.output();
        IterativeReaderRuns.verified(r, 1, ranks);

        long expected = (long) ranks * block * segments;
        assertEquals(expected, Files.size(file), "the file holds the ranks' blocks and nothing past them; " + why);
        List<String> wrong = new ArrayList<>();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(1 << 20);
            for (long at = 0; at < expected; ) {
                b.clear();
                int n = ch.read(b, at);
                assertTrue(n > 0, "the file ends at " + at + " of " + expected);
                for (int i = 0; i < n; i++) {
                    long off = at + i;
                    if (b.get(i) != IterativeReader.value(off, 0) && wrong.size() < 8) {
                        wrong.add("byte " + off + " (rank " + (off / block) % ranks + "'s block of segment " + off / block / ranks + ", page " + off / 4096 + ")");
                    }
                }
                at += n;
            }
        }
        assertTrue(wrong.isEmpty(), "bytes that differ from what their rank wrote: " + wrong + "; " + why);
    }
}
