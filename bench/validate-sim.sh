#!/usr/bin/env bash
# sim-pfs against real storage (issue 17): calibrate sim-pfs's SSD-class server to this machine's disk with
# O_DIRECT probes, predict five workloads, run the same five for real through the shim on O_DIRECT, and print
# predicted / measured per workload and phase. The real side needs an idle machine.
#
#   bench/validate-sim.sh [--dir DIR] [-np N] [--per-rank SIZE_BYTES] [--iterations N]
#
# DIR must be on the disk to validate against and support O_DIRECT (not tmpfs); default ./target/validate-sim.
# Needs cli/target/pdla.jar (mvn -B -q -o -pl cli -am package -DskipTests) and MPJ (./pdla setup).
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=$PWD/target/validate-sim NP=4 PER_RANK=$((32 << 20)) ITER=3
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) DIR=$2; shift 2 ;;
    -np) NP=$2; shift 2 ;;
    --per-rank) PER_RANK=$2; shift 2 ;;
    --iterations) ITER=$2; shift 2 ;;
    *) echo "validate-sim.sh: unknown option '$1' (known: --dir DIR, -np N, --per-rank BYTES, --iterations N)" >&2; exit 2 ;;
  esac
done
JAR=cli/target/pdla.jar
[ -f "$JAR" ] || { echo "validate-sim.sh: $JAR missing; build it with: mvn -B -q -o -pl cli -am package -DskipTests" >&2; exit 2; }
export MPJ_HOME=${MPJ_HOME:-$PWD/.mpj-home}
mkdir -p "$DIR"
PDLA="java -jar $JAR"
DIRECT="--hint posix_direct_io=true"

echo "== 1. calibrate the SSD-class server to $DIR's disk (O_DIRECT probes)"
$PDLA cost calibrate --uri "$DIR/probe.dat" --device ssd $DIRECT --save "$DIR/disk.properties" | grep -E "ssd|saved" || true

echo "== 2. predict"
java -cp "$JAR" io.pdla.bench.validate.SimPredictions "$DIR/disk.properties" "$NP" "$PER_RANK" | tee "$DIR/predicted.tsv"

echo "== 3. measure (shim, O_DIRECT)"
: > "$DIR/measured.tsv"
ior() { # name -b -t -s
  $PDLA bench ior -np "$NP" -b "$2" -t "$3" -s "$4" -i "$ITER" --warmup 1 -k -o "$DIR/ior.dat" $DIRECT --no-baseline --json "$DIR/$1.json" > "$DIR/$1.log"
  python3 - "$DIR/$1.json" "$1" >> "$DIR/measured.tsv" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for s in r["summaries"]:
    # transfer time only: the model has no open/close (the first open of a job loads the plugins)
    print(f"{sys.argv[2]}\t{s['operation']}\t{s['meanTransferMiBps']:.1f}")
PY
}
ior ior-16k-strided 16384 16384 $((PER_RANK / 16384))
ior ior-256k-strided 262144 262144 $((PER_RANK / 262144))
ior ior-1m-segmented "$PER_RANK" 1048576 1
SIDE=$(python3 -c "import math; print(round(math.sqrt($NP)))")
$PDLA bench tile -np "$NP" --nx-tiles "$SIDE" --ny-tiles $((NP / SIDE)) --tile-x 512 --tile-y 512 --element-size 8 -i "$ITER" -o "$DIR/tile.dat" $DIRECT > "$DIR/tile.log"
python3 - "$DIR/tile.log" >> "$DIR/measured.tsv" <<'PY'
import re, sys
m = re.search(r"median MiB/s: write collective ([\d.]+), independent ([\d.]+); read collective ([\d.]+), independent ([\d.]+)", open(sys.argv[1]).read())
print(f"tile-io\tread\t{m.group(4)}\ntile-io\twrite\t{m.group(2)}")
PY
rm -f "$DIR/direct.json"
if $PDLA bench direct -np "$NP" --per-rank "$PER_RANK" --rounds "$ITER" --dir "$DIR/direct" --json "$DIR/direct.json" > "$DIR/direct.log" 2>&1; then
  python3 -c "import json; print('replica-read-readahead\tread\t%.1f' % json.load(open('$DIR/direct.json'))['median']['run2ReadAheadMiBps'])" >> "$DIR/measured.tsv"
else
  echo "validate-sim.sh: pdla bench direct failed (no measured replica read): $(grep -m1 -E 'Exception|error' "$DIR/direct.log")" >&2
fi

echo "== 4. predicted / measured (MiB/s)"
python3 - "$DIR/predicted.tsv" "$DIR/measured.tsv" <<'PY'
import sys
def load(p):
    return {(a, b): float(c) for a, b, c in (l.rstrip("\n").split("\t") for l in open(p) if l.strip() and not l.startswith("#"))}
pred, meas = load(sys.argv[1]), load(sys.argv[2])
print(f"{'workload':<24} {'phase':<6} {'predicted':>10} {'measured':>10} {'pred/meas':>10}")
for k in pred:
    if k not in meas:
        print(f"{k[0]:<24} {k[1]:<6} {pred[k]:>10.1f} {'n/a':>10}")
    else:
        r = pred[k] / meas[k]
        flag = "" if 0.75 <= r <= 1.25 else "  outside +-25%"
        print(f"{k[0]:<24} {k[1]:<6} {pred[k]:>10.1f} {meas[k]:>10.1f} {r:>10.2f}{flag}")
PY
