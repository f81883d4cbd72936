package io.pdla.catalog;

/** A shim write session on an original: which process holds it, so the scanner can end sessions of dead processes. */
public record WriterSession(String sessionId, long pid, String host, long startedMillis) {
    private static volatile String localHost;

    /** This machine's name, looked up once (a lookup can cost a DNS round trip). */
    public static String thisHost() {
        String h = localHost;
        if (h == null) {
            try {
                h = java.net.InetAddress.getLocalHost().getHostName();
            } catch (java.io.IOException e) {
                h = "localhost";
            }
            localHost = h;
        }
        return h;
    }

    /** Whether the owning process is known to be gone (only decidable on this host). */
    public boolean ownerDead() {
        return host.equals(thisHost()) && ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true);
    }
}
