#!/usr/bin/env bash
# Redis Cluster: the store and ranking tests against a real cluster, then two drills with Podium on one.
#
#   bash ops/test/redis-cluster-test.sh     builds nothing: runs the test bundle and the `podium` that
#                                           `swift build --build-tests` left (bash ops/test.sh builds both first)
#
# What it does, under .local/redis-cluster/ (made anew on every run) and on loopback only, with the local
# PostgreSQL of ops/services.sh (database podium_cluster_drill, made anew):
#   1. a cluster of six redis-server processes, three primaries with a replica each (ops/lib/redis-cluster.sh,
#      `redis-cli --cluster create`, nodes fail over after 2 s of silence);
#   2. the Swift suites that read and write rankings (LeaderboardStoreTests, RankingSyncTests, LiveRankingsTests,
#      TieBreakTests, CompletionStoreTests) with PODIUM_TEST_REDIS_URL naming the cluster and
#      PODIUM_TEST_REDIS_TOPOLOGY=cluster, so that the Redis a test starts for itself is a cluster too;
#   3. drill "primary killed": one Podium replica on the cluster (emptied first), 8 workers posting completions (resent until
#      acknowledged: ops/test/failover-client.py) and one reading the global board; after 300 acknowledgements the
#      primary serving the global board is SIGKILLed, its replica takes over, and after 300 more the load stops.
#      Checks: every acknowledged completion is in PostgreSQL (lost: 0), each player's completions count equals
#      its rows (doubled: 0), no answer other than 201/200 (or 503 with Retry-After); once the ranking sync has
#      caught up, the global and every group board Podium serves live from Redis equal PostgreSQL's.
#      Prints the seconds from the first completion answered without live ranks to the first live one after;
#   4. drill "resharding": the same load and reader, on a Podium started again with a read deadline of 5 s, while
#      `redis-cli --cluster reshard` moves every slot of the primary serving the global board (keys and all) to
#      another primary. Checks: every completion ranked live
#      (no `rankings_live: false`, none left unranked), every read a live 200, lost 0, doubled 0, boards equal.
# A trap stops everything it started (by pid) however it ends.
set -euo pipefail
shopt -s inherit_errexit

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
started=$SECONDS
. "$root/ops/lib/swift.sh"
. "$root/ops/lib/redis-cluster.sh"
. "$root/ops/lib/drill.sh"
bin_path="$(swift build --show-bin-path)"
bin="$bin_path/podium"; bundle="$bin_path/podiumPackageTests.xctest"
[ -x "$bin" ] && [ -x "$bundle" ] || { echo "no podium or test bundle in $bin_path: build first (swift build --build-tests)" >&2; exit 1; }
pg_bin="$(dirname "$(printf '%s\n' /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)")"
pg_port="${PODIUM_PG_PORT:-5432}"

dir="$root/.local/redis-cluster"
podium_pid=""; client_pid=""
cleanup() {
    local status=$?
    for pid in $client_pid $podium_pid; do kill "$pid" 2>/dev/null || true; done
    # A graceful shutdown gets 30 s; then it is killed.
    for _ in $(seq 300); do
        alive=""
        for pid in $client_pid $podium_pid; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ -z "$alive" ] && break
        sleep 0.1
    done
    for pid in $client_pid $podium_pid; do kill -9 "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    stop_redis_cluster
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
rm -rf "$dir"; mkdir -p "$dir"

# 1. The cluster.
start_redis_cluster "$dir/nodes"
echo "Redis cluster on ${cluster_ports[*]} (first three primaries)"

# 2. The ranking suites against it.
log="$dir/swift-tests.log"
set +e
PODIUM_TEST_REDIS_URL="$cluster_url" PODIUM_TEST_REDIS_TOPOLOGY=cluster \
    PODIUM_TEST_DATABASE_URL="${PODIUM_TEST_DATABASE_URL:-host=127.0.0.1 port=$pg_port user=postgres dbname=podium_test}" \
    "$bundle" --testing-library swift-testing \
    --filter 'LeaderboardStoreTests|RankingSyncTests|LiveRankingsTests|TieBreakTests|CompletionStoreTests' >"$log" 2>&1
status=$?
set -e
summary="$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -aE 'Test run with [0-9]+ tests? ' | tail -n 1 || true)"
echo "ranking suites on the cluster: ${summary:-no summary line}"
if [ "$status" -ne 0 ] || [[ "$summary" != *" passed after "* ]] || [[ "$summary" == *"with 0 tests"* ]]; then
    sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -aE '^✘ |recorded an issue' | head -n 20 >&2 || true
    echo "FAILED: the ranking suites on the cluster (status $status); output in $log" >&2
    exit 1
