package io.pdla.bench.ior;

import io.pdla.size.ByteSizeConverter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Locale;

/**
 * IOR's options, with IOR's letters and meanings. Parsed by every rank from the same arguments, and by
 * the launcher before it starts a job, so that bad input fails fast with a message naming the option.
 */
@Command(name = "ior", sortOptions = false, usageHelpAutoWidth = true,
        description = "IOR-style bandwidth benchmark over the pdla MPI-IO shim, with a FileChannel baseline.")
public final class IorOptions {
    /** The API under test (IOR's -a). POSIX runs only the FileChannel loop, without a ratio. */
    public enum Api { MPIIO, POSIX }

    static final long MAX_TRANSFER = 1L << 30;

    @Option(names = "-a", paramLabel = "API", description = "API under test: MPIIO (pdla shim, default) or POSIX (the baseline alone)",
            converter = ApiConverter.class)
    Api api = Api.MPIIO;

    @Option(names = "-c", description = "collective I/O (writeAtAll/readAtAll)")
    boolean collective;

    @Option(names = {"-V", "--mpiio.useFileView"}, description = "file view, as IOR's MPIIO backend: each rank sets a view (etype one "
            + "transfer, filetype a subarray holding its block of every segment), then each call seeks the individual pointer and "
            + "moves one etype with read/write (readAll/writeAll with -c)")
    boolean fileView;

    @Option(names = "-b", paramLabel = "SIZE", description = "block size: contiguous bytes per rank per segment, default 1m",
            converter = ByteSizeConverter.class)
    long blockSize = 1L << 20;

    @Option(names = "-t", paramLabel = "SIZE", description = "transfer size: bytes per call, default 256k",
            converter = ByteSizeConverter.class)
    long transferSize = 256L << 10;

    @Option(names = "-s", paramLabel = "N", description = "segment count, default 1")
    int segments = 1;

    @Option(names = "-F", description = "file per process instead of one shared file")
    boolean filePerProcess;

    @Option(names = "-w", description = "write phase")
    boolean write;

    @Option(names = "-r", description = "read phase")
    boolean read;

    @Option(names = "-C", description = "reorder tasks for read-back: rank r reads the data of rank r+1 (defeats the client cache)")
    boolean reorder;

    @Option(names = "-e", description = "fsync after the write phase (MPI_File_sync / FileChannel.force)")
    boolean fsync;

    @Option(names = "-i", paramLabel = "N", description = "iterations, default 1")
    int iterations = 1;

    @Option(names = "-o", paramLabel = "PATH", description = "test file path or URI, default testFile")
    String path = "testFile";

    @Option(names = "-R", description = "verify read data: after reading, read again and check every byte (untimed)")
    boolean verify;

    @Option(names = "-k", description = "keep the test file(s) after each iteration")
    boolean keep;

    @Option(names = "--hint", paramLabel = "KEY=VALUE", description = "an MPI-IO hint for the shim's opens (repeatable), e.g. --hint romio_cb_write=enable --hint cb_nodes=2")
    java.util.Map<String, String> hints = new java.util.LinkedHashMap<>();

    @Option(names = "--json", paramLabel = "FILE", description = "also write the results as JSON to FILE")
    String json;

    @Option(names = "--no-baseline", description = "skip the FileChannel baseline (no ratio)")
    boolean noBaseline;

    @Option(names = "--trace", paramLabel = "DIR", description = "also run the shim with the tracer on (traces in DIR) and report the traced/untraced ratio")
    String tracedDir;

    @Option(names = "--redirected", paramLabel = "CATALOG", description = "also run the shim with the redirect interceptor on and the replica "
            + "catalog CATALOG configured (no replica applies to the test file) and report the redirected/plain ratio: redirect's overhead")
    String redirectCatalog;

    @Option(names = "-d", paramLabel = "SECONDS", description = "delay before each phase (IOR's interTestDelay): every rank "
            + "sleeps, then the phase starts together; default 0")
    int phaseDelay;

    @Option(names = "--warmup", paramLabel = "N", description = "untimed iterations of every backend before the measured ones (JIT and class loading), default 0")
    int warmup;

    /** Where rank 0 writes the exit status: MPJ's starter does not pass the job's exit status on. */
    @Option(names = "--status-file", hidden = true)
    String statusFile;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;

