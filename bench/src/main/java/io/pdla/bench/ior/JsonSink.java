package io.pdla.bench.ior;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes the whole report as one JSON document at the end (raw points, summaries, ratios). */
public final class JsonSink implements ResultSink {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private final Path file;

    public JsonSink(Path file) {
        this.file = file;
    }

    @Override
    public void header(RunInfo run) {
        // everything is written at the end
    }

    @Override
    public void point(IterationPoint point) {
        // kept in the report
    }

    @Override
    public void finish(IorReport report) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) Files.createDirectories(parent);
        MAPPER.writeValue(file.toFile(), report);
    }
}
