package io.pdla.patterns.rootcause;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Per-file intervals from elsewhere: a header line, then one line per file. Required columns {@code file,
 * start, end} (seconds); optional factor columns, in any order: {@code bytes_read, bytes_written, requests,
 * small_requests, nonconsecutive_requests, collective (0/1 or true/false), ranks (';'-separated), stripe_count,
 * storage_targets (';'-separated ids), metadata_time (seconds)}. An empty cell means unknown. No quoting: file
 * names must not contain commas.
 */
public final class IntervalCsv {
    public static final List<String> REQUIRED = List.of("file", "start", "end");
    public static final List<String> OPTIONAL = List.of("bytes_read", "bytes_written", "requests", "small_requests",
            "nonconsecutive_requests", "collective", "ranks", "stripe_count", "storage_targets", "metadata_time");

    private IntervalCsv() {
    }

    /** @throws IllegalArgumentException naming the file, line and column of the first bad cell */
    public static List<FileIoStats> read(Path csv) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
            String header = in.readLine();
            if (header == null) throw new IllegalArgumentException(csv + ": empty, expected a header line with file,start,end");
            String[] names = header.strip().split(",", -1);
            Map<String, Integer> col = new HashMap<>();
            for (int i = 0; i < names.length; i++) {
                String n = names[i].strip().toLowerCase();
                if (!REQUIRED.contains(n) && !OPTIONAL.contains(n)) {
                    throw new IllegalArgumentException(csv + ":1: unknown column '" + names[i] + "' (known: " + REQUIRED + " " + OPTIONAL + ")");
                }
                if (col.put(n, i) != null) throw new IllegalArgumentException(csv + ":1: column '" + n + "' twice");
            }
            for (String r : REQUIRED) if (!col.containsKey(r)) throw new IllegalArgumentException(csv + ":1: header lacks column '" + r + "'");
            List<FileIoStats> out = new ArrayList<>();
            Map<String, Integer> lineOfFile = new HashMap<>();   // the analysis takes one interval per file
            String line;
            int lineNo = 1;
            while ((line = in.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) continue;
                String[] cells = line.split(",", -1);
                if (cells.length != names.length) {
                    throw new IllegalArgumentException(csv + ":" + lineNo + ": " + cells.length + " cells, header has " + names.length);
                }
                Row row = new Row(csv, lineNo, cells, col);
                try {
                    out.add(new FileIoStats(row.text("file"), row.dbl("start"), row.dbl("end"), row.lng("bytes_read"),
                            row.lng("bytes_written"), row.lng("requests"), row.lng("small_requests"),
                            row.lng("nonconsecutive_requests"), row.bool("collective"), row.ints("ranks"),
                            row.lng("stripe_count") == null ? null : Math.toIntExact(row.lng("stripe_count")),
                            row.ints("storage_targets"), row.dblOrNull("metadata_time")));
                    Integer first = lineOfFile.putIfAbsent(row.text("file"), lineNo);
                    if (first != null) {
                        throw new IllegalArgumentException(csv + ":" + lineNo + ": file " + row.text("file") + " already has an interval on line "
                                + first + "; give one line per file");
                    }
                } catch (IllegalArgumentException | ArithmeticException e) {
                    if (e.getMessage() != null && e.getMessage().startsWith(csv.toString())) throw e;
                    throw new IllegalArgumentException(csv + ":" + lineNo + ": " + e.getMessage(), e);
                }
            }
            return out;
        }
    }

    private record Row(Path csv, int line, String[] cells, Map<String, Integer> col) {
        String raw(String name) {
            Integer i = col.get(name);
            return i == null ? "" : cells[i].strip();
        }

        IllegalArgumentException bad(String name, String why) {
            return new IllegalArgumentException(csv + ":" + line + ": column '" + name + "': " + why);
        }

        String text(String name) {
            String s = raw(name);
            if (s.isEmpty()) throw bad(name, "empty");
            return s;
        }

        double dbl(String name) {
            Double d = dblOrNull(name);
            if (d == null) throw bad(name, "empty");
            return d;
        }

        Double dblOrNull(String name) {
            String s = raw(name);
            if (s.isEmpty()) return null;
            try {
                double d = Double.parseDouble(s);
                if (!Double.isFinite(d)) throw bad(name, "'" + s + "' is not a finite number");
                return d;
            } catch (NumberFormatException e) {
                throw bad(name, "'" + s + "' is not a number");
            }
        }

        Long lng(String name) {
            String s = raw(name);
            if (s.isEmpty()) return null;
            try {
                long v = Long.parseLong(s);
                if (v < 0) throw bad(name, "negative count " + v);
                return v;
            } catch (NumberFormatException e) {
                throw bad(name, "'" + s + "' is not a whole number");
            }
        }

        Boolean bool(String name) {
            String s = raw(name).toLowerCase();
            return switch (s) {
                case "" -> null;
                case "1", "true", "yes" -> true;
                case "0", "false", "no" -> false;
                default -> throw bad(name, "'" + s + "' is not 0/1");
            };
        }

        Set<Integer> ints(String name) {
            String s = raw(name);
            if (s.isEmpty()) return null;
            Set<Integer> out = new LinkedHashSet<>();
            for (String p : s.split(";")) {
                try {
                    out.add(Integer.parseInt(p.strip()));
                } catch (NumberFormatException e) {
                    throw bad(name, "'" + p + "' is not an integer id");
                }
            }
            return out;
        }
    }
}
