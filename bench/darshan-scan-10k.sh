#!/usr/bin/env bash
# 10,000 Darshan logs scanned with `pdla darshan scan` (issue 15): the sample logs (bench/lib/sample-logs.sh: those
# pdla's writer makes, or PDLA_DARSHAN_SAMPLE_LOGS) copied round-robin to 10,000 files in DIR (default target/scan10k),
# then one timed scan.
#   bench/darshan-scan-10k.sh [DIR]
# Needs cli/target/pdla.jar (mvn -B -q -o -pl cli -am package -DskipTests).
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-target/scan10k}
[ -f cli/target/pdla.jar ] || { echo "darshan-scan-10k.sh: cli/target/pdla.jar missing; build it first" >&2; exit 2; }
. bench/lib/sample-logs.sh
mkdir -p "$DIR"
if [ "$(find "$DIR" -name '*.darshan' | wc -l)" -ne 10000 ]; then
  rm -f "$DIR"/*.darshan
  k=0
  while [ "$k" -lt 10000 ]; do
    for f in "$SAMPLE_LOGS"/*.darshan; do
      [ "$k" -lt 10000 ] || break
      cp "$f" "$DIR/l$k-$(basename "$f")"; k=$((k + 1))
    done
  done
fi
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -f "wall %e s, max RSS %M KiB" java -jar cli/target/pdla.jar darshan scan --no-progress "$DIR"
