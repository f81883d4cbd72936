package io.pdla.storage.posix;

import io.pdla.storage.StorageDriver;
import io.pdla.storage.contract.AbstractStorageDriverContractTest;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Path;

/** The contract with the native path off ({@code posix_native_io=false} by default): heap arrays through the FileChannel. */
class PosixDriverChannelContractTest extends AbstractStorageDriverContractTest {
    @TempDir
    Path dir;
    private final PosixDriver driver = new PosixDriver("false");

    @Override
    protected StorageDriver driver() {
        return driver;
    }

    @Override
    protected URI newFileUri(String name) {
        return dir.resolve(name).toUri();
    }
}
