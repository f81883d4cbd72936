package io.pdla.mpiio.romio;

import io.pdla.mpiio.File;
import io.pdla.mpiio.FileView;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import mpi.Datatype;
import mpi.Group;
import mpi.MPI;

/**
 * ROMIO test/misc.c: get_amode, get/set_atomicity, set_view with a vector filetype at displacement 1000
 * and get_view, get_byte_offset, get_group, set_size to 1000 + 15 ints, get_size, seek to the end and
 * get_position (10 etypes: the file ends inside the first hole), seek back with SEEK_CUR, preallocate.
 */
public final class RomioMiscProgram {
    public static void main(String[] argv) throws Exception {
        Romio.run("misc", argv, t -> {
            int mynod = t.rank();
            String filename = t.filename();
            int[] buf = new int[1024];
            File fh = new File(MPI.COMM_WORLD, filename, MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, new Info());
            fh.write(buf, 0, 1024, MPI.INT);
            fh.sync();

            int amode = fh.getAmode();
            if (amode != (MPIIO.MODE_CREATE | MPIIO.MODE_RDWR)) t.error("amode is " + amode + ", should be " + (MPIIO.MODE_CREATE | MPIIO.MODE_RDWR));

            boolean flag = fh.getAtomicity();
            if (flag) t.error("atomicity is 1, should be 0");
            fh.setAtomicity(true);
            flag = fh.getAtomicity();
            if (!flag) t.error("atomicity is 0, should be 1");
            fh.setAtomicity(false);

            Datatype newtype = Datatype.Vector(10, 10, 20, MPI.INT);
            newtype.Commit();
            fh.setView(1000, MPI.INT, newtype, "native", new Info());

            FileView view = fh.getView();
            if (view.displacement() != 1000 || !"native".equals(view.datarep())) {
                t.error("disp = " + view.displacement() + ", datarep = " + view.datarep() + ", should be 1000, native");
            }
            long disp = fh.getByteOffset(10);
            if (disp != 1000 + 20 * 4) t.error("byte offset = " + disp + ", should be " + (1000 + 20 * 4));

            Group group = fh.getGroup();
            t.expectEquals(t.size(), group.Size(), "group size");

            fh.setSize(1000 + 15 * 4);
            MPI.COMM_WORLD.Barrier();
            fh.sync();
            disp = fh.getSize();
            if (disp != 1000 + 15 * 4) t.error("file size = " + disp + ", should be " + (1000 + 15 * 4));

            fh.seek(0, MPIIO.SEEK_END);
            disp = fh.getPosition();
            if (disp != 10) t.error("file pointer posn = " + disp + ", should be 10");
            long offset = fh.getByteOffset(disp);
            if (offset != 1000 + 20 * 4) t.error("byte offset = " + offset + ", should be " + (1000 + 20 * 4));
            MPI.COMM_WORLD.Barrier();

            fh.seek(-10, MPIIO.SEEK_CUR);
            disp = fh.getPosition();
            offset = fh.getByteOffset(disp);
            if (offset != 1000) t.error("file pointer posn in bytes = " + offset + ", should be 1000");

            fh.preallocate(8192);
            fh.close();
            MPI.COMM_WORLD.Barrier();
            if (mynod == 0) File.delete(filename);
        });
    }
}
