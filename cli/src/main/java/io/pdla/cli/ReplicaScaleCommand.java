package io.pdla.cli;

import io.pdla.bench.replica.ReplicaScale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code pdla bench replica-scale}: the catalog's cost at open and per write, versus replica count and ranks. */
@Command(name = "replica-scale", mixinStandardHelpOptions = true,
        description = "Catalog cost versus replicas of a file (lookup at open, bytes shared, a write's claim search indexed vs scanned) "
                + "and versus ranks (collective open through redirect vs every rank looking the catalog up).",
        footer = {"", "Example: pdla bench replica-scale --replicas 1,10,100,1000 -np 4,16,64 --out bench/RESULTS-replica-table.md", ""})
final class ReplicaScaleCommand implements Callable<Integer> {
    @Option(names = "--replicas", split = ",", paramLabel = "N", description = "Replica entries of the file. Default: 1,10,100,1000.")
    int[] replicas = {1, 10, 100, 1000};

    @Option(names = "-np", split = ",", paramLabel = "P", description = "MPJ job sizes; empty (-np '') skips the jobs. Default: 4,16,64.")
    int[] ranks = {4, 16, 64};

    @Option(names = "--job-replicas", paramLabel = "N", description = "Replica entries of the file the jobs open. Default: 64.")
    int jobReplicas = 64;

    @Option(names = "--reps", paramLabel = "R", description = "Repetitions per point (medians are reported). Default: 5.")
    int reps = 5;

    @Option(names = "--dev", defaultValue = "multicore", description = "MPJ device: multicore or niodev. Default: ${DEFAULT-VALUE}.")
    String device;

    @Option(names = "--out", paramLabel = "FILE", description = "Also write the tables to FILE.")
    Path out;

    @Override
    public Integer call() throws Exception {
        for (int n : replicas) if (n < 1) return bad("--replicas: every count must be >= 1, got " + n);
        for (int p : ranks) if (p < 1) return bad("-np: every job size must be >= 1, got " + p);
        if (reps < 1) return bad("--reps must be >= 1, got " + reps);
        if (jobReplicas < 1) return bad("--job-replicas must be >= 1, got " + jobReplicas);
        List<ReplicaScale.ReplicaRow> byReplicas = ReplicaScale.versusReplicas(replicas, reps);
        List<ReplicaScale.RankRow> byRanks = ReplicaScale.versusRanks(ranks, jobReplicas, reps, device, 1800);
        String table = ReplicaScale.table(byReplicas, byRanks);
        System.out.print(table);
        if (out != null) Files.writeString(out, table);
        return 0;
    }

    private static int bad(String message) {
        System.err.println("pdla bench replica-scale: " + message);
        return 2;
    }
}
