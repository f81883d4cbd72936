package io.pdla.mpiio.romio;

import io.pdla.mpiio.Datatypes;
import io.pdla.mpiio.FileType;
import mpi.Datatype;
import mpi.MPI;

/**
 * The datatype of noncontig.c, noncontig_coll.c and noncontig_coll2.c: a vector of every nprocs-th int,
 * displaced by the rank (MPI_Type_create_struct) and resized to lb 0, extent SIZE ints
 * (MPI_Type_create_resized). MPJ has no resized type; its MPI-1 equivalent is a struct with MPI.LB and
 * MPI.UB markers, and MPJ counts struct displacements in elements of the base type (ints here).
 */
final class NoncontigTypes {
    private NoncontigTypes() {
    }

    static Datatype newtype(int size, int nprocs, int mynod) throws Exception {
        Datatype typevec = Datatype.Vector(size / nprocs, 1, nprocs, MPI.INT);
        Datatype t = Datatype.Struct(new int[]{1, 1, 1}, new int[]{0, mynod, size}, new Datatype[]{MPI.LB, typevec, MPI.UB});
        t.Commit();
        // the port is only faithful if this is the C test's type: check it against the standard's typemap
        FileType f = Datatypes.flatten(t);
        if (f.lbBytes() != 0 || f.extentBytes() != 4L * size || f.sizeBytes() != 4L * (size / nprocs)
                || f.displacement(0) != 4L * mynod || (f.blockCount() > 1 && f.displacement(1) != 4L * (mynod + nprocs))) {
            throw new IllegalStateException("the MPJ struct is not noncontig's resized type: " + f);
        }
        return t;
    }
}
