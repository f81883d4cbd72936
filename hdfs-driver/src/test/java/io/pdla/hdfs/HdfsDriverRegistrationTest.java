package io.pdla.hdfs;

import io.pdla.storage.Capability;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;
import io.pdla.storage.StorageException;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.util.EnumSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** No cluster needed: discovery, declared capabilities and URI checks. */
class HdfsDriverRegistrationTest {
    @Test
    void hdfsUrisFindThisDriverThroughServiceLoader() {
        StorageDriver d = StorageDrivers.installed().forUri(StorageDrivers.toUri("hdfs://namenode:8020/data/f"));
        assertInstanceOf(HdfsDriver.class, d);
        assertEquals("hdfs", d.scheme());
    }

    @Test
    void declaresWhatHdfsCanDoAndNothingMore() {
        assertEquals(EnumSet.of(Capability.TRUNCATE, Capability.RENAME, Capability.LAYOUT), new HdfsDriver().capabilities());
    }

    @Test
    void uriWithoutNameNodeNeedsADefaultFileSystem() throws IOException {
        Configuration conf = new Configuration(false); // independent of any core-site.xml or HADOOP_CONF_DIR here
        conf.set("fs.defaultFS", "file:///");
        try (HdfsDriver d = new HdfsDriver(conf)) {
            StorageException e = assertThrows(StorageException.class, () -> d.exists(URI.create("hdfs:///data/f")));
            assertEquals(StorageException.Reason.BAD_ARGUMENT, e.reason());
            assertTrue(e.getMessage().contains("fs.defaultFS"), e.getMessage());
        }
    }

    @Test
    void otherSchemesAreRefused() throws IOException {
        try (HdfsDriver d = new HdfsDriver()) {
            StorageException e = assertThrows(StorageException.class, () -> d.exists(URI.create("file:/tmp/x")));
            assertEquals(StorageException.Reason.BAD_ARGUMENT, e.reason());
        }
    }
}
