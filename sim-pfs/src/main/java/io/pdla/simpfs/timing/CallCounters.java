package io.pdla.simpfs.timing;

import java.util.Arrays;

/**
 * Per-server counts for each call of a run (a call ends where every live rank has passed a barrier, which is
 * how replayed streams mark collective calls): extent-lock conflicts and the distinct clients served. Folded
 * into per-run maxima and means when the call ends, so a run of many calls keeps O(servers) state.
 */
final class CallCounters {
    private final int servers;
    private final long[] callConflicts, conflicts, maxConflicts;
    private final int[] callClients, maxClients, callsTouched;
    private final long[] clientSum;
    /** seen[s][client] = the call number in which the client last sent server s a request. */
    private int[][] seen;
    private int call;
    private long callsWithIo;
    private boolean ioInCall;

    CallCounters(int servers) {
        this.servers = servers;
        callConflicts = new long[servers];
        conflicts = new long[servers];
        maxConflicts = new long[servers];
        callClients = new int[servers];
        maxClients = new int[servers];
        callsTouched = new int[servers];
        clientSum = new long[servers];
    }

    void startRun(int clients) {
        seen = new int[servers][clients];
        call = 1;
        callsWithIo = 0;
        ioInCall = false;
        Arrays.fill(conflicts, 0);
        Arrays.fill(maxConflicts, 0);
        Arrays.fill(maxClients, 0);
        Arrays.fill(callsTouched, 0);
        Arrays.fill(clientSum, 0);
        Arrays.fill(callConflicts, 0);
        Arrays.fill(callClients, 0);
    }

    void served(int server, int client) {
        ioInCall = true;
        if (seen[server][client] != call) {
            seen[server][client] = call;
            callClients[server]++;
        }
    }

    void conflicts(int server, int count) {
        callConflicts[server] += count;
    }

    void endCall() {
        if (!ioInCall) return;
        for (int s = 0; s < servers; s++) {
            conflicts[s] += callConflicts[s];
            maxConflicts[s] = Math.max(maxConflicts[s], callConflicts[s]);
            if (callClients[s] > 0) {
                callsTouched[s]++;
                clientSum[s] += callClients[s];
                maxClients[s] = Math.max(maxClients[s], callClients[s]);
            }
            callConflicts[s] = 0;
            callClients[s] = 0;
        }
        callsWithIo++;
        call++;
        ioInCall = false;
    }

    long calls() {
        return callsWithIo;
    }

    long conflicts(int server) {
        return conflicts[server];
    }

    long maxConflictsPerCall(int server) {
        return maxConflicts[server];
    }

    int maxClientsPerCall(int server) {
        return maxClients[server];
    }

    double meanClientsPerCall(int server) {
        return callsTouched[server] == 0 ? 0 : (double) clientSum[server] / callsTouched[server];
    }
}
