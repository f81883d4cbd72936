#!/usr/bin/env bash
# Two-phase exchange across JVMs: point to point against Alltoallv (hint pdla_cb_exchange), MPI-Tile-IO shape
# on 4 niodev ranks over loopback, the two modes alternated ROUNDS times (default 3) so drift hits both alike.
# Starts MPJ's daemon on port 40055 for the run. Output to the terminal and bench/exchange-figures.log.
# Usage: bench/exchange-figures.sh [ROUNDS] [DIR]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROUNDS="${1:-3}"
DIR="${2:-/tmp}/pdla-exchange-figures"
mkdir -p "$DIR"
"$ROOT/pdla" setup >/dev/null
export MPJ_HOME="$ROOT/.mpj-home"
echo localhost > "$DIR/machines"
java -jar "$MPJ_HOME/lib/daemon.jar" 40055 > "$DIR/daemon.log" 2>&1 &
DAEMON=$!
trap 'kill $DAEMON 2>/dev/null || true; pkill -f "daemon.jar 40055" 2>/dev/null || true' EXIT
sleep 3
LOG="$ROOT/bench/exchange-figures.log"
{
  date -u; nproc; java -version 2>&1 | head -1
  for i in $(seq "$ROUNDS"); do
    for mode in point_to_point alltoallv; do
      echo "\$ pdla bench tile -np 4 --dev niodev ... --hint pdla_cb_exchange=$mode   (round $i, load $(cut -d' ' -f1-3 /proc/loadavg))"
      "$ROOT/pdla" bench tile -np 4 --dev niodev --machines "$DIR/machines" --nx-tiles 2 --ny-tiles 2 --tile-x 512 --tile-y 512 \
        --element-size 64 -i 5 --warmup 2 -o "$DIR/tile.dat" --hint pdla_cb_exchange="$mode" --hint romio_cb_write=enable \
        --hint romio_cb_read=enable | grep -E "median|ratio"
    done
  done
  date -u
} 2>&1 | tee "$LOG"
