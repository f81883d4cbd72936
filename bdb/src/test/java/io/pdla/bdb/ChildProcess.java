package io.pdla.bdb;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** A {@link JeChild} in its own JVM, with its output read line by line. */
final class ChildProcess implements AutoCloseable {
    final Process process;
    final BufferedReader out;

    ChildProcess(String... args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String[] cmd = new String[args.length + 4];
        cmd[0] = java;
        cmd[1] = "-cp";
        cmd[2] = System.getProperty("java.class.path");
        cmd[3] = JeChild.class.getName();
        System.arraycopy(args, 0, cmd, 4, args.length);
        process = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    String readLine() throws Exception {
        return out.readLine();
    }

    @Override
    public void close() throws Exception {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
        out.close();
    }
}
