package io.pdla.hdfs;

import io.pdla.storage.StorageDriver;
import io.pdla.storage.contract.AbstractStorageDriverContractTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;

/** The driver contract suite against a real (in-process) HDFS; RANDOM_WRITE and CONCURRENT_WRITERS tests are skipped. */
@ExtendWith(SharedMiniCluster.class)
class HdfsDriverContractTest extends AbstractStorageDriverContractTest {
    private static final AtomicInteger COUNTER = new AtomicInteger();
    private static HdfsDriver driver;

    @BeforeAll
    static void connect() throws IOException {
        driver = new HdfsDriver();
        driver.mkdirs(SharedMiniCluster.cluster().uri("/contract"));
    }

    @AfterAll
    static void disconnect() throws IOException {
        driver.close();
    }

    @Override
    protected StorageDriver driver() {
        return driver;
    }

    @Override
    protected URI newFileUri(String name) {
        return SharedMiniCluster.cluster().uri("/contract/" + COUNTER.incrementAndGet() + "-" + name);
    }
}
