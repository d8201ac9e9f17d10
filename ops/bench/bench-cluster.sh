#!/usr/bin/env bash
# Benchmark: Podium on a three-primary Redis Cluster against Podium on one Redis server, measured in one run.
#
#   bash ops/bench/bench-cluster.sh                  the whole comparison (about 6 minutes)
#   BENCH_BINARY=path bash ops/bench/bench-cluster.sh    measure that podium binary instead of this tree's release build
#   BENCH_ROUNDS=3 BENCH_SLICE=4                     rounds of turns and seconds per turn (defaults)
#   BENCH_SCALE=0 bash ops/bench/bench-cluster.sh    skip the 1,000,000-player rebuilds
#
# Two replicas of the same build on one database (podium_bench_cluster): one on a redis-server of its own, one on
# a cluster of three primaries without replicas (ops/lib/redis-cluster.sh; a replica would only add its copying to
# the same two cores), each node started as the single server is. They take turns in slices (BENCH_SLICE seconds,
# BENCH_ROUNDS rounds), so that drift on a shared machine hits both alike:
#   - ingest: `podium bench --phases ingest` at 64 clients (target: the cluster at least 0.9x the single server);
#   - reads: a top-10 page, its 304 and around-me (target: each at least 0.9x), with the CPU per read of Podium and of
#     Redis on each;
#   - `podium rankings rebuild` of 1,000,000 players (seeded in SQL) into each, in turns, twice (target: the cluster
#     at least as fast as the single server).
# Prints each turn and the ratios. Touches only its database, its own Redis processes (under .local/bench-cluster/)
# and ports it finds free.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
bash ops/services.sh >/dev/null
. "$root/ops/lib/swift.sh"
. "$root/ops/lib/redis-cluster.sh"
. "$root/ops/lib/drill.sh"
pg_port="${PODIUM_PG_PORT:-5432}"
rounds="${BENCH_ROUNDS:-3}"
slice="${BENCH_SLICE:-4}"
work="$root/.local/bench-cluster"
rm -rf "$work"; mkdir -p "$work"

benchmark_binary

single_pid=""; server_pids=()
cleanup() {
    for pid in "${server_pids[@]}" $single_pid; do kill "$pid" 2>/dev/null || true; done
    for pid in "${server_pids[@]}" $single_pid; do wait "$pid" 2>/dev/null || true; done
    stop_redis_cluster
}
trap cleanup EXIT

# The two Redis setups, with the same settings per node.
single_port="$(cluster_free_port)"
mkdir -p "$work/single"
redis-server --bind 127.0.0.1 --port "$single_port" --save "" --appendonly no --dir "$work/single" >"$work/single/redis.log" 2>&1 &
single_pid=$!
for _ in $(seq 200); do redis-cli -p "$single_port" ping >/dev/null 2>&1 && break; sleep 0.05; done
REDIS_CLUSTER_REPLICAS=0 start_redis_cluster "$work/cluster"
echo "one redis-server on $single_port; a cluster of three primaries on ${cluster_ports[*]}"

dropdb -h 127.0.0.1 -p "$pg_port" -U postgres --if-exists --force podium_bench_cluster
createdb -h 127.0.0.1 -p "$pg_port" -U postgres podium_bench_cluster
psql_bench() { psql -h 127.0.0.1 -p "$pg_port" -U postgres -d podium_bench_cluster -v ON_ERROR_STOP=1 -qAt "$@"; }

single_http="$(cluster_free_port)"; cluster_http="$(cluster_free_port)"
# The replica on `$1` (a Redis URL) listening on `$2`; logs to `$3`.
start_replica() {
    benchmark_environment podium_bench_cluster 0 "$2"
    export PODIUM_REDIS_URL="$1" PODIUM_ADMIN_KEY="$admin_key"
    start_podium "$bin" "$3"
    server_pids+=("$podium_pid")
}
benchmark_environment podium_bench_cluster 0 "$single_http"
"$bin" migrate >/dev/null
admin_key="$PODIUM_ADMIN_KEY"
start_replica "redis://127.0.0.1:$single_port/0" "$single_http" "$work/single.log"
start_replica "$cluster_url" "$cluster_http" "$work/cluster.log"

bench() {  # port, then `podium bench` arguments
    local port="$1"; shift
    "$bin" bench --url "http://127.0.0.1:$port" --key "$admin_key" --players 10000 --concurrency 64 --topic bench "$@"
}
echo
echo "== Seed: 10,000 players through the single server's replica"
bench "$single_http" --phases seed
# The cluster's copy of the rankings from PostgreSQL, as a replica that finds them missing would.
PODIUM_REDIS_URL="$cluster_url" "$bin" rankings rebuild | tail -n 1

# Stops the benchmark when a `podium bench` line in files $@ counted answers other than the expected ones.
check_answers() {
    if grep -q ' not [0-9]' "$@"; then echo "FAILED: unexpected answers" >&2; grep ' not [0-9]' "$@" >&2; exit 1; fi
}

# The rate over every `podium bench` line in file $1 (one kind of load each): requests per second over all slices.
rate_of() {
    awk '{ gsub(/[()]/, ""); for (i = 1; i < NF; i++) if ($i == "req/s") { n += $(i + 1); s += $(i + 3) } } END { printf "%.0f", n / s }' "$1"
}

