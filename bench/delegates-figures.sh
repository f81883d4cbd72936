#!/usr/bin/env bash
# Issue 13's wall-clock rows, rerun with one command: small strided writes and reads on O_DIRECT, and the idle
# path (large contiguous calls in the page cache), each without delegates and with D delegates, interleaved
# round by round (the side that goes first alternates) so that the disk's drift and other jobs' load hit both
# sides alike. Prints per-round ratios and the medians, from the JSON each `pdla bench ior` writes, and for the
# idle path the median open / transfer / close time of each side.
# Usage: bench/delegates-figures.sh [ROUNDS] [D] [DIR] [CASES]
#   CASES: any of small, large (the idle path as the table defines it: -w -r, each read right after its write)
#   and idle-read (the idle path's reads alone, -r -k -i 10 on a file written once: no write-back under the
#   reads), and large-steady (the idle path as "large", 10 iterations after 2 warm-ups: what is left of the cost
#   once each rank's JIT has compiled the path; "large" is mostly its first phases); default "small large".
# Builds nothing: it runs cli/target/pdla.jar (build it with `mvn -B -q -DskipTests package`), so it never
# installs into the shared ~/.m2 as `./pdla` would when the jar is stale.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
rounds="${1:-5}"; d="${2:-2}"; dir="${3:-$PWD/target/delegates-figures}"; cases="${4:-small large}"
jar="$PWD/cli/target/pdla.jar"
[ -f "$jar" ] || { echo "delegates-figures: $jar is missing; build it with: mvn -B -q -DskipTests package" >&2; exit 1; }
export MPJ_HOME="${MPJ_HOME:-$PWD/.mpj-home}"
[ -f "$MPJ_HOME/lib/starter.jar" ] || { echo "delegates-figures: no MPJ_HOME at $MPJ_HOME; run ./pdla setup once" >&2; exit 1; }
mkdir -p "$dir"; out="$dir/json"; rm -rf "$out"; mkdir -p "$out"
echo "delegates-figures: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $rounds rounds, D=$d, cases: $cases, files in $dir"
small=(-np 4 -b 16k -t 16k -s 512 -w -r -e -i 3 --warmup 1 --no-baseline --hint posix_direct_io=true --hint pdla_delegate_page_size=1m -o "$dir/small.dat")
large=(-np 4 -b 16m -t 1m -s 4 -w -r -i 3 --warmup 1 --no-baseline -o "$dir/large.dat")
large_steady=(-np 4 -b 16m -t 1m -s 4 -w -r -i 10 --warmup 2 --no-baseline -o "$dir/large-steady.dat")
idle_read=(-np 4 -b 16m -t 1m -s 4 -r -k -i 10 --warmup 1 --no-baseline -o "$dir/idle-read.dat")
if [[ " $cases " == *" idle-read "* ]]; then
  java -jar "$jar" bench ior -np 4 -b 16m -t 1m -s 4 -w -k -i 1 --no-baseline -o "$dir/idle-read.dat" > "$out/idle-read-setup.txt" 2>&1 \
    || { echo "writing the idle-read file failed:"; tail -5 "$out/idle-read-setup.txt"; exit 1; }
fi
for r in $(seq 1 "$rounds"); do
  for case in $cases; do
    if (( r % 2 )); then sides=(0 "$d"); else sides=("$d" 0); fi
    for k in "${sides[@]}"; do
      case "$case" in
        small) args=("${small[@]}") ;;
        large) args=("${large[@]}") ;;
        large-steady) args=("${large_steady[@]}") ;;
        idle-read) args=("${idle_read[@]}") ;;
        *) echo "delegates-figures: unknown case '$case' (small, large, large-steady, idle-read)" >&2; exit 2 ;;
      esac
      java -jar "$jar" bench ior --delegates "$k" "${args[@]}" --json "$out/$case-d$k-r$r.json" > "$out/$case-d$k-r$r.txt" 2>&1 \
        || { echo "round $r $case D=$k failed:"; tail -5 "$out/$case-d$k-r$r.txt"; exit 1; }
    done
  done
done
python3 - "$out" "$rounds" "$d" "$cases" <<'PY'
import json, statistics, sys
out, rounds, d, cases = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4].split()
def points(case, k, r, op):
    p = json.load(open(f"{out}/{case}-d{k}-r{r}.json"))["points"]
    return [x for x in p if x["backend"] == "mpiio" and x["operation"] == op]
def mean(case, k, r, op):
    s = json.load(open(f"{out}/{case}-d{k}-r{r}.json"))["summaries"]
    return next(x["meanMiBps"] for x in s if x["backend"] == "mpiio" and x["operation"] == op)
labels = {"small": "16 KiB strided, O_DIRECT, write+fsync / read", "large": "1 MiB transfers, page cache (idle path)",
          "large-steady": "1 MiB transfers, page cache (idle path), 10 iterations after 2 warm-ups",
          "idle-read": "1 MiB transfers, page cache, reads alone (idle path)"}
for case in cases:
    ops = ("read",) if case == "idle-read" else ("write", "read")
    print(f"\n{labels[case]}: MiB/s without / with {d} delegates, ratio")
    for op in ops:
        ratios = []
        for r in range(1, rounds + 1):
            a, b = mean(case, 0, r, op), mean(case, d, r, op)
            ratios.append(b / a)
            print(f"  round {r} {op:5s} {a:9.1f} {b:9.1f} {b / a:6.2f}")
        print(f"  {op}: median ratio {statistics.median(ratios):.2f} (range {min(ratios):.2f}-{max(ratios):.2f})")
        if case != "small":
            whole = {}
            for k in (0, d):
                ph = [x for r in range(1, rounds + 1) for x in points(case, k, r, op)]
                med = lambda key: statistics.median(x[key] for x in ph) * 1e3
                whole[k] = med('seconds')
                print(f"    D={k}: {len(ph)} phases, median ms: whole {med('seconds'):.1f}, open {med('openSeconds'):.1f}, "
                      f"transfer {med('transferSeconds'):.1f}, close {med('closeSeconds'):.1f}")
            # the rounds' means above carry the page cache's writeback stalls (one 0.5 s phase in 40 moves a mean
            # by 10 %); the median phase does not
            print(f"    median phase without / with: {whole[0] / whole[d]:.2f}")
PY
echo "load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
