#!/usr/bin/env bash
# Collective open + close across namespace hosts (bench/RESULTS-cluster.md): 1-4 hosts x 2 ranks, then 4 hosts x 4
# ranks (16 rank JVMs), links shaped by `pdla hosts up --rate`, the launcher on host 1. Needs root.
# Usage: bench/cluster-open-close.sh [OUT_DIR]   (PDLA="java -cp ... io.pdla.cli.PdlaCommand" for another build)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
read -ra PDLA <<< "${PDLA:-$ROOT/pdla}"
OUT="$(mkdir -p "${1:-/tmp/pdla-cluster-open}" && cd "${1:-/tmp/pdla-cluster-open}" && pwd)"
STATE="$OUT/hosts.state"
"${PDLA[@]}" --version >/dev/null
"${PDLA[@]}" hosts up 4 --rate "${RATE:-1gbit}" --prefix pdlab- --state "$STATE" --machines "$OUT/all.machines"
trap '"${PDLA[@]}" hosts down --state "$STATE"' EXIT
for point in 1:2 2:2 3:2 4:2 4:4; do
  hosts=${point%:*} per=${point#*:}
  : > "$OUT/machines-$hosts"
  head -n "$hosts" "$OUT/all.machines" >> "$OUT/machines-$hosts"
  for amode in rdwr rdonly; do
    "${PDLA[@]}" hosts exec 1 --state "$STATE" -- "${PDLA[@]}" bench open-close -np $((hosts * per)) --dev niodev \
        --machines "$OUT/machines-$hosts" -i "${ITER:-50}" --warmup 10 --amode "$amode" -o "$OUT/open.dat" \
        > "$OUT/open-$hosts-$per-$amode.log" 2>&1
    echo "hosts=$hosts ranks/host=$per $amode: $(grep -iE 'median' "$OUT/open-$hosts-$per-$amode.log" | tr '\n' ' ')"
  done
done
