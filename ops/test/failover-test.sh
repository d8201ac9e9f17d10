#!/usr/bin/env bash
# PostgreSQL drill: Podium on a primary and a streaming standby named in one multi-host PODIUM_DATABASE_URL, with
# the standby also as PODIUM_DATABASE_READ_URL. Reads go to the standby while it keeps up and to the primary while
# its replay is paused; then the primary is killed mid-ingest and the standby promoted, and Podium carries on
# without a restart.
#
#   bash ops/test/failover-test.sh       builds nothing: runs the `podium` that `swift build` left
#                                        (debug; bash ops/test.sh builds it first)
#
# What it does, all under .local/failover/ (made anew on every run) and on loopback only:
#   1. a primary (initdb) on a free port, with synchronous_standby_names='*' given on its command line (so
#      the promoted standby does not inherit it and wait for a standby it does not have), and a standby
#      made with `pg_basebackup -R` on another port; waits until the standby streams synchronously;
#   2. its own redis-server on a free port, and one Podium replica with
#      PODIUM_DATABASE_URL="host=127.0.0.1,127.0.0.1 port=P,S … target_session_attrs=read-write" and
#      PODIUM_DATABASE_READ_URL naming the standby (PODIUM_DATABASE_READ_MAX_LAG_MS=5000, the default: the
#      minimum, 2000, let a CI run under load see the estimate pass it for 2 of the 100 reads);
#   3. ops/test/failover-client.py posts completions from 8 workers, resending each on 503 or a failed
#      connection until it is acknowledged (201 or 200);
#   3a. read standby: once /metrics says reads use the standby, 50 pages of the events feed and 50 players'
#      topic statistics must all be read there (the standby logs every statement: log_statement=all); with its
#      replay paused (pg_wal_replay_pause) while ingest goes on, /metrics must say reads left it, and none of the
#      same 100 reads may reach it; after pg_wal_replay_resume the reads return to it;
#   4. after 300 acknowledgements, the primary is stopped with `pg_ctl stop -m immediate` (a crash: no
#      shutdown checkpoint, connections cut), and one second later the standby is promoted (`pg_ctl promote`);
#   5. after 300 more acknowledgements, the client stops, and the promoted standby is checked:
#      every acknowledged completion is there (lost: 0), each player's completions count equals its
#      completion rows (doubled: 0), each worker's group board as the API serves it (from Redis) equals the
#      stored one, and no answer was other than 201, 200 or 503.
# Prints: acknowledged completions, seconds from the first 503 to the first acknowledgement after the last,
# lost, doubled. A trap stops everything it started (by pid and data folder) however it ends.
set -euo pipefail
shopt -s inherit_errexit  # a failing command inside $( … ) fails the script too

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
. "$root/ops/lib/swift.sh"
. "$root/ops/lib/drill.sh"
bin="$(swift build --show-bin-path)/podium"
[ -x "$bin" ] || { echo "no podium at $bin: build it first (swift build, or bash ops/test.sh)" >&2; exit 1; }
pg_bin="$(dirname "$(printf '%s\n' /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)")"

