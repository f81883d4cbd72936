package io.pdla.storage.sieve;

import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDrivers;
import io.pdla.storage.StorageFile;

import java.net.URI;
import java.util.Map;

/**
 * The second process of {@link SievingStorageFileTest}'s two-JVM test: writes its share of interleaved
 * pieces through a sieving file. Arguments: file URI, writer id, writers, piece size, pieces, window.
 */
public final class SievedWriterMain {
    /** Both processes write their share this often, so that their writes overlap in time. */
    static final int ROUNDS = 3;

    private SievedWriterMain() {
    }

    public static void main(String[] args) throws Exception {
        URI uri = URI.create(args[0]);
        int id = Integer.parseInt(args[1]), writers = Integer.parseInt(args[2]);
        int piece = Integer.parseInt(args[3]), pieces = Integer.parseInt(args[4]);
        Map<String, String> hints = Map.of(SievingSettings.WRITE, "enable", SievingSettings.WRITE_BUFFER, args[5]);
        try (StorageFile f = SievingStorageFile.wrap(StorageDrivers.installed().forUri(uri).open(uri, OpenOptions.createReadWrite()), hints)) {
            System.out.println("ready");
            System.out.flush();
            for (int round = 0; round < ROUNDS; round++) SievingStorageFileTest.writeShare(f, id, writers, piece, pieces);
        }
        System.out.println("done " + id);
    }
}
