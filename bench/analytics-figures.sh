#!/usr/bin/env bash
# Issue 16 speed figures (bench/RESULTS-analytics.md), one command:
#   1. ingest: small sample logs (those under 16 KB of bench/lib/sample-logs.sh: the logs pdla's writer makes, or
#      PDLA_DARSHAN_SAMPLE_LOGS) copied to N logs (default 10,000),
#      one timed `pdla logs ingest` into fresh tables (logs/s as printed, and wall time with JVM start);
#   2. query: `pdla logs synth` 100,000 jobs x 10 files, then each query timed (engine open + query as printed by
#      pdla query on stderr, and wall time with JVM start), twice each (the second with the file cache warm).
#   bench/analytics-figures.sh [WORKDIR] [N]
# Needs cli/target/pdla.jar (mvn -B -q -o -pl cli -am package -DskipTests).
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${1:-target/analytics-figures}
N=${2:-10000}
JAR=cli/target/pdla.jar
[ -f "$JAR" ] || { echo "analytics-figures.sh: $JAR missing; build it first" >&2; exit 2; }
. bench/lib/sample-logs.sh
mkdir -p "$WORK"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'), cores: $(nproc), load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

small=$(find "$SAMPLE_LOGS" -maxdepth 1 -name '*.darshan' -size -16k | sort)
nsmall=$(echo "$small" | wc -l)
if [ "$(find "$WORK/logs" -name '*.darshan' 2>/dev/null | wc -l)" -ne "$N" ]; then
  rm -rf "$WORK/logs"; mkdir -p "$WORK/logs"
  k=0
  while [ "$k" -lt "$N" ]; do
    for f in $small; do
      [ "$k" -lt "$N" ] || break
      d="$WORK/logs/$((k / 1000))"; mkdir -p "$d"
      cp "$f" "$d/l$k-$(basename "$f")"; k=$((k + 1))
    done
  done
fi
echo "== ingest: $N logs ($nsmall small sample logs, $(du -sh "$WORK/logs" | cut -f1))"
rm -rf "$WORK/tables"
/usr/bin/time -f "wall %e s, max RSS %M KiB" java -jar "$JAR" logs ingest --no-progress "$WORK/logs" --out "$WORK/tables" | grep -v '^tables:'
echo "== re-ingest (everything already there)"
/usr/bin/time -f "wall %e s" java -jar "$JAR" logs ingest --no-progress "$WORK/logs" --out "$WORK/tables" | head -2

echo "== synthetic: 100,000 jobs x 10 files"
rm -rf "$WORK/synth"
/usr/bin/time -f "wall %e s" java -jar "$JAR" logs synth --jobs 100000 --files-per-job 10 --out "$WORK/synth"
q() {
  echo "-- pdla query $*"
  for i in 1 2; do
    /usr/bin/time -f "wall %e s" java -jar "$JAR" query --tables "$WORK/synth" "$@" > "$WORK/out.txt"
  done
  tail -n 3 "$WORK/out.txt"
}
q --group-by app --agg 'sum(bytes_written)' --percentile bandwidth:95 --sort 'sum_bytes_written desc' --top 5
q --bin nprocs:64 --agg 'avg(bandwidth)' --percentile io_time:50
q --join file --filter 'file.LUSTRE_STRIPE_WIDTH = 1' --group-by io_mode --agg 'sum(file.POSIX_BYTES_WRITTEN)' --agg 'count(*)'
q --from file --group-by rank --agg 'sum(POSIX_BYTES_WRITTEN)' --sort 'sum_POSIX_BYTES_WRITTEN desc' --top 3
q --analysis slow-factors --slow-percentile 10
q --analysis io-modes
q --analysis top-apps --top 5
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
