package io.pdla.mpiio.collective;

import io.pdla.collective.RankExchange;
import io.pdla.collective.TwoPhaseEngine;
import io.pdla.intercept.InterceptorChain;
import io.pdla.storage.StorageFile;
import mpi.MPI;
import mpi.MPIException;

import java.io.IOException;
import java.util.Arrays;
import java.util.Map;

/** Builds a file's two-phase engine at open: names the ranks' hosts (through MPJ), then {@link TwoPhaseEngine#of}. */
public final class CollectiveSetup {
    private CollectiveSetup() {
    }

    /**
     * Collective over the file's ranks (ranks in other JVMs exchange host names). Throws
     * IllegalArgumentException naming the hint when a collective-buffering hint is invalid.
     */
    public static TwoPhaseEngine engine(RankExchange exchange, Map<String, String> hints, StorageFile storage, InterceptorChain chain) throws IOException {
        long[] hostOfRank = new long[exchange.size()];
        // ranks sharing memory share the host; its id is needed to match cb_config_list's host names
        if (!exchange.sharesMemory()) hostOfRank = exchange.allgather(new long[]{hostId()});
        else Arrays.fill(hostOfRank, hostId());
        return TwoPhaseEngine.of(exchange, hints, storage, chain, hostOfRank);
    }

    /**
     * This rank's host, named once: MPJ's Get_processor_name resolves the local host name (InetAddress.getLocalHost,
     * cached by the JDK for 5 s only, then a name-service lookup) and every open asks. Static is per rank (each
     * multicore rank loads pdla itself), and a rank never changes hosts.
     */
    private static volatile Long hostIdOfThisRank;

    private static long hostId() throws IOException {
        Long known = hostIdOfThisRank;
        if (known != null) return known;
        try {
            long id = MPI.Get_processor_name().hashCode();
            hostIdOfThisRank = id;
            return id;
        } catch (MPIException e) {
            throw new IOException("collective buffering: cannot name this rank's host: " + e.getMessage(), e);
        }
    }
}
