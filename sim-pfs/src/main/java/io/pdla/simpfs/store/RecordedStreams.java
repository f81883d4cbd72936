package io.pdla.simpfs.store;

import io.pdla.simpfs.config.ConfigException;
import io.pdla.storage.Layout;
import io.pdla.simpfs.timing.Request;
import io.pdla.simpfs.timing.RequestStream;
import io.pdla.simpfs.timing.Workload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The streams a live run recorded (see {@link StreamRecorder}) as a {@link Workload}: rank R replays
 * {@code rank-R.stream}; files are numbered in path order and keep the layouts the namespace has now.
 */
public final class RecordedStreams implements Workload {
    private static final Pattern RANK_FILE = Pattern.compile("rank-(\\d+)\\.stream");

    private final List<Long> fileIds;

    private record Entry(Request.Kind kind, int file, long[] extents) {
    }

    private final String description;
    private final List<List<Entry>> perRank;
    private final List<Layout> layouts;

    private RecordedStreams(String description, List<List<Entry>> perRank, List<Layout> layouts, List<Long> fileIds) {
        this.fileIds = fileIds;
        this.description = description;
        this.perRank = perRank;
        this.layouts = layouts;
    }

    public static RecordedStreams load(SimPfs fs, String session) throws IOException {
        Path dir = fs.root().resolve("streams").resolve(session);
        if (!Files.isDirectory(dir)) throw new ConfigException("no recorded streams for session '" + session + "' under " + dir);
        Map<Integer, List<String[]>> lines = new TreeMap<>();
        TreeSet<String> paths = new TreeSet<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "rank-*.stream")) {
            for (Path p : ds) {
                Matcher m = RANK_FILE.matcher(p.getFileName().toString());
                if (!m.matches()) continue;
                List<String[]> rankLines = new ArrayList<>();
                int n = 0;
                for (String line : Files.readAllLines(p)) {
                    n++;
                    if (line.isBlank()) continue;
                    String[] f = line.split("\t");
                    boolean ok = f[0].equals("B") ? f.length == 1 : (f.length == 3 && (f[0].equals("R") || f[0].equals("W")));
                    if (!ok) throw new ConfigException(p + ":" + n + ": not a stream line: '" + line + "'");
                    if (f.length == 3) paths.add(f[1]);
                    rankLines.add(f);
                }
                lines.put(Integer.parseInt(m.group(1)), rankLines);
            }
        }
        if (lines.isEmpty()) throw new ConfigException("session '" + session + "' under " + dir + " has no rank streams");
        List<String> fileList = new ArrayList<>(paths);
        List<Layout> layouts = new ArrayList<>();
        List<Long> ids = new ArrayList<>();
        for (String path : fileList) {
            FileMeta meta = fs.lookup(path).orElseThrow(() -> new ConfigException(
                    "recorded stream of session '" + session + "' uses " + path + ", which no longer exists"));
            layouts.add(fs.layoutOf(meta));
            ids.add(meta.id());
        }
        int ranks = ((TreeMap<Integer, List<String[]>>) lines).lastKey() + 1;
        List<List<Entry>> perRank = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            List<Entry> entries = new ArrayList<>();
            for (String[] f : lines.getOrDefault(r, List.of())) {
                if (f[0].equals("B")) {
                    entries.add(new Entry(Request.Kind.BARRIER, 0, new long[0]));
                    continue;
                }
                String[] ext = f[2].split(",");
                long[] e = new long[ext.length * 2];
                for (int i = 0; i < ext.length; i++) {
                    int c = ext[i].indexOf(':');
                    e[2 * i] = Long.parseLong(ext[i].substring(0, c));
                    e[2 * i + 1] = Long.parseLong(ext[i].substring(c + 1));
                }
                entries.add(new Entry(f[0].equals("W") ? Request.Kind.WRITE : Request.Kind.READ, fileList.indexOf(f[1]), e));
            }
            perRank.add(entries);
        }
        return new RecordedStreams("recorded session " + session + " (" + ranks + " ranks, " + fileList.size() + " files)", perRank, layouts, ids);
    }

    /** Removes a session's streams, so that a new live run starts from empty streams. */
    public static void clear(SimPfs fs, String session) throws IOException {
        Path dir = fs.root().resolve("streams").resolve(session);
        if (!Files.isDirectory(dir)) return;
        try (var s = Files.list(dir)) {
            s.forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public int ranks() {
        return perRank.size();
    }

    @Override
    public List<Layout> files() {
        return List.copyOf(layouts);
    }

    /** Files start on the server their id picks, as their data does. */
    @Override
    public long rotation(int file) {
        return fileIds.get(file);
    }

    @Override
    public RequestStream stream(int rank) {
        List<Entry> entries = perRank.get(rank);
        return new RequestStream() {
            int i;

            @Override
            public boolean next(Request into) {
                if (i >= entries.size()) return false;
                Entry e = entries.get(i++);
                if (e.kind == Request.Kind.BARRIER) {
                    into.barrier();
                    return true;
                }
                into.set(e.kind, e.file);
                for (int k = 0; k < e.extents.length; k += 2) into.add(e.extents[k], e.extents[k + 1]);
                return true;
            }
        };
    }
}
