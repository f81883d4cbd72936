package io.pdla.tracer.counters;

import io.pdla.tracer.format.JobInfo;
import io.pdla.tracer.format.TraceDirectory;
import io.pdla.tracer.runtime.JobFilesWriter;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/** job.json, the darshan-parser text of the reduced counters, and the Darshan log the hint {@value DarshanLogExport#HINT} asks for. */
public final class JobFiles implements JobFilesWriter {
    @Override
    public void write(Path dir, String writer, Map<String, String> hints) throws IOException {
        JobInfo.merge(dir, TraceDirectory.readSummaries(dir)).write(dir, writer);
        CounterLog.load(dir).writeText(dir, writer);
        String darshan = hints.getOrDefault(DarshanLogExport.HINT, "").trim();
        Boolean flag = io.pdla.hints.HintFlag.tryParse(darshan);   // true/false as every on/off hint; else a path
        if (!darshan.isEmpty() && !Boolean.FALSE.equals(flag)) {
            DarshanLogExport.write(dir, Boolean.TRUE.equals(flag) ? dir.resolve(DarshanLogExport.DEFAULT_NAME) : Path.of(darshan));
        }
    }
}
