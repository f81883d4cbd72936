package io.pdla.storage.posix;

import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageFile;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Run by {@link NativeIoFallbackTest} in a child JVM whose classes lack the library: two handles write and read
 * a file through the driver and print whether the native path is loaded and whether the bytes came back.
 */
public final class NativeIoFallbackMain {
    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        byte[] data = new byte[100_000];
        for (int i = 0; i < data.length; i++) data[i] = (byte) (i * 7);
        PosixDriver driver = new PosixDriver();
        try (StorageFile f = driver.open(file.toUri(), OpenOptions.createReadWrite())) {
            f.write(5, ByteBuffer.wrap(data));
        }
        byte[] back = new byte[data.length];
        try (StorageFile f = driver.open(file.toUri(), OpenOptions.readWrite())) {
            f.read(5, ByteBuffer.wrap(back));
            System.out.println("native=" + ((PosixFile) f).nativeIo());
        }
        System.out.println("available=" + NativePosix.available());
        System.out.println("bytes " + (Arrays.equals(data, back) ? "equal" : "differ"));
    }
}
