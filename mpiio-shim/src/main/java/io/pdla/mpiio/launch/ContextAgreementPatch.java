package io.pdla.mpiio.launch;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Rewrites MPJ Express's {@code mpjdev.javampjdev.Comm} so that agreeing on a new communicator's context costs
 * 2(n-1) messages instead of n(n-1): {@code calculateContext} becomes a call of {@link LinearContextAgreement#agree},
 * whose bytecode is copied into the class as {@value LinearContextAgreement#INJECTED_NAME} (why, and what it
 * keeps of MPJ's protocol: that class). Nothing else in the class changes.
 */
final class ContextAgreementPatch {
    static final String TARGET = "mpjdev/javampjdev/Comm";
    static final String TEMPLATE = "io/pdla/mpiio/launch/LinearContextAgreement.class";
    private static final String AGREE = "(Lxdev/Device;Lmpjdev/Group;Lmpjdev/Group;ZIII)I";

    private ContextAgreementPatch() {
    }

    /** MPJ's class with the linear agreement; {@code template} is the class file of LinearContextAgreement. */
    static byte[] patch(byte[] comm, byte[] template) {
        ClassReader reader = new ClassReader(comm);
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        boolean[] replaced = {false};
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                if (!name.equals("calculateContext") || !descriptor.equals("(IZI)I")) {
                    return super.visitMethod(access, name, descriptor, signature, exceptions);
                }
                // calculateContext(int context, boolean local, int proposal):
                //   return pdla$agreeContext(device, group, localgroup, local, calContextTag, context, proposal);
                MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
                mv.visitCode();
                mv.visitVarInsn(Opcodes.ALOAD, 0);
                mv.visitFieldInsn(Opcodes.GETFIELD, TARGET, "device", "Lxdev/Device;");
                mv.visitVarInsn(Opcodes.ALOAD, 0);
                mv.visitFieldInsn(Opcodes.GETFIELD, TARGET, "group", "Lmpjdev/Group;");
                mv.visitVarInsn(Opcodes.ALOAD, 0);
                mv.visitFieldInsn(Opcodes.GETFIELD, TARGET, "localgroup", "Lmpjdev/Group;");
                mv.visitVarInsn(Opcodes.ILOAD, 2);
                mv.visitVarInsn(Opcodes.ALOAD, 0);
                mv.visitFieldInsn(Opcodes.GETFIELD, TARGET, "calContextTag", "I");
                mv.visitVarInsn(Opcodes.ILOAD, 1);
                mv.visitVarInsn(Opcodes.ILOAD, 3);
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, TARGET, LinearContextAgreement.INJECTED_NAME, AGREE, false);
                mv.visitInsn(Opcodes.IRETURN);
                mv.visitMaxs(0, 0);
                mv.visitEnd();
                replaced[0] = true;
                return null;   // MPJ's own body is dropped
            }

            @Override
            public void visitEnd() {
                new ClassReader(template).accept(new ClassVisitor(Opcodes.ASM9) {
                    @Override
                    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                        if (!name.equals("agree") || !descriptor.equals(AGREE)) return null;
                        return writer.visitMethod(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC,
                                LinearContextAgreement.INJECTED_NAME, descriptor, signature, exceptions);
                    }
                }, 0);
                super.visitEnd();
            }
        }, 0);
        if (!replaced[0]) throw new IllegalStateException(TARGET + " has no calculateContext(IZI)I: not the MPJ Express this patch knows");
        return writer.toByteArray();
    }
}
