#!/usr/bin/env python3
"""CPU of each thread of a pdla job's MPJ rank JVM, by thread name, at its last sample before it exits.

Usage: MPJ_HOME=... bench/thread-cpu.py java -jar cli/target/pdla.jar bench ior --delegates 2 ...
Runs the command, finds the rank JVM it starts (its descendant whose class path has $MPJ_HOME/lib/smpdev.jar), reads
/proc/PID/task/*/stat every 20 ms and prints utime + stime per thread name (10 ms ticks; MPJ's rank threads are
named by number, JVM threads' digits are folded into #). The cost of one more phase of a benchmark is the
difference between runs with different iteration counts, divided by the difference in phases (see
RESULTS-delegates.md, session 7)."""
import collections, os, re, subprocess, sys, time

tick = os.sysconf("SC_CLK_TCK")
marker = os.path.join(os.environ["MPJ_HOME"], "lib", "smpdev.jar")
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
pid, last = None, {}


def descends_from(d, ancestor):
    """Whether process d was started (through any depth) by ancestor: on a shared machine other jobs' rank JVMs match too."""
    while d > 1:
        try:
            stat = open(f"/proc/{d}/stat").read()
        except OSError:
            return False
        d = int(stat[stat.rindex(")") + 2:].split()[1])
        if d == ancestor:
            return True
    return False


while p.poll() is None:
    if pid is None:
        for d in os.listdir("/proc"):
            if d.isdigit() and int(d) > p.pid:
                try:
                    if marker in open(f"/proc/{d}/cmdline", "rb").read().decode(errors="replace") and descends_from(int(d), p.pid):
                        pid = int(d)
                        break
                except OSError:
                    continue
    else:
        try:
            for t in os.listdir(f"/proc/{pid}/task"):
                try:
                    s = open(f"/proc/{pid}/task/{t}/stat").read()
                except OSError:
                    continue
                fields = s[s.rindex(")") + 2:].split()
                last[t] = (s[s.index("(") + 1:s.rindex(")")], int(fields[11]) + int(fields[12]))
        except FileNotFoundError:
            pass
    time.sleep(0.02)
by_name = collections.Counter()
for comm, ticks in last.values():
    by_name[comm if comm.isdigit() else re.sub(r"\d+", "#", comm)] += ticks * 1000 // tick
print("rank JVM", pid, "exit", p.returncode, "total ms", sum(by_name.values()))
for name, ms in by_name.most_common():
    if ms:
        print(f"  {name:20s} {ms}")
