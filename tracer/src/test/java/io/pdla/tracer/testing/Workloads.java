package io.pdla.tracer.testing;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;

/** Known MPI-IO workloads, issued through a {@link TracedJob}. */
public final class Workloads {
    private Workloads() {
    }

    /**
     * IOR segmented (-s segments -b block -t transfer), one shared file: in segment s rank r owns the block at
     * {@code (s * nprocs + r) * block}, written and then read back in transfers with writeAt/readAt.
     */
    public static void iorSegmented(TracedJob job, String file, int segments, long block, long transfer) throws Exception {
        job.runRanks(rank -> {
            TracedJob.RankFile f = job.open(rank, file, job.nprocs);
            for (IoOp op : new IoOp[]{IoOp.WRITE, IoOp.READ}) {
                for (int s = 0; s < segments; s++) {
                    long base = ((long) s * job.nprocs + rank) * block;
                    for (long t = 0; t < block; t += transfer) io(f, op, Positioning.EXPLICIT_OFFSET, false, ExtentList.of(base + t, transfer));
                }
                if (op == IoOp.WRITE) f.meta(IoOp.SYNC, 0);
            }
            f.close();
        });
    }

    /** IOR strided (block = transfer): rank r's i-th transfer is at {@code (i * nprocs + r) * transfer}; collective. */
    public static void iorStrided(TracedJob job, String file, int transfers, long transfer) throws Exception {
        job.runRanks(rank -> {
            TracedJob.RankFile f = job.open(rank, file, job.nprocs);
            for (IoOp op : new IoOp[]{IoOp.WRITE, IoOp.READ}) {
                for (int i = 0; i < transfers; i++) {
                    io(f, op, Positioning.EXPLICIT_OFFSET, true, ExtentList.of(((long) i * job.nprocs + rank) * transfer, transfer));
                }
            }
            f.close();
        });
    }

    /** IOR -F: each rank its own file, written and read sequentially through its individual file pointer. */
    public static void filePerProcess(TracedJob job, String prefix, long size, long transfer) throws Exception {
        job.runRanks(rank -> {
            TracedJob.RankFile f = job.open(rank, prefix + "." + rank, 1);
            for (long o = 0; o < size; o += transfer) io(f, IoOp.WRITE, Positioning.INDIVIDUAL_POINTER, false, ExtentList.of(o, transfer));
            f.meta(IoOp.SEEK, 0);
            for (long o = 0; o < size; o += transfer) io(f, IoOp.READ, Positioning.INDIVIDUAL_POINTER, false, ExtentList.of(o, transfer));
            f.close();
        });
    }

    /**
     * MPI-Tile-IO style: a {@code tilesX x tilesY} grid of tiles of {@code tileRows x tileCols} elements of
     * {@code elem} bytes in a row-major file; rank r owns one tile. The ranks first write the file row by
     * row, round robin (independent), then every rank sets a subarray view and reads its tile collectively in
     * {@code reads} calls of {@code tileRows / reads} rows each (multi-extent calls).
     */
    public static void tileRead(TracedJob job, String file, int tilesX, int tileRows, int tileCols, int elem, int reads) throws Exception {
        int tilesY = job.nprocs / tilesX;
        long rowBytes = (long) tilesX * tileCols * elem;
        long rows = (long) tilesY * tileRows;
        java.util.concurrent.CyclicBarrier written = new java.util.concurrent.CyclicBarrier(job.nprocs);
        job.runRanks(rank -> {
            TracedJob.RankFile f = job.open(rank, file, job.nprocs);
            for (long row = rank; row < rows; row += job.nprocs) {
                io(f, IoOp.WRITE, Positioning.EXPLICIT_OFFSET, false, ExtentList.of(row * rowBytes, rowBytes));
            }
            f.meta(IoOp.SYNC, 0);
            written.await();
            long tileX = rank % tilesX, tileY = rank / tilesX;
            long displacement = tileY * tileRows * rowBytes + tileX * tileCols * elem;
            f.meta(IoOp.SET_VIEW, displacement);
            int rowsPerRead = tileRows / reads;
            for (int c = 0; c < reads; c++) {
                ExtentList.Builder b = ExtentList.builder(rowsPerRead);
                for (int k = 0; k < rowsPerRead; k++) b.add(displacement + (long) (c * rowsPerRead + k) * rowBytes, (long) tileCols * elem);
                io(f, IoOp.READ, Positioning.INDIVIDUAL_POINTER, true, b.build());
            }
            f.close();
        });
    }

    private static void io(TracedJob.RankFile f, IoOp op, Positioning pos, boolean coll, ExtentList e) throws Exception {
        if (op == IoOp.WRITE) f.write(pos, coll, e);
        else f.read(pos, coll, e);
    }
}
