package io.pdla.cli.shared;

import io.pdla.mpiio.launch.SharedClassesJar;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Opcodes;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SharedClassesJar}'s list: what {@link SharedClassRules} give for this build, closed (no shared class names
 * MPJ, {@code io.pdla.mpiio} or a third-party library), and every static field of a shared class audited in
 * docs/architecture.md. Run with {@code -Dpdla.shared.regenerate=true} to write the list anew after a change
 * ({@code mvn -pl cli test -Dtest=SharedClassesListTest -Dpdla.shared.regenerate=true}).
 */
class SharedClassesListTest {
    private static final Path LIST = Path.of("../mpiio-shim/src/main/resources/io/pdla/mpiio/launch", SharedClassesJar.LIST);
    private static final Path ARCHITECTURE = Path.of("../docs/architecture.md");

    @Test
    void theListIsWhatTheRulesGiveForThisBuild() throws Exception {
        Map<String, String> dropped = new TreeMap<>();
        Set<String> computed = SharedClassRules.sharedEntries(SharedClassRules.mainFiles(), dropped);
        if (Boolean.getBoolean("pdla.shared.verbose")) dropped.forEach((c, why) -> System.out.println("PER-RANK " + c + ": " + why));
        assertTrue(computed.contains("io/pdla/storage/StorageFile.class") && computed.contains("io/pdla/tracer/runtime/RankTracer.class"),
                "the rules share core's storage and the tracer's runtime: " + computed.size() + " entries");
        if (Boolean.getBoolean("pdla.shared.regenerate")) {
            List<String> lines = new ArrayList<>();
            lines.add("# Written by cli's SharedClassesListTest (-Dpdla.shared.regenerate=true): the classes (and resources beside");
            lines.add("# them) that every rank of a multicore job shares, loaded once per JVM by the system class loader.");
            lines.addAll(computed);
            Files.write(LIST, lines);
        }
        List<String> listed = Boolean.getBoolean("pdla.shared.regenerate")
                ? Files.readAllLines(LIST).stream().filter(l -> !l.isBlank() && !l.startsWith("#")).toList() : SharedClassesJar.entries();
        assertEquals(computed, new TreeSet<>(listed), SharedClassesJar.LIST + " differs from what the rules give for this build:"
                + " rerun with -Dpdla.shared.regenerate=true (mvn -pl cli test -Dtest=SharedClassesListTest -Dpdla.shared.regenerate=true)");
    }

    @Test
    void everySharedClassNamesOnlyTheJdkAndOtherSharedClasses() throws Exception {
        List<String> entries = SharedClassesJar.entries();
        Set<String> shared = new TreeSet<>();
        for (String e : entries) if (e.endsWith(".class")) shared.add(e.substring(0, e.length() - 6));
        assertTrue(shared.size() > 100, "the list shares pdla's rank path: " + shared.size() + " classes");
        List<String> breaks = new ArrayList<>();
        List<String> forbidden = new ArrayList<>();
        for (String name : shared) {
            byte[] bytes = bytesOf(name + ".class");
            Set<String> refs = SharedClassRules.references(bytes);
            String why = SharedClassRules.closureBreak(name, refs, shared);
            if (why != null) breaks.add(why);
            for (String r : refs) {
                if (r.startsWith("mpi/") || r.startsWith("mpjdev/") || r.startsWith("xdev/") || r.startsWith("mpjbuf/")
                        || r.startsWith("io/pdla/mpiio/")) forbidden.add(name + " -> " + r);
            }
        }
        assertEquals(List.of(), forbidden, "shared classes that name MPJ's or the shim's per-rank classes");
        assertEquals(List.of(), breaks, "shared classes that name a class neither in the JDK nor shared");
        // and the rules' own negative: a class that needs a third-party library is not shared
        assertTrue(!shared.contains("io/pdla/size/ByteSizeConverter") && !shared.contains("io/pdla/tracer/format/JobInfo"),
                "picocli's converter and Jackson's users stay per rank");
    }