as_postgres() {
    if [ "$(id -u)" = 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# The clusters live where the postgres user can reach them (as ops/services.sh decides for its own).
dir="$root/.local/failover"
if [ "$(id -u)" = 0 ] && ! (cd / && runuser -u postgres -- test -x "$root/.local" 2>/dev/null); then
    dir="/var/lib/podium-dev/$(printf '%s' "$root" | md5sum | cut -c1-12)/failover"
fi
primary="$dir/primary"; standby="$dir/standby"
redis_pid=""; podium_pid=""; client_pid=""
cleanup() {
    local status=$?
    for pid in $client_pid $podium_pid $redis_pid; do kill "$pid" 2>/dev/null || true; done
    for pid in $client_pid $podium_pid $redis_pid; do wait "$pid" 2>/dev/null || true; done
    for data in "$primary" "$standby"; do
        [ -f "$data/postmaster.pid" ] && as_postgres "$pg_bin/pg_ctl" -D "$data" stop -m immediate >/dev/null 2>&1 || true
    done
    exit "$status"
}
trap cleanup EXIT
rm -rf "$dir"; mkdir -p "$dir"
[ "$(id -u)" = 0 ] && chown postgres:postgres "$dir"
logs="$root/.local/failover-logs"; rm -rf "$logs"; mkdir -p "$logs"

# 1. Primary and synchronous standby.
primary_port="$(free_port)"; standby_port="$(free_port)"
as_postgres "$pg_bin/initdb" -D "$primary" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
as_postgres "$pg_bin/pg_ctl" -D "$primary" -l "$dir/primary.log" -w -t 60 start \
    -o "-h 127.0.0.1 -p $primary_port -k $dir -c synchronous_standby_names='*'" >/dev/null
as_postgres "$pg_bin/pg_basebackup" -h 127.0.0.1 -p "$primary_port" -U postgres -D "$standby" -R -X stream
# The standby logs every statement: the drill counts the reads that reached it.
as_postgres "$pg_bin/pg_ctl" -D "$standby" -l "$dir/standby.log" -w -t 60 start \
    -o "-h 127.0.0.1 -p $standby_port -k $dir -c log_statement=all" >/dev/null
for _ in $(seq 300); do
    state="$("$pg_bin/psql" -h 127.0.0.1 -p "$primary_port" -U postgres -tAc "SELECT sync_state FROM pg_stat_replication" || true)"
    [ "$state" = sync ] && break
    sleep 0.1
done
[ "$state" = sync ] || { echo "the standby never streamed synchronously (state: '$state')" >&2; exit 1; }
"$pg_bin/createdb" -h 127.0.0.1 -p "$primary_port" -U postgres podium_failover
echo "primary on $primary_port, synchronous standby on $standby_port"

# 2. Redis and one Podium replica naming both hosts.
redis_port="$(free_port)"; http_port="$(free_port)"
redis-server --bind 127.0.0.1 --port "$redis_port" --save "" --appendonly no >"$logs/redis.log" 2>&1 &
redis_pid=$!
for _ in $(seq 200); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.05; done
redis-cli -p "$redis_port" ping >/dev/null || { echo "redis-server did not start; see $logs/redis.log" >&2; exit 1; }
export PODIUM_DATABASE_URL="host=127.0.0.1,127.0.0.1 port=$primary_port,$standby_port user=postgres dbname=podium_failover target_session_attrs=read-write"
export PODIUM_DATABASE_READ_URL="host=127.0.0.1 port=$standby_port user=postgres dbname=podium_failover"
export PODIUM_DATABASE_READ_MAX_LAG_MS=5000
export PODIUM_REDIS_URL="redis://127.0.0.1:$redis_port/0"
export PODIUM_PORT="$http_port"
export PODIUM_ADMIN_KEY="pdm_failover_$(date +%s)_local_only"
# One key posts hundreds a second here: limits far above the load.
export PODIUM_RATE_LIMITS="ingest=100000000,read=100000000,admin=100000000"
"$bin" migrate >"$logs/migrate.log" 2>&1
start_podium "$bin" "$logs/podium.log"

# 3–5. Ingest across the failover.
acked="$logs/acked.txt"; stop="$logs/stop"
: > "$acked"
python3 ops/test/failover-client.py "http://127.0.0.1:$http_port" "$PODIUM_ADMIN_KEY" "$acked" "$stop" 8 >"$logs/client.json" &
client_pid=$!
wait_for_acks 300

# 3a. Reads on the standby, and off it while its replay is paused.
metric() {
    curl -fs "http://127.0.0.1:$http_port/metrics" | awk -v name="$1" '$1 == name { print $2 }'
}
wait_for_metric() {  # name, value wanted; /metrics reuses its figures for 5 s
    for _ in $(seq 300); do awk -v v="$(metric "$1")" -v want="$2" 'BEGIN { exit !(v != "" && v + 0 == want + 0) }' && return 0; sleep 0.1; done
    echo "$1 never became $2 within 30 s (it is '$(metric "$1")')" >&2; return 1
}
standby_statements() { grep -c -e "FROM events" -e "FROM user_topics" "$dir/standby.log" || true; }
# 50 event feed pages and 50 players' topic statistics; each must answer 200.
hundred_reads() {
    for n in $(seq 50); do
        curl -fs -o /dev/null -H "Authorization: Bearer $PODIUM_ADMIN_KEY" "http://127.0.0.1:$http_port/v1/events?limit=5"
        curl -fs -o /dev/null -H "Authorization: Bearer $PODIUM_ADMIN_KEY" "http://127.0.0.1:$http_port/v1/users/player-$((n % 50))/topics"
    done
}
# How many of the hundred reads the standby ran.
standby_reads() {
    local before
    before="$(standby_statements)"
    hundred_reads
    echo $(( $(standby_statements) - before ))
}
wait_for_metric podium_postgres_read_standby_in_use 1
on_standby="$(standby_reads)"
echo "read standby in time: lag $(metric podium_postgres_read_standby_lag_seconds) s; it ran $on_standby of 100 reads"
[ "$on_standby" -eq 100 ] || { echo "FAILED: the reads did not go to the standby" >&2; exit 1; }
"$pg_bin/psql" -h 127.0.0.1 -p "$standby_port" -U postgres -tAc "SELECT pg_wal_replay_pause()" >/dev/null
wait_for_metric podium_postgres_read_standby_in_use 0
off_standby="$(standby_reads)"
echo "read standby paused: lag $(metric podium_postgres_read_standby_lag_seconds) s; it ran $off_standby of 100 reads"
[ "$off_standby" -eq 0 ] || { echo "FAILED: reads still went to the paused standby" >&2; exit 1; }
"$pg_bin/psql" -h 127.0.0.1 -p "$standby_port" -U postgres -tAc "SELECT pg_wal_replay_resume()" >/dev/null
wait_for_metric podium_postgres_read_standby_in_use 1
echo "read standby resumed: reads on it again"

before="$(wc -l < "$acked")"
as_postgres "$pg_bin/pg_ctl" -D "$primary" stop -m immediate >/dev/null
sleep 1
as_postgres "$pg_bin/pg_ctl" -D "$standby" promote -w >/dev/null
echo "primary killed after $before acknowledgements; standby promoted"
wait_for_acks "$((before + 300))"
touch "$stop"
wait "$client_pid"; client_pid=""

summary="$(cat "$logs/client.json")"
psql_new() { "$pg_bin/psql" -h 127.0.0.1 -p "$standby_port" -U postgres -d podium_failover -tAc "$1"; }
acknowledged="$(sort -u "$acked" | wc -l)"
present="$( { echo "CREATE TEMP TABLE acked (id text PRIMARY KEY); COPY acked FROM STDIN;"; sort -u "$acked"; echo '\.'
               echo "SELECT count(*) FROM completions JOIN acked USING (id);"; } \
             | "$pg_bin/psql" -h 127.0.0.1 -p "$standby_port" -U postgres -d podium_failover -v ON_ERROR_STOP=1 -qtA)"
