package io.pdla.costmodel.benefit;

import io.pdla.costmodel.AccessPattern;
import io.pdla.costmodel.LayoutChoice;
import io.pdla.costmodel.RequestBatch;

/**
 * Bytes a replica occupies on the fullest SServer, the {@code s_pat} that Algorithm 1 compares with the free
 * space of one SServer [V, S1 Algorithm 1]. How to compute it is not published [R]: per round,
 * 1-DH puts {@code p*s/n_s} on each server, 1-DV {@code ceil(p/n_s)*s} on the fullest one, 2-D
 * {@code ceil(p/g)*s/ceil(n_s/g)}, and a hybrid replica {@code p*s_s}.
 *
 * <p>Here {@code p} counts the processes whose data the replica holds, not the processes that run: a global pattern's
 * replica holds all {@code p} ranks' data, a local pattern's replica one rank's, however many ranks run alongside
 * (the timing model still sees them all). Charging a local replica for every rank over-counted its space p-fold
 * (at 512 MiB per process, 8 of 64 Tile-IO replicas got SSD space instead of all).
 */
public final class SServerSpace {

    private SServerSpace() {
    }

    /** A replica holding the data of all the pattern's processes (a global pattern). */
    public static long bytesPerSServer(AccessPattern pattern, ReplicaSpace space, LayoutChoice layout,
                                       int sServers, double sServerStripe) {
        return bytesPerSServer(pattern, pattern.processes(), space, layout, sServers, sServerStripe);
    }

    /** A replica holding the data of {@code dataProcesses} of the pattern's processes (1 for a local pattern). */
    public static long bytesPerSServer(AccessPattern pattern, int dataProcesses, ReplicaSpace space, LayoutChoice layout,
                                       int sServers, double sServerStripe) {
        if (dataProcesses < 1 || dataProcesses > pattern.processes()) {
            throw new IllegalArgumentException("dataProcesses must be 1.." + pattern.processes() + " (the pattern's processes), was " + dataProcesses);
        }
        int p = dataProcesses;
        double total = 0;
        for (RequestBatch b : pattern.batches()) {
            double perRound;
            if (space == ReplicaSpace.HSERVERS_PLUS_SSERVERS) {
                perRound = p * sServerStripe;
            } else {
                switch (layout.layout()) {
                    case ONE_DH: perRound = (double) p * b.size() / sServers; break;
                    case ONE_DV: perRound = ceilDiv(p, sServers) * (double) b.size(); break;
                    default:
                        perRound = ceilDiv(p, layout.groups()) * (double) b.size() / ceilDiv(sServers, layout.groups());
                        break;
                }
            }
            total += perRound * b.count();
        }
        return (long) Math.ceil(total);
    }

    /**
     * [R, our extension] A request-aligned hybrid replica ({@code PatternBenefit#hybridRequestAligned}): stripe = the
     * request size s on every one of the {@code servers = n_h + n_s} servers, dealt round-robin. Per batch the replica
     * is {@code dataProcesses * count} stripes of s, and the fullest server holds {@code ceil(stripes / servers)} of
     * them. (The LP hybrid's {@code p*s_s} per round would charge it s per request, n times too much.)
     */
    public static long bytesPerSServerRequestAligned(AccessPattern pattern, int dataProcesses, int servers) {
        if (dataProcesses < 1 || dataProcesses > pattern.processes()) {
            throw new IllegalArgumentException("dataProcesses must be 1.." + pattern.processes() + " (the pattern's processes), was " + dataProcesses);
        }
        if (servers < 1) {
            throw new IllegalArgumentException("servers (n_h + n_s) must be > 0, was " + servers);
        }
        long total = 0;
        for (RequestBatch b : pattern.batches()) {
            long stripes = Math.multiplyExact((long) dataProcesses, b.count());
            total = Math.addExact(total, Math.multiplyExact(ceilDiv(stripes, servers), b.size()));
        }
        return total;
    }

    private static long ceilDiv(long x, long y) {
        return (x + y - 1) / y;
    }
}
