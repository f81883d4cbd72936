package io.pdla.simpfs.run;

import java.nio.file.Path;

/**
 * What {@code pdla sim} asks for, with IOR's meanings: {@code blockSize} (-b) contiguous bytes per rank per
 * segment, {@code transferSize} (-t) bytes per call, {@code segments} (-s), {@code write}/{@code read}
 * (-w/-r; neither means both), {@code filePerProcess} (-F). {@code layout} is {@code 1dh}, {@code 1dv},
 * {@code 2d:GROUPSIZE} or {@code hybrid}, optionally with {@code ,key=value} settings; {@code space} is
 * hdd, ssd or hybrid (both classes). {@code config} null means the documented defaults.
 */
public record SimOptions(Path config, String workload, int ranks, long blockSize, long transferSize, int segments,
                         boolean write, boolean read, boolean filePerProcess, String layout, String space,
                         long seed) {
    public static SimOptions ior(int ranks, long blockSize, long transferSize) {
        return new SimOptions(null, "ior", ranks, blockSize, transferSize, 1, false, false, false, "1dh", "hdd", 1);
    }

    public SimOptions withLayout(String newLayout, String newSpace) {
        return new SimOptions(config, workload, ranks, blockSize, transferSize, segments, write, read, filePerProcess, newLayout, newSpace, seed);
    }

    public SimOptions withPhases(boolean w, boolean r) {
        return new SimOptions(config, workload, ranks, blockSize, transferSize, segments, w, r, filePerProcess, layout, space, seed);
    }

    public SimOptions withFilePerProcess(boolean f) {
        return new SimOptions(config, workload, ranks, blockSize, transferSize, segments, write, read, f, layout, space, seed);
    }

    public SimOptions withSegments(int s) {
        return new SimOptions(config, workload, ranks, blockSize, transferSize, s, write, read, filePerProcess, layout, space, seed);
    }
}
