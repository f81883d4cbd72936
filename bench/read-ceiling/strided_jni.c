#define _GNU_SOURCE
#include <jni.h>
#include <fcntl.h>
#include <unistd.h>
JNIEXPORT jint JNICALL Java_Strided_open0(JNIEnv *e, jclass c, jstring p) {
  const char *s = (*e)->GetStringUTFChars(e, p, 0); int fd = open(s, O_RDONLY); (*e)->ReleaseStringUTFChars(e, p, s); return fd; }
/* as pdla's NativePosix does: the array pinned for the call, the kernel copies straight into it */
JNIEXPORT jlong JNICALL Java_Strided_pread0(JNIEnv *e, jclass c, jint fd, jbyteArray a, jint len, jlong pos) {
  jbyte *p = (*e)->GetPrimitiveArrayCritical(e, a, 0); ssize_t r = pread(fd, p, len, pos); (*e)->ReleasePrimitiveArrayCritical(e, a, p, 0); return r; }
