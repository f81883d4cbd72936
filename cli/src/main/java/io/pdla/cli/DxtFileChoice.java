package io.pdla.cli;

import io.pdla.darshan.CounterRecord;
import io.pdla.darshan.DarshanLog;
import io.pdla.darshan.DxtRecord;
import io.pdla.darshan.ModuleData;
import io.pdla.darshan.ModuleId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a Darshan log offers {@code pdla what-if}, file by file: the DXT module each file's requests are taken from,
 * and what is missing. A file's DXT_MPIIO segments (the application's own calls, what pdla's analyzer learns from)
 * are used when the module is intact and records every offset; otherwise its DXT_POSIX segments. A module whose
 * region stops short (truncated or damaged log) is never used: which of its records were lost cannot be told.
 */
final class DxtFileChoice {
    /**
     * One file: {@code dxt} is the module its segments come from, or null when it cannot be predicted, then
     * {@code missing} says why; {@code notes} say what the prediction may lack.
     */
    record FileInput(long id, String name, ModuleData dxt, List<String> notes, String missing) {
        boolean predictable() { return dxt != null; }
    }

    /**
     * The files (DXT-traced ones, and files the POSIX or MPI-IO counters name), notes on the whole log, and
     * {@code noDxt}: why no file can be predicted when the log has no usable DXT segment at all, else null.
     */
    record Inputs(List<FileInput> files, List<String> logNotes, String noDxt) {}

    private DxtFileChoice() {}

    static Inputs of(DarshanLog log, String logName) {
        ModuleData mpi = log.module(ModuleId.DXT_MPIIO), posix = log.module(ModuleId.DXT_POSIX);
        List<String> logNotes = new ArrayList<>();
        if (log.namesError() != null) {
            logNotes.add("the file-name region is damaged (" + log.namesError().getMessage() + "): files it lost are shown by record id");
        }
        for (ModuleId counters : List.of(ModuleId.POSIX, ModuleId.MPIIO)) {
            ModuleData m = log.module(counters);
            if (m != null && m.partial()) {
                logNotes.add(counters.label() + " ran out of record memory in the run (partial flag): files past its limit are absent "
                        + "from its counters, so they are not listed below unless DXT traced them");
            }
        }
        for (ModuleData m : log.modules()) {
            if (m.note() == null) continue;
            String label = m.module() == null ? "module id " + m.index() : m.module().label();
            boolean dxt = m.module() == ModuleId.DXT_POSIX || m.module() == ModuleId.DXT_MPIIO;
            // a newer runtime's module is no reason to refuse the log: say what was left out and whether it mattered
            logNotes.add(label + " region skipped (" + m.note() + ")" + (dxt ? ": its segments are not used"
                    : ": what-if needs only the POSIX, MPI-IO and DXT modules"));
        }
        for (ModuleData m : new ModuleData[]{mpi, posix}) {
            if (m != null && m.error() != null) {
                logNotes.add(m.module().label() + " region stops short (truncated or damaged log: " + m.error().getMessage()
                        + "): its segments are not used");
            }
        }
        Set<Long> ids = new LinkedHashSet<>();
        for (ModuleData m : new ModuleData[]{mpi, posix}) {
            if (m != null) for (DxtRecord d : m.recordsOf(DxtRecord.class)) ids.add(d.id());
        }
        for (ModuleId counters : List.of(ModuleId.POSIX, ModuleId.MPIIO)) {
            ModuleData m = log.module(counters);
            if (m != null) for (CounterRecord r : m.recordsOf(CounterRecord.class)) ids.add(r.id());
        }
        List<FileInput> files = new ArrayList<>();
        for (long id : ids) files.add(choose(log, id, mpi, posix));
        long stdioOnly = stdioOnly(log, ids);
        if (stdioOnly > 0) {
            logNotes.add(stdioOnly + " file(s) have only STDIO records (fopen/fread/...), which DXT does not trace: not predicted");
        }
        return new Inputs(files, logNotes, noDxt(logName, mpi, posix, files));
    }

