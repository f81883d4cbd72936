package io.pdla.tracer.counters;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.Inflater;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Our record ids are Darshan's: checked against the name records of real Darshan logs, which the project
 * keeps beside its root ({@code ../shared/data/darshan-logs}). Missing logs fail the test rather than skip it,
 * so CI cannot pass without checking the ids.
 */
class DarshanHashTest {
    private static final Path LOGS = projectRoot().resolve("../shared/data/darshan-logs").normalize();

    /** The directory of the parent pom: surefire runs a module's tests in the module's directory. */
    private static Path projectRoot() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path pom = d.resolve("pom.xml");
            try {
                if (Files.isRegularFile(pom) && Files.readString(pom).contains("<module>tracer</module>")) return d;
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        throw new IllegalStateException("no pdla-parent pom.xml above " + Path.of("").toAbsolutePath());
    }

    /** id -> path from the name region of a format-3.41 log (little-endian; several zlib streams possible). */
    private static Map<Long, String> nameRecords(Path log) throws Exception {
        byte[] all = Files.readAllBytes(log);
        ByteBuffer h = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals("3.41", new String(all, 0, 4, StandardCharsets.US_ASCII));
        int off = (int) h.getLong(32), len = (int) h.getLong(40);
        ByteArrayOutputStream names = new ByteArrayOutputStream();
        int pos = off;
        byte[] buf = new byte[65536];
        while (pos < off + len) {
            Inflater inf = new Inflater();
            inf.setInput(all, pos, off + len - pos);
            while (!inf.finished()) {
                int n = inf.inflate(buf);
                names.write(buf, 0, n);
                if (n == 0 && inf.needsInput()) break;
            }
            pos = off + len - inf.getRemaining();
            inf.end();
        }
        ByteBuffer b = ByteBuffer.wrap(names.toByteArray()).order(ByteOrder.LITTLE_ENDIAN);
        Map<Long, String> out = new LinkedHashMap<>();
        while (b.remaining() > 8) {
            long id = b.getLong();
            int start = b.position();
            while (b.get() != 0) { }
            out.put(id, new String(names.toByteArray(), start, b.position() - start - 1, StandardCharsets.UTF_8));
        }
        return out;
    }

    @Test
    void recordIdsOfSampleLogs() throws Exception {
        assertTrue(Files.isDirectory(LOGS), "sample Darshan logs not present at " + LOGS + " (../shared/data/darshan-logs from the project root)");
        int checked = 0;
        for (String name : new String[]{"mpi-io-test-x86_64-3.4.7.darshan", "mpi-io-test-x86_64-3.5.0.darshan",
                "snyder_ior-POSIX_id1057716-202103_11-8-64415-6936117869459351096_1.darshan"}) {
            for (Map.Entry<Long, String> e : nameRecords(LOGS.resolve(name)).entrySet()) {
                assertEquals(Long.toUnsignedString(e.getKey()), Long.toUnsignedString(DarshanHash.of(e.getValue())), name + ": " + e.getValue());
                checked++;
            }
        }
        assertTrue(checked >= 6, "checked " + checked + " names");
    }
}
