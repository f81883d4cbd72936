package io.pdla.hosts;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * Run on a test host by the hosts tests: {@code serve PORT} accepts one connection, counts its bytes and exits;
 * {@code send HOST PORT BYTES} connects (at most 5 s), sends BYTES and prints {@code SENT bytes nanos};
 * {@code whoami} prints the hostname Java sees and what that name resolves to; {@code support} prints whether this
 * process could make hosts, and if not why.
 */
public final class Probe {
    public static void main(String[] a) throws Exception {
        switch (a[0]) {
            case "serve" -> {
                try (ServerSocket ss = new ServerSocket()) {
                    ss.bind(new InetSocketAddress(Integer.parseInt(a[1])));
                    System.out.println("LISTENING");
                    System.out.flush();
                    ss.setSoTimeout(60_000);
                    try (Socket s = ss.accept(); InputStream in = s.getInputStream()) {
                        byte[] buf = new byte[65536];
                        long n = 0;
                        for (int r; (r = in.read(buf)) > 0; ) n += r;
                        System.out.println("RECEIVED " + n);
                    }
                }
            }
            case "send" -> {
                long bytes = Long.parseLong(a[3]);
                try (Socket s = new Socket()) {
                    long t0 = System.nanoTime();
                    s.connect(new InetSocketAddress(a[1], Integer.parseInt(a[2])), 5000);
                    OutputStream out = s.getOutputStream();
                    byte[] buf = new byte[65536];
                    for (long left = bytes; left > 0; left -= buf.length) out.write(buf, 0, (int) Math.min(buf.length, left));
                    out.flush();
                    s.shutdownOutput();
                    s.getInputStream().read();   // the server closes after counting: the bytes crossed the link
                    System.out.println("SENT " + bytes + " " + (System.nanoTime() - t0));
                } catch (java.io.IOException e) {
                    System.out.println("FAILED " + e.getMessage());
                }
            }
            case "whoami" -> {
                String name = InetAddress.getLocalHost().getHostName();
                System.out.println("NAME " + name + " " + InetAddress.getByName(name).getHostAddress());
            }
            case "netns" -> System.out.println("NETNS " + NamespaceHosts.currentNamespace());
            case "support" -> {
                try {
                    NamespaceHosts.checkSupport();
                    System.out.println("SUPPORTED");
                } catch (IllegalStateException e) {
                    System.out.println("UNSUPPORTED " + e.getMessage());
                }
            }
            default -> throw new IllegalArgumentException(a[0]);
        }
    }
}
