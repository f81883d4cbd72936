package io.pdla.storage.posix;

import io.pdla.storage.StorageDriver;
import io.pdla.storage.contract.AbstractStorageDriverContractTest;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Path;

class PosixDriverContractTest extends AbstractStorageDriverContractTest {
    @TempDir
    Path dir;
    private final PosixDriver driver = new PosixDriver();

    @Override
    protected StorageDriver driver() {
        return driver;
    }

    @Override
    protected URI newFileUri(String name) {
        return dir.resolve(name).toUri();
    }
}
