package io.pdla.intercept;

import io.pdla.testing.fuzz.Bounded;
import io.pdla.testing.fuzz.Mutation;
import io.pdla.testing.fuzz.Mutations;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The file named by {@code PDLA_CONFIG} (Java properties, key {@code interceptors=}), damaged: the chain is
 * configured or an {@link IllegalArgumentException} names the file (the shim turns it into ERR_ARG at open);
 * never another exception, never a hang.
 */
class ConfigFileFuzzTest {
    private static final String VALID = "# pdla configuration\ninterceptors = none\n# interceptors=tracer,redirect\n";

    @Provide
    Arbitrary<Mutation> damage() {
        Arbitrary<Mutation> text = Arbitraries.of("\\u12", "\\uZZZZ", "\\", "\u0000", "interceptors=,,,", "interceptors=no-such",
                        "interceptors=\\u0041", "\ninterceptors", "=\n=", "\r\r\n", "\uFFFF\uD800")
                .map(s -> new Mutation("text", "insert " + s.replace("\n", "\\n"), b -> {
                    byte[] ins = s.getBytes(StandardCharsets.UTF_8);
                    byte[] out = java.util.Arrays.copyOf(b, b.length + ins.length);
                    System.arraycopy(ins, 0, out, b.length, ins.length);
                    return out;
                }));
        return Arbitraries.oneOf(Mutations.some(ByteOrder.BIG_ENDIAN), text);
    }

    @Property(tries = 400)
    void aDamagedConfigFileConfiguresOrNamesTheFile(@ForAll("damage") Mutation m) throws Exception {
        Path dir = Files.createTempDirectory("pdla-config-fuzz");
        Path file = dir.resolve("pdla.conf");
        byte[] bytes = m.apply(VALID.getBytes(StandardCharsets.UTF_8));
        Files.write(file, bytes);
        String key = Environment.PROPERTY_PREFIX + Interceptors.ENV_CONFIG;
        String before = System.getProperty(key);
        System.setProperty(key, file.toString());
        try {
            Bounded.Outcome<List<IoInterceptorProvider>> o = Bounded.run(bytes.length, () -> new Interceptors().configured(Map.of()));
            if (o.failed()) {
                assertInstanceOf(IllegalArgumentException.class, o.error(), Bounded.describe(o.error()));
                assertTrue(o.error().getMessage().contains(file.toString()), "the message names the file: " + o.error().getMessage());
                Statistics.label("outcome").collect("rejected naming the file");
            } else {
                Statistics.label("outcome").collect("configured");
            }
            Statistics.label("mutation").collect(m.kind());
        } finally {
            if (before == null) System.clearProperty(key);
            else System.setProperty(key, before);
            Files.deleteIfExists(file);
            Files.delete(dir);
        }
    }
}
