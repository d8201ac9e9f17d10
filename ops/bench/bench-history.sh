#!/usr/bin/env bash
# History that stays fast as it grows (issue 25): the same loads with 100,000 and with 10,000,000 completions and
# events stored, side by side.
#
#   bash ops/bench/bench-history.sh                        100,000 then 10,000,000
#   BENCH_HISTORY_SIZES="100000 1000000" bash ops/bench/bench-history.sh
#   BENCH_BINARY=path bash ops/bench/bench-history.sh      that podium binary instead of building this tree's
#
# For each size N, on a fresh database (podium_history) and Redis db 2 (do not run it beside ops/bench/bench.sh):
#   1. 2,000 players each record one completion through the API (`podium bench --phases seed`), then N - 2,000
#      more completions and N events (`completion.recorded`) are added in SQL, spread evenly from the first day of the
#      month four months back until now, over the same 2,000 players (so a history page holds 20 at every size);
#      each past month's completions and events have their monthly partitions, as the prune job would have made them, and the
#      webhook dispatch cursor is moved to the outbox's head, as a running installation's is. Then VACUUM
#      ANALYZE and a CHECKPOINT, so the loads do not run under the writing of what was just loaded. The added
#      completions store a short answer (the history pages do not read answers; at ~2 kB each, 10 million would take
#      ~20 GB more disk without changing the pages).
#   2. Podium, restarted on that database: ingest at 64 clients, then a player's profile, a history page (the newest
#      20 completions) and the events feed's first page (100 events), each alone, `BENCH_DURATION` (6) s each.
#   3. `podium jobs run prune`: the month four months back is wholly past the 90-day retention of events and of
#      completions (`completion_days` 90 in the rules file this script writes) and is dropped from both;
#      prints how long the run took (from job_runs) and what it removed.
# Then prints each load's rate at N against the smallest N (target: the largest within 1.2x of the smallest's cost,
# that is a rate ratio of at least 0.83).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
bash ops/services.sh >/dev/null
. "$root/ops/lib/swift.sh"
. "$root/ops/lib/drill.sh"

sizes="${BENCH_HISTORY_SIZES:-100000 10000000}"
duration="${BENCH_DURATION:-6}"
port="${BENCH_PORT:-18081}"
pg_port="${PODIUM_PG_PORT:-5432}"
redis_port="${PODIUM_REDIS_PORT:-6379}"
work="$root/.local/bench-history"
mkdir -p "$work"

benchmark_binary

benchmark_environment podium_history 2 "$port"
echo '{"scheduler": {"retention": {"completion_days": 90}}}' > "$work/rules.json"
export PODIUM_RULES_FILE="$work/rules.json"
psql_history() { psql -h 127.0.0.1 -p "$pg_port" -U postgres -d podium_history -v ON_ERROR_STOP=1 -qAt "$@"; }
size_of() { psql_history -c "SELECT pg_size_pretty(sum(pg_total_relation_size(inhrelid))) FROM pg_inherits WHERE inhparent = '$1'::regclass"; }

podium_pid=""
start_server() { start_podium "$bin" "$work/server.log"; }
stop_server() { [ -z "$podium_pid" ] || { kill "$podium_pid" 2>/dev/null || true; wait "$podium_pid" 2>/dev/null || true; }; podium_pid=""; }
trap stop_server EXIT
# 2,000 players: even at the smallest size each has 50 completions, so a history page holds 20 at every size.
players=2000
bench() { "$bin" bench --url "http://127.0.0.1:$port" --players "$players" --concurrency 64 --topic history "$@"; }

: > "$work/rates.txt"
for size in $sizes; do
    echo
    echo "== $size completions and events stored"
    dropdb -h 127.0.0.1 -p "$pg_port" -U postgres --if-exists --force podium_history
    createdb -h 127.0.0.1 -p "$pg_port" -U postgres podium_history
    redis-cli -p "$redis_port" -n 2 FLUSHDB >/dev/null
    "$bin" migrate >/dev/null
    start_server
    bench --phases seed >/dev/null
    stop_server
    started=$SECONDS
    psql_history -v size="$size" -v players="$players" >/dev/null <<'SQL'
