package io.pdla.bench.schemes;

import io.pdla.access.TraceRecord;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The matrix's options: which workloads, the IOR stride factor, --only, and the errors naming the option. */
class SchemeMatrixTest {
    static final long K = 1 << 10, M = 1 << 20;

    static List<String> names(List<SchemeComparison.WorkloadSpec> w) {
        return w.stream().map(SchemeComparison.WorkloadSpec::name).toList();
    }

    @Test
    void lanlApp2IsInTheFullMatrixAt64And128ProcessesNotInQuick() {
        List<String> full = names(SchemeMatrix.defaultMatrix(false, 16 * M));
        List<String> lanl = full.stream().filter(n -> n.startsWith("LANL App2-like")).toList();
        assertEquals(2, lanl.size(), full.toString());
        assertTrue(lanl.get(0).contains(" 64 procs") && lanl.get(1).contains(" 128 procs"), lanl.toString());
        assertTrue(names(SchemeMatrix.defaultMatrix(true, 16 * M)).stream().noneMatch(n -> n.contains("LANL")));
    }

    @Test
    void strideFactorSetsTheIorStrideOnly() {
        var o = new SchemeMatrix.Options(false, 4 * M, 3, null);
        List<SchemeComparison.WorkloadSpec> w = SchemeMatrix.defaultMatrix(o);
        List<String> ior = names(w).stream().filter(n -> n.startsWith("IOR")).toList();
        assertEquals(7, ior.size(), ior.toString());
        assertTrue(ior.get(0).contains("256k requests, stride 768k"), ior.get(0));
        assertTrue(names(w).contains("IOR fixed stride, 64 procs, 16k requests, stride 48k, 4m per proc"), names(w).toString());
        // the records follow the name: rank 1's second request one stride after its first
        Iterator<TraceRecord> it = w.get(0).read().records(1);
        TraceRecord a = it.next(), b = it.next();
        assertEquals(768 * K, b.offset() - a.offset());
        // mixed sizes and LANL keep their documented 2 x size
        assertEquals(names(SchemeMatrix.defaultMatrix(false, 4 * M)).stream().filter(n -> !n.startsWith("IOR")).toList(),
                names(w).stream().filter(n -> !n.startsWith("IOR")).toList());
        // a fractional factor rounds the stride to whole bytes
        assertEquals(384 * K, new SchemeMatrix.Options(false, M, 1.5, null).stride(256 * K));
    }

    @Test
    void onlySelectsByNameAndNoMatchListsTheWorkloads() {
        var o = new SchemeMatrix.Options(false, M, 2, Pattern.compile("lanl", Pattern.CASE_INSENSITIVE));
        assertEquals(2, SchemeMatrix.selected(o).size());
        var none = new SchemeMatrix.Options(true, M, 2, Pattern.compile("Tile"));
        var e = assertThrows(IllegalArgumentException.class, () -> SchemeMatrix.selected(none));
        assertTrue(e.getMessage().contains("--only 'Tile' matches no workload of --quick"), e.getMessage());
        assertTrue(e.getMessage().contains("IOR fixed stride, 8 procs"), "lists what there is: " + e.getMessage());
    }

    @Test
    void badOptionsNameTheOption() {
        var e = assertThrows(IllegalArgumentException.class, () -> new SchemeMatrix.Options(false, 0, 2, null));
        assertTrue(e.getMessage().contains("--per-rank") && e.getMessage().contains("was 0"), e.getMessage());
        for (double f : new double[]{0.5, Double.NaN, Double.POSITIVE_INFINITY}) {
            e = assertThrows(IllegalArgumentException.class, () -> new SchemeMatrix.Options(false, M, f, null));
            assertTrue(e.getMessage().contains("--stride-factor"), e.getMessage());
        }
    }

    @Test
    void runPrintsEveryTableAndTheSummary() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        var o = new SchemeMatrix.Options(true, M, 2, null);
        List<SchemeComparison.Table> tables = SchemeMatrix.run(o, new PrintStream(buf, true, StandardCharsets.UTF_8));
        assertEquals(1, tables.size());
        String out = buf.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains(tables.get(0).markdown()), out);
        assertTrue(out.contains("| workload | PD vs Original (read / write) |"), out);
        assertTrue(out.contains("IOR stride: 2.000 x request size"), out);
    }
}
