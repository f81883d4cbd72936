package io.pdla.mpiio.romio;

import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import mpi.Datatype;
import mpi.MPI;

import java.util.ArrayList;
import java.util.List;

/**
 * ROMIO test/noncontig_coll2.c: noncontig_coll.c for any number of processes (each owns every nprocs-th
 * int of a buffer of (5000 / nprocs) * nprocs ints, values {@code SEEDER(rank, i, SIZE)}), run five times:
 * without hints, then with {@code cb_config_list} set to the ranks' processor names (gathered as ROMIO's
 * cb_gather_name_array does) in default order, reversed, reversed every other, and second half first.
 */
public final class RomioNoncontigColl2Program {
    static final int STARTING_SIZE = 5000;

    public static void main(String[] argv) throws Exception {
        Romio.run("noncontig_coll2", argv, t -> {
            int mynod = t.rank(), nprocs = t.size();
            String[] names = gatherNames();
            if (mynod == 0 && names.length < 2) throw new IllegalStateException("Run this test on two or more hosts");

            testFile(t, null, "collective w/o hinting");
            testFile(t, bcast(mynod, () -> String.join(",", names)), "collective w/ hinting: default order");
            testFile(t, bcast(mynod, () -> {
                List<String> l = new ArrayList<>();
                for (int i = names.length - 1; i >= 0; i--) l.add(names[i]);
                return String.join(",", l);
            }), "collective w/ hinting: reverse order");
            testFile(t, bcast(mynod, () -> {
                List<String> l = new ArrayList<>();
                for (int i = names.length - 1; i >= 0; i -= 2) l.add(names[i]);
                for (int i = names.length - 2; i > 0; i -= 2) l.add(names[i]);
                return String.join(",", l);
            }), "collective w/ hinting: permutation1");
            testFile(t, bcast(mynod, () -> {
                List<String> l = new ArrayList<>();
                for (int i = names.length / 2; i < names.length; i++) l.add(names[i]);
                for (int i = 0; i < names.length / 2; i++) l.add(names[i]);
                return String.join(",", l);
            }), "collective w/ hinting: permutation2");
        });
    }

    interface Builder {
        String build();
    }

    /** Rank 0 builds the string from the names it holds, everyone gets it (ROMIO's *_str functions). */
    private static String bcast(int mynod, Builder b) throws Exception {
        Object[] s = {mynod == 0 ? b.build() : null};
        MPI.COMM_WORLD.Bcast(s, 0, 1, MPI.OBJECT, 0);
        return (String) s[0];
    }

    /** cb_gather_name_array: the rank-ordered processor names, on rank 0 (empty elsewhere). */
    private static String[] gatherNames() throws Exception {
        Object[] mine = {MPI.Get_processor_name()};
        Object[] all = new Object[MPI.COMM_WORLD.Size()];
        MPI.COMM_WORLD.Gather(mine, 0, 1, MPI.OBJECT, all, 0, 1, MPI.OBJECT, 0);
        if (MPI.COMM_WORLD.Rank() != 0) return new String[MPI.COMM_WORLD.Size()];
        String[] out = new String[all.length];
        for (int i = 0; i < all.length; i++) out[i] = (String) all[i];
        return out;
    }

    static int seeder(int x, int y, int z) {
        return x * 1000000 + y + x * z;
    }

    private static void testFile(Romio t, String cbHosts, String msg) throws Exception {
        int mynod = t.rank(), nprocs = t.size();
        int size = (STARTING_SIZE / nprocs) * nprocs;
        int[] buf = new int[size];
        Info info = new Info();
        if (cbHosts != null) info.set("cb_config_list", cbHosts);
        Datatype newtype = NoncontigTypes.newtype(size, nprocs, mynod);
        String filename = t.filename();
        String[] cases = {"nc mem - nc file", "nc mem - c file", "c mem - nc file"};

        for (int c = 0; c < 3; c++) {
            RomioNoncontigProgram.deleteIgnoringMissing(mynod, filename);
            MPI.COMM_WORLD.Barrier();
            File fh = new File(MPI.COMM_WORLD, filename, MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, info);
            if (c != 1) fh.setView(0, MPI.INT, newtype, "native", info);
            for (int i = 0; i < size; i++) buf[i] = seeder(mynod, i, size);
            long at = c == 1 ? (long) mynod * (size / nprocs) * 4 : 0;
            if (c == 0) fh.writeAll(buf, 0, 1, newtype);
            else if (c == 1) fh.writeAtAll(at, buf, 0, 1, newtype);
            else fh.writeAll(buf, 0, size, MPI.INT);
            MPI.COMM_WORLD.Barrier();
            java.util.Arrays.fill(buf, -1);
            if (c == 2) fh.readAtAll(0, buf, 0, size, MPI.INT);
            else fh.readAtAll(at, buf, 0, 1, newtype);
            String where = msg + ", " + cases[c] + ": Process " + mynod + ": buf ";
            for (int i = 0; i < size; i++) {
                boolean mine = c == 2 || (i >= mynod && (i - mynod) % nprocs == 0);
                int want = mine ? seeder(mynod, i, size) : -1;
                if (buf[i] != want) t.error(where + i + " is " + buf[i] + ", should be " + want);
            }
            fh.close();
            MPI.COMM_WORLD.Barrier();
        }
        if (mynod == 0) File.delete(filename);
        MPI.COMM_WORLD.Barrier();
    }
}