SELECT podium_month_partition(t, c, m::date)
FROM generate_series(date_trunc('month', now() AT TIME ZONE 'UTC') - interval '4 months',
                     date_trunc('month', now() AT TIME ZONE 'UTC'), interval '1 month') AS m,
     (VALUES ('events', 'occurred_at'), ('completions', 'completed_at')) AS tables(t, c);
CREATE TEMP TABLE span AS
SELECT (date_trunc('month', now() AT TIME ZONE 'UTC') - interval '4 months') AT TIME ZONE 'UTC' AS start, now() AS stop;
INSERT INTO completions (id, user_id, quiz_id, topic, difficulty, correct, total, duration_ms, groups, completed_at,
                         recorded_at, points, request_hash, answer, ranked)
SELECT 'hist-' || g, 'player-' || (g % :players), 'q-' || (g % 50), 'history', 'medium', 5, 10, 60000, ARRAY['class-' || (g % 100)],
       s.start + (s.stop - s.start) * (g::float8 / :size), s.start + (s.stop - s.start) * (g::float8 / :size), 3, 'h',
       '{"stored_for": "hist-' || g || '"}', true
FROM span s, generate_series(1, :size - :players) g;
INSERT INTO events (type, user_id, occurred_at, payload)
SELECT 'completion.recorded', 'player-' || (g % :players), s.start + (s.stop - s.start) * (g::float8 / :size),
       jsonb_build_object('completion_id', 'hist-' || g, 'user_id', 'player-' || (g % :players), 'topic', 'history', 'points', 3)
FROM span s, generate_series(1, :size) g;
-- An installation that has been running has fanned its outbox out to webhooks up to its head: without this, the
-- webhook dispatcher would page through the loaded events in the background while the loads run.
UPDATE webhook_dispatch SET (tx, event_id) = (SELECT tx, id FROM events ORDER BY tx DESC, id DESC LIMIT 1) WHERE name = 'outbox';
SQL
    # Measured once the load is on disk: the checkpoint of gigabytes just written would otherwise run under the loads.
    psql_history -c "VACUUM ANALYZE completions" -c "VACUUM ANALYZE events" -c "CHECKPOINT"
    echo "loaded in $((SECONDS - started)) s: completions $(size_of completions), events $(size_of events)"

    start_server
    bench --phases ingest --duration "$duration" | sed "s/^/$size /" | tee -a "$work/rates.txt"
    bench --phases reads --reads profile --duration "$duration" | sed "s/^/$size /" | tee -a "$work/rates.txt"
    bench --phases reads --reads history --duration "$duration" | sed "s/^/$size /" | tee -a "$work/rates.txt"
    bench --phases reads --reads feed --duration "$duration" | sed "s/^/$size /" | tee -a "$work/rates.txt"

    "$bin" jobs run prune >/dev/null
    for _ in $(seq 1200); do
        status="$(psql_history -c "SELECT status FROM job_runs WHERE job = 'prune' ORDER BY created_at DESC LIMIT 1")"
        case "$status" in succeeded|failed) break ;; esac
        sleep 0.1
    done
    psql_history -F ' ' -c "
        SELECT 'prune: ' || status || ' in ' || round(extract(epoch FROM finished_at - started_at)::numeric, 2) || ' s, removed '
               || COALESCE(result::text, error)
        FROM job_runs WHERE job = 'prune' ORDER BY created_at DESC LIMIT 1"
    stop_server
done

echo
echo "== Rates at each size against the first ($(echo "$sizes" | awk '{ print $1 }')); target: at least 0.83 (cost within 1.2x)"
awk '
    {
        for (i = 3; i <= NF; i++) if ($i == "req/s") break
        rate = $(i - 1); label = $2
        for (j = 3; j < i - 1; j++) label = label " " $j
        sub(/:$/, "", label)
        if (!(label in first)) first[label] = rate
        printf "%s at %s: %.0f/s, %.2f of the first size\n", label, $1, rate, rate / first[label]
    }' "$work/rates.txt"
