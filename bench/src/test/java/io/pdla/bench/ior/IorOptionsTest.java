package io.pdla.bench.ior;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IorOptionsTest {
    private static IorOptions parse(String line) {
        return IorOptions.parse(line.isBlank() ? List.of() : List.of(line.trim().split("\\s+")));
    }

    @Test
    void iorLettersHaveIorMeanings() {
        IorOptions o = parse("-a MPIIO -c -b 16k -t 4k -s 2048 -F -w -r -C -e -i 3 -d 2 -o /tmp/x -R -k --json out.json");
        assertEquals(IorOptions.Api.MPIIO, o.api());
        assertTrue(o.collective());
        assertEquals(16 * 1024, o.blockSize());
        assertEquals(4 * 1024, o.transferSize());
        assertEquals(2048, o.segments());
        assertTrue(o.filePerProcess() && o.write() && o.read() && o.reorder() && o.fsync() && o.verify() && o.keep());
        assertEquals(3, o.iterations());
        assertEquals(2, o.phaseDelay());
        assertEquals("/tmp/x", o.path());
        assertEquals("out.json", o.json());
        assertEquals(4, o.transfersPerBlock());
        assertTrue(o.baseline());
    }

    @Test
    void defaultsFollowIor() {
        IorOptions o = parse("");
        assertTrue(o.write() && o.read(), "neither -w nor -r means both");
        assertEquals(1L << 20, o.blockSize());
        assertEquals(256L << 10, o.transferSize());
        assertEquals(1, o.segments());
        assertEquals(1, o.iterations());
        assertEquals(0, o.phaseDelay());
        assertEquals(IorOptions.Api.MPIIO, o.api());
        assertFalse(o.collective() || o.filePerProcess() || o.reorder() || o.verify() || o.keep());
    }

    @Test
    void clusteredFlagsAndAttachedValues() {
        IorOptions o = parse("-wrR -b64m -t1m");
        assertTrue(o.write() && o.read() && o.verify());
        assertFalse(o.filePerProcess());
        assertEquals(64L << 20, o.blockSize());
        assertEquals(1L << 20, o.transferSize());
    }

    @Test
    void writeOnlyAndPosixApi() {
        IorOptions o = parse("-w -a posix");
        assertTrue(o.write());
        assertFalse(o.read());
        assertEquals(IorOptions.Api.POSIX, o.api());
        assertFalse(o.baseline(), "POSIX is itself the baseline");
        assertFalse(parse("--no-baseline").baseline());
    }

    @ParameterizedTest
    @CsvSource({"17,17", "1k,1024", "1K,1024", "3m,3145728", "2g,2147483648", "64M,67108864", "64MiB,67108864"})
    void sizeOptionsTakeTheCoreGrammar(String text, long bytes) {
        assertEquals(bytes, parse("-b " + text + " -t 1").blockSize());
    }

    @ParameterizedTest
    @CsvSource({"'-b 16q', -b", "'-t abc', -t", "'-b k', -b", "'-s x', -s", "'-a HDF5', -a", "'-i two', -i",
            "'-b 16k -t 3k', -t", "'-s 0', -s", "'-i 0', -i", "'-t 0', -t", "'-t 2g -b 2g', -t", "'-r -b 99999999999999999999', -b",
            "'-w -C', -C", "'-w -R', -R", "'-a POSIX -c', -c", "'-a POSIX -V', -V", "'-Z', -Z", "'-b', -b", "'--warmup -1', --warmup", "'-d -1', -d", "'-d soon', -d"})
    void badInputNamesTheOption(String line, String option) {
        IorOptions.BadOptionException e = assertThrows(IorOptions.BadOptionException.class, () -> parse(line));
        assertTrue(e.getMessage().contains("'" + option + "'") || e.getMessage().contains(option + " "),
                "message should name " + option + ": " + e.getMessage());
    }

    @Test
    void sizeErrorsSayWhatIsWrong() {
        IorOptions.BadOptionException e = assertThrows(IorOptions.BadOptionException.class, () -> parse("-b 16q"));
        assertTrue(e.getMessage().contains("'16q' is not a size"), e.getMessage());
        IorOptions.BadOptionException d = assertThrows(IorOptions.BadOptionException.class, () -> parse("-b 16k -t 3k"));
        assertTrue(d.getMessage().contains("multiple"), d.getMessage());
    }
}