    /** Thrown for bad options; the message names the option. */
    public static final class BadOptionException extends IllegalArgumentException {
        public BadOptionException(String message) {
            super(message);
        }
    }

    /**
     * Parses and checks IOR arguments.
     *
     * @throws BadOptionException with a message naming the offending option
     */
    public static IorOptions parse(List<String> args) {
        IorOptions o = new IorOptions();
        CommandLine cl = new CommandLine(o);
        try {
            cl.parseArgs(args.toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
            throw new BadOptionException(e.getMessage());
        }
        if (!o.help) o.check();
        return o;
    }

    public static String usage() {
        StringWriter w = new StringWriter();
        new CommandLine(new IorOptions()).usage(new PrintWriter(w));
        return w.toString();
    }

    private void check() {
        if (!write && !read) {
            // IOR's default: both phases when neither is asked for
            write = true;
            read = true;
        }
        if (blockSize <= 0) throw new BadOptionException("-b (block size) must be > 0, was " + blockSize);
        if (transferSize <= 0) throw new BadOptionException("-t (transfer size) must be > 0, was " + transferSize);
        if (transferSize > MAX_TRANSFER) throw new BadOptionException("-t (transfer size) must be at most 1g, was " + transferSize);
        if (blockSize % transferSize != 0) {
            throw new BadOptionException("-b (block size) " + blockSize + " must be a multiple of -t (transfer size) " + transferSize);
        }
        if (segments <= 0) throw new BadOptionException("-s (segment count) must be > 0, was " + segments);
        if (iterations <= 0) throw new BadOptionException("-i (iterations) must be > 0, was " + iterations);
        if (warmup < 0) throw new BadOptionException("--warmup must be >= 0, was " + warmup);
        if (phaseDelay < 0) throw new BadOptionException("-d (delay before each phase) must be >= 0 seconds, was " + phaseDelay);
        if (path == null || path.isBlank()) throw new BadOptionException("-o (test file) must not be empty");
        if (reorder && !read) throw new BadOptionException("-C (reorder tasks) needs a read phase (-r)");
        if (verify && !read) throw new BadOptionException("-R (verify) needs a read phase (-r)");
        if (collective && api != Api.MPIIO) throw new BadOptionException("-c (collective) needs -a MPIIO");
        if (fileView && api != Api.MPIIO) throw new BadOptionException("-V (file view) needs -a MPIIO");
        if (tracedDir != null && api != Api.MPIIO) throw new BadOptionException("--trace needs -a MPIIO");
        if (tracedDir != null && tracedDir.isBlank()) throw new BadOptionException("--trace needs a directory");
        if (redirectCatalog != null && api != Api.MPIIO) throw new BadOptionException("--redirected needs -a MPIIO");
        if (redirectCatalog != null && redirectCatalog.isBlank()) throw new BadOptionException("--redirected needs a catalog directory");
    }

    public Api api() { return api; }
    public boolean collective() { return collective; }
    public boolean fileView() { return fileView; }

    public java.util.Map<String, String> hints() { return java.util.Map.copyOf(hints); }
    public long blockSize() { return blockSize; }
    public long transferSize() { return transferSize; }
    public int segments() { return segments; }
    public boolean filePerProcess() { return filePerProcess; }
    public boolean write() { return write; }
    public boolean read() { return read; }
    public boolean reorder() { return reorder; }
    public boolean fsync() { return fsync; }
    public int iterations() { return iterations; }
    public String path() { return path; }
    public boolean verify() { return verify; }
    public boolean keep() { return keep; }
    public String json() { return json; }
    public boolean baseline() { return !noBaseline && api == Api.MPIIO; }
    public boolean help() { return help; }
    public int warmup() { return warmup; }
    public int phaseDelay() { return phaseDelay; }
    public String tracedDir() { return tracedDir; }

    public String redirectCatalog() { return redirectCatalog; }
    public String statusFile() { return statusFile; }

    /** Transfers per block: each rank moves this many per segment. */
    public long transfersPerBlock() {
        return blockSize / transferSize;
    }

    static final class ApiConverter implements CommandLine.ITypeConverter<Api> {
        @Override
        public Api convert(String value) {
            try {
                return Api.valueOf(value.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not an API: MPIIO or POSIX");
            }
        }
    }
}