fi

# 3–4. Podium on the cluster, emptied of what the suites wrote (the replica rebuilds from its own database).
for port in "${cluster_ports[@]}"; do
    [ "$(redis-cli -p "$port" role | head -n 1)" = master ] && redis-cli -p "$port" flushall >/dev/null
done
"$pg_bin/dropdb" -h 127.0.0.1 -p "$pg_port" -U postgres --if-exists --force podium_cluster_drill
"$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres podium_cluster_drill
http_port="$(cluster_free_port)"
export PODIUM_DATABASE_URL="host=127.0.0.1 port=$pg_port user=postgres dbname=podium_cluster_drill"
export PODIUM_REDIS_URL="$cluster_url"
export PODIUM_PORT="$http_port"
export PODIUM_ADMIN_KEY="pdm_cluster_$(date +%s)_local_only"
export PODIUM_RATE_LIMITS="ingest=100000000,read=100000000,admin=100000000"
# A page cached for a second would hide whether reads reach Redis.
export PODIUM_LEADERBOARD_CACHE_MS=0
"$bin" migrate >"$dir/migrate.log" 2>&1
start_podium "$bin" "$dir/podium.log"

psql_drill() { "$pg_bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -d podium_cluster_drill -v ON_ERROR_STOP=1 -qtA "$@"; }

# Starts the load: 8 workers with ids PREFIX-…, one reader.
start_load() {
    acked="$dir/$1-acked.txt"; stop="$dir/$1-stop"
    : > "$acked"; rm -f "$stop"
    python3 ops/test/failover-client.py "http://127.0.0.1:$http_port" "$PODIUM_ADMIN_KEY" "$acked" "$stop" 8 "$1" 1 >"$dir/$1-client.json" &
    client_pid=$!
}
stop_load() {
    touch "$stop"
    wait "$client_pid"; client_pid=""
}
# Waits until the ranking sync has ranked every completion (it catches up those recorded while Redis failed).
wait_until_ranked() {
    local unranked
    for _ in $(seq 600); do
        unranked="$(psql_drill -c "SELECT count(*) FROM completions WHERE NOT ranked")"
        [ "$unranked" = 0 ] && return 0
        sleep 0.1
    done
    echo "$unranked completions still unranked after 60 s" >&2; return 1
}
# How many of the global and group boards Podium serves (live, from Redis) differ from PostgreSQL's.
boards_unlike_postgres() {
    local differ=0 board served stored
    for board in global $(seq -f 'group:class-%g' 0 7); do
        served="$(live_board "$board")"
        stored="$(psql_drill -c "SELECT user_id || ' ' || all_score FROM board_current_scores WHERE board = '$board' ORDER BY 1")"
        [ -n "$served" ] && [ "$served" = "$stored" ] || {
            differ=$((differ + 1))
            echo "$board differs from PostgreSQL (served < > stored):" >&2
            diff <(echo "$served") <(echo "$stored") | grep '^[<>]' | head -n 6 >&2 || true
        }
    done
    echo "$differ"
}
# Checks a drill's load: lost, doubled, other answers; prints the summary line.
check_drill() {
    local name="$1" summary acknowledged present doubled differ
    summary="$(cat "$dir/$name-client.json")"
    acknowledged="$(sort -u "$acked" | wc -l)"
    present="$( { echo "CREATE TEMP TABLE acked (id text PRIMARY KEY); COPY acked FROM STDIN;"; sort -u "$acked"; echo '\.'
                 echo "SELECT count(*) FROM completions JOIN acked USING (id);"; } | psql_drill)"
    doubled="$(psql_drill -c "SELECT count(*) FROM users u WHERE u.completions <> (SELECT count(*) FROM completions c WHERE c.user_id = u.user_id)")"
    wait_until_ranked
    differ="$(boards_unlike_postgres)"
    python3 - "$name" "$summary" "$acknowledged" "$present" "$doubled" "$differ" "${2:-}" <<'PY'
import json, sys
name, summary = sys.argv[1], json.loads(sys.argv[2])
acknowledged, present, doubled, differ = (int(a) for a in sys.argv[3:7])
strict = sys.argv[7] == "strict"
first, back = summary["first_not_live"], summary["first_live_after"]
gap = f"{back - first:.1f} s" if first is not None and back is not None else ("never" if first is not None else "none")
print(f"{name}: {acknowledged} completions acknowledged; answers {summary['statuses']}; "
      f"{summary['not_live_count']} answered without live ranks, live again after {gap}; "
      f"{summary['reads']} reads, {summary['reads_not_live']} not live; lost {acknowledged - present}; doubled {doubled}; "
      f"other answers {summary['unexpected_count']}; boards unlike PostgreSQL {differ} of 9")
