package io.pdla.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.concurrent.Callable;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Helpers of the command tests: run {@code pdla bench} on its own, and capture what a command prints. */
final class ConsoleCapture {
    private ConsoleCapture() {
    }

    /** {@code pdla bench ARGS}, independent of the registration in PdlaCommand. */
    static int bench(String... args) {
        return new picocli.CommandLine(new BenchCommand()).execute(args);
    }

    /** Runs a command with {@code System.out} or {@code System.err} captured, checks its exit code, returns the text. */
    static String capture(boolean stdout, Callable<Integer> body, int expectedCode) throws Exception {
        PrintStream old = stdout ? System.out : System.err;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        if (stdout) System.setOut(new PrintStream(buf, true));
        else System.setErr(new PrintStream(buf, true));
        try {
            assertEquals(expectedCode, body.call(), buf::toString);
        } finally {
            if (stdout) System.setOut(old);
            else System.setErr(old);
        }
        return buf.toString();
    }
}
