package io.pdla.bench.replica;

import io.pdla.catalog.CatalogAccesses;
import io.pdla.catalog.FileLookup;
import io.pdla.mpiio.File;
import io.pdla.mpiio.MPIIO;
import io.pdla.redirect.RedirectStats;
import io.pdla.storage.StorageDrivers;
import mpi.MPI;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The MPJ side of {@code pdla bench replica-scale}: every rank opens and closes the replicated file through the
 * shim with redirect loaded (the collective lookup: one rank reads the catalog), then, in the same run, every
 * rank looks the file up in the catalog itself (what each rank's open cost before). Each phase is timed by
 * barrier, clock, barrier; rank 0 writes the medians (ms) and the catalog lookups all ranks made.
 * Arguments: original file, catalog directory, repetitions, result file.
 */
public final class ReplicaOpenJob {
    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        String file = args[0];
        Path catalog = Path.of(args[1]);
        int reps = Integer.parseInt(args[2]);
        int rank = MPI.COMM_WORLD.Rank(), np = MPI.COMM_WORLD.Size();
        URI uri = Path.of(file).toUri();
        double[] collective = new double[reps], everyRank = new double[reps];
        for (int i = 0; i < reps; i++) {
            // every open a first look-up, as before the change stamp: the rows stay comparable with earlier figures,
            // where a job reopening a file unchanged since would reuse its last look-up (io.pdla.catalog.StampedLookups)
            io.pdla.catalog.StampedLookups.clear();
            MPI.COMM_WORLD.Barrier();
            long t0 = System.nanoTime();
            new File(MPI.COMM_WORLD, file, MPIIO.MODE_RDONLY).close();
            MPI.COMM_WORLD.Barrier();
            collective[i] = (System.nanoTime() - t0) / 1e6;
        }
        for (int i = 0; i < reps; i++) {
            MPI.COMM_WORLD.Barrier();
            long t0 = System.nanoTime();
            FileLookup.read(CatalogAccesses.forDir(catalog, 600_000), StorageDrivers.installed().forUri(uri), uri, p -> { });
            MPI.COMM_WORLD.Barrier();
            everyRank[i] = (System.nanoTime() - t0) / 1e6;
        }
        long[] lookups = {RedirectStats.global().catalogLookups.get()}, total = new long[1];
        MPI.COMM_WORLD.Reduce(lookups, 0, total, 0, 1, MPI.LONG, MPI.SUM, 0);
        if (rank == 0) {
            Files.writeString(Path.of(args[3]), np + " " + ReplicaScale.median(collective) + " " + ReplicaScale.median(everyRank) + " " + total[0] / (double) reps + "\n");
        }
        MPI.Finalize();
    }
}