problems = []
if acknowledged - present: problems.append(f"{acknowledged - present} acknowledged completions are missing")
if doubled: problems.append(f"{doubled} players' totals differ from their completion rows")
if differ: problems.append(f"{differ} boards served differ from PostgreSQL")
if summary["unexpected_count"]: problems.append(f"unexpected answers: {summary['unexpected']}")
if first is not None and back is None: problems.append("ranks never came back live")
if strict and summary["not_live_count"]: problems.append(f"{summary['not_live_count']} completions answered without live ranks")
if strict and summary["reads_not_live"]: problems.append(f"reads not live: {summary['reads_not_live_first']}")
if problems:
    print("FAILED: " + "; ".join(problems), file=sys.stderr)
    sys.exit(1)
PY
}

# 3. A primary killed mid-ingest.
start_load killed
wait_for_acks 300
victim="$(cluster_primary_of 'podium:lb:{global:all:all}')"
before="$(wc -l < "$acked")"
victim_pid="$(cluster_node_pid "$victim")"
kill -9 "$victim_pid"
wait "$victim_pid" 2>/dev/null || true
echo "primary $victim (serving the global board) killed after $before acknowledgements"
wait_for_acks "$((before + 300))"
for _ in $(seq 600); do
    promoted="$(cluster_primary_of 'podium:lb:{global:all:all}')"
    [ -n "$promoted" ] && [ "$promoted" != "$victim" ] && break
    sleep 0.1
done
[ -n "$promoted" ] && [ "$promoted" != "$victim" ] || { echo "FAILED: no replica took over from $victim within 60 s" >&2; exit 1; }
wait_for_redis_cluster
echo "its replica $promoted serves the global board now"
wait_for_acks "$((before + 600))"
stop_load
check_drill killed

# 4. Every slot of the global board's primary resharded to another primary mid-load. The drill counts reads answered
# from PostgreSQL, so Podium starts again with a read deadline of 5 s instead of 250 ms: a read slowed by a loaded
# machine would count as one, where the drill asks whether resharding sends any read there.
kill "$podium_pid"; wait "$podium_pid" 2>/dev/null || true; podium_pid=""
PODIUM_REDIS_READ_TIMEOUT_MS=5000 start_podium "$bin" "$dir/podium-reshard.log"
start_load resharded
wait_for_acks 300
source_port="$(cluster_primary_of 'podium:lb:{global:all:all}')"
source_id="$(redis-cli -p "$source_port" cluster myid)"
target_port=""
for port in "${cluster_ports[@]}"; do
    [ "$port" != "$source_port" ] || continue
    role="$(redis-cli -p "$port" role 2>/dev/null | head -n 1)" || continue
    [ "$role" = master ] && { target_port="$port"; break; }
done
target_id="$(redis-cli -p "$target_port" cluster myid)"
slots="$(redis-cli -p "$source_port" cluster nodes | awk '$3 ~ /myself/ { n = 0; for (i = 9; i <= NF; i++) { k = split($i, r, "-"); n += (k == 2 ? r[2] - r[1] + 1 : 1) } print n }')"
before="$(wc -l < "$acked")"
reshard_started=$SECONDS
redis-cli --cluster reshard "127.0.0.1:$source_port" --cluster-from "$source_id" --cluster-to "$target_id" \
    --cluster-slots "$slots" --cluster-yes >"$dir/reshard.log" 2>&1 || { echo "the reshard failed; see $dir/reshard.log" >&2; exit 1; }
after="$(wc -l < "$acked")"
echo "resharded $slots slots from $source_port to $target_port in $((SECONDS - reshard_started)) s, while $((after - before)) completions were acknowledged"
[ "$(cluster_primary_of 'podium:lb:{global:all:all}')" = "$target_port" ] || { echo "FAILED: the global board did not move" >&2; exit 1; }
[ "$((after - before))" -gt 0 ] || { echo "FAILED: no completion was acknowledged during the reshard" >&2; exit 1; }
wait_for_acks "$((after + 100))"
stop_load
check_drill resharded strict

echo "OK: the ranking suites and both drills passed on a Redis Cluster ($((SECONDS - started))s)"
