package io.pdla.bench.jmh;

import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs the JMH benchmarks of this module (all of them, or those matching JMH's usual arguments, e.g.
 * {@code chainWrite -f 1 -wi 2 -i 3}). Forks reuse this JVM's class path, so it works from the pdla jar
 * ({@code pdla bench jmh}) and from {@code java -cp ... io.pdla.bench.jmh.JmhMain}.
 */
public final class JmhMain {
    private JmhMain() {
    }

    public static void main(String[] args) throws RunnerException, CommandLineOptionException {
        System.exit(run(args));
    }

    /** Returns 0 when every benchmark produced a result. */
    public static int run(String... args) throws RunnerException, CommandLineOptionException {
        CommandLineOptions cli = new CommandLineOptions(args);
        Options options = cli.getIncludes().isEmpty()
                ? new OptionsBuilder().parent(cli).include(ShimOverheadBenchmark.class.getSimpleName()).build()
                : cli;
        return new Runner(options).run().isEmpty() ? 1 : 0;
    }
}
