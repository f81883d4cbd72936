package io.pdla.mpiio.programs;

import io.pdla.mpiio.Datatypes;
import io.pdla.mpiio.File;
import io.pdla.mpiio.FileType;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import mpi.Datatype;
import mpi.MPI;

import java.nio.file.Path;

import static io.pdla.mpiio.programs.Checks.expectEquals;

/**
 * MPI.LB / MPI.UB markers of an MPJ struct set the bounds pdla uses (MPJ's own Lb() ignores an LB marker
 * placed before the data), as ROMIO's noncontig tests need: a vector displaced by one int inside a struct
 * resized to [0, 10 ints). Argument: a directory for the files.
 */
public final class StructMarkerBoundsProgram {
    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Path dir = Path.of(args[0]);
        Checks c = new Checks();
        int rank = c.rank();

        c.check("LB and UB markers give lower bound 0 and extent 10 ints", () -> {
            Datatype vec = Datatype.Vector(5, 1, 2, MPI.INT);
            Datatype t = Datatype.Struct(new int[]{1, 1, 1}, new int[]{0, 1, 10}, new Datatype[]{MPI.LB, vec, MPI.UB});
            t.Commit();
            FileType f = Datatypes.flatten(t);
            expectEquals(0, f.lbBytes(), "lower bound");
            expectEquals(40, f.extentBytes(), "extent");
            expectEquals(4, f.displacement(0), "first data byte");
            expectEquals(20, f.sizeBytes(), "size");
        });

        c.check("an LB marker alone moves only the lower bound", () -> {
            Datatype t = Datatype.Struct(new int[]{1, 2}, new int[]{0, 3}, new Datatype[]{MPI.LB, MPI.INT});
            t.Commit();
            FileType f = Datatypes.flatten(t);
            expectEquals(0, f.lbBytes(), "lower bound");
            expectEquals(8, f.sizeBytes(), "size of " + f);
            expectEquals(20, f.extentBytes(), "extent: from the marker to the end of the data");
        });

        c.check("two instances of the marker type as memory type: the second starts one extent later", () -> {
            Datatype vec = Datatype.Vector(5, 1, 2, MPI.INT);
            Datatype t = Datatype.Struct(new int[]{1, 1, 1}, new int[]{0, 1, 10}, new Datatype[]{MPI.LB, vec, MPI.UB});
            t.Commit();
            int[] buf = new int[20];
            for (int i = 0; i < 20; i++) buf[i] = i;
            File fh = new File(MPI.COMM_SELF, dir.resolve("markers-" + rank).toString(), MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, new Info());
            fh.writeAt(0, buf, 0, 2, t);
            int[] back = new int[10];
            fh.readAt(0, back, 0, 10, MPI.INT);
            fh.close();
            for (int i = 0; i < 10; i++) expectEquals(2L * i + 1, back[i], "int " + i + " written from the odd slots");
        });

        c.done();
        MPI.Finalize();
    }
}
