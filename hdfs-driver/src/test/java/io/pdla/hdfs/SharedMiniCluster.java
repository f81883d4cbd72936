package io.pdla.hdfs;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One MiniDFSCluster for every test class of the run (start-up costs 6-11 s). It lives in JUnit's root
 * store, which closes it when the whole run ends; test classes reach it with {@link #cluster()}.
 * (A static holder is fine in tests: surefire runs them in one JVM, one class loader, no MPJ.)
 */
public final class SharedMiniCluster implements BeforeAllCallback {
    private static volatile MiniCluster cluster;

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(SharedMiniCluster.class, k -> new Resource(), Resource.class);
    }

    public static MiniCluster cluster() {
        if (cluster == null) throw new IllegalStateException("annotate the test class with @ExtendWith(SharedMiniCluster.class)");
        return cluster;
    }

    private static final class Resource implements ExtensionContext.Store.CloseableResource {
        Resource() {
            long t0 = System.nanoTime();
            try {
                // 2 DISK + 2 SSD DataNodes, replication 2: ALL_SSD can put every replica on SSD, HOT on DISK.
                cluster = MiniCluster.builder().diskNodes(2).ssdNodes(2).replication(2).start();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("starting MiniDFSCluster", e);
            }
            System.err.printf("MiniDFSCluster %s started in %.1f s%n", cluster.uri(), (System.nanoTime() - t0) / 1e9);
        }

        @Override
        public void close() {
            MiniCluster c = cluster;
            cluster = null;
            if (c != null) c.close();
        }
    }
}
