package io.pdla.mpiio;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A data representation of a view (MPI_File_set_view's {@code datarep}): {@code native} and
 * {@code internal} are the platform's byte order; {@code external32} is big-endian with the standard's
 * fixed sizes, which for Java's primitive types are their own sizes (1, 2, 4, 8); others are registered by
 * the application ({@link File#registerDatarep}). Applies to typed-array calls; ByteBuffer calls move raw bytes.
 */
public final class Datarep {
    public static final String NATIVE = "native";
    public static final String INTERNAL = "internal";
    public static final String EXTERNAL32 = "external32";

    /** User conversion functions (MPI_Register_datarep), converting packed elements in place. */
    public interface Conversion {
        /** Turns {@code count} elements of {@code elementBytes} bytes each, as read from the file, into native representation. */
        void read(ByteBuffer data, int elementBytes, long count, long position) throws Exception;

        /** Turns {@code count} native elements into the file's representation before they are written. */
        void write(ByteBuffer data, int elementBytes, long count, long position) throws Exception;
    }

    /** Per rank (a static is per rank under both MPJ devices), as MPI's registrations are per process. */
    private static final Map<String, Conversion> REGISTERED = new ConcurrentHashMap<>();

    private final String name;
    private final ByteOrder order;
    private final Conversion conversion;

    private Datarep(String name, ByteOrder order, Conversion conversion) {
        this.name = name;
        this.order = order;
        this.conversion = conversion;
    }

    static final Datarep DEFAULT = new Datarep(NATIVE, ByteOrder.nativeOrder(), null);

    /** The representation called {@code name}, or null if there is none. */
    static Datarep named(String name) {
        if (name == null) return null;
        return switch (name) {
            case NATIVE, INTERNAL -> new Datarep(name, ByteOrder.nativeOrder(), null);
            case EXTERNAL32 -> new Datarep(name, ByteOrder.BIG_ENDIAN, null);
            default -> {
                Conversion c = REGISTERED.get(name);
                yield c == null ? null : new Datarep(name, ByteOrder.nativeOrder(), c);
            }
        };
    }

    static void register(String name, Conversion conversion) throws MPIIOException {
        if (name == null || conversion == null) throw new MPIIOException(ErrorClass.ERR_ARG, "registerDatarep: name and conversion are required");
        if (named(name) != null || REGISTERED.putIfAbsent(name, conversion) != null) {
            throw new MPIIOException(ErrorClass.ERR_DUP_DATAREP, "registerDatarep: data representation '" + name + "' is already defined");
        }
    }

    public String name() {
        return name;
    }

    ByteOrder order() {
        return order;
    }

    /** Whether memory bytes may go to the file as they are (byte arrays need no conversion then). */
    boolean identityForBytes() {
        return conversion == null;
    }

    void toFile(ByteBuffer packed, int elementBytes, long position) throws MPIIOException {
        if (conversion == null) return;
        try {
            conversion.write(packed.duplicate(), elementBytes, packed.remaining() / elementBytes, position);
        } catch (Exception e) {
            throw new MPIIOException(ErrorClass.ERR_CONVERSION, "datarep '" + name + "': write conversion failed: " + e, e);
        }
    }

    void fromFile(ByteBuffer filled, int elementBytes, long got, long position) throws MPIIOException {
        if (conversion == null) return;
        try {
            ByteBuffer d = filled.duplicate();
            d.position(0).limit((int) (got - got % elementBytes));
            conversion.read(d, elementBytes, got / elementBytes, position);
        } catch (Exception e) {
            throw new MPIIOException(ErrorClass.ERR_CONVERSION, "datarep '" + name + "': read conversion failed: " + e, e);
        }
    }
}
