package io.pdla.replicator.catalog;

/** A shim write session on an original: which process holds it, so the scanner can end sessions of dead processes. */
public record WriterSession(String sessionId, long pid, String host, long startedMillis) {
    public static String thisHost() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "localhost";
        }
    }

    /** Whether the owning process is known to be gone (only decidable on this host). */
    public boolean ownerDead() {
        return host.equals(thisHost()) && ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true);
    }
}
