package io.pdla.cli;

import io.pdla.cli.programs.HelloShim;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunCommandTest {
    @TempDir
    Path dir;

    @Test
    void runsAnMpjJobWithTheShimAndTheApplicationIdentity() throws Exception {
        Path out = dir.resolve("hello.dat");
        int code = PdlaCommand.commandLine().execute("run", "-np", "3", "--timeout", "120", "--", HelloShim.class.getName(), out.toString());
        assertEquals(0, code);
        assertEquals("ABC", Files.readString(out), "every rank wrote its byte through the shim");
    }

    @Test
    void aRankThatThrowsMakesTheRunFail() {
        int code = PdlaCommand.commandLine().execute("run", "-np", "2", "--timeout", "120", "--", io.pdla.cli.programs.FailingRank.class.getName());
        assertEquals(1, code);
    }

    @Test
    void badArgumentsExitWith2AndSayWhy() {
        PrintStream old = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err));
        try {
            assertEquals(2, PdlaCommand.commandLine().execute("run", "-np", "0", "Main"));
            assertTrue(err.toString().contains("-np must be > 0"), err.toString());
            assertEquals(2, PdlaCommand.commandLine().execute("run", "-np", "2", "--dev", "niodev", "Main"));
            assertTrue(err.toString().contains("--machines"), err.toString());
            assertEquals(2, PdlaCommand.commandLine().execute("run", "-np", "2", "--dev", "carrier-pigeon", "Main"));
            assertTrue(err.toString().contains("unknown MPJ device"), err.toString());
        } finally {
            System.setErr(old);
        }
    }
}
