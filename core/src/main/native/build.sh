#!/bin/sh
# Builds libpdlaposix.so (pdla_posix.c) into the classes directory, where NativePosix finds it as a resource.
# Run by core's Maven build (exec-maven-plugin, phase compile) on Linux: build.sh SOURCE_DIR OUT_DIR JAVA_HOME.
# Needs gcc and the JDK's include directory; -Dpdla.native.skip builds core without it (the driver then
# reports one line and uses FileChannel).
set -e
src="$1/pdla_posix.c"
out="$2/libpdlaposix.so"
jdk="$3"
[ -f "$jdk/include/jni.h" ] || jdk="$(dirname "$jdk")"   # java.home of a JRE inside a JDK
if [ ! -f "$jdk/include/jni.h" ]; then
    echo "pdla core: no jni.h under $3/include: install a JDK (not a JRE), or build with -Dpdla.native.skip" >&2
    exit 1
fi
command -v gcc >/dev/null || { echo "pdla core: gcc not found: install it, or build with -Dpdla.native.skip" >&2; exit 1; }
mkdir -p "$2"
if [ -f "$out" ] && [ "$out" -nt "$src" ] && [ "$out" -nt "$0" ]; then exit 0; fi
gcc -O2 -fPIC -shared -Wall -Wextra -Wno-unused-parameter -o "$out" -I"$jdk/include" -I"$jdk/include/linux" "$src"
