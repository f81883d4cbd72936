#!/usr/bin/env bash
# Reruns every figure of bench/RESULTS-collective.md, one after another, on an idle machine. Output goes to
# the terminal and to bench/collective-figures.log. Usage: bench/collective-figures.sh [DIR]  (DIR: a disk
# directory that supports O_DIRECT; default /tmp)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="${1:-/tmp}/pdla-collective-figures"
mkdir -p "$DIR"
LOG="$ROOT/bench/collective-figures.log"
run() { echo; echo "\$ pdla $*"; echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"; "$ROOT/pdla" "$@"; }
{
  date -u; nproc; java -version 2>&1 | head -1
  # 16 KiB strided through a view (the README's Strided pattern): 512 pieces per rank per call
  run bench tile -np 4 --tile-x 2048 --tile-y 512 --element-size 8 -i 5 --warmup 2 -o "$DIR/tile16k.dat"
  run bench tile -np 4 --tile-x 2048 --tile-y 512 --element-size 8 -i 5 --warmup 2 -o "$DIR/tile16k.dat" --hint posix_direct_io=true
  # MPI-Tile-IO's own shape: 512 x 512 tiles of 64-byte elements on a 2 x 2 grid
  run bench tile -np 4 --nx-tiles 2 --ny-tiles 2 --tile-x 512 --tile-y 512 --element-size 64 -i 5 --warmup 2 -o "$DIR/tile.dat"
  run bench tile -np 4 --nx-tiles 2 --ny-tiles 2 --tile-x 512 --tile-y 512 --element-size 64 -i 5 --warmup 2 -o "$DIR/tile.dat" --hint posix_direct_io=true
  # IOR, one 16 KiB call per transfer: ROMIO's automatic rule, then two-phase forced on
  run bench ior -np 4 -b 16k -t 16k -s 2048 -c -w -r -i 5 --warmup 2 --no-baseline -o "$DIR/ior.dat"
  run bench ior -np 4 -b 16k -t 16k -s 2048 -c -w -r -i 5 --warmup 2 --no-baseline -o "$DIR/ior.dat" --hint romio_cb_write=enable --hint romio_cb_read=enable
  run bench ior -np 4 -b 16k -t 16k -s 2048 -c -w -r -i 5 --warmup 2 --no-baseline -o "$DIR/ior.dat" --hint romio_cb_write=enable --hint romio_cb_read=enable --hint posix_direct_io=true
  # sim-pfs, virtual time, 64 processes
  run bench sim-collective -np 64 -t 16k -s 16 --view --hint cb_nodes=8
  run bench sim-collective -np 64 -t 16k -s 16 --hint cb_nodes=8
  run bench partitions
  run bench jmh PartitionBenchmark -f 1 -wi 3 -i 5 -w 1 -r 1
  date -u
} 2>&1 | tee "$LOG"
