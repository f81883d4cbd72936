package io.pdla.simpfs;

import io.pdla.storage.StorageDriver;
import io.pdla.storage.contract.AbstractStorageDriverContractTest;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Path;

/** The driver contract on a root whose default layout stripes 4 KiB over all 12 servers (many boundaries). */
class SimPfsDriverContractTest extends AbstractStorageDriverContractTest {
    @TempDir
    Path root;
    private SimPfsDriver driver;

    @Override
    protected StorageDriver driver() {
        if (driver == null) {
            try {
                io.pdla.simpfs.store.SimPfs.open(root, io.pdla.simpfs.config.SimPfsConfig.builder()
                        .defaultLayout("1dh,stripe=4k,space=both").build());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            driver = new SimPfsDriver(root);
        }
        return driver;
    }

    @Override
    protected URI newFileUri(String name) {
        return URI.create("simpfs:///contract/" + name);
    }
}
