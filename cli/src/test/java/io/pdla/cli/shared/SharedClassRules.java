package io.pdla.cli.shared;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.ClassRemapper;
import org.objectweb.asm.commons.Remapper;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The rules that decide which of pdla's classes all multicore ranks of a JVM share (mpiio-shim's
 * {@code SharedClassesJar}), applied to the main classes on this JVM's class path (cli's tests see every module).
 *
 * <ul>
 * <li>Candidates: the classes of the MPI-free modules a rank's I/O path uses ({@link #CANDIDATES}).</li>
 * <li>Closure: a shared class's bytecode (superclass, interfaces, fields, signatures, calls, constants, annotations)
 * names only JDK classes and shared classes, so the system class loader can link it without MPJ, {@code io.pdla.mpiio}
 * or any third-party library. A class and its nested classes go together (nest-mates reach each other's private
 * members, which only works inside one loader).</li>
 * <li>Split packages: a package may hold shared classes and classes left per rank (which reach the shared ones through
 * their loader's parent), but then the per-rank classes of that package may use only public or protected parts of
 * the shared ones: package-private access needs the same loader. A shared class that is reached that way stays per
 * rank.</li>
 * </ul>
 * The result is a fixed point: dropping a class can drop what refers to it.
 */
public final class SharedClassRules {
    /** Package prefixes (internal form) of the candidate classes. */
    public static final List<String> CANDIDATES = List.of(
            "io/pdla/access/", "io/pdla/intercept/", "io/pdla/storage/", "io/pdla/size/", "io/pdla/hints/", "io/pdla/pattern/",
            "io/pdla/tracer/", "io/pdla/darshan/", "io/pdla/patterns/online/", "io/pdla/patterns/template/",
            "io/pdla/delegate/", "io/pdla/redirect/", "io/pdla/catalog/", "io/pdla/simpfs/", "io/pdla/collective/", "io/pdla/straight/");

    /** Every main (not test) io/pdla class and resource file on the class path, by resource path; the first copy wins. */
    public static Map<String, byte[]> mainFiles() {
        Map<String, byte[]> out = new TreeMap<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (e.isBlank() || e.endsWith("test-classes") || e.endsWith("-tests.jar")) continue;
            Path p = Path.of(e);
            try {
                if (Files.isDirectory(p)) {
                    Path root = p.resolve("io/pdla");
                    if (!Files.isDirectory(root)) continue;
                    try (var files = Files.walk(root)) {
                        for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                            out.putIfAbsent(p.relativize(f).toString().replace(File.separatorChar, '/'), Files.readAllBytes(f));
                        }
                    }
                } else if (e.endsWith(".jar") && Files.isRegularFile(p)) {
                    try (JarFile jar = new JarFile(p.toFile())) {
                        for (JarEntry je : Collections.list(jar.entries())) {
                            if (je.isDirectory() || !je.getName().startsWith("io/pdla/")) continue;
                            try (InputStream in = jar.getInputStream(je)) {
                                out.putIfAbsent(je.getName(), in.readAllBytes());
                            }
                        }
                    }
                }
            } catch (IOException x) {
                throw new UncheckedIOException("cannot read class path entry " + e, x);
            }
        }
        return out;
    }

    /** The shared entries (class files and the resources beside them) the rules give for these files. */
    public static Set<String> sharedEntries(Map<String, byte[]> files) {
        return sharedEntries(files, new TreeMap<>());
    }

    /** The same, noting in {@code dropped} why each candidate left out was left out. */
    public static Set<String> sharedEntries(Map<String, byte[]> files, Map<String, String> dropped) {
        Map<String, byte[]> classes = new TreeMap<>();
        files.forEach((path, bytes) -> {
            if (path.endsWith(".class") && !path.endsWith("package-info.class")) classes.put(path.substring(0, path.length() - 6), bytes);
        });
        Map<String, Set<String>> refs = new HashMap<>();
        Map<String, Access> access = new HashMap<>();
        classes.forEach((name, bytes) -> {
            refs.put(name, references(bytes));
            access.put(name, Access.of(bytes));
        });
        Set<String> shared = new TreeSet<>();
        for (String n : classes.keySet()) if (CANDIDATES.stream().anyMatch(n::startsWith)) shared.add(n);
        boolean changed = true;
        while (changed) {
            changed = false;
            for (String n : new ArrayList<>(shared)) {
                if (!shared.contains(n)) continue;
                String why = closureBreak(n, refs.get(n), shared);
                if (why != null) {
                    dropped.put(n, why);
                    dropNest(shared, n);
                    changed = true;
                }
            }
            for (Map.Entry<String, Access> c : access.entrySet()) {
                if (shared.contains(c.getKey())) continue;
                for (String target : c.getValue().packagePrivateUses(c.getKey(), shared, access)) {
                    if (shared.contains(target)) {
                        dropped.put(target, "package-private part used by per-rank " + c.getKey());
                        dropNest(shared, target);
                        changed = true;
                    }
                }
            }
        }
        Set<String> out = new TreeSet<>();
        Set<String> packages = new TreeSet<>();
        for (String n : shared) {
            out.add(n + ".class");
            packages.add(n.substring(0, n.lastIndexOf('/') + 1));
        }
        // what a shared class reads beside itself (the POSIX driver's JNI library) must be found by its loader too
        for (String path : files.keySet()) {
            if (path.endsWith(".class")) continue;
            for (String p : packages) if (path.startsWith(p)) out.add(path);
        }
        return out;
    }

    /** Why {@code name} cannot be shared given {@code shared}, or null: the first reference outside the JDK and the set. */
    public static String closureBreak(String name, Set<String> references, Set<String> shared) {
        for (String r : references) {
            if (!shared.contains(r) && !isJdk(r)) return name + " -> " + r;
        }
        return null;
    }

    private static void dropNest(Set<String> shared, String name) {
        int dollar = name.indexOf('$', name.lastIndexOf('/'));
        String top = dollar < 0 ? name : name.substring(0, dollar);
        shared.removeIf(n -> n.equals(top) || n.startsWith(top + "$"));
    }

    public static boolean isJdk(String internalName) {
        return ClassLoader.getPlatformClassLoader().getResource(internalName + ".class") != null;
    }

    /** Every class the bytecode names (ClassRemapper maps every name a class file holds), without itself and arrays. */
    public static Set<String> references(byte[] bytes) {
        Set<String> out = new TreeSet<>();
        Remapper recorder = new Remapper() {
            @Override
            public String map(String internalName) {
                out.add(internalName);
                return internalName;
            }
        };
        ClassReader reader = new ClassReader(bytes);
        // a ClassWriter underneath: ClassRemapper visits a method's body only when the visitor below takes it
        reader.accept(new ClassRemapper(new ClassWriter(0), recorder), 0);
        out.remove(reader.getClassName());
        out.removeIf(n -> n.startsWith("["));
        return out;
    }

    /** A class's own access, its members' access, its superclass, and what members of other classes it uses. */
    static final class Access {
        int classAccess;
        String superName;
        final Map<String, Integer> members = new HashMap<>();   // name + descriptor -> access
        final Set<String> typeUses = new TreeSet<>();
        final Set<String[]> memberUses = new java.util.HashSet<>();   // {owner, name, descriptor}

        static Access of(byte[] bytes) {
            Access a = new Access();
            new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
                @Override
                public void visit(int version, int acc, String name, String signature, String superName, String[] interfaces) {
                    a.classAccess = acc;
                    a.superName = superName;
                }

                @Override
                public FieldVisitor visitField(int acc, String name, String descriptor, String signature, Object value) {
                    a.members.put(name + descriptor, acc);
                    return null;
                }

                @Override
                public MethodVisitor visitMethod(int acc, String name, String descriptor, String signature, String[] exceptions) {
                    a.members.put(name + descriptor, acc);
                    return new MethodVisitor(Opcodes.ASM9) {
                        @Override
                        public void visitFieldInsn(int opcode, String owner, String n, String d) {
                            a.memberUses.add(new String[]{owner, n, d});
                        }

                        @Override
                        public void visitMethodInsn(int opcode, String owner, String n, String d, boolean itf) {
                            a.memberUses.add(new String[]{owner, n, d});
                        }

                        @Override
                        public void visitTypeInsn(int opcode, String type) {
                            a.typeUses.add(type);
                        }

                        @Override
                        public void visitInvokeDynamicInsn(String n, String d, Handle bsm, Object... args) {
                            for (Object o : args) {
                                if (o instanceof Handle h) a.memberUses.add(new String[]{h.getOwner(), h.getName(), h.getDesc()});
                            }
                        }
                    };
                }
            }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
            return a;
        }

        /** The shared classes of {@code self}'s package whose package-private class or members {@code self} uses. */
        Set<String> packagePrivateUses(String self, Set<String> shared, Map<String, Access> all) {
            String pkg = self.substring(0, self.lastIndexOf('/') + 1);
            Set<String> out = new TreeSet<>();
            for (String owner : references(self, all)) {
                if (!shared.contains(owner) || !samePackage(owner, pkg)) continue;
                if (!isPublic(all.get(owner).classAccess)) out.add(owner);
            }
            for (String[] use : memberUses) {
                String owner = use[0];
                for (String c = owner; c != null && all.containsKey(c); c = all.get(c).superName) {
                    Integer acc = all.get(c).members.get(use[1] + use[2]);
                    if (acc == null) continue;
                    if (shared.contains(c) && samePackage(c, pkg) && (acc & (Opcodes.ACC_PUBLIC | Opcodes.ACC_PROTECTED)) == 0) out.add(c);
                    break;
                }
            }
            return out;
        }

        private Set<String> references(String self, Map<String, Access> all) {
            Set<String> out = new TreeSet<>(typeUses);
            for (String[] use : memberUses) out.add(use[0]);
            if (superName != null) out.add(superName);
            return out;
        }

        private static boolean samePackage(String name, String pkg) {
            return name.startsWith(pkg) && name.indexOf('/', pkg.length()) < 0;
        }

        private static boolean isPublic(int acc) {
            return (acc & Opcodes.ACC_PUBLIC) != 0;
        }
    }
}
