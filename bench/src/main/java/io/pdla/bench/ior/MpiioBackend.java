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
    private final IorFileView view;

    public MpiioBackend(Intracomm world, boolean collective) {
        this(world, collective, Reports.SHIM, Map.of(), null);
    }

    /**
     * A shim backend whose opens carry {@code hints} (how the traced variant turns the tracer on per file);
     * with a {@code view} (-V), every open sets it and every call goes through the individual file pointer.
     */
    MpiioBackend(Intracomm world, boolean collective, String name, Map<String, String> hints, IorFileView view) {
        this.world = world;
        this.collective = collective;
        this.name = name;
        this.hints = Map.copyOf(hints);
        this.view = view;
    }

    /** The same backend with one more hint set on every open. */
    MpiioBackend withHints(String name, Map<String, String> more) {
        Map<String, String> all = new java.util.LinkedHashMap<>(hints);
        all.putAll(more);
        return new MpiioBackend(world, collective, name, all, view);
    }

    /** The same backend with independent calls: the collective calls' yardstick in the same run. */
    MpiioBackend independent(String name) {
        return new MpiioBackend(world, false, name, hints, view);
    }

    /** The shim with the tracer interceptor on, writing its traces to {@code traceDir}. */
    MpiioBackend traced(String traceDir) {
        return withHints(Reports.TRACED, Map.of("pdla_interceptors", "tracer", "pdla_trace_dir", traceDir));
    }

    /** The shim with the redirect interceptor on and a replica catalog configured: what redirect costs when no replica applies. */
    MpiioBackend redirected(String catalog) {
        return withHints(Reports.REDIRECTED, Map.of("pdla_interceptors", "redirect", "pdla_catalog", catalog));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        String calls = view != null ? (collective ? "collective writeAll/readAll" : "independent write/read") + " through a file view"
                : collective ? "collective writeAtAll/readAtAll" : "independent writeAt/readAt";
        return "pdla MPI-IO shim, " + calls + (hints.isEmpty() ? "" : ", hints " + hints);
    }

    @Override
    public Handle open(String file, boolean forWrite, boolean shared, int dataRank) throws IOException {
        int amode = forWrite ? MPIIO.MODE_WRONLY | MPIIO.MODE_CREATE : MPIIO.MODE_RDONLY;
        File fh;
        try {
            fh = new File(shared ? world : MPI.COMM_SELF, file, amode, new Info(hints));
        } catch (MPIException e) {
            throw new IOException("MPI-IO open of " + file + ": " + e.getMessage(), e);
        }
        if (view == null) return new MpiioHandle(fh, collective);
        try {
            // part of the open, as in IOR: MPI_File_set_view right after MPI_File_open
            fh.setView(0, view.etype(), view.filetype(dataRank), "native", new Info());
        } catch (RuntimeException e) { // MPIException is one
            try {
                fh.close();
            } catch (MPIException closing) {
                e.addSuppressed(closing);
            }
            throw new IOException("MPI-IO set_view on " + file + ": " + e.getMessage(), e);
        }
        return new ViewHandle(fh, collective, view, dataRank);
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

    /** IOR -V's calls: seek the individual pointer to the transfer's place in the view, then move one etype. */
    private record ViewHandle(File fh, boolean collective, IorFileView view, int dataRank) implements Handle {
        @Override
        public long transfer(boolean write, long offset, byte[] buf, int length) throws IOException {
            try {
                fh.seek(view.viewOffset(offset, dataRank), MPIIO.SEEK_SET);
                if (write) {
                    return (collective ? fh.writeAll(buf, 0, length, MPI.BYTE) : fh.write(buf, 0, length, MPI.BYTE)).getBytes();
                }
                return (collective ? fh.readAll(buf, 0, length, MPI.BYTE) : fh.read(buf, 0, length, MPI.BYTE)).getBytes();
            } catch (MPIException e) {
                throw new IOException((write ? "write" : "read") + " through the view at offset " + offset + ": " + e.getMessage(), e);
            }
        }

        @Override
        public void fsync() throws IOException {
            new MpiioHandle(fh, collective).fsync();
        }

        @Override
        public void close() throws IOException {
            new MpiioHandle(fh, collective).close();
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
