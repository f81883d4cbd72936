package io.pdla.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What tells one version of a file's content from another when size and modification time were put back (as
 * {@code cp -p}, {@code rsync -t}, {@code tar -x} or a restore from backup do): a token the store derives from
 * what a user cannot set. For a local file that is its device, inode and change time (ctime, which no system
 * call sets back); a store builds its own from what it keeps (HDFS: the inode id).
 */
public final class ChangeStamp {
    /** A store that offers nothing better: replicas of its files cannot be vouched for. */
    public static final String NONE = "";

    private ChangeStamp() {
    }

    /** {@code dev:ino:ctime-ns} of a local file, or {@link #NONE} where the file system has no unix attributes. */
    public static String ofLocalFile(Path path) throws IOException {
        Map<String, Object> a;
        try {
            a = Files.readAttributes(path, "unix:dev,ino,ctime", LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException | IllegalArgumentException noUnixView) {
            return NONE;
        }
        return a.get("dev") + ":" + a.get("ino") + ":" + ((FileTime) a.get("ctime")).to(TimeUnit.NANOSECONDS);
    }
}
