package io.pdla.bench.tile;

import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * MPI-Tile-IO's parameters: a 2-D dataset of {@code nx x ny} tiles, one per rank, each
 * {@code tile-x x tile-y} elements of {@code element-size} bytes, stored row-major in one file.
 */
@CommandLine.Command(name = "tile", mixinStandardHelpOptions = true,
        description = "MPI-Tile-IO-style benchmark through the shim: every rank writes and reads its tile of a 2-D dataset "
                + "with a subarray view, collectively (readAll/writeAll) and independently (read/write) in the same run.")
public final class TileOptions {
    @Option(names = "--nx-tiles", description = "tiles per row; nx x ny must equal the number of ranks (default: ranks, one row)")
    int nxTiles;

    @Option(names = "--ny-tiles", description = "rows of tiles (default 1)")
    int nyTiles = 1;

    @Option(names = "--tile-x", description = "elements per tile row (default 256)")
    int tileX = 256;

    @Option(names = "--tile-y", description = "rows per tile (default 256)")
    int tileY = 256;

    @Option(names = "--element-size", description = "bytes per element (default 64)")
    int elementSize = 64;

    @Option(names = "-i", description = "iterations (default 3)")
    int iterations = 3;

    @Option(names = "--warmup", description = "untimed iterations first (default 1)")
    int warmup = 1;

    @Option(names = "-o", description = "the dataset file (path or URI); default pdla-tile.dat in the temporary directory")
    String path = java.nio.file.Path.of(System.getProperty("java.io.tmpdir"), "pdla-tile.dat").toString();

    @Option(names = "--hint", paramLabel = "KEY=VALUE", description = "an MPI-IO hint for every open (repeatable)")
    Map<String, String> hints = new LinkedHashMap<>();

    @Option(names = "--status-file", hidden = true)
    String statusFile;

    static TileOptions parse(List<String> args, int np) {
        TileOptions o = new TileOptions();
        new CommandLine(o).parseArgs(args.toArray(String[]::new));
        if (o.nxTiles == 0) o.nxTiles = np / Math.max(1, o.nyTiles);
        if ((long) o.nxTiles * o.nyTiles != np) {
            throw new IllegalArgumentException("--nx-tiles x --ny-tiles = " + o.nxTiles + " x " + o.nyTiles + " must equal the " + np + " ranks");
        }
        if (o.tileX < 1 || o.tileY < 1 || o.elementSize < 1) throw new IllegalArgumentException("--tile-x, --tile-y and --element-size must be positive");
        if ((long) o.tileX * o.tileY * o.elementSize > Integer.MAX_VALUE - 8) throw new IllegalArgumentException("a tile must stay under 2 GiB");
        if (o.iterations < 1) throw new IllegalArgumentException("-i must be >= 1, was " + o.iterations);
        return o;
    }

    /** Parses and checks the options before a job is launched, so mistakes are reported at once. */
    public static void check(List<String> args, int np) {
        parse(args, np);
    }

    long tileBytes() {
        return (long) tileX * tileY * elementSize;
    }
}
