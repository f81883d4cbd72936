package io.pdla.size;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ByteSizeTest {

    @ParameterizedTest
    @CsvSource({
            "0, 0", "65536, 65536", "16k, 16384", "16K, 16384", "16kb, 16384", "16kB, 16384", "16KiB, 16384",
            "'16 KiB', 16384", "' 4m ', 4194304", "4MiB, 4194304", "1g, 1073741824", "1GB, 1073741824",
            "1t, 1099511627776", "1TiB, 1099511627776", "1536B, 1536", "1536 b, 1536"})
    void readsEveryFormOfTheGrammar(String text, long bytes) {
        assertEquals(bytes, ByteSize.parse(text, "--size"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "k", "-1", "-4k", "1.5m", "4x", "4 k b", "ib", "4ib", "4kk", "1p", "0x10", "9223372036854775808",
            "8388608t", "16 KiB extra"})
    void rejectsWhatIsNotASizeNamingTheSourceAndTheText(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ByteSize.parse(text, "hint pdla_readahead_bytes"));
        assertTrue(e.getMessage().startsWith("hint pdla_readahead_bytes: "), e.getMessage());
        if (!text.isBlank()) assertTrue(e.getMessage().contains("'" + text + "'"), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource({"4194304,4m", "49152,48k", "1536,1536", "1000,1000", "68719476736,65536m", "0,0"})
    void theBenchmarksShortFormUsesKAndMAndParsesBack(long bytes, String text) {
        assertEquals(text, ByteSize.formatIorStyle(bytes));
        assertEquals(bytes, ByteSize.parse(text, "short form"));
    }

    @Test
    void theLargestSizesStillFitWithoutOverflow() {
        assertEquals(8388607L << 40, ByteSize.parse("8388607t", "x"));
        assertEquals(Long.MAX_VALUE, ByteSize.parse(Long.toString(Long.MAX_VALUE), "x"));
    }

    @Test
    void aMissingTextTakesTheFallback() {
        assertEquals(7, ByteSize.parse(null, "x", 7));
        assertEquals(7, ByteSize.parse(" ", "x", 7));
        assertEquals(2048, ByteSize.parse("2k", "x", 7));
    }

    @ParameterizedTest
    @CsvSource({"0, 0B", "1, 1B", "1536, 1536B", "1024, 1KiB", "65536, 64KiB", "4194304, 4MiB", "3221225472, 3GiB",
            "1099511627776, 1TiB", "1125899906842624, 1024TiB", "-4096, -4KiB", "-7, -7B"})
    void formatsWithTheLargestExactUnit(long bytes, String text) {
        assertEquals(text, ByteSize.format(bytes));
    }

    @Test
    void whatFormatPrintsParsesBack() {
        long seed = new Random().nextLong();
        Random r = new Random(seed);
        for (int i = 0; i < 10_000; i++) {
            long bytes = (r.nextLong() >>> 1) >>> r.nextInt(63);
            bytes <<= r.nextInt(Long.numberOfLeadingZeros(bytes | 1));
            bytes &= Long.MAX_VALUE;
            assertEquals(bytes, ByteSize.parse(ByteSize.format(bytes), "x"), "seed " + seed + ", bytes " + bytes);
        }
    }

    @Command
    static final class SizedCommand {
        @Option(names = "--stripe", converter = ByteSizeConverter.class)
        long stripe;
    }

    @Test
    void theConverterReadsOptionsAndNamesTheOptionInItsError() {
        SizedCommand c = new SizedCommand();
        new CommandLine(c).parseArgs("--stripe", "64KiB");
        assertEquals(65536, c.stripe);
        CommandLine.ParameterException e = assertThrows(CommandLine.ParameterException.class,
                () -> new CommandLine(new SizedCommand()).parseArgs("--stripe", "64q"));
        assertTrue(e.getMessage().contains("'--stripe'") && e.getMessage().contains("'64q' is not a size"), e.getMessage());
    }
}
