package io.pdla.bench.ior;

import io.pdla.mpiio.ErrorClass;
import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import io.pdla.mpiio.MPIIOException;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

import java.io.IOException;
import java.util.Map;

/**
 * The API under test: pdla's MPI-IO shim, as IOR's MPIIO backend uses MPI-IO. Independent
 * {@code writeAt/readAt}, or collective {@code writeAtAll/readAtAll} with -c. A shared file is opened on
 * the world communicator, a per-process file on COMM_SELF (as IOR does).
 */
public final class MpiioBackend implements IorBackend {
    private final Intracomm world;
    private final boolean collective;
    private final String name;
    private final Map<String, String> hints;

    public MpiioBackend(Intracomm world, boolean collective) {
        this(world, collective, Reports.SHIM, Map.of());
    }

    /** A shim backend whose opens carry {@code hints}: how the traced variant turns the tracer on per file. */
    public MpiioBackend(Intracomm world, boolean collective, String name, Map<String, String> hints) {
        this.world = world;
        this.collective = collective;
        this.name = name;
        this.hints = Map.copyOf(hints);
    }

    /** The shim with the tracer interceptor on, writing its traces to {@code traceDir}. */
    public static MpiioBackend traced(Intracomm world, boolean collective, String traceDir) {
        return new MpiioBackend(world, collective, Reports.TRACED,
                Map.of("pdla_interceptors", "tracer", "pdla_trace_dir", traceDir));
    }

    /** The shim with the redirect interceptor on and a replica catalog configured: what redirect costs when no replica applies. */
    public static MpiioBackend redirected(Intracomm world, boolean collective, String catalog) {
        return new MpiioBackend(world, collective, Reports.REDIRECTED,
                Map.of("pdla_interceptors", "redirect", "pdla_catalog", catalog));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return "pdla MPI-IO shim, " + (collective ? "collective writeAtAll/readAtAll" : "independent writeAt/readAt")
                + (hints.isEmpty() ? "" : ", hints " + hints);
    }

    @Override
    public Handle open(String file, boolean forWrite, boolean shared) throws IOException {
        int amode = forWrite ? MPIIO.MODE_WRONLY | MPIIO.MODE_CREATE : MPIIO.MODE_RDONLY;
        try {
            File fh = new File(shared ? world : MPI.COMM_SELF, file, amode, new Info(hints));
            return new MpiioHandle(fh, collective);
        } catch (MPIException e) {
            throw new IOException("MPI-IO open of " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void delete(String file) throws IOException {
        try {
            File.delete(file);
        } catch (MPIIOException e) {
            // a missing file is fine: the phase that would have created it may not have run
            if (e.errorClass() != ErrorClass.ERR_NO_SUCH_FILE) throw new IOException("MPI-IO delete of " + file + ": " + e.getMessage(), e);
        } catch (MPIException e) {
            throw new IOException("MPI-IO delete of " + file + ": " + e.getMessage(), e);
        }
    }

    private record MpiioHandle(File fh, boolean collective) implements Handle {
        @Override
        public long transfer(boolean write, long offset, byte[] buf, int length) throws IOException {
            try {
                if (write) {
                    return (collective ? fh.writeAtAll(offset, buf, 0, length, MPI.BYTE)
                            : fh.writeAt(offset, buf, 0, length, MPI.BYTE)).getBytes();
                }
                return (collective ? fh.readAtAll(offset, buf, 0, length, MPI.BYTE)
                        : fh.readAt(offset, buf, 0, length, MPI.BYTE)).getBytes();
            } catch (MPIException e) {
                throw new IOException((write ? "writeAt" : "readAt") + " at " + offset + ": " + e.getMessage(), e);
            }
        }

        @Override
        public void fsync() throws IOException {
            try {
                fh.sync();
            } catch (MPIException e) {
                throw new IOException("sync: " + e.getMessage(), e);
            }
        }

        @Override
        public void close() throws IOException {
            try {
                fh.close();
            } catch (MPIException e) {
                throw new IOException("close: " + e.getMessage(), e);
            }
        }
    }
}