    private static String noDxt(String logName, ModuleData mpi, ModuleData posix, List<FileInput> files) {
        if (files.stream().anyMatch(FileInput::predictable)) return null;
        boolean damaged = (mpi != null && mpi.error() != null) || (posix != null && posix.error() != null);
        if (damaged) {
            return logName + " is truncated or damaged in its DXT region(s), so no file has DXT segments that can be trusted "
                    + "(the lost records cannot be told from the kept ones)";
        }
        boolean skipped = (mpi != null && mpi.note() != null) || (posix != null && posix.note() != null);
        if (skipped) {
            return logName + " has DXT regions this reader cannot read (see the warnings above), so no file has DXT segments "
                    + "to replay; a newer pdla may read them";
        }
        return logName + " has no DXT trace (no DXT_POSIX or DXT_MPIIO segment): the run was not traced with DXT "
                + "(set DXT_ENABLE_IO_TRACE=1 in the job's environment, Darshan 3.1 or later), and a prediction replays DXT "
                + "segments; its counters alone are explained by 'pdla why'";
    }

    private static FileInput choose(DarshanLog log, long id, ModuleData mpi, ModuleData posix) {
        String name = log.name(id);
        if (name == null || name.isEmpty()) name = "record-" + Long.toUnsignedString(id);
        List<String> notes = new ArrayList<>();
        List<DxtRecord> mpiRecords = recordsOf(mpi, id), posixRecords = recordsOf(posix, id);
        if (!mpiRecords.isEmpty() && usable(mpi)) {
            if (mpiRecords.stream().allMatch(d -> Arrays.stream(d.offsets()).allMatch(o -> o >= 0))) {
                partialNote(mpi, notes);
                return new FileInput(id, name, mpi, notes, null);
            }
            notes.add("DXT_MPIIO recorded no offsets for it (DXT_MPIIO version 1, or a Darshan built against Open MPI, "
                    + "which does not ask MPI-IO for them): "
                    + "predicted from its DXT_POSIX segments, the calls below MPI-IO (aggregators' requests under collective buffering)");
        } else if (mpi != null && mpi.error() != null) {
            notes.add("DXT_MPIIO is damaged, so its MPI-IO segments may be lost: predicted from its DXT_POSIX segments");
        }
        if (!posixRecords.isEmpty() && usable(posix)) {
            partialNote(posix, notes);
            return new FileInput(id, name, posix, notes, null);
        }
        String missing;
        if ((mpi != null && mpi.error() != null) || (posix != null && posix.error() != null)) {
            missing = "its DXT segments are lost: the log's DXT region stops short (truncated or damaged)";
        } else if (!mpiRecords.isEmpty() || !posixRecords.isEmpty()) {
            missing = "DXT has a record of it without a usable segment (no read or write with a known offset)";
        } else {
            missing = "no DXT segments: Darshan counted it (POSIX/MPI-IO) but DXT traced no read or write of it "
                    + "(it had none, or DXT's file filters or trace memory left it out)";
        }
        return new FileInput(id, name, null, notes, missing);
    }

    private static boolean usable(ModuleData m) {
        return m != null && m.error() == null;
    }

    private static void partialNote(ModuleData m, List<String> notes) {
        if (m.partial()) {
            notes.add("INCOMPLETE: " + m.module().label() + " ran out of trace memory in the run (partial flag): "
                    + "its later segments were not recorded, so the prediction covers only the requests recorded");
        }
    }

    /** The file's records that hold at least one segment. */
    private static List<DxtRecord> recordsOf(ModuleData m, long id) {
        if (m == null) return List.of();
        return m.recordsOf(DxtRecord.class).stream().filter(d -> d.id() == id && d.segmentCount() > 0).toList();
    }

    private static long stdioOnly(DarshanLog log, Set<Long> known) {
        ModuleData stdio = log.module(ModuleId.STDIO);
        if (stdio == null) return 0;
        return stdio.recordsOf(CounterRecord.class).stream().map(CounterRecord::id).filter(i -> !known.contains(i)).distinct().count();
    }
}
