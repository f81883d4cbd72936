package io.pdla.cli.demo;

import io.pdla.simpfs.store.RecordedStreams;
import io.pdla.simpfs.store.SimPfs;
import io.pdla.simpfs.timing.ServerStats;
import io.pdla.simpfs.timing.SimResult;
import io.pdla.simpfs.timing.TimingEngine;

import java.nio.file.Path;
import java.util.Locale;

/**
 * Replays each pass an {@link IterativeReader} recorded on sim-pfs ({@code record=SESSION}) on sim-pfs's timing
 * engine, each pass by itself on a fresh engine (the passes are separated by barriers in the job, so none overlaps
 * the next), and prints its virtual time: {@code SIMTIME pass P seconds=T bytes=B requests=N hddBytes=H ssdBytes=S
 * files=F}. {@code hddBytes}/{@code ssdBytes} say which servers served the pass (the original's HServers or a
 * replica's servers). The streams name the files they touched (original and replicas), which must still exist.
 *
 * <p>Arguments: sim-pfs root, session, passes.
 */
public final class SimPassTimes {
    private SimPassTimes() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: SimPassTimes SIMPFS_ROOT SESSION PASSES");
            System.exit(2);
        }
        SimPfs fs = SimPfs.open(Path.of(args[0]), null);
        int passes = Integer.parseInt(args[2]);
        for (int p = 1; p <= passes; p++) {
            SimResult r = replay(fs, passSession(args[1], p));
            long hdd = 0, ssd = 0;
            for (ServerStats s : r.servers()) {
                if (s.kind().equalsIgnoreCase("ssd")) ssd += s.bytesRead(); else hdd += s.bytesRead();
            }
            System.out.printf(Locale.ROOT, "SIMTIME pass %d seconds=%.6f bytes=%d requests=%d hddBytes=%d ssdBytes=%d workload=%s%n",
                    p, r.elapsedSeconds(), r.bytesRead(), r.requests(), hdd, ssd, r.workload());
        }
    }

    /** The sim-pfs session pass {@code p} of a reader run with {@code record=SESSION} records into (no MPJ class here). */
    public static String passSession(String session, int p) {
        return session + "-pass-" + p;
    }

    /** One recorded session's virtual time on the root's own configuration. */
    public static SimResult replay(SimPfs fs, String session) throws java.io.IOException {
        return new TimingEngine(fs.config()).run(RecordedStreams.load(fs, session));
    }
}