    @Test
    void noPerRankClassUsesAPackagePrivatePartOfASharedOne() {
        Map<String, byte[]> files = SharedClassRules.mainFiles();
        Set<String> shared = new TreeSet<>();
        for (String e : SharedClassesJar.entries()) if (e.endsWith(".class")) shared.add(e.substring(0, e.length() - 6));
        Map<String, SharedClassRules.Access> access = new TreeMap<>();
        files.forEach((p, b) -> {
            if (p.endsWith(".class") && !p.endsWith("package-info.class")) access.put(p.substring(0, p.length() - 6), SharedClassRules.Access.of(b));
        });
        List<String> bad = new ArrayList<>();
        access.forEach((name, a) -> {
            if (!shared.contains(name)) for (String t : a.packagePrivateUses(name, shared, access)) bad.add(name + " -> " + t);
        });
        assertEquals(List.of(), bad, "per-rank classes reaching package-private parts of shared classes (IllegalAccessError across loaders)");
    }

    /**
     * Every static field of a shared class that is not a constant of an immutable JDK type is one per JVM for all
     * ranks: each must be listed with its decision in docs/architecture.md (section "Classes shared by the ranks").
     */
    @Test
    void everySharedStaticIsAuditedInTheArchitecture() throws Exception {
        Set<String> found = new TreeSet<>();
        for (String e : SharedClassesJar.entries()) {
            if (!e.endsWith(".class")) continue;
            String cls = e.substring(0, e.length() - 6).replace('/', '.');
            new ClassReader(bytesOf(e)).accept(new ClassVisitor(Opcodes.ASM9) {
                @Override
                public FieldVisitor visitField(int acc, String name, String descriptor, String signature, Object value) {
                    if ((acc & Opcodes.ACC_STATIC) != 0 && !constant(acc, name, descriptor)) found.add(cls + "." + name);
                    return null;
                }
            }, ClassReader.SKIP_CODE);
        }
        Set<String> documented = documentedStatics();
        Set<String> undocumented = new TreeSet<>(found);
        undocumented.removeAll(documented);
        Set<String> stale = new TreeSet<>(documented);
        stale.removeAll(found);
        assertEquals(Set.of(), undocumented, "static fields of shared classes missing from docs/architecture.md's audit");
        assertEquals(Set.of(), stale, "docs/architecture.md's audit lists static fields no shared class has");
    }

    private static final Set<String> IMMUTABLE = Set.of("Ljava/lang/String;", "Ljava/lang/Long;", "Ljava/lang/Integer;",
            "Ljava/lang/Boolean;", "Ljava/lang/Double;", "Ljava/util/regex/Pattern;", "Ljava/lang/invoke/MethodHandle;",
            "Ljava/lang/invoke/VarHandle;", "Ljava/time/Duration;", "Ljava/util/logging/Logger;");

    /** Final primitives, final immutable JDK values, enum constants and the compiler's own tables. */
    private static boolean constant(int acc, String name, String descriptor) {
        if ((acc & Opcodes.ACC_FINAL) == 0) return false;
        if ((acc & Opcodes.ACC_ENUM) != 0 || name.equals("$VALUES") || name.startsWith("$SwitchMap") || name.equals("$assertionsDisabled")) return true;
        return descriptor.length() == 1 || IMMUTABLE.contains(descriptor);
    }

    /** Rows of the audit table: "| `io.pdla.Class` | `FIELD`, `FIELD` | decision |". */
    private static Set<String> documentedStatics() throws Exception {
        String doc = Files.readString(ARCHITECTURE);
        int start = doc.indexOf("<!-- shared-statics -->"), end = doc.indexOf("<!-- /shared-statics -->");
        assertTrue(start >= 0 && end > start, "docs/architecture.md has the audit table between <!-- shared-statics --> markers");
        Set<String> out = new TreeSet<>();
        Matcher row = Pattern.compile("^\\| `([\\w.$]+)` \\| ([^|]+) \\|", Pattern.MULTILINE).matcher(doc.substring(start, end));
        while (row.find()) {
            Matcher field = Pattern.compile("`([\\w$]+)`").matcher(row.group(2));
            while (field.find()) out.add(row.group(1) + "." + field.group(1));
        }
        return out;
    }

    private static byte[] bytesOf(String resource) throws Exception {
        try (InputStream in = SharedClassesListTest.class.getClassLoader().getResourceAsStream(resource)) {
            assertNotNull(in, resource + " is listed but not on the class path");
            return in.readAllBytes();
        }
    }
}
