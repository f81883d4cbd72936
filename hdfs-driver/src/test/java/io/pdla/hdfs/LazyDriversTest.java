package io.pdla.hdfs;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Opening local files makes only the POSIX driver: the HDFS driver (whose class, verified, loads Hadoop's) is made
 * when an hdfs: URI is asked for, or every installed scheme is listed. Seen in a fresh class loader over this test's
 * class path, as a multicore rank's own loader sees pdla: which classes it loaded is what a rank's first open costs.
 */
class LazyDriversTest {
    /** Loads pdla's and Hadoop's classes itself (child first), so its loaded set is what the calls below needed. */
    private static final class FreshLoader extends URLClassLoader {
        FreshLoader(URL[] urls) {
            super(urls, ClassLoader.getPlatformClassLoader());
        }

        boolean loaded(String name) {
            return findLoadedClass(name) != null;
        }

        Class<?> loadedClass(String name) {
            return findLoadedClass(name);
        }
    }

    @Test
    void aLocalFileMakesNoHadoopClassAnHdfsUriMakesItsDriver() throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) urls.add(new File(e).toURI().toURL());
        try (FreshLoader loader = new FreshLoader(urls.toArray(new URL[0]))) {
            Thread t = Thread.currentThread();
            ClassLoader before = t.getContextClassLoader();
            t.setContextClassLoader(loader);
            try {
                Class<?> drivers = Class.forName("io.pdla.storage.StorageDrivers", true, loader);
                Object installed = drivers.getMethod("installed").invoke(null);
                Method forUri = drivers.getMethod("forUri", URI.class);
                Object posix = forUri.invoke(installed, URI.create("file:/tmp/pdla-lazy-drivers"));
                assertEquals("io.pdla.storage.posix.PosixDriver", posix.getClass().getName());
                assertTrue(loader.loaded("io.pdla.storage.StorageDrivers"), "the fresh loader made the drivers itself");
                assertNull(loader.loadedClass("io.pdla.hdfs.HdfsDriver"), "a local file made the HDFS driver");
                assertTrue(!loader.loaded("org.apache.hadoop.conf.Configuration") && !loader.loaded("org.apache.hadoop.io.Writable"),
                        "a local file loaded Hadoop's classes");

                Object hdfs = forUri.invoke(installed, URI.create("hdfs://namenode:8020/data/f"));
                assertEquals(HdfsDriver.class.getName(), hdfs.getClass().getName());
                assertNotNull(loader.loadedClass("io.pdla.hdfs.HdfsDriver"));
                @SuppressWarnings("unchecked")
                Set<String> schemes = (Set<String>) drivers.getMethod("schemes").invoke(installed);
                assertTrue(schemes.containsAll(Set.of("file", "hdfs")), "every installed scheme once listed: " + schemes);
                assertEquals(posix, forUri.invoke(installed, URI.create("file:/tmp/other")), "one POSIX driver per loader");
            } finally {
                t.setContextClassLoader(before);
            }
        }
    }
}
