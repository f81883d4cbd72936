package io.pdla.hdfs;

import io.pdla.storage.StorageException;
import io.pdla.storage.StorageException.Reason;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * One Hadoop {@link FileSystem} per NameNode authority, owned by one driver instance.
 *
 * <p>Why not {@code FileSystem.get}: its cache is shared by everything in the class loader, and closing a
 * cached instance breaks every other user of it. {@code newInstance} gives this driver its own clients,
 * which {@link #close()} may close. (Hadoop also closes them in its shutdown hook.) Nothing here is static:
 * under MPJ's multicore device each rank has its own class loader and its own driver instance anyway.
 *
 * <p>Configuration: Hadoop's defaults, then {@code core-site.xml} and {@code hdfs-site.xml} from the
 * class path, then from {@code $HADOOP_CONF_DIR} or the system property {@code pdla.hdfs.confDir}.
 */
final class HdfsConnections implements Closeable {
    static final String CONF_DIR_PROPERTY = "pdla.hdfs.confDir";

    /** Null: {@link #defaultConfiguration()} (no method reference at construction: spinning it would load Hadoop's classes). */
    private final Supplier<Configuration> confSource;
    private Configuration conf; // built at first connection: loading the drivers must not cost Hadoop's start-up
    private final Map<String, FileSystem> byAuthority = new ConcurrentHashMap<>();

    HdfsConnections(Supplier<Configuration> confSource) {
        this.confSource = confSource;
    }

    static Configuration defaultConfiguration() {
        Configuration conf = new Configuration();
        // Hadoop resolves resources and FileSystem classes through the thread context loader by default;
        // under MPJ multicore that loader is not the one that loaded us.
        conf.setClassLoader(HdfsConnections.class.getClassLoader());
        // Found by ServiceLoader normally; naming it survives shaded jars that lost META-INF/services entries.
        conf.setIfUnset("fs.hdfs.impl", DistributedFileSystem.class.getName());
        String dir = System.getProperty(CONF_DIR_PROPERTY, System.getenv("HADOOP_CONF_DIR"));
        if (dir != null && !dir.isBlank()) {
            for (String name : List.of("core-site.xml", "hdfs-site.xml")) {
                java.nio.file.Path f = java.nio.file.Path.of(dir, name);
                if (Files.isReadable(f)) conf.addResource(new Path(f.toUri()));
            }
        }
        return conf;
    }

    /** The client for the URI's NameNode; {@code hdfs:///path} means {@code fs.defaultFS}. */
    FileSystem fileSystem(URI uri) throws IOException {
        String authority = uri.getAuthority() == null ? "" : uri.getAuthority();
        FileSystem fs = byAuthority.get(authority);
        if (fs != null) return fs;
        synchronized (this) {
            fs = byAuthority.get(authority);
            if (fs == null) {
                fs = connect(uri, authority);
                byAuthority.put(authority, fs);
            }
            return fs;
        }
    }

    /** Caller holds this object's monitor. */
    private FileSystem connect(URI uri, String authority) throws IOException {
        if (conf == null) conf = confSource == null ? defaultConfiguration() : confSource.get();
        URI root;
        if (authority.isEmpty()) {
            root = FileSystem.getDefaultUri(conf);
            if (!"hdfs".equals(root.getScheme())) {
                throw new StorageException(Reason.BAD_ARGUMENT, uri + ": no NameNode in the URI and fs.defaultFS is '" + root
                        + "'; write hdfs://host:port/path or set fs.defaultFS in core-site.xml under $HADOOP_CONF_DIR");
            }
        } else {
            root = URI.create("hdfs://" + authority + "/");
        }
        try {
            return FileSystem.newInstance(root, conf);
        } catch (IOException e) {
            throw HdfsErrors.translate(e, uri, "connecting to " + root);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        List<IOException> failures = new ArrayList<>();
        for (FileSystem fs : byAuthority.values()) {
            try {
                fs.close();
            } catch (IOException e) {
                failures.add(e);
            }
        }
        byAuthority.clear();
        if (!failures.isEmpty()) {
            IOException e = new IOException("closing HDFS clients: " + failures.get(0).getMessage(), failures.get(0));
            failures.stream().skip(1).forEach(e::addSuppressed);
            throw e;
        }
    }
}
