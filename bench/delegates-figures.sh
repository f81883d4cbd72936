#!/usr/bin/env bash
# Issue 13's wall-clock rows, rerun with one command: small strided writes and reads on O_DIRECT, and the idle
# path (large contiguous calls in the page cache), each without delegates and with D delegates, interleaved
# round by round so that the disk's drift between runs hits both sides alike. Prints per-round ratios and the
# medians, from the JSON each `pdla bench ior` writes. Usage: bench/delegates-figures.sh [ROUNDS] [D] [DIR]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
rounds="${1:-5}"; d="${2:-2}"; dir="${3:-$PWD/target/delegates-figures}"
mkdir -p "$dir"; out="$dir/json"; rm -rf "$out"; mkdir -p "$out"
echo "delegates-figures: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $rounds rounds, D=$d, files in $dir"
small=(-np 4 -b 16k -t 16k -s 512 -w -r -e -i 3 --warmup 1 --no-baseline --hint posix_direct_io=true --hint pdla_delegate_page_size=1m -o "$dir/small.dat")
large=(-np 4 -b 16m -t 1m -s 4 -w -r -i 3 --warmup 1 --no-baseline -o "$dir/large.dat")
for r in $(seq 1 "$rounds"); do
  for case in small large; do
    for k in 0 "$d"; do
      if [ "$case" = small ]; then args=("${small[@]}"); else args=("${large[@]}"); fi
      ./pdla bench ior --delegates "$k" "${args[@]}" --json "$out/$case-d$k-r$r.json" > "$out/$case-d$k-r$r.txt" 2>&1 \
        || { echo "round $r $case D=$k failed:"; tail -5 "$out/$case-d$k-r$r.txt"; exit 1; }
    done
  done
done
python3 - "$out" "$rounds" "$d" <<'PY'
import json, statistics, sys
out, rounds, d = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def mean(case, k, r, op):
    s = json.load(open(f"{out}/{case}-d{k}-r{r}.json"))["summaries"]
    return next(x["meanMiBps"] for x in s if x["backend"] == "mpiio" and x["operation"] == op)
for case, label in (("small", "16 KiB strided, O_DIRECT, write+fsync / read"), ("large", "1 MiB transfers, page cache (idle path)")):
    print(f"\n{label}: MiB/s without / with {d} delegates, ratio")
    for op in ("write", "read"):
        ratios = []
        for r in range(1, rounds + 1):
            a, b = mean(case, 0, r, op), mean(case, d, r, op)
            ratios.append(b / a)
            print(f"  round {r} {op:5s} {a:9.1f} {b:9.1f} {b / a:6.2f}")
        print(f"  {op}: median ratio {statistics.median(ratios):.2f} (range {min(ratios):.2f}-{max(ratios):.2f})")
PY
echo "load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
