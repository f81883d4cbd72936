package io.pdla.simpfs.workload;

import io.pdla.simpfs.config.ConfigException;
import io.pdla.storage.Layout;
import io.pdla.simpfs.timing.Request;
import io.pdla.simpfs.timing.RequestStream;
import io.pdla.simpfs.timing.Workload;

import java.util.List;

/**
 * MPI-Tile-IO: a dense row-major 2-D array of {@code nrTilesX * nrTilesY} tiles, one per rank; each rank reads
 * or writes its whole tile in one call, i.e. one request whose extents are the tile's rows (the layout of
 * the shared reference, formulas.md 5.2). {@code repetitions} repeats the call.
 */
public record TileIoWorkload(int nrTilesX, int nrTilesY, long szTileX, long szTileY, long szElement,
                             long overlapX, long overlapY, boolean write, int repetitions, Layout layout) implements Workload {
    public TileIoWorkload {
        if (nrTilesX < 1 || nrTilesY < 1) throw new ConfigException("tile-io: nr_tiles_x/y must be >= 1");
        if (szTileX < 1 || szTileY < 1 || szElement < 1) throw new ConfigException("tile-io: sz_tile_x/y and sz_element must be >= 1");
        if (overlapX < 0 || overlapX >= szTileX || overlapY < 0 || overlapY >= szTileY) {
            throw new ConfigException("tile-io: overlap must be >= 0 and smaller than the tile");
        }
        if (repetitions < 1) throw new ConfigException("tile-io: repetitions must be >= 1");
    }

    @Override
    public String description() {
        return "tile-io " + (write ? "write " : "read ") + nrTilesX + "x" + nrTilesY + " tiles of " + szTileX + "x" + szTileY
                + " elements of " + szElement + " B, layout " + layout;
    }

    @Override
    public int ranks() {
        return nrTilesX * nrTilesY;
    }

    @Override
    public List<Layout> files() {
        return List.of(layout);
    }

    private long arrayWidth() {
        return nrTilesX * szTileX - (nrTilesX - 1) * overlapX;
    }

    @Override
    public RequestStream stream(int rank) {
        long tx = rank % nrTilesX, ty = rank / nrTilesX;
        long x0 = tx * (szTileX - overlapX), y0 = ty * (szTileY - overlapY);
        long width = arrayWidth();
        Request.Kind kind = write ? Request.Kind.WRITE : Request.Kind.READ;
        return new RequestStream() {
            int done;

            @Override
            public boolean next(Request into) {
                if (done++ >= repetitions) return false;
                into.set(kind, 0);
                for (long k = 0; k < szTileY; k++) into.add(((y0 + k) * width + x0) * szElement, szTileX * szElement);
                return true;
            }
        };
    }
}
