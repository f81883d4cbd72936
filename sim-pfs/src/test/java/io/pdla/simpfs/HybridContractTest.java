package io.pdla.simpfs;

import io.pdla.simpfs.config.SimPfsConfig;
import io.pdla.simpfs.store.SimPfs;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.contract.AbstractStorageDriverContractTest;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;

/** The driver contract with a hybrid layout with unequal strips on HServers and SServers. */
class HybridContractTest extends AbstractStorageDriverContractTest {
    @TempDir
    Path root;
    private SimPfsDriver driver;

    @Override
    protected StorageDriver driver() {
        if (driver == null) {
            try {
                SimPfs.open(root, SimPfsConfig.builder().defaultLayout("hybrid,sh=1000,ss=3000").build());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
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
