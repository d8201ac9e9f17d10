#!/usr/bin/env bash
# Live-stream benchmark: one release replica with 10,000 listeners of GET …/live on 100 boards.
#
#   bash ops/bench/bench-live.sh                                   the defaults below
#   BENCH_LISTENERS=2000 BENCH_RATE=200 bash ops/bench/bench-live.sh
#   BENCH_BINARY=path bash ops/bench/bench-live.sh                 another build of podium
#
# Prints (ops/bench/bench-live.py): ingest without listeners; the replica's resident memory with the listeners
# connected and at its peak (target < 300 MB); the delay from a completion's answer to its page event at a
# probe listener per board at BENCH_RATE completions/s (target p99 < 1 s); ingest with the listeners
# connected and its ratio to ingest without (target >= 0.8). Uses its own database (podium_bench_live) and
# Redis db 3; touches nothing else.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
bash ops/services.sh >/dev/null
. "$root/ops/lib/swift.sh"

pg_port="${PODIUM_PG_PORT:-5432}"
redis_port="${PODIUM_REDIS_PORT:-6379}"
port="${BENCH_PORT:-18081}"
work="$root/.local/bench-live"
mkdir -p "$work"
benchmark_binary
# 10,000 streams and the bench's own connections: raise the descriptor limit for the replica and the client.
ulimit -n "$(ulimit -Hn)"
benchmark_environment podium_bench_live 3 "$port"
export PODIUM_LOG_LEVEL=warning PODIUM_MAX_CONNECTIONS=20000
dropdb -h 127.0.0.1 -p "$pg_port" -U postgres --if-exists --force podium_bench_live
createdb -h 127.0.0.1 -p "$pg_port" -U postgres podium_bench_live
redis-cli -p "$redis_port" -n 3 FLUSHDB >/dev/null
"$bin" migrate >/dev/null
"$bin" serve > "$work/server.log" 2>&1 &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true' EXIT
until curl -fs "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; do sleep 0.05; done
python3 ops/bench/bench-live.py --url "http://127.0.0.1:$port" --pid "$server_pid" --key "$PODIUM_ADMIN_KEY" --binary "$bin" \
    --listeners "${BENCH_LISTENERS:-10000}" --boards "${BENCH_BOARDS:-100}" --rate "${BENCH_RATE:-500}" \
    --seconds "${BENCH_SECONDS:-20}" --ingest-seconds "${BENCH_INGEST_SECONDS:-10}"