echo
echo "== Ingest, $rounds rounds of $slice s each, in turns"
# Redis's CPU over the turns (clock ticks of the single server, and of the three primaries together).
redis_ticks() { for pid in "$@"; do awk '{ print $14 + $15 }' "/proc/$pid/stat"; done | awk '{ n += $1 } END { print n }'; }
single_ticks=0; cluster_ticks=0
for round in $(seq "$rounds"); do
    t0="$(redis_ticks "$single_pid")"
    bench "$single_http" --duration "$slice" --phases ingest | tee -a "$work/ingest-single.txt" | sed 's/^/single  /'
    single_ticks=$((single_ticks + $(redis_ticks "$single_pid") - t0))
    t0="$(redis_ticks "${cluster_pids[@]}")"
    bench "$cluster_http" --duration "$slice" --phases ingest | tee -a "$work/ingest-cluster.txt" | sed 's/^/cluster /'
    cluster_ticks=$((cluster_ticks + $(redis_ticks "${cluster_pids[@]}") - t0))
done
check_answers "$work/ingest-single.txt" "$work/ingest-cluster.txt"
single_rate="$(rate_of "$work/ingest-single.txt")"; cluster_rate="$(rate_of "$work/ingest-cluster.txt")"
awk -v s="$single_rate" -v c="$cluster_rate" 'BEGIN {
    printf "ingest: single server %d completions/s, cluster %d completions/s: %.2fx (target >= 0.9)\n", s, c, c / s }'
# Requests (completions, or reads) in each file: the "(N in T s)" of every line.
requests_in() { awk '{ gsub(/[()]/, ""); for (i = 1; i < NF; i++) if ($i == "in") n += $(i - 1) } END { print n }' "$1"; }
awk -v hz="$(getconf CLK_TCK)" -v st="$single_ticks" -v ct="$cluster_ticks" \
    -v sn="$(requests_in "$work/ingest-single.txt")" -v cn="$(requests_in "$work/ingest-cluster.txt")" 'BEGIN {
    printf "Redis CPU per completion: single server %.0f us, cluster %.0f us over its three primaries\n", st / hz / sn * 1e6, ct / hz / cn * 1e6 }'

echo
echo "== Reads, $rounds rounds of $slice s each per kind, in turns"
# CPU per read of each kind: of the replica serving it (server_pids: the single server's, then the cluster's) and of
# Redis (the single server, or the three primaries together), from the clock ticks over that kind's turns.
for kind in top revalidate around; do
    : > "$work/reads-single-$kind.txt"; : > "$work/reads-cluster-$kind.txt"
    ticks=(0 0 0 0)  # single Podium, single Redis, cluster Podium, cluster Redis
    for round in $(seq "$rounds"); do
        p0="$(redis_ticks "${server_pids[0]}")"; r0="$(redis_ticks "$single_pid")"
        bench "$single_http" --duration "$slice" --phases reads --reads "$kind" >>"$work/reads-single-$kind.txt"
        ticks[0]=$((ticks[0] + $(redis_ticks "${server_pids[0]}") - p0)); ticks[1]=$((ticks[1] + $(redis_ticks "$single_pid") - r0))
        p0="$(redis_ticks "${server_pids[1]}")"; r0="$(redis_ticks "${cluster_pids[@]}")"
        bench "$cluster_http" --duration "$slice" --phases reads --reads "$kind" >>"$work/reads-cluster-$kind.txt"
        ticks[2]=$((ticks[2] + $(redis_ticks "${server_pids[1]}") - p0)); ticks[3]=$((ticks[3] + $(redis_ticks "${cluster_pids[@]}") - r0))
    done
    check_answers "$work/reads-single-$kind.txt" "$work/reads-cluster-$kind.txt"
    awk -v kind="$kind" -v s="$(rate_of "$work/reads-single-$kind.txt")" -v c="$(rate_of "$work/reads-cluster-$kind.txt")" 'BEGIN {
        printf "reads, %s: single server %d/s, cluster %d/s: %.2fx (target >= 0.9)\n", kind, s, c, c / s }'
    awk -v hz="$(getconf CLK_TCK)" -v sp="${ticks[0]}" -v sr="${ticks[1]}" -v cp="${ticks[2]}" -v cr="${ticks[3]}" \
        -v sn="$(requests_in "$work/reads-single-$kind.txt")" -v cn="$(requests_in "$work/reads-cluster-$kind.txt")" -v kind="$kind" 'BEGIN {
        printf "  CPU per read, %s: single server Podium %.0f us + Redis %.0f us, cluster Podium %.0f us + Redis %.0f us\n",
            kind, sp / hz / sn * 1e6, sr / hz / sn * 1e6, cp / hz / cn * 1e6, cr / hz / cn * 1e6 }'
done

if [ "${BENCH_SCALE:-1}" != 0 ]; then
    echo
    echo "== rankings rebuild of 1,000,000 players (seeded in SQL), in turns, twice each"
    psql_bench -f ops/bench/seed-million.sql
    for pid in "${server_pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    server_pids=()
    : > "$work/rebuild.txt"
    for round in 1 2; do
        for setup in single cluster; do
            url="redis://127.0.0.1:$single_port/0"; [ "$setup" = cluster ] && url="$cluster_url"
            PODIUM_REDIS_URL="$url" /usr/bin/time -f "$setup %e" -a -o "$work/rebuild.txt" "$bin" rankings rebuild >/dev/null
            tail -n 1 "$work/rebuild.txt" | awk '{ printf "rebuild on %s: %.1f s\n", ($1 == "single" ? "the single server" : "the cluster"), $2 }'
        done
    done
    awk '{ t[$1] += $2; n[$1]++ } END {
        printf "rankings rebuild, 1,000,000 players: single server %.1f s, cluster %.1f s (mean of %d): the cluster %.2fx as fast (target >= 1.0)\n",
            t["single"] / n["single"], t["cluster"] / n["cluster"], n["single"], (t["single"] / n["single"]) / (t["cluster"] / n["cluster"]) }' "$work/rebuild.txt"
fi
