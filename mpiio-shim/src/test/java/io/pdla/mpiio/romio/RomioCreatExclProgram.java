package io.pdla.mpiio.romio;

import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import io.pdla.mpiio.MPIIOException;
import mpi.MPI;

/**
 * ROMIO test/creat_excl.c: create without EXCL (must succeed), open with CREATE | EXCL (must fail), every
 * rank deletes the file ignoring errors ("File_delete is not aggregator-aware"), then CREATE | EXCL must
 * succeed. With {@code -aggregate} the opens carry romio_no_indep_rw=true and a cb_config_list naming one
 * host (the C test names leela.mcs.anl.gov; here this machine's processor name).
 */
public final class RomioCreatExclProgram {
    public static void main(String[] argv) throws Exception {
        Romio.run("creat_excl", argv, t -> {
            String fname = t.filename();
            Info info = new Info();
            if (t.option("-aggregate")) {
                info.set("romio_no_indep_rw", "true");
                info.set("cb_config_list", MPI.Get_processor_name() + ":1");
            }
            // create the file w/o EXCL: this must not fail
            new File(MPI.COMM_WORLD, fname, MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, info).close();
            // now try to open w/ CREAT|EXCL: this must fail
            try {
                new File(MPI.COMM_WORLD, fname, MPIIO.MODE_CREATE | MPIIO.MODE_EXCL | MPIIO.MODE_RDWR, info).close();
                throw new IllegalStateException("MPI_File_open: expected an error: got success");
            } catch (MPIIOException expected) {
                // as the C test: any error
            }
            // ignore the error: File_delete is not aggregator-aware
            try {
                File.delete(fname, info);
            } catch (MPIIOException ignored) {
                // another rank deleted it first
            }
            // this must succeed: the file no longer exists
            new File(MPI.COMM_WORLD, fname, MPIIO.MODE_CREATE | MPIIO.MODE_EXCL | MPIIO.MODE_RDWR, info).close();
            if (t.rank() == 0) System.out.println(" No Errors (creat_excl)");
        });
    }
}
