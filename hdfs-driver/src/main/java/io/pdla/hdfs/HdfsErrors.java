package io.pdla.hdfs;

import io.pdla.storage.StorageException;
import io.pdla.storage.StorageException.Reason;
import org.apache.hadoop.fs.ClusterStorageCapacityExceededException;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.AccessControlException;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;

/**
 * Turns Hadoop client exceptions into {@link StorageException}s whose message names the file, so the
 * shim can map them to MPI error classes without knowing Hadoop.
 */
final class HdfsErrors {
    private HdfsErrors() {
    }

    static StorageException translate(IOException e, URI file) {
        return translate(e, file, null);
    }

    /** {@code doing} says what was attempted ("append", "truncate to 100"...), or null. */
    static StorageException translate(IOException e, URI file, String doing) {
        if (e instanceof StorageException se) return se;
        IOException cause = e instanceof RemoteException re ? re.unwrapRemoteException() : e;
        String what = file + ": " + (doing == null ? "" : doing + ": ");
        if (cause instanceof FileNotFoundException) return new StorageException(Reason.NO_SUCH_FILE, what + "no such file: " + firstLine(cause), e);
        if (cause instanceof FileAlreadyExistsException) return new StorageException(Reason.FILE_EXISTS, what + "file exists", e);
        if (cause instanceof AccessControlException) return new StorageException(Reason.ACCESS_DENIED, what + "permission denied: " + firstLine(cause), e);
        if (cause instanceof ClusterStorageCapacityExceededException) return new StorageException(Reason.NO_SPACE, what + "quota or capacity exceeded: " + firstLine(cause), e);
        if (isLeaseConflict(cause, e)) {
            // HDFS has one writer per file (a lease). It is a missing capability, not an I/O fault.
            return new StorageException(Reason.UNSUPPORTED, what + "HDFS allows one writer per file and another client holds it open for writing: " + firstLine(cause), e);
        }
        return new StorageException(Reason.IO, what + firstLine(cause), e);
    }

    private static boolean isLeaseConflict(IOException cause, IOException original) {
        if (cause instanceof AlreadyBeingCreatedException) return true;
        String name = original instanceof RemoteException re ? re.getClassName() : cause.getClass().getName();
        return name.endsWith("AlreadyBeingCreatedException") || name.endsWith("RecoveryInProgressException")
                || name.endsWith("LeaseExpiredException");
    }

    /** Hadoop puts whole server stack traces into remote messages; the first line is the useful part. */
    private static String firstLine(Throwable t) {
        String m = t.getMessage();
        if (m == null) return t.getClass().getSimpleName();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
