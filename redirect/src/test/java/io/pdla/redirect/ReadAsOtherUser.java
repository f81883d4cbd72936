package io.pdla.redirect;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Child JVM of {@link ReplicaSecurityTest}, run as the second user: {@code direct REPLICA} reads a replica file
 * directly; {@code redirect CATALOG ORIGINAL OFFSET LENGTH} reads through the redirect layer. Prints one line:
 * {@code READ <sha-256>} / {@code DENIED <reason>}, and for redirect the counters.
 */
public final class ReadAsOtherUser {
    public static void main(String[] args) throws Exception {
        try {
            if (args[0].equals("direct")) {
                byte[] b = Files.readAllBytes(Path.of(args[1]));
                System.out.println("READ " + sha(b));
            } else {
                RedirectInterceptor r = new RedirectInterceptor(RedirectConfig.from(Map.of()).withCatalog(Path.of(args[1])));
                try (ChainFile f = new ChainFile(Path.of(args[2]).toUri(), "app", 1, 0, Map.of(), List.of(r), true)) {
                    byte[] b = f.read(Long.parseLong(args[3]), Integer.parseInt(args[4]));
                    System.out.println("READ " + sha(b) + " fromReplica=" + r.stats().readsFromReplica.get() + " refused=" + r.stats().replicasRefused.get());
                }
            }
        } catch (java.nio.file.AccessDeniedException e) {
            System.out.println("DENIED " + e.getMessage());
        } catch (java.io.IOException e) {
            System.out.println("DENIED " + e);
        }
        System.exit(0);
    }

    static String sha(byte[] b) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(b));
    }
}
