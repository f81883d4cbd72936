package io.pdla.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's headless Chromium, as a person's browser: it opens a page from a file, takes a screenshot or dumps the
 * DOM after rendering. Each run gets a fresh profile directory and every network-facing feature off. Not finding
 * it is a failure, not a skip: {@code ./pdla test} installs it ({@code apt-get install chromium}).
 */
final class Chromium {
    private final String binary;

    private Chromium(String binary) {
        this.binary = binary;
    }

    static Chromium find() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(java.io.File.pathSeparator)) {
            for (String name : List.of("chromium", "chromium-browser")) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) return new Chromium(p.toString());
            }
        }
        throw new AssertionError("chromium is not installed: the report's browser tests need Debian's chromium package "
                + "(./pdla test installs it; by hand: apt-get install -y chromium)");
    }

    private List<String> command(Path profile, String... extra) {
        List<String> c = new ArrayList<>(List.of(binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + profile));
        c.addAll(List.of(extra));
        return c;
    }

    /** Screenshot of {@code page} in a 1400 x 4000 window. */
    void screenshot(Path page, Path png, Path work) throws IOException, InterruptedException {
        run(command(Files.createTempDirectory(work, "profile"), "--screenshot=" + png, "--window-size=1400,4000",
                page.toUri().toString()), work.resolve("screenshot.log"));
        if (!Files.isRegularFile(png)) throw new AssertionError("chromium wrote no screenshot " + png + ": " + Files.readString(work.resolve("screenshot.log")));
    }

    /** The DOM of {@code page} after Chromium parsed and rendered it. */
    String dumpDom(Path page, Path work) throws IOException, InterruptedException {
        Path out = work.resolve("dom.html");
        run(command(Files.createTempDirectory(work, "profile"), "--dump-dom", page.toUri().toString()), out);
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    private static void run(List<String> command, Path stdout) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectOutput(stdout.toFile())
                .redirectError(ProcessBuilder.Redirect.appendTo(stdout.resolveSibling(stdout.getFileName() + ".err").toFile())).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish in 120 s: " + command);
        }
        if (p.exitValue() != 0) {
            throw new AssertionError("chromium exited " + p.exitValue() + ": " + command + "\n"
                    + Files.readString(stdout.resolveSibling(stdout.getFileName() + ".err")));
        }
    }
}