doubled="$(psql_new "SELECT count(*) FROM users u WHERE u.completions <> (SELECT count(*) FROM completions c WHERE c.user_id = u.user_id)")"
# The rankings Podium serves equal PostgreSQL's: each worker's group board, as the API answers it (from Redis)
# and as the promoted standby stores it.
boards_differ=0
for worker in $(seq 0 7); do
    served="$(live_board "group:class-$worker")"
    stored="$(psql_new "SELECT user_id || ' ' || all_score FROM board_current_scores WHERE board = 'group:class-$worker' ORDER BY 1")"
    [ -n "$served" ] && [ "$served" = "$stored" ] || { boards_differ=$((boards_differ + 1)); echo "group:class-$worker differs" >&2; }
done
python3 - "$summary" "$acknowledged" "$present" "$doubled" "$boards_differ" <<'PY'
import json, sys
summary = json.loads(sys.argv[1])
acknowledged, present, doubled, boards_differ = (int(a) for a in sys.argv[2:6])
first, back = summary["first_unavailable"], summary["first_acknowledged_after"]
outage = f"{back - first:.1f} s" if first is not None and back is not None else "none seen"
print(f"failover: {acknowledged} completions acknowledged; answers {summary['statuses']}; "
      f"unavailable (503 or no connection) for {outage}; lost {acknowledged - present}; doubled {doubled}; "
      f"other answers {summary['unexpected_count']}; boards unlike PostgreSQL {boards_differ} of 8")
problems = []
if acknowledged - present: problems.append(f"{acknowledged - present} acknowledged completions are missing")
if doubled: problems.append(f"{doubled} players' totals differ from their completion rows")
if boards_differ: problems.append(f"{boards_differ} group boards served differ from PostgreSQL")
if summary["unexpected_count"]: problems.append(f"unexpected answers: {summary['unexpected']}")
if problems:
    print("FAILED: " + "; ".join(problems), file=sys.stderr)
    sys.exit(1)
PY
