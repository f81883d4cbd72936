#!/usr/bin/env bash
# 10,000 Darshan logs scanned with `pdla darshan scan` (issue 15): the 20 sample logs of ../shared/data/darshan-logs
# copied 500 times into DIR (default target/scan10k, ~760 MB), then one timed scan.
#   bench/darshan-scan-10k.sh [DIR]
# Needs cli/target/pdla.jar (mvn -B -q -o -pl cli -am package -DskipTests).
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-target/scan10k}
LOGS=../shared/data/darshan-logs
[ -f cli/target/pdla.jar ] || { echo "darshan-scan-10k.sh: cli/target/pdla.jar missing; build it first" >&2; exit 2; }
mkdir -p "$DIR"
if [ "$(find "$DIR" -name '*.darshan' | wc -l)" -ne 10000 ]; then
  rm -f "$DIR"/*.darshan
  for k in $(seq 1 500); do for f in "$LOGS"/*.darshan; do cp "$f" "$DIR/l$k-$(basename "$f")"; done; done
fi
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -f "wall %e s, max RSS %M KiB" java -jar cli/target/pdla.jar darshan scan --no-progress "$DIR"
