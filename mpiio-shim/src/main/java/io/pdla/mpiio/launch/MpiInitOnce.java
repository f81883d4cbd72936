package io.pdla.mpiio.launch;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;

/**
 * Java agent that lets pdla initialise MPJ before the application does. With I/O delegates, a rank must
 * split COMM_WORLD into application and delegate groups before the application's {@code main} runs, so
 * RankMain calls {@code MPI.Init} first. MPJ's {@code MPI.Init} has no guard against a second call: it
 * re-initialises the device (niodev would bind its ports again), and {@code MPI.Finalize} in the
 * application would tear the device down while the delegates still serve other ranks.
 *
 * <p>The agent adds a static field {@value #OWNED_FIELD} to {@code mpi.MPI} and, at the start of
 * {@code Init(String[])} and {@code Finalize()}: while the field is true, {@code Init} returns the
 * application's arguments (MPJ's three leading ones removed, as MPJ's own Init returns them) and
 * {@code Finalize} returns at once. RankMain sets the field, runs main, clears it and finalises for real.
 * The patched class refers to JDK types only, so it works in every class loader MPJ's multicore device gives
 * a rank. The same agent also makes MPJ's context agreement linear ({@link ContextAgreementPatch}); everything
 * else in MPJ is untouched. Its argument, when the launcher gives one ({@value #SHARED_ARGUMENT}PATH), names
 * {@link SharedClassesJar}'s jar, which it appends to the system class path before MPJ makes the ranks' loaders.
 */
public final class MpiInitOnce {
    public static final String OWNED_FIELD = "pdla$owned";

    private MpiInitOnce() {
    }

    /** The agent's argument that names the shared classes' jar. */
    public static final String SHARED_ARGUMENT = "shared=";

    /**
     * Online PDLA's matcher warm-up (pattern-analyzer's {@code online.MatcherWarmup}, a shared class): it compiles the
     * code every read of a job's first pass runs, once per JVM, since a shared class's compiled code is every rank's;
     * started here, before MPJ makes the ranks, it is done by their first open. Named, not linked (the agent's jar
     * holds none of pdla's modules), and loaded only when a setting names online PDLA at all, so that other jobs load
     * nothing of it; the class itself decides whether the setting turns it on.
     */
    static final String ONLINE_WARMUP = "io.pdla.patterns.online.MatcherWarmup";

    /** Starts {@link #ONLINE_WARMUP} when online PDLA may be on; absent (a module not installed) or failing, nothing happens. */
    static void startSharedWarmups() {
        if (System.getenv("PDLA_ONLINE") == null && System.getProperty("pdla.online") == null
                && System.getProperty("pdla.env.PDLA_ONLINE") == null) return;
        try {
            Class.forName(ONLINE_WARMUP, true, ClassLoader.getSystemClassLoader()).getMethod("startIfOnline").invoke(null);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            // the rank's own warm-up (OnlineProvider.warmUp) tries again, and the open reports what is wrong
        }
    }

    public static void premain(String args, Instrumentation inst) {
        if (args != null && args.startsWith(SHARED_ARGUMENT)) {
            String jar = args.substring(SHARED_ARGUMENT.length());
            try {
                inst.appendToSystemClassLoaderSearch(new java.util.jar.JarFile(jar));
                startSharedWarmups();
            } catch (java.io.IOException e) {
                // the ranks then load every class in their own loaders, as with PDLA_SHARED_CLASSES=false
                System.err.println("pdla: cannot share pdla's classes among the ranks (" + jar + "): " + e);
            }
        }
        byte[] template = null;
        try (java.io.InputStream in = MpiInitOnce.class.getClassLoader().getResourceAsStream(ContextAgreementPatch.TEMPLATE)) {
            if (in != null) template = in.readAllBytes();
        } catch (java.io.IOException e) {
            System.err.println("pdla: cannot read " + ContextAgreementPatch.TEMPLATE + " from the agent jar: " + e);
        }
        inst.addTransformer(new Transformer(template));
    }

    private static final class Transformer implements ClassFileTransformer {
        /** LinearContextAgreement's class file, or null: then MPJ's context agreement stays as it is. */
        private final byte[] agreement;

        Transformer(byte[] agreement) {
            this.agreement = agreement;
        }

        @Override
        public byte[] transform(ClassLoader loader, String className, Class<?> redefined, ProtectionDomain domain, byte[] bytes) {
            if (ContextAgreementPatch.TARGET.equals(className) && agreement != null) {
                try {
                    return ContextAgreementPatch.patch(bytes, agreement);
                } catch (RuntimeException e) {
                    System.err.println("pdla: cannot patch MPJ's context agreement (it stays quadratic): " + e);
                    return null;
                }
            }
            if (!"mpi/MPI".equals(className)) return null;
            try {
                return patch(bytes);
            } catch (RuntimeException e) {
                System.err.println("pdla: cannot patch mpi.MPI for delegates: " + e);
                return null;
            }
        }
    }

    static byte[] patch(byte[] original) {
        ClassReader reader = new ClassReader(original);
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
                if (name.equals("Init") && descriptor.equals("([Ljava/lang/String;)[Ljava/lang/String;")) return new InitGuard(mv);
                if (name.equals("Finalize") && descriptor.equals("()V")) return new FinalizeGuard(mv);
                return mv;
            }

            @Override
            public void visitEnd() {
                FieldVisitor fv = super.visitField(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC | Opcodes.ACC_VOLATILE, OWNED_FIELD, "Z", null, null);
                fv.visitEnd();
                super.visitEnd();
            }
        }, 0);
        return writer.toByteArray();
    }

    /** {@code if (pdla$owned) return Arrays.copyOfRange(args, 3, args.length);} */
    private static final class InitGuard extends MethodVisitor {
        InitGuard(MethodVisitor mv) {
            super(Opcodes.ASM9, mv);
        }

        @Override
        public void visitCode() {
            super.visitCode();
            Label proceed = new Label();
            visitFieldInsn(Opcodes.GETSTATIC, "mpi/MPI", OWNED_FIELD, "Z");
            visitJumpInsn(Opcodes.IFEQ, proceed);
            visitVarInsn(Opcodes.ALOAD, 0);
            visitInsn(Opcodes.ICONST_3);
            visitVarInsn(Opcodes.ALOAD, 0);
            visitInsn(Opcodes.ARRAYLENGTH);
            visitMethodInsn(Opcodes.INVOKESTATIC, "java/util/Arrays", "copyOfRange", "([Ljava/lang/Object;II)[Ljava/lang/Object;", false);
            visitTypeInsn(Opcodes.CHECKCAST, "[Ljava/lang/String;");
            visitInsn(Opcodes.ARETURN);
            visitLabel(proceed);
            visitFrame(Opcodes.F_SAME, 0, null, 0, null);
        }
    }

    /** {@code if (pdla$owned) return;} */
    private static final class FinalizeGuard extends MethodVisitor {
        FinalizeGuard(MethodVisitor mv) {
            super(Opcodes.ASM9, mv);
        }

        @Override
        public void visitCode() {
            super.visitCode();
            Label proceed = new Label();
            visitFieldInsn(Opcodes.GETSTATIC, "mpi/MPI", OWNED_FIELD, "Z");
            visitJumpInsn(Opcodes.IFEQ, proceed);
            visitInsn(Opcodes.RETURN);
            visitLabel(proceed);
            visitFrame(Opcodes.F_SAME, 0, null, 0, null);
        }
    }
}
