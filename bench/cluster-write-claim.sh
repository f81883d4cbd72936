#!/usr/bin/env bash
# Open and write-claim time of writers on a replicated file across namespace hosts (bench/RESULTS-cluster.md), the
# launcher of each job on the first host of its machines file, links shaped by `pdla hosts up --rate`. Needs root.
#   1. against hosts and rank JVMs: 1x2, 2x2, 4x2 and 4x4 (16 rank JVMs), one job at a time;
#   2. against concurrent jobs: 1-4 jobs of 2 ranks started at once, job j on host j, all on one file and one catalog.
# Each point prepares its replicas first: a traced run of WriteClaimCostMain (rank r reads blocks r, r + np, ...),
# pdla analyze, pdla daemon --once on the last host; then the measured run (PDLA_BENCH_PHASE=measure) under redirect.
# Usage: bench/cluster-write-claim.sh [OUT_DIR]   (PDLA="java -cp ... io.pdla.cli.PdlaCommand" for another build;
# ITER=iterations, default 30; POINTS="1:2 2:2 4:2 4:4" hosts:ranks-per-host; JOBS="1 2 3 4" concurrent jobs, empty for
# none; CATALOG_WAIT_MS=the ranks' bound on waiting for the catalog's lock, default pdla's own 10000). A rank whose
# claim waited longer writes without the catalog (a WARNING in its log, counted as "fallbacks"). Hosts are removed at
# the end, also on failure.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
read -ra PDLA <<< "${PDLA:-$ROOT/pdla}"
OUT="$(mkdir -p "${1:-/tmp/pdla-cluster-claim}" && cd "${1:-/tmp/pdla-cluster-claim}" && pwd)"
ITER="${ITER:-30}"
BLOCK=16384 SEGMENTS=8
MAIN=io.pdla.bench.openclose.WriteClaimCostMain
STATE="$OUT/hosts.state"
"${PDLA[@]}" --version >/dev/null          # builds ./pdla's jar outside the hosts, which have no network
"${PDLA[@]}" hosts up 4 --rate "${RATE:-1gbit}" --prefix pdlab- --state "$STATE" --machines "$OUT/all.machines"
trap '"${PDLA[@]}" hosts down --state "$STATE"' EXIT
on() { local h=$1; shift; "${PDLA[@]}" hosts exec "$h" --state "$STATE" -- "$@"; }

# prepare NAME NP MACHINES HOST: a file with replicas for a job of NP ranks, its catalog in $OUT/NAME
prepare() {
  local name=$1 np=$2 machines=$3 host=$4 d="$OUT/$1"
  rm -rf "$d" && mkdir -p "$d"
  head -c $((np * BLOCK * SEGMENTS)) /dev/zero > "$d/data.dat"
  on "$host" env PDLA_BENCH_PHASE=trace "${PDLA[@]}" run -np "$np" --dev niodev --machines "$machines" --timeout 300 \
      --trace "$d/traces" -- "$MAIN" "$d/data.dat" $BLOCK $SEGMENTS "$ITER" > "$d/trace.log" 2>&1
  on "$host" "${PDLA[@]}" analyze "$d/traces" --db "$d/patterns" > "$d/analyze.log" 2>&1
  on 4 "${PDLA[@]}" daemon --once --db "$d/catalog" --patterns "$d/patterns" > "$d/daemon.log" 2>&1
}

# measure NAME NP MACHINES HOST LOG: one measured job (the same command as the traced one)
measure() {
  local d="$OUT/$1"
  on "$4" env PDLA_BENCH_PHASE=measure PDLA_CATALOG="$d/catalog" PDLA_CATALOG_WAIT_MS="${CATALOG_WAIT_MS:-10000}" "${PDLA[@]}" run -np "$2" --dev niodev --machines "$3" \
      --timeout 600 --interceptors redirect -- "$MAIN" "$d/data.dat" $BLOCK $SEGMENTS "$ITER" > "$5" 2>&1
}

for point in ${POINTS-1:2 2:2 4:2 4:4}; do
  hosts=${point%:*} per=${point#*:} np=$((${point%:*} * ${point#*:}))
  head -n "$hosts" "$OUT/all.machines" > "$OUT/machines-$hosts"
  prepare "h$hosts-r$per" "$np" "$OUT/machines-$hosts" 1
  measure "h$hosts-r$per" "$np" "$OUT/machines-$hosts" 1 "$OUT/claim-h$hosts-r$per.log"
  "${PDLA[@]}" replicas list --db "$OUT/h$hosts-r$per/catalog" > "$OUT/replicas-h$hosts-r$per.txt" 2>&1 || true
  echo "hosts=$hosts ranks/host=$per: $(grep -E '^ *(open|first|second|close)' "$OUT/claim-h$hosts-r$per.log" | tr -s ' ' | tr '\n' ';')"
  echo "  fallbacks: $(grep -c 'failed before a write' "$OUT/claim-h$hosts-r$per.log" || true); replicas: $(grep -c '^DIRTY' "$OUT/replicas-h$hosts-r$per.txt" || true) DIRTY of $(grep -cE '^(VALID|DIRTY|STALE)' "$OUT/replicas-h$hosts-r$per.txt" || true)"
done

# concurrent jobs: one prepared file (2 ranks), then 1..4 jobs at once, job j's 2 ranks on host j
[ -n "${JOBS-1 2 3 4}" ] || exit 0
sed -n 1p "$OUT/all.machines" > "$OUT/machines-one-1"
prepare concurrent 2 "$OUT/machines-one-1" 1
for jobs in ${JOBS-1 2 3 4}; do
  pids=()
  for j in $(seq "$jobs"); do
    sed -n "${j}p" "$OUT/all.machines" > "$OUT/machines-one-$j"
    measure concurrent 2 "$OUT/machines-one-$j" "$j" "$OUT/concurrent-$jobs-job$j.log" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
  for j in $(seq "$jobs"); do
    echo "jobs=$jobs job $j: $(grep -E '^ *(open|first|second|close)' "$OUT/concurrent-$jobs-job$j.log" | tr -s ' ' | tr '\n' ';') fallbacks: $(grep -c 'failed before a write' "$OUT/concurrent-$jobs-job$j.log" || true)"
  done
done
