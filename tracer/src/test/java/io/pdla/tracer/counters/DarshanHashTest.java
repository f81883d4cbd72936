package io.pdla.tracer.counters;

import io.pdla.darshan.ExternalLogs;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.Inflater;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Our record ids are Darshan's. Known answers: record ids and paths as darshan-parser 3.5.0 prints them for the
 * example and test logs of Darshan's own repository (darshan-util/pydarshan/darshan/examples and tests/input), which
 * the Darshan runtime wrote; and, when the optional corpus of real logs is named ({@code PDLA_DARSHAN_SAMPLE_LOGS},
 * see {@link ExternalLogs}), every name record of its format-3.10+ logs.
 */
class DarshanHashTest {
    /** Record id (unsigned) and the path the runtime hashed, one per line. */
    private static final String[][] KNOWN = {
            {"6301063301082038805", "/scratch2/scratchdirs/glock/tokioabc-s.4478544/vpicio/vpicio.hdf5"},
            {"15920181672442173319", "<STDOUT>"},
            {"7238257241479193519", "<STDERR>"},
            {"10384774853006289996", "/global/cscratch1/sd/ssnyder/test123.h5"},
            {"9080082818774558450", "/global/cscratch1/sd/ssnyder/test123.h5:/Dataset-0000.0000"},
            {"10380929443101199888", "/yellow/usr/projects/eap/users/treddy/simple_dxt_mpi_io_darshan/test.out.locktest.11"},
            {"12580831639222665179", "/tmp/test/macsio-log.log"},
            {"326674217917622578", "/tmp/test/macsio-timings.log"},
            {"10140280348560446338", "/blues/gpfs/home/luettgau/darshan-decaf/testbed/spack/opt/spack/linux-centos7-broadwell/gcc-8.2.0/"
                    + "openjdk-1.8.0_202-b08-fqnnpgtjyfnarl6frohnhtv3nygn2uft/jre/lib/ext/dnsns.jar"},
    };

    @Test
    void recordIdsDarshanParserPrinted() {
        for (String[] k : KNOWN) assertEquals(k[0], Long.toUnsignedString(DarshanHash.of(k[1])), k[1]);
    }

    /** id -> path from the name region of a format 3.10+ log (little-endian; several zlib streams possible). */
    private static Map<Long, String> nameRecords(Path log) throws Exception {
        byte[] all = Files.readAllBytes(log);
        ByteBuffer h = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
        String version = new String(all, 0, 4, StandardCharsets.US_ASCII);
        // 3.41 widened the header (64 module slots): the name region's offset and length moved from byte 24 to 32
        int at = version.compareTo("3.41") >= 0 ? 32 : 24;
        int off = (int) h.getLong(at), len = (int) h.getLong(at + 8);        ByteArrayOutputStream names = new ByteArrayOutputStream();
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
    void recordIdsOfTheOptionalCorpusOfRealLogs() throws Exception {
        int checked = 0;
        for (Path log : ExternalLogs.assumeAll()) {
            byte[] head = Files.readAllBytes(log);
            String version = new String(head, 0, 4, StandardCharsets.US_ASCII);
            // 3.00 stored names with a length instead of a NUL, and a big-endian log needs swapping: this reader
            // covers the little-endian 3.10+ ones, which is what the check needs
            boolean littleEndian = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN).getLong(8) == 6567223L;
            if (version.compareTo("3.10") < 0 || !littleEndian || head[16] != 0) continue;
            // a log whose paths were anonymized (replaced after hashing) matches none of its names: left out, but a log
            // whose names match in part is a wrong hash
            List<String> wrong = new ArrayList<>();
            int right = 0;
            for (Map.Entry<Long, String> e : nameRecords(log).entrySet()) {
                if (!e.getValue().startsWith("/") && !e.getValue().startsWith("<")) continue;
                if (e.getKey() == DarshanHash.of(e.getValue())) right++;
                else wrong.add(e.getValue() + " (" + Long.toUnsignedString(e.getKey()) + ")");
            }
            if (right > 0) assertEquals(List.of(), wrong, log.getFileName() + ": ids that are not DarshanHash of their path");
            checked += right;
        }
        assertTrue(checked >= 6, "checked " + checked + " names");
    }
}
