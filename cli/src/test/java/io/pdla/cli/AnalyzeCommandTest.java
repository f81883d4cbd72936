package io.pdla.cli;

import io.pdla.access.IoOp;
import io.pdla.patterns.TraceSourceFactory;
import io.pdla.patterns.synth.SyntheticTraces;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AnalyzeCommandTest {
    @TempDir
    Path tmp;

    record Run(int code, String out, String err) {
    }

    static Run run(Object command, String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        CommandLine cl = new CommandLine(command);
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    private static final TraceSourceFactory IOR = dir -> SyntheticTraces.ior(4, 65536, 65536, 16, IoOp.WRITE);

    @Test
    void withoutATraceReaderItSaysSoAndExits2() {
        Run r = run(new AnalyzeCommand(Optional.empty()), tmp.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("tracer adapter is missing") && r.err().contains(tmp.toString()), r.err());
    }

    @Test
    void aMissingTraceDirectoryIsBadInput() {
        Run r = run(new AnalyzeCommand(Optional.of(IOR)), tmp.resolve("nope").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("nope") && r.err().contains("does not exist"), r.err());
    }

    @Test
    void printsPatternsAndCoverageAndStoresThemInTheDatabase() {
        Path db = tmp.resolve("db");
        Run r = run(new AnalyzeCommand(Optional.of(IOR)), tmp.toString(), "--db", db.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("coverage: 100.0% of 64 requests"), r.out());
        assertTrue(r.out().contains("global patterns: 1"), r.out());
        assertTrue(r.out().contains("global[4 ranks 0..3] {WRITE, @0B, 64KiB, CONTIG 4MiB, 64 req"), r.out());
        assertTrue(r.out().contains("stored 5 new or changed pattern entries"), r.out());

        Run list = run(new PatternsCommand(), "list", "--db", db.toString());
        assertEquals(0, list.code(), list.err());
        assertTrue(list.out().contains("5 entries, 5 queued for replication"), list.out());
        String app = SyntheticTraces.ior(4, 65536, 65536, 16, IoOp.WRITE).job().app().command();
        String file = SyntheticTraces.ior(4, 65536, 65536, 16, IoOp.WRITE).job().path(0);
        Run show = run(new PatternsCommand(), "show", "--db", db.toString(), "--app", app, "-np", "4", "--rank", "2", "--file", file);
        assertEquals(0, show.code(), show.err());
        assertTrue(show.out().contains("{WRITE, @128KiB, 64KiB, STRIDE 256KiB x 16, 16 req"), show.out());
        assertTrue(show.out().contains("part of global pattern #0"), show.out());
        Run byFile = run(new PatternsCommand(), "list", "--db", db.toString(), "--file", file);
        assertTrue(byFile.out().contains("5 entries"), byFile.out());

        Run del = run(new PatternsCommand(), "delete", "--db", db.toString(), "--app", app, "-np", "4", "--rank", "all", "--file", file);
        assertEquals(0, del.code(), del.err());
        Run again = run(new PatternsCommand(), "show", "--db", db.toString(), "--app", app, "-np", "4", "--rank", "all", "--file", file);
        assertEquals(2, again.code());
        assertTrue(again.err().contains("no entry"), again.err());
        Run badRank = run(new PatternsCommand(), "show", "--db", db.toString(), "--app", app, "-np", "4", "--rank", "x", "--file", file);
        assertEquals(2, badRank.code());
        assertTrue(badRank.err().contains("--rank"), badRank.err());
    }

    @Test
    void patternsOnAMissingDatabaseNamesTheDirectory() {
        Run r = run(new PatternsCommand(), "list", "--db", tmp.resolve("none").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains(tmp.resolve("none").toString()), r.err());
    }

    @Test
    void mixedJobsAreBadInput() {
        TraceSourceFactory mixed = dir -> SyntheticTraces.ior(2, 4096, 4096, 4, IoOp.READ)
                .withJobOf(1, SyntheticTraces.job("other", 2, "/x"));
        Run r = run(new AnalyzeCommand(Optional.of(mixed)), tmp.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("different jobs mixed") && r.err().contains("rank 1"), r.err());
    }
}
