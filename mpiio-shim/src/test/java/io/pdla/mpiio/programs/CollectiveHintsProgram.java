package io.pdla.mpiio.programs;

import io.pdla.mpiio.Datatypes;
import io.pdla.mpiio.ErrorClass;
import io.pdla.mpiio.File;
import io.pdla.mpiio.FileType;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import io.pdla.mpiio.MPIIOException;
import mpi.MPI;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Collective-buffering hints: effective values in getInfo, invalid values refused naming the key, setInfo
 * changing the aggregators, and ordered (shared-pointer) collective writes through two-phase equal to the
 * same writes without it. Arg: directory.
 */
public final class CollectiveHintsProgram {
    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Path dir = Path.of(args[0]);
        int rank = MPI.COMM_WORLD.Rank(), np = MPI.COMM_WORLD.Size();
        Checks checks = new Checks();
        checks.check("getInfo reports effective collective hints", () -> {
            File f = new File(MPI.COMM_WORLD, dir.resolve("info").toString(), MPIIO.MODE_CREATE | MPIIO.MODE_RDWR);
            Map<String, String> info = f.getInfo().asMap();
            Checks.expect("automatic".equals(info.get("romio_cb_read")), "romio_cb_read " + info.get("romio_cb_read"));
            Checks.expect("automatic".equals(info.get("romio_cb_write")), "romio_cb_write " + info.get("romio_cb_write"));
            Checks.expect("16777216".equals(info.get("cb_buffer_size")), "cb_buffer_size " + info.get("cb_buffer_size"));
            // neither cb_nodes nor cb_config_list: every rank a candidate, each call sized by pdla_bytes_per_aggregator
            Checks.expect(String.valueOf(np).equals(info.get("cb_nodes")), "cb_nodes (the cap: all ranks) " + info.get("cb_nodes"));
            Checks.expect("*:*".equals(info.get("cb_config_list")), "cb_config_list " + info.get("cb_config_list"));
            Checks.expect("16777216".equals(info.get("pdla_bytes_per_aggregator")), "pdla_bytes_per_aggregator " + info.get("pdla_bytes_per_aggregator"));
            Checks.expect("stripe_aligned".equals(info.get("pdla_fd_partition")), "pdla_fd_partition " + info.get("pdla_fd_partition"));
            Checks.expect(Long.parseLong(info.get("striping_unit")) > 0, "striping_unit " + info.get("striping_unit"));
            Checks.expect("automatic".equals(info.get("romio_ds_read")), "romio_ds_read " + info.get("romio_ds_read"));
            Checks.expectEquals(np, f.aggregatorRanks().length, "aggregator candidates");
            Info more = new Info();
            more.set("cb_nodes", String.valueOf(np));
            more.set("cb_buffer_size", "1m");
            f.setInfo(more);
            Checks.expectEquals(np, f.aggregatorRanks().length, "aggregators after setInfo cb_nodes=" + np);
            Checks.expect("1048576".equals(f.getInfo().asMap().get("cb_buffer_size")), "cb_buffer_size after setInfo " + f.getInfo().asMap().get("cb_buffer_size"));
            Info bad = new Info();
            bad.set("romio_cb_write", "sometimes");
            ErrorClass got = null;
            try {
                f.setInfo(bad);
            } catch (MPIIOException e) {
                got = e.errorClass();
                Checks.expect(e.getMessage().contains("romio_cb_write"), "message names the key: " + e.getMessage());
            }
            Checks.expect(got == ErrorClass.ERR_ARG, "setInfo with a bad value: " + got);
            Checks.expect("automatic".equals(f.getInfo().asMap().get("romio_cb_write")), "a refused hint changes nothing");
            f.close();
        });
        for (String[] kv : new String[][]{{"cb_nodes", "zero"}, {"cb_buffer_size", "-5"}, {"pdla_fd_partition", "diagonal"},
                {"cb_config_list", "node1:x"}, {"romio_ds_read", "often"}}) {
            checks.check("open refuses " + kv[0] + "=" + kv[1], () -> {
                Info info = new Info();
                info.set(kv[0], kv[1]);
                ErrorClass got = null;
                String message = "";
                try {
                    new File(MPI.COMM_WORLD, dir.resolve("bad-" + kv[0]).toString(), MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, info).close();
                } catch (MPIIOException e) {
                    got = e.errorClass();
                    message = e.getMessage();
                }
                Checks.expect(got == ErrorClass.ERR_ARG, kv[0] + ": " + got);
                Checks.expect(message.contains(kv[0]), "message names " + kv[0] + ": " + message);
            });
        }
        checks.check("without cb_nodes, a call gets one aggregator per pdla_bytes_per_aggregator bytes", () -> {
            int piece = 4096, pieces = 8; // each rank's pieces interleave with the others', np * 32 KiB in all
            FileType strided = Datatypes.vector(1, piece, piece).resized(0, (long) piece * np);
            byte[] data = new byte[piece * pieces];
            for (long perAggregator : new long[]{16L << 20, 3L * piece * pieces, piece}) {
                Info info = new Info();
                info.set("romio_cb_write", "enable");
                info.set("pdla_bytes_per_aggregator", String.valueOf(perAggregator));
                File f = new File(MPI.COMM_WORLD, dir.resolve("by-data-" + perAggregator).toString(), MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, info);
                f.setView((long) rank * piece, FileType.bytes(1), strided, "native", info);
                f.writeAll(data, 0, data.length, MPI.BYTE);
                long total = (long) piece * pieces * np;
                long servers = Long.parseLong(f.getInfo().asMap().get("striping_factor"));
                long expected = Math.max(1, Math.min(np, Math.max(servers, (total + perAggregator - 1) / perAggregator)));
                Checks.expectEquals(expected, f.collectiveStatistics().lastCallAggregators(), "aggregators of a " + total + "-byte call at " + perAggregator + " bytes each");
                f.close();
            }
        });
        checks.check("a collective read of a read-only file serves windows from the mapping, byte for byte", () -> {
            int piece = 64 << 10, pieces = 8;
            Path file = dir.resolve("mapped");
            if (rank == 0) {
                byte[] all = new byte[piece * pieces * np];
                for (int i = 0; i < all.length; i++) all[i] = (byte) (i * 7 + (i >>> 11));
                Files.write(file, all);
            }
            MPI.COMM_WORLD.Barrier();
            byte[] expected = Files.readAllBytes(file);
            Info info = new Info();
            info.set("romio_cb_read", "enable");
            File f = new File(MPI.COMM_WORLD, file.toString(), MPIIO.MODE_RDONLY, info);
            f.setView((long) rank * piece, FileType.bytes(1), Datatypes.vector(1, piece, piece).resized(0, (long) piece * np), "native", info);
            byte[] got = new byte[piece * pieces];
            f.readAll(got, 0, got.length, MPI.BYTE);
            for (int k = 0; k < pieces; k++) {
                int at = (k * np + rank) * piece;
                Checks.expectBytes(java.util.Arrays.copyOfRange(expected, at, at + piece), java.util.Arrays.copyOfRange(got, k * piece, (k + 1) * piece), "piece " + k);
            }
            long[] mapped = {f.collectiveStatistics().mappedWindows()}, sum = new long[1];
            f.close();
            MPI.COMM_WORLD.Allreduce(mapped, 0, sum, 0, 1, MPI.LONG, MPI.SUM);
            if (np > 1) Checks.expect(sum[0] > 0, "windows served from the mapping: " + sum[0]);
        });
        checks.check("a collective write fills windows through the mapping, byte for byte, holes keeping the file's bytes", () -> {
            // each rank writes every np-th piece but skips every third of its own: the windows have holes, which must
            // keep the bytes the file had, and run past the old end of the file, where holes read as zeros
            int piece = 48 << 10, pieces = 12;
            Path file = dir.resolve("mapped-write");
            int before = piece * pieces * np / 2;
            if (rank == 0) {
                byte[] old = new byte[before];
                java.util.Arrays.fill(old, (byte) 0x5a);
                Files.write(file, old);
            }
            MPI.COMM_WORLD.Barrier();
            Info info = new Info();
            info.set("romio_cb_write", "enable");
            info.set("cb_buffer_size", "4m");
            File f = new File(MPI.COMM_WORLD, file.toString(), MPIIO.MODE_RDWR, info);
            long[] lengths = new long[pieces], disps = new long[pieces];
            int kept = 0;
            for (int k = 0; k < pieces; k++) {
                if (k % 3 == 1) continue;
                lengths[kept] = piece;
                disps[kept++] = (long) (k * np + rank) * piece;
            }
            FileType mine = Datatypes.indexed(java.util.Arrays.copyOf(lengths, kept), java.util.Arrays.copyOf(disps, kept));
            f.setView(0, FileType.bytes(1), mine, "native", info);
            byte[] data = new byte[piece * kept];
            for (int i = 0; i < data.length; i++) data[i] = (byte) (rank * 17 + i * 3 + (i >>> 9));
            f.writeAll(data, 0, data.length, MPI.BYTE);
            long[] mapped = {f.collectiveStatistics().mappedWriteWindows()}, sum = new long[1];
            f.close();
            MPI.COMM_WORLD.Allreduce(mapped, 0, sum, 0, 1, MPI.LONG, MPI.SUM);
            Checks.expect(sum[0] > 0, "write windows filled through the mapping: " + sum[0]);
            if (rank == 0) {
                byte[] got = Files.readAllBytes(file);
                int lastRank = np - 1, lastPiece = pieces - 1; // piece 11 is written (11 % 3 != 1): the file ends with it
                Checks.expectEquals((long) (lastPiece * np + lastRank + 1) * piece, got.length, "file size");
                for (int k = 0; k < pieces; k++) {
                    for (int r = 0; r < np; r++) {
                        int at = (k * np + r) * piece;
                        byte[] expected = new byte[piece];
                        if (k % 3 == 1) {
                            for (int i = 0; i < piece; i++) expected[i] = at + i < before ? (byte) 0x5a : 0;
                        } else {
                            int index = k - k / 3 - (k % 3 == 2 ? 1 : 0); // position of piece k among rank r's kept pieces
                            int base = index * piece;
                            for (int i = 0; i < piece; i++) expected[i] = (byte) (r * 17 + (base + i) * 3 + ((base + i) >>> 9));
                        }
                        Checks.expectBytes(expected, java.util.Arrays.copyOfRange(got, at, at + piece), "piece " + k + " of rank " + r);
                    }
                }
            }
            MPI.COMM_WORLD.Barrier();
        });
        checks.check("ordered collective writes through two-phase equal them without", () -> {
            int block = 1000 + 37 * rank; // different sizes per rank: the shared pointer orders them
            byte[] data = new byte[block];
            for (int i = 0; i < block; i++) data[i] = (byte) (rank * 31 + i);
            for (String cb : new String[]{"enable", "disable"}) {
                Info info = new Info();
                info.set("romio_cb_write", cb);
                info.set("cb_nodes", "2");
                info.set("cb_buffer_size", "777");
                File f = new File(MPI.COMM_WORLD, dir.resolve("ordered-" + cb).toString(), MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, info);
                f.writeOrdered(data, 0, block, MPI.BYTE);
                f.writeOrdered(data, 0, block, MPI.BYTE);
                if (cb.equals("enable") && np > 1) Checks.expect(f.collectiveStatistics().twoPhaseCalls() == 2, "two-phase ordered writes: " + f.collectiveStatistics());
                f.close();
            }
            MPI.COMM_WORLD.Barrier();
            byte[] a = Files.readAllBytes(dir.resolve("ordered-enable")), b = Files.readAllBytes(dir.resolve("ordered-disable"));
            Checks.expectBytes(b, a, "ordered file with and without two-phase");
            long total = 0;
            for (int r = 0; r < np; r++) total += 2L * (1000 + 37 * r);
            Checks.expectEquals(total, a.length, "ordered file size");
        });
        checks.done();
        MPI.Finalize();
    }
}
