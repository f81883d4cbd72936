package io.pdla.cli;

import io.pdla.tracer.format.TraceDirectoryException;
import io.pdla.tracer.format.TraceFormatException;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;

/** The exit-code rule shared by the commands that read a trace directory: bad input 2, other failures 1. */
final class TraceDirectoryCommands {
    interface Action {
        void run() throws IOException;
    }

    private TraceDirectoryCommands() {
    }

    static int run(String command, Path dir, PrintWriter out, PrintWriter err, Action action) {
        try {
            action.run();
            return 0;
        } catch (TraceFormatException | TraceDirectoryException e) {
            out.flush();
            err.println(command + ": " + e.getMessage());
            return 2;
        } catch (IOException e) {
            out.flush();
            err.println(command + ": cannot read " + dir + ": " + e);
            return 1;
        }
    }
}
