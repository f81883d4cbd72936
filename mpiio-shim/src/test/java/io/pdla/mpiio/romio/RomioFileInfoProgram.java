package io.pdla.mpiio.romio;

import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

import java.util.Map;

/**
 * ROMIO's test/file_info.c run as {@code file_info -u} (its UFS defaults, which are pdla's but for
 * cb_config_list, see below): the hints reported by getInfo after an open without hints must have the defaults; after an open with
 * cb_buffer_size, cb_nodes, ind_rd/ind_wr_buffer_size, striping_unit, cb_config_list, start_iodevice and
 * pfs_svr_buf, the reported values must be those set (keys pdla does not know are kept as given), and the
 * keys ROMIO checks for fixed values (romio_no_indep_rw, romio_ds_read, romio_cb_* ...) must have them
 * wherever they are reported. Unlike the C test, which ignores unexpected keys, the keys every ROMIO
 * reports (cb_buffer_size, romio_cb_read/write, cb_nodes, ind_rd/wr_buffer_size, romio_ds_read/write,
 * cb_config_list) must be present.
 */
public final class RomioFileInfoProgram {
    private static final String[] ALWAYS = {"cb_buffer_size", "romio_cb_read", "romio_cb_write", "cb_nodes",
            "ind_rd_buffer_size", "ind_wr_buffer_size", "romio_ds_read", "romio_ds_write", "cb_config_list"};

    public static void main(String[] argv) throws Exception {
        RomioCallsSupport.run(argv, "file_info", t -> {
            String filename = t.fname();
            int mynod = t.rank, nprocs = t.np;
            int defaultStripingFactor = 0;
            File fh = new File(MPI.COMM_WORLD, filename, MPIIO.MODE_CREATE | MPIIO.MODE_RDWR);
            Map<String, String> used = fh.getInfo().asMap();
            requireReported(t, used);
            for (Map.Entry<String, String> e : used.entrySet()) {
                String key = e.getKey(), value = e.getValue();
                switch (key) {
                    case "striping_factor" -> defaultStripingFactor = Integer.parseInt(value);
                    case "cb_buffer_size" -> expectInt(t, key, value, 16777216);
                    case "romio_cb_read", "romio_cb_write" -> expectString(t, key, value, "automatic");
                    case "romio_no_indep_rw" -> expectString(t, key, value, "false");
                    case "ind_rd_buffer_size" -> expectInt(t, key, value, 4194304);
                    case "ind_wr_buffer_size" -> expectInt(t, key, value, 524288);
                    case "romio_ds_read" -> expectString(t, key, value, "automatic");
                    // cb_config_list: ROMIO's UFS default is *:1; without cb_nodes or cb_config_list pdla picks the
                    // aggregators of each call by its size among all ranks and reports *:* (mpiio-shim/README.md)
                    case "cb_config_list" -> expectString(t, key, value, "*:*");
                    default -> { } // cb_nodes, romio_ds_write and the rest: file-system dependent, as in ROMIO
                }
            }
            fh.close();
            if (mynod == 0) File.delete(filename);
            MPI.COMM_WORLD.Barrier();

            Info info = new Info();
            info.set("cb_buffer_size", "8388608");
            info.set("cb_nodes", String.valueOf(Math.max(1, nprocs / 2))); // ROMIO sets nprocs/2, 0 on one process
            info.set("ind_rd_buffer_size", "2097152");
            info.set("ind_wr_buffer_size", "1048576");
            if (defaultStripingFactor > 0) info.set("striping_factor", String.valueOf(defaultStripingFactor));
            info.set("striping_unit", "131072");
            info.set("cb_config_list", "*:*");
            info.set("start_iodevice", defaultStripingFactor > 1 ? String.valueOf(defaultStripingFactor - 2) : "0");
            info.set("pfs_svr_buf", "true");
            fh = new File(MPI.COMM_WORLD, filename, MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, info);
            used = fh.getInfo().asMap();
            requireReported(t, used);
            for (Map.Entry<String, String> e : used.entrySet()) {
                String key = e.getKey(), value = e.getValue();
                switch (key) {
                    case "start_iodevice" -> expectInt(t, key, value, defaultStripingFactor > 1 ? defaultStripingFactor - 2 : 0);
                    case "striping_factor" -> expectInt(t, key, value, defaultStripingFactor);
                    case "cb_buffer_size" -> expectInt(t, key, value, 8388608);
                    case "romio_no_indep_rw" -> expectString(t, key, value, "false");
                    case "ind_rd_buffer_size" -> expectInt(t, key, value, 2097152);
                    case "ind_wr_buffer_size" -> expectInt(t, key, value, 1048576);
                    case "romio_ds_read" -> expectString(t, key, value, "automatic");
                    case "cb_config_list" -> expectString(t, key, value, "*:*");
                    case "romio_cb_pfr" -> expectString(t, key, value, "disable");
                    case "romio_cb_fr_types" -> expectString(t, key, value, "aar");
                    case "romio_cb_fr_alignment" -> expectString(t, key, value, "1");
                    case "romio_cb_ds_threshold" -> expectString(t, key, value, "0");
                    case "romio_cb_alltoall" -> expectString(t, key, value, "automatic");
                    default -> { }
                }
            }
            if (!"true".equals(used.get("pfs_svr_buf"))) t.error("unknown key pfs_svr_buf not kept: " + used.get("pfs_svr_buf"));
            fh.close();
            if (mynod == 0) File.delete(filename);
            MPI.COMM_WORLD.Barrier();
        });
    }

    private static void requireReported(RomioCallsSupport t, Map<String, String> used) {
        for (String k : ALWAYS) if (!used.containsKey(k)) t.error("getInfo does not report " + k + ": " + used);
    }

    private static void expectInt(RomioCallsSupport t, String key, String value, long expected) {
        long v;
        try {
            v = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            t.error(key + " is '" + value + "', not a number");
            return;
        }
        if (v != expected) t.error(key + " is " + v + "; should be " + expected);
    }

    private static void expectString(RomioCallsSupport t, String key, String value, String expected) {
        if (!expected.equals(value)) t.error(key + " is set to " + value + "; should be " + expected);
    }
}
