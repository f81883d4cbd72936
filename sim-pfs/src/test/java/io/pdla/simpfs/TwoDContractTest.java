package io.pdla.simpfs;

import io.pdla.storage.StorageDriver;
import io.pdla.storage.contract.AbstractStorageDriverContractTest;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Path;

/** The driver contract again, with a 2-D default layout whose small regions cross group boundaries often. */
class TwoDContractTest extends AbstractStorageDriverContractTest {
    @TempDir
    Path root;
    private SimPfsDriver driver;

    @Override
    protected StorageDriver driver() {
        if (driver == null) {
            try {
                io.pdla.simpfs.store.SimPfs.open(root, io.pdla.simpfs.config.SimPfsConfig.builder()
                        .defaultLayout("2d:2,stripe=1k,region=10000,space=hdd").build());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            driver = new SimPfsDriver(root);
        }
        return driver;
    }

    @Override
    protected URI newFileUri(String name) {
        return URI.create("simpfs:///two-d/" + name);
    }
}
