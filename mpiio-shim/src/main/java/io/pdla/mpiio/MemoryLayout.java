package io.pdla.mpiio;

import mpi.Datatype;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Moves elements between a Java array (MPJ's buffer convention: array + element offset + count + datatype)
 * and the contiguous byte stream that goes to the file, in the "native" representation (the platform's
 * byte order, as C MPI writes memory). A {@code byte[]} with a basic type is wrapped, not copied.
 */
final class MemoryLayout {
    private final FileType type;
    private final int count;
    private final int offsetElements;

    private MemoryLayout(FileType type, int count, int offsetElements) {
        this.type = type;
        this.count = count;
        this.offsetElements = offsetElements;
    }

    static MemoryLayout of(String where, Object buf, int offset, int count, Datatype datatype, FileType flattened) throws MPIIOException {
        if (count < 0) throw new MPIIOException(ErrorClass.ERR_COUNT, where + "count must be >= 0, was " + count);
        if (offset < 0) throw new MPIIOException(ErrorClass.ERR_ARG, where + "buffer offset must be >= 0, was " + offset);
        // C programs pass NULL with a zero count (MPI touches no buffer then): nothing to check but the type
        if (buf == null && count == 0) return new MemoryLayout(flattened, 0, offset);
        if (buf == null) throw new MPIIOException(ErrorClass.ERR_ARG, where + "buffer is null (with count " + count + "; only a count of 0 may have none)");
        int arrayElem = arrayElementBytes(where, buf);
        if (arrayElem != flattened.elementBytes() || !matches(buf, datatype)) {
            throw new MPIIOException(ErrorClass.ERR_TYPE, where + "buffer of " + buf.getClass().getSimpleName()
                    + " does not match the datatype's base type (" + flattened.elementBytes() + "-byte elements)");
        }
        if (count > 0 && minStart(flattened) < 0 && offset + minStart(flattened) / arrayElem < 0) {
            throw new MPIIOException(ErrorClass.ERR_TYPE, where + "datatype reaches " + (-minStart(flattened) / arrayElem)
                    + " elements before the buffer offset " + offset + " (negative displacement below the array's start)");
        }
        if (count > 1 && flattened.extentBytes() < 0) {
            throw new MPIIOException(ErrorClass.ERR_TYPE, where + "datatype of negative extent " + flattened.extentBytes() + " as a memory type");
        }
        MemoryLayout m = new MemoryLayout(flattened, count, offset);
        long lastElement = offset + (count == 0 ? 0 : ((long) (count - 1) * flattened.extentBytes() + maxEnd(flattened)) / arrayElem);
        int length = arrayLength(buf);
        if (lastElement > length) {
            throw new MPIIOException(ErrorClass.ERR_ARG, where + "buffer of " + length
                    + " elements too small for offset " + offset + " + " + count + " items of the datatype");
        }
        return m;
    }

    private static long minStart(FileType t) {
        long start = 0;
        for (int i = 0; i < t.blockCount(); i++) start = Math.min(start, t.displacement(i));
        return start;
    }

    private static long maxEnd(FileType t) {
        long end = 0;
        for (int i = 0; i < t.blockCount(); i++) end = Math.max(end, t.displacement(i) + t.length(i));
        return end;
    }

    /** The array's length without reflection ({@code Array.getLength} is a native call until the JIT compiles the caller). */
    private static int arrayLength(Object buf) {
        if (buf instanceof byte[] a) return a.length;
        if (buf instanceof int[] a) return a.length;
        if (buf instanceof long[] a) return a.length;
        if (buf instanceof double[] a) return a.length;
        if (buf instanceof float[] a) return a.length;
        if (buf instanceof short[] a) return a.length;
        if (buf instanceof char[] a) return a.length;
        return ((boolean[]) buf).length; // arrayElementBytes admitted only these
    }

    long bytes() {
        return count * type.sizeBytes();
    }

    int count() {
        return count;
    }

    /** The layout of items {@code first .. first+n-1}: the same type, the offset moved by whole extents. */
    MemoryLayout items(long first, int n) {
        long shift = first * type.extentBytes();
        if (shift % type.elementBytes() != 0) throw new IllegalArgumentException("extent " + type.extentBytes() + " is not a whole number of elements");
        return new MemoryLayout(type, n, Math.toIntExact(offsetElements + shift / type.elementBytes()));
    }

    boolean isSimple() {
        return type.isContiguous() && type.lbBytes() == 0;
    }

    /** A buffer holding the data to write, in file order. Wraps byte arrays of simple layouts. */
    ByteBuffer pack(Object buf, Datarep rep) {
        int elem = type.elementBytes();
        if (buf instanceof byte[] b && isSimple() && rep.identityForBytes()) {
            return ByteBuffer.wrap(b, offsetElements, Math.toIntExact(bytes())).slice();
        }
        ByteBuffer out = ByteBuffer.allocate(Math.toIntExact(bytes())).order(rep.order());
        for (int i = 0; i < count; i++) {
            long base = (long) i * type.extentBytes();
            for (int k = 0; k < type.blockCount(); k++) {
                int first = Math.toIntExact(offsetElements + (base + type.displacement(k)) / elem);
                int n = Math.toIntExact(type.length(k) / elem);
                put(out, buf, first, n);
            }
        }
        return out.flip();
    }

    /** A buffer that a read fills; {@link #unpack} then copies it into the array unless it wraps it. */
    ByteBuffer receiveBuffer(Object buf, Datarep rep) {
        if (buf instanceof byte[] b && isSimple() && rep.identityForBytes()) {
            return ByteBuffer.wrap(b, offsetElements, Math.toIntExact(bytes())).slice();
        }
        return ByteBuffer.allocate(Math.toIntExact(bytes())).order(rep.order());
    }

    /** Copies the first {@code got} bytes of a filled receive buffer into the array (whole elements only). */
    void unpack(ByteBuffer filled, Object buf, long got, Datarep rep) {
        if (buf instanceof byte[] && isSimple() && rep.identityForBytes()) return;
        ByteBuffer in = filled.duplicate().order(rep.order());
        in.position(0).limit(Math.toIntExact(got));
        int elem = type.elementBytes();
        for (int i = 0; i < count && in.remaining() >= elem; i++) {
            long base = (long) i * type.extentBytes();
            for (int k = 0; k < type.blockCount() && in.remaining() >= elem; k++) {
                int first = Math.toIntExact(offsetElements + (base + type.displacement(k)) / elem);
                int n = Math.toIntExact(Math.min(type.length(k), in.remaining()) / elem);
                get(in, buf, first, n);
            }
        }
    }

    private static void put(ByteBuffer out, Object buf, int first, int n) {
        if (buf instanceof byte[] a) out.put(a, first, n);
        else if (buf instanceof int[] a) { out.asIntBuffer().put(a, first, n); out.position(out.position() + 4 * n); }
        else if (buf instanceof long[] a) { out.asLongBuffer().put(a, first, n); out.position(out.position() + 8 * n); }
        else if (buf instanceof double[] a) { out.asDoubleBuffer().put(a, first, n); out.position(out.position() + 8 * n); }
        else if (buf instanceof float[] a) { out.asFloatBuffer().put(a, first, n); out.position(out.position() + 4 * n); }
        else if (buf instanceof short[] a) { out.asShortBuffer().put(a, first, n); out.position(out.position() + 2 * n); }
        else if (buf instanceof char[] a) { out.asCharBuffer().put(a, first, n); out.position(out.position() + 2 * n); }
        else if (buf instanceof boolean[] a) { for (int i = 0; i < n; i++) out.put((byte) (a[first + i] ? 1 : 0)); }
    }

    private static void get(ByteBuffer in, Object buf, int first, int n) {
        if (buf instanceof byte[] a) in.get(a, first, n);
        else if (buf instanceof int[] a) { in.asIntBuffer().get(a, first, n); in.position(in.position() + 4 * n); }
        else if (buf instanceof long[] a) { in.asLongBuffer().get(a, first, n); in.position(in.position() + 8 * n); }
        else if (buf instanceof double[] a) { in.asDoubleBuffer().get(a, first, n); in.position(in.position() + 8 * n); }
        else if (buf instanceof float[] a) { in.asFloatBuffer().get(a, first, n); in.position(in.position() + 4 * n); }
        else if (buf instanceof short[] a) { in.asShortBuffer().get(a, first, n); in.position(in.position() + 2 * n); }
        else if (buf instanceof char[] a) { in.asCharBuffer().get(a, first, n); in.position(in.position() + 2 * n); }
        else if (buf instanceof boolean[] a) { for (int i = 0; i < n; i++) a[first + i] = in.get() != 0; }
    }

    private static int arrayElementBytes(String where, Object buf) throws MPIIOException {
        if (buf instanceof byte[] || buf instanceof boolean[]) return 1;
        if (buf instanceof short[] || buf instanceof char[]) return 2;
        if (buf instanceof int[] || buf instanceof float[]) return 4;
        if (buf instanceof long[] || buf instanceof double[]) return 8;
        throw new MPIIOException(ErrorClass.ERR_TYPE, where + "buffer must be an array of a primitive type, was " + buf.getClass().getName());
    }

    /** The array's element type must be the datatype's base type (MPJ's own rule for send buffers). */
    private static boolean matches(Object buf, Datatype t) {
        if (t == null) return true;
        int b = t.baseType;
        if (buf instanceof byte[]) return b == mpi.MPI.BYTE.baseType;
        if (buf instanceof boolean[]) return b == mpi.MPI.BOOLEAN.baseType;
        if (buf instanceof short[]) return b == mpi.MPI.SHORT.baseType;
        if (buf instanceof char[]) return b == mpi.MPI.CHAR.baseType;
        if (buf instanceof int[]) return b == mpi.MPI.INT.baseType;
        if (buf instanceof float[]) return b == mpi.MPI.FLOAT.baseType;
        if (buf instanceof long[]) return b == mpi.MPI.LONG.baseType;
        if (buf instanceof double[]) return b == mpi.MPI.DOUBLE.baseType;
        return false;
    }
}
