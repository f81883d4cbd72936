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

/**
 * The driver contract on a fresh sim-pfs root formatted with one default layout. Each subclass is one line
 * naming a layout whose boundaries the contract's transfers cross often.
 */
abstract class SimPfsContractTest extends AbstractStorageDriverContractTest {
    @TempDir
    Path root;
    private final String defaultLayout;
    private SimPfsDriver driver;

    SimPfsContractTest(String defaultLayout) {
        this.defaultLayout = defaultLayout;
    }

    @Override
    protected StorageDriver driver() {
        if (driver == null) {
            try {
                SimPfs.open(root, SimPfsConfig.builder().defaultLayout(defaultLayout).build());
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
