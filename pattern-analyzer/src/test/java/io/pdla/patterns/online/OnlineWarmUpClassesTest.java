package io.pdla.patterns.online;

import org.junit.jupiter.api.Test;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A rank's warm-up with online PDLA on loads the classes a pass's matching and its hand-off make on the rank's thread
 * otherwise: the interceptor's, and the hand-off's record, made at the file's hand-off in the middle of pass 2. Run in
 * a class loader of its own, as a rank of a multicore job has, so that what this JVM loaded before does not count.
 */
class OnlineWarmUpClassesTest {
    /** A loader of this JVM's class path that loads every class itself and tells which it loaded. */
    static final class OwnLoader extends URLClassLoader {
        OwnLoader() {
            super(classPath(), ClassLoader.getPlatformClassLoader());
        }

        boolean loaded(String name) {
            return findLoadedClass(name) != null;
        }

        private static URL[] classPath() {
            List<URL> urls = new ArrayList<>();
            for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
                try {
                    urls.add(java.nio.file.Path.of(e).toUri().toURL());
                } catch (java.net.MalformedURLException bad) {
                    throw new IllegalStateException("class path entry " + e, bad);
                }
            }
            return urls.toArray(URL[]::new);
        }
    }

    @Test
    void theWarmUpLoadsTheHandOffsRecordBeforeAnyPass() throws Exception {
        String record = PassRecord.class.getName();
        String before = System.getProperty("pdla.online");
        System.setProperty("pdla.online", "true");
        try (OwnLoader rank = new OwnLoader()) {
            Class<?> provider = Class.forName(OnlineProvider.class.getName(), true, rank);
            assertFalse(rank.loaded(record), "nothing loaded the record yet in this loader");
            provider.getMethod("warmUp").invoke(provider.getConstructor().newInstance());
            assertTrue(rank.loaded(record), "the warm-up loaded the hand-off's record");
            assertTrue(rank.loaded(OnlineInterceptor.class.getName()) && rank.loaded(SpoolWriter.class.getName()),
                    "and the interceptor's classes, as before");
        } finally {
            if (before == null) System.clearProperty("pdla.online");
            else System.setProperty("pdla.online", before);
        }
    }
}
