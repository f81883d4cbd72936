#!/usr/bin/env bash
# IOR across namespace hosts (docs/cluster.md, bench/RESULTS-cluster.md): 1 to HOSTS (default 4) hosts with 2 ranks each, links
# shaped by `pdla hosts up --rate`, the launcher on host 1; 16 KiB strided and 1 MiB segmented, each with -c (the
# shim's collective calls and its independent calls in one run); then 4 ranks on hosts 1-2 with 2 I/O delegates on
# host 3. Needs root. Usage: bench/cluster-ior.sh [OUT_DIR]   (PDLA="java -cp ... io.pdla.cli.PdlaCommand" to
# use a build other than ./pdla). Hosts are removed at the end, also on failure.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
read -ra PDLA <<< "${PDLA:-$ROOT/pdla}"
OUT="$(mkdir -p "${1:-/tmp/pdla-cluster-ior}" && cd "${1:-/tmp/pdla-cluster-ior}" && pwd)"
RATE="${RATE:-1gbit}"
ITER="${ITER:-3}"
HOSTS="${HOSTS:-4}"   # at least 3: the delegates' run puts them on host 3
STATE="$OUT/hosts.state"
"${PDLA[@]}" --version >/dev/null          # builds ./pdla's jar outside the hosts, which have no network
"${PDLA[@]}" hosts up "$HOSTS" --rate "$RATE" --prefix pdlab- --state "$STATE" --machines "$OUT/all.machines"
trap '"${PDLA[@]}" hosts down --state "$STATE"' EXIT
on1() { "${PDLA[@]}" hosts exec 1 --state "$STATE" -- "$@"; }
declare -A SHAPE=([strided]="-b 16k -t 16k -s 256" [segmented]="-b 16m -t 1m -s 1")
for hosts in $(seq 1 "$HOSTS"); do
  head -n "$hosts" "$OUT/all.machines" > "$OUT/machines-$hosts"
  for shape in strided segmented; do
    # shellcheck disable=SC2086
    on1 "${PDLA[@]}" bench ior -np $((2 * hosts)) --dev niodev --machines "$OUT/machines-$hosts" \
        -c -w -r -C -e -i "$ITER" --warmup 1 -o "$OUT/ior.dat" ${SHAPE[$shape]} --json "$OUT/ior-$hosts-$shape.json" \
        > "$OUT/ior-$hosts-$shape.log" 2>&1
    echo "hosts=$hosts $shape: $(grep -E '^(Max|shim|collective)' "$OUT/ior-$hosts-$shape.log" | tr '\n' ' ')"
  done
done
for shape in strided segmented; do
  # shellcheck disable=SC2086
  on1 "${PDLA[@]}" bench ior -np 4 --delegates 2 --dev niodev --machines "$OUT/machines-3" \
      -w -r -C -e -i "$ITER" --warmup 1 -o "$OUT/ior.dat" ${SHAPE[$shape]} --json "$OUT/ior-delegates-$shape.json" \
      > "$OUT/ior-delegates-$shape.log" 2>&1
  echo "delegates on host 3, $shape: done"
done
