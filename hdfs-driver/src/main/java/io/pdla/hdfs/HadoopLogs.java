package io.pdla.hdfs;

/**
 * Lowers Hadoop's log levels through the log4j 1.2 API. Hadoop 3.4 logs through SLF4J to reload4j, a
 * maintained drop-in of log4j 1.2 (same {@code org.apache.log4j} package, which is also what MPJ Express's
 * runtime uses), so this works with either of them on the class path; with another SLF4J binding the
 * call is skipped and that binding's configuration decides.
 */
final class HadoopLogs {
    private HadoopLogs() {
    }

    static void quiet() {
        try {
            org.apache.log4j.Logger root = org.apache.log4j.Logger.getRootLogger();
            if (!root.getAllAppenders().hasMoreElements()) {
                // Nothing configured (no log4j.properties): without an appender log4j prints a "no appenders"
                // warning and then drops everything, errors included. Send warnings and errors to stderr.
                root.addAppender(new org.apache.log4j.ConsoleAppender(
                        new org.apache.log4j.PatternLayout("%d{HH:mm:ss} %-5p %c{1}: %m%n"), "System.err"));
                root.setLevel(org.apache.log4j.Level.WARN);
            }
            org.apache.log4j.Logger.getLogger("org.apache.hadoop").setLevel(org.apache.log4j.Level.ERROR);
            // DataNodes log an ERROR per interrupted transfer when the cluster stops: noise, not failure.
            org.apache.log4j.Logger.getLogger("org.apache.hadoop.hdfs.server.datanode.DataNode").setLevel(org.apache.log4j.Level.FATAL);
            org.apache.log4j.Logger.getLogger("org.eclipse.jetty").setLevel(org.apache.log4j.Level.WARN);
        } catch (LinkageError noLog4j) {
            // no log4j 1.2 API on the class path: nothing to lower here
        }
    }

    /**
     * A NameNode's block placement, which {@link #quiet} silences with the rest of Hadoop: why a block did not get
     * the storage type its policy asked for ("Failed to place enough replicas ... unavailableStorages=[SSD]",
     * "Not enough replicas was chosen. Reason: {NODE_TOO_BUSY=1}"). Logged only when placement falls short.
     */
    static void placement() {
        try {
            org.apache.log4j.Logger.getLogger("org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy").setLevel(org.apache.log4j.Level.INFO);
            org.apache.log4j.Logger.getLogger("org.apache.hadoop.hdfs.protocol.BlockStoragePolicy").setLevel(org.apache.log4j.Level.INFO);
        } catch (LinkageError noLog4j) {
            // no log4j 1.2 API on the class path
        }
    }
}
