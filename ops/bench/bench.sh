#!/usr/bin/env bash
# Benchmark: Podium against the limits of the same machine, measured in one run.
#
#   bash ops/bench/bench.sh                      10,000 players, then 1,000,000 players
#   BENCH_DURATION=20 bash ops/bench/bench.sh    seconds per phase (default 10)
#   BENCH_SCALE=0 bash ops/bench/bench.sh        skip the 1,000,000-player part
#   BENCH_BINARY=path bash ops/bench/bench.sh    measure that podium binary instead of building this tree's
#                                          (compare two commits on one machine, same script)
#
# Prints, side by side:
#   - rows per completion (every table's inserted, updated and deleted rows from pg_stat_user_tables), for new
#     players (the seed: target <= 10) and returning ones (target <= 8), and CPU per completion of Podium and of
#     PostgreSQL (from /proc) over a stretch of Podium alone, and beside them Redis's and the load generator's;
#   - ingest: Podium's completions/s at 64 clients vs pgbench running Podium's one-completion
#     transaction and the minimal one (the completion, the player's totals, a board row per scope,
#     one event; target: Podium >= the minimal one) on the same PostgreSQL; they take turns in slices
#     of about two seconds, so drift on a shared machine hits all alike, and each pgbench slice's
#     first second (its new sessions preparing their statements) is left out;
#   - PostgreSQL's CPU per minimal transaction (pgbench alone) against its CPU per Podium completion: how many
#     more completions than minimal transactions one PostgreSQL absorbs once the rest runs on other machines;
#   - ingest p99 paced at 75% of Podium's own saturation rate, latency counted from each request's
#     due time (target: p99 <= 50 ms), with pgbench's at the same rate beside it;
#   - reads: top-10 page, 304 revalidation and around-me vs the same server's /healthz, also in turns
#     (targets 0.9x, 1.0x and above top-10, 0.6x);
#   - for docs/CAPACITY.md: PostgreSQL bytes per row of each kind, CPU per read of each kind alone (Podium,
#     Redis, PostgreSQL), and the bytes of one live update of a top-10 page;
#   - scale: the same at 1,000,000 players, `rankings rebuild` time, Redis bytes per entry;
#   - leagues: a week of 1,000,000 players closing (target <= 60 s), exactly once, and Redis bytes per cohort;
#   - quiz and teams boards (ops/bench/bench-quiz.sh): a completion's rows and CPU on a quiz board, Redis bytes per
#     quiz-board entry, the rebuild of 1,000,000 players' quiz boards (target <= 30 s), and a week's close of 1,000 quiz
#     boards and 100 teams boards, exactly once;
#   - Podium's peak resident memory and its time to ready after a restart;
#   - idle: PostgreSQL transactions per second of one replica without traffic (target <= 1).
# Uses its own database (podium_bench) and Redis db 2; touches nothing else.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
bash ops/services.sh >/dev/null
. "$root/ops/lib/swift.sh"
command -v pgbench >/dev/null || export PATH="$(dirname "$(printf '%s\n' /usr/lib/postgresql/*/bin/pgbench | sort -V | tail -n 1)"):$PATH"

duration="${BENCH_DURATION:-10}"
clients="${BENCH_CLIENTS:-64}"
port="${BENCH_PORT:-18080}"
pg_port="${PODIUM_PG_PORT:-5432}"
redis_port="${PODIUM_REDIS_PORT:-6379}"
work="$root/.local/bench"
mkdir -p "$work"

benchmark_binary

# Logs as shipped: an access line per request (PODIUM_ACCESS_LOG=true at info), written to server.log.
benchmark_environment podium_bench 2 "$port"
psql_bench() { psql -h 127.0.0.1 -p "$pg_port" -U postgres -d podium_bench -v ON_ERROR_STOP=1 -qAt "$@"; }

dropdb -h 127.0.0.1 -p "$pg_port" -U postgres --if-exists --force podium_bench
createdb -h 127.0.0.1 -p "$pg_port" -U postgres podium_bench
redis-cli -p "$redis_port" -n 2 FLUSHDB >/dev/null
"$bin" migrate >/dev/null

# A server left on the port (by a run that was killed) would answer instead of this build, with another admin key.
if curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then
    echo "something already answers on port $port: stop it (or set BENCH_PORT) and run again" >&2
    exit 1
fi

server_pid=""
start_server() {
    local started=$EPOCHREALTIME
    "$bin" serve > "$work/server.log" 2>&1 &
    server_pid=$!
    until curl -fs "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; do sleep 0.02; done
    awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "ready after %.2f s (migrations already applied)\n", b - a }'
}
stop_server() { kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; }
peak_memory() { awk '/VmHWM/ { printf "%.0f MB", $2 / 1024 }' "/proc/$server_pid/status"; }
trap stop_server EXIT

# The transaction Podium runs for one completion with one group (its player's row, taking a
# handle only when new, its topic row, a current board row on each of 3 boards, checking
# 9 timed periods, its active day for streaks (on the player's row, read first with the
# player's achievements), its completion.recorded event, and the
# answer it stores for replays: a real ~2 kB answer, built per transaction so it is stored
# as text and compressed every time as Podium's is; its colons before digits are written \x3a because
# pgbench would read ":00" as a variable), one completion per transaction, as pgbench runs it.
cat > "$work/completion.sql" <<'SQL'
\set u random(1, 10000)
\set c random(1, 9000000000000000)
BEGIN;
SELECT time_zone, array_to_string(days, ',') AS days,
       (SELECT string_agg(achievement, ',') FROM user_achievements a WHERE a.user_id = u.user_id) AS achievements
FROM users u WHERE user_id = 'pgb-' || :u;
INSERT INTO users AS u (user_id, handle, display_name, points, completions, correct_answers, total_answers, days, created_at, updated_at)
VALUES ('pgb-' || :u, COALESCE((SELECT handle FROM users WHERE user_id = 'pgb-' || :u), nextval('users_handle_seq')),
        'Player ' || :u, 3, 1, 7, 10, string_to_array('20778', ',')::int[], now(), now())
ON CONFLICT (user_id) DO UPDATE SET display_name = COALESCE(EXCLUDED.display_name, u.display_name), points = u.points + EXCLUDED.points,
  completions = u.completions + 1, correct_answers = u.correct_answers + EXCLUDED.correct_answers,
  total_answers = u.total_answers + EXCLUDED.total_answers,
  days = CASE WHEN EXCLUDED.days <@ u.days THEN u.days ELSE ARRAY(SELECT DISTINCT d FROM unnest(u.days || EXCLUDED.days) AS d ORDER BY d) END,
  updated_at = EXCLUDED.updated_at
RETURNING handle, points, completions, correct_answers, total_answers, display_name;
INSERT INTO user_topics AS t (user_id, topic, completions, correct_answers, total_answers, accuracy_sum, best_accuracy, best_points, last_played_at)
VALUES ('pgb-' || :u, 'pgbench', 1, 7, 10, 0.7, 0.7, 3, now())
ON CONFLICT (user_id, topic) DO UPDATE SET completions = t.completions + 1, correct_answers = t.correct_answers + EXCLUDED.correct_answers,
  total_answers = t.total_answers + EXCLUDED.total_answers, accuracy_sum = t.accuracy_sum + EXCLUDED.accuracy_sum,
  best_accuracy = GREATEST(t.best_accuracy, EXCLUDED.best_accuracy), best_points = GREATEST(t.best_points, EXCLUDED.best_points),
  last_played_at = GREATEST(t.last_played_at, EXCLUDED.last_played_at);
INSERT INTO board_current_scores AS c (board, user_id, updated_at, all_score, day_period, day_score, week_period, week_score,
                                       month_period, month_score)
SELECT b, 'pgb-' || :u, now(), 3, '2026-11-21', 3, '2026-W47', 3, '2026-11', 3
FROM unnest(ARRAY['global', ('topic:' || 'pgbench'), ('group:' || 'pgb')]) AS x(b)
WHERE NOT EXISTS (SELECT 1 FROM board_periods c WHERE c.board = x.b AND c.period IN ('2026-11-21', '2026-W47', '2026-11')
                                                  AND c.closed_at IS NOT NULL)
ORDER BY b
ON CONFLICT (board, user_id) DO UPDATE SET updated_at = EXCLUDED.updated_at, all_score = c.all_score + EXCLUDED.all_score,
  day_score = CASE WHEN c.day_period = EXCLUDED.day_period THEN c.day_score + EXCLUDED.day_score ELSE EXCLUDED.day_score END,
  week_score = CASE WHEN c.week_period = EXCLUDED.week_period THEN c.week_score + EXCLUDED.week_score ELSE EXCLUDED.week_score END,
  month_score = CASE WHEN c.month_period = EXCLUDED.month_period THEN c.month_score + EXCLUDED.month_score ELSE EXCLUDED.month_score END,
  day_period = EXCLUDED.day_period, week_period = EXCLUDED.week_period, month_period = EXCLUDED.month_period
RETURNING board, all_score, day_score, week_score, month_score;
INSERT INTO boards (board, created_at) VALUES (('topic:' || 'pgbench'), now()) ON CONFLICT DO NOTHING;
INSERT INTO board_periods (board, board_window, period, ends_at)
SELECT DISTINCT b, w, p, now() + interval '1 day' FROM unnest(
  ARRAY['global','global','global',('topic:' || 'pgbench'),('topic:' || 'pgbench'),('topic:' || 'pgbench'),('group:' || 'pgb'),('group:' || 'pgb'),('group:' || 'pgb')],
  ARRAY['day','week','month','day','week','month','day','week','month'],
  ARRAY['2026-11-21','2026-W47','2026-11','2026-11-21','2026-W47','2026-11','2026-11-21','2026-W47','2026-11']) AS x(b, w, p)
ORDER BY b, w, p ON CONFLICT DO NOTHING;
INSERT INTO events (type, user_id, occurred_at, payload)
VALUES ('completion.recorded', 'pgb-' || :u, now(), jsonb_build_object('completion_id', 'pgb-' || :c, 'user_id', 'pgb-' || :u, 'quiz_id', 'q',
        'topic', 'pgbench', 'difficulty', 'medium', 'correct', 7, 'total', 10, 'points', 3, 'completed_at', now()::text));
INSERT INTO completions (id, user_id, quiz_id, topic, difficulty, correct, total, duration_ms, groups, completed_at, recorded_at, points, request_hash, answer)
VALUES ('pgb-' || :c, 'pgb-' || :u, 'q', 'pgbench', 'medium', 7, 10, 1000, ARRAY['pgb'], now(), now(), 3, 'h',
        ('{"stored_for": "pgb-' || :c || '", ' || E'"level": {"level": 1, "next_level_at": 10, "level_starts_at": 0, "points_to_next_level": 6}, "ranks": [{"rank": 10048, "board": "global", "score": 4, "period": "all", "window": "all", "players": 17076}, {"rank": 6548, "board": "global", "score": 4, "period": "2026-11-22", "window": "day", "players": 10000}, {"rank": 10048, "board": "global", "score": 4, "period": "2026-W47", "window": "week", "players": 17076}, {"rank": 10048, "board": "global", "score": 4, "period": "2026-11", "window": "month", "players": 17076}, {"rank": 6548, "board": "topic\x3abench", "score": 4, "period": "all", "window": "all", "players": 10000}, {"rank": 6548, "board": "topic\x3abench", "score": 4, "period": "2026-11-22", "window": "day", "players": 10000}, {"rank": 6548, "board": "topic\x3abench", "score": 4, "period": "2026-W47", "window": "week", "players": 10000}, {"rank": 6548, "board": "topic\x3abench", "score": 4, "period": "2026-11", "window": "month", "players": 10000}, {"rank": 67, "board": "group\x3aclass-44", "score": 4, "period": "all", "window": "all", "players": 100}, {"rank": 67, "board": "group\x3aclass-44", "score": 4, "period": "2026-11-22", "window": "day", "players": 100}, {"rank": 67, "board": "group\x3aclass-44", "score": 4, "period": "2026-W47", "window": "week", "players": 100}, {"rank": 67, "board": "group\x3aclass-44", "score": 4, "period": "2026-11", "window": "month", "players": 100}], "streak": {"current": 1, "longest": 1}, "totals": {"points": 4, "completions": 2, "total_answers": 20, "correct_answers": 10, "correct_percent": 50, "incorrect_percent": 50}, "completion": {"id": "bench-A8154415-11-181", "topic": "bench", "total": 10, "groups": ["class-44"], "points": 2, "correct": 5, "quiz_id": "q-44", "user_id": "player-1044", "difficulty": "easy", "recorded_at": "2026-11-22T01\x3a41\x3a01.177Z", "completed_at": "2026-11-22T01\x3a41\x3a01.171Z"}, "rankings_live": true, "missed_periods": [], "points_awarded": 2, "achievements_unlocked": []}'))
ON CONFLICT DO NOTHING;
END;
SQL

# The smallest transaction that keeps the same truth (issue 24): the completion row with its stored answer, the
# player's totals, one board row per scope (global, topic, group) and one event. Its last two statements are the
# ones above.
{
    cat <<'SQL'
\set u random(1, 10000)
\set c random(1, 9000000000000000)
BEGIN;
INSERT INTO users AS u (user_id, handle, points, completions, correct_answers, total_answers, created_at, updated_at)
VALUES ('pgb-' || :u, COALESCE((SELECT handle FROM users WHERE user_id = 'pgb-' || :u), nextval('users_handle_seq')),
        3, 1, 7, 10, now(), now())
ON CONFLICT (user_id) DO UPDATE SET points = u.points + EXCLUDED.points, completions = u.completions + 1,
  correct_answers = u.correct_answers + EXCLUDED.correct_answers, total_answers = u.total_answers + EXCLUDED.total_answers,
  updated_at = EXCLUDED.updated_at;
INSERT INTO board_current_scores AS c (board, user_id, updated_at, all_score, day_period, day_score, week_period, week_score,
                                       month_period, month_score)
SELECT b, 'pgb-' || :u, now(), 3, '2026-11-21', 3, '2026-W47', 3, '2026-11', 3
FROM unnest(ARRAY['global', ('topic:' || 'pgbench'), ('group:' || 'pgb')]) AS x(b) ORDER BY b
ON CONFLICT (board, user_id) DO UPDATE SET updated_at = EXCLUDED.updated_at, all_score = c.all_score + 3,
  day_score = c.day_score + 3, week_score = c.week_score + 3, month_score = c.month_score + 3;
SQL
    sed -n '/^INSERT INTO events/,$p' "$work/completion.sql"
} > "$work/minimal.sql"

# Rows written and CPU spent per completion over one Podium-only stretch of load (ops/lib/bench-counters.sh).
. "$root/ops/lib/bench-counters.sh"
# Prints rows per completion, in all and by table, between the counter files $1 and $2, with the label $3.
rows_per_completion() {
    awk -v label="$3" '
        FNR == NR { before[$1] = $2; next }
        { written[$1] = $2 - before[$1]; if ($1 == "completions") n = $2 - before[$1] }
        END {
            for (t in written) { total += written[t]; if (written[t] > 0) parts = parts sprintf(" %s %.2f", t, written[t] / n) }
            printf "rows per completion, %s: %.2f over %d completions (%s )\n", label, total / n, n, parts
        }' "$1" "$2"
}

echo
echo "== The hot answers' hand-written JSON writer against Foundation's JSONEncoder (podium bench-json, in-process)"
"$bin" bench-json || echo "(this build has no bench-json)"

echo
echo "== Rows per completion of new players: the seed, one completion for each of 10,000 players in batches of 500"
pg_rows > "$work/rows-0.txt"
start_server
"$bin" bench --url "http://127.0.0.1:$port" --players 10000 --concurrency "$clients" --topic bench --phases seed
stop_server
pg_rows > "$work/rows-1.txt"
rows_per_completion "$work/rows-0.txt" "$work/rows-1.txt" "new players (target <= 10)"

echo
echo "== Rows and CPU per completion of returning players: Podium alone, $duration s at $clients clients"
start_server
podium_cpu_0="$(podium_cpu_ticks)"; pg_cpu_0="$(pg_cpu_ticks)"; redis_cpu_0="$(redis_cpu_ticks)"
# The load generator's own CPU (bash's `time`: user and system seconds), which shares the machine's cores.
TIMEFORMAT='%U %S'
{ time "$bin" bench --url "http://127.0.0.1:$port" --players 10000 --concurrency "$clients" --duration "$duration" --topic bench \
    --phases ingest 2>&3; } 3>&2 2>"$work/loadgen-cpu.txt"
podium_cpu_1="$(podium_cpu_ticks)"; pg_cpu_1="$(pg_cpu_ticks)"; redis_cpu_1="$(redis_cpu_ticks)"
stop_server
pg_rows > "$work/rows-2.txt"
rows_per_completion "$work/rows-1.txt" "$work/rows-2.txt" "returning players (target <= 8)"
completed="$(awk 'FNR == NR { if ($1 == "completions") a = $2; next } $1 == "completions" { print $2 - a }' "$work/rows-1.txt" "$work/rows-2.txt")"
podium_pg_us="$(awk -v n="$completed" -v hz="$(getconf CLK_TCK)" -v g="$((pg_cpu_1 - pg_cpu_0))" 'BEGIN { printf "%.0f", g / hz / n * 1e6 }')"
awk -v n="$completed" -v hz="$(getconf CLK_TCK)" -v p="$((podium_cpu_1 - podium_cpu_0))" -v g="$podium_pg_us" \
    'BEGIN { printf "CPU per completion: podium %.0f us, postgresql %.0f us (%d completions)\n", p / hz / n * 1e6, g, n }'
awk -v n="$completed" -v hz="$(getconf CLK_TCK)" -v r="$((redis_cpu_1 - redis_cpu_0))" '
    { printf "CPU per completion beside them: redis %.0f us, the load generator %.0f us\n", r / hz / n * 1e6, ($1 + $2) / n * 1e6 }' \
    "$work/loadgen-cpu.txt"
# What each kind of row costs on disk (table, its indexes and its TOAST), for docs/CAPACITY.md.
sizes=""
for table in completions events users user_topics board_current_scores; do
    # A partitioned table (events) has no storage of its own: its partitions' sizes are added.
    sizes+="${sizes:+, }$table $(psql_bench -c "
        SELECT (pg_total_relation_size('$table') + COALESCE((SELECT sum(pg_total_relation_size(inhrelid)) FROM pg_inherits
                                                             WHERE inhparent = '$table'::regclass), 0)) / greatest(count(*), 1)
        FROM $table")"
done
echo "postgresql bytes per row, with indexes: $sizes"

echo
echo "== Ingest at 10,000 players, $clients clients: pgbench (Podium's transaction, and the minimal one) and Podium take turns"
start_server
# Slices of about two seconds, alternating, so drift on a shared machine hits all alike.
rounds=$(( duration / 2 )); [ "$rounds" -ge 1 ] || rounds=1
slice=$(( duration / rounds )); [ "$slice" -ge 1 ] || slice=1

# One pgbench slice of the script $3, appending a line "<label $2> <tps> <average latency>" per second and then
# "<label>-p99 <ms>" to the file $1; further arguments go to pgbench (-R <rate> paces it).
# It runs one second longer, and that first second is left out: pgbench's 64 new sessions
# prepare and plan their statements then, while Podium's server is already warm.
pgbench_slice() {
    local out="$1" label="$2" script="$3"; shift 3
    rm -f "$work"/pgbench-tx.*
    pgbench -h 127.0.0.1 -p "$pg_port" -U postgres -n -M prepared -c "$clients" -j 2 -T "$((slice + 1))" -P 1 "$@" \
        -l --log-prefix="$work/pgbench-tx" -f "$script" podium_bench 2>&1 \
        | awk -v label="$label" '/^progress:/ && ++k > 1 { print label, $4, $7 }' >> "$out"
    # pgbench's own p99 over the same seconds (its per-transaction log: latency in µs, counted
    # from the scheduled start when paced, then the epoch second it ended).
    cat "$work"/pgbench-tx.* | awk '
        { second[NR] = $5; latency[NR] = $3 / 1000; if (NR == 1 || $5 < first) first = $5 }
        END { for (i = 1; i <= NR; i++) if (second[i] > first) print latency[i] }' \
        | sort -n | awk -v label="$label" '{ l[NR] = $1 } END { print label "-p99", l[int(NR * 0.99)] }' >> "$out"
}

# Totals of the slices in file $1: pgbench's lines as above, Podium's as `podium bench` prints them;
# with a second argument "paced", without the ratios of rates (all ran at the same one).
summarise_ingest() {
    awk -v paced="${2:-}" '
        $1 == "same" || $1 == "minimal" { tps[$1] += $2; secs[$1] += 1; lat[$1] += $2 * $3 }
        $1 == "same-p99" || $1 == "minimal-p99" { name = substr($1, 1, length($1) - 4); if ($2 > p99s[name]) p99s[name] = $2 }
        $1 == "ingest" || $1 == "ingest:" {
            gsub(/[()]/, "")
            for (i = 1; i < NF; i++) {
                if ($i == "req/s") { n += $(i + 1); s += $(i + 3) }
                if ($i == "p99" && $(i + 1) > p99) p99 = $(i + 1)
            }
        }
        END {
            split("same minimal", names, " ")
            what["same"] = "Podium'"'"'s transaction"; what["minimal"] = "the minimal transaction"
            for (k = 1; k <= 2; k++) {
                m = names[k]
                if (secs[m] == 0) continue
                printf "pgbench, %s: %.0f tps over %.0f s, latency average %.1f ms, worst slice p99 %.1f ms\n", what[m],
                    tps[m] / secs[m], secs[m], lat[m] / tps[m], p99s[m]
            }
            printf "podium ingest: %.0f completions/s over %.1f s, worst slice p99 %.1f ms\n", n / s, s, p99
            if (paced != "paced") {
                printf "ratio podium/pgbench, Podium'"'"'s transaction: %.2f\n", (n / s) / (tps["same"] / secs["same"])
                printf "ratio podium/pgbench, the minimal transaction: %.2f (target >= 1.0)\n", (n / s) / (tps["minimal"] / secs["minimal"])
            }
        }' "$1"
}

: > "$work/ingest.txt"
for _ in $(seq "$rounds"); do
    pgbench_slice "$work/ingest.txt" same "$work/completion.sql"
    pgbench_slice "$work/ingest.txt" minimal "$work/minimal.sql"
    "$bin" bench --url "http://127.0.0.1:$port" --players 10000 --concurrency "$clients" --duration "$slice" --topic bench \
        --phases ingest | tee -a "$work/ingest.txt"
done
summarise_ingest "$work/ingest.txt"

# What the same PostgreSQL spends on the minimal transaction, beside what it spends per Podium completion (above):
# on separate machines, PostgreSQL's CPU is what bounds ingest, and Podium's own, Redis's and the load generator's
# CPU no longer share its cores. pgbench alone; its sessions' start is in the figure (a few µs per transaction).
echo
echo "== PostgreSQL CPU per transaction: pgbench alone, the minimal transaction, $duration s at $clients clients"
pg_cpu_0="$(pg_cpu_ticks)"
{ time pgbench -h 127.0.0.1 -p "$pg_port" -U postgres -n -M prepared -c "$clients" -j 2 -T "$duration" -f "$work/minimal.sql" \
    podium_bench > "$work/pgbench-alone.txt" 2>&1; } 2>"$work/pgbench-cpu.txt"
pg_cpu_1="$(pg_cpu_ticks)"
awk -v hz="$(getconf CLK_TCK)" -v g="$((pg_cpu_1 - pg_cpu_0))" -v podium="$podium_pg_us" '
    FNR == NR { client = $1 + $2; next }
    /number of transactions actually processed/ { split($NF, n, "/"); tx = n[1] }
    END {
        minimal = g / hz / tx * 1e6
        printf "CPU per transaction: postgresql %.0f us, pgbench %.0f us (%d transactions)\n", minimal, client / tx * 1e6, tx
        printf "the same PostgreSQL absorbs %.2fx as many of Podium'"'"'s completions as minimal transactions (%.0f us against %.0f us)\n",
            minimal / podium, podium, minimal
    }' "$work/pgbench-cpu.txt" "$work/pgbench-alone.txt"

# The p99 target at three quarters of Podium's own saturation rate: Podium and pgbench (Podium's transaction) offered
# that many completions per second, evenly spaced, from the same clients; latency counts from when each was due.
rate="$(awk '($1 == "ingest" || $1 == "ingest:") { gsub(/[()]/, ""); for (i = 1; i < NF; i++) if ($i == "req/s") { n += $(i + 1); s += $(i + 3) } }
             END { printf "%.0f", 0.75 * n / s }' "$work/ingest.txt")"
echo
echo "== Ingest paced at $rate/s (75% of Podium's saturation), $clients clients, latency from each request's due time"
: > "$work/paced.txt"
for _ in $(seq "$rounds"); do
    pgbench_slice "$work/paced.txt" same "$work/completion.sql" -R "$rate"
    "$bin" bench --url "http://127.0.0.1:$port" --players 10000 --concurrency "$clients" --duration "$slice" --topic bench \
        --phases ingest --rate "$rate" | tee -a "$work/paced.txt"
done
summarise_ingest "$work/paced.txt" paced
echo "(target: podium's p99 <= 50 ms)"
"$bin" bench --url "http://127.0.0.1:$port" --players 10000 --concurrency "$clients" --duration "$duration" --topic bench --phases reads
echo "podium peak resident memory: $(peak_memory)"
# CPU per read of each kind alone (for docs/CAPACITY.md): Podium, Redis and PostgreSQL over a few seconds of it.
for kind in top revalidate around; do
    p0="$(podium_cpu_ticks)"; r0="$(redis_cpu_ticks)"; g0="$(pg_cpu_ticks)"
    line="$("$bin" bench --url "http://127.0.0.1:$port" --players 10000 --concurrency "$clients" --duration 4 --topic bench \
        --phases reads --reads "$kind")"
    p1="$(podium_cpu_ticks)"; r1="$(redis_cpu_ticks)"; g1="$(pg_cpu_ticks)"
    echo "$line" | awk -v kind="$kind" -v hz="$(getconf CLK_TCK)" -v p="$((p1 - p0))" -v r="$((r1 - r0))" -v g="$((g1 - g0))" '
        { gsub(/[()]/, ""); for (i = 1; i < NF; i++) if ($i == "in") n = $(i - 1) }
        END { printf "CPU per read, %s alone: podium %.1f us, redis %.1f us, postgresql %.1f us (%d reads)\n", kind,
              p / hz / n * 1e6, r / hz / n * 1e6, g / hz / n * 1e6, n }'
done
# What one live update sends each listener: the page as an SSE `page` event (id, event and data lines).
page_bytes="$(curl -fs -H "Authorization: Bearer $PODIUM_ADMIN_KEY" "http://127.0.0.1:$port/v1/leaderboards/topic:bench/all?limit=10" | wc -c)"
etag="$(curl -fsI -H "Authorization: Bearer $PODIUM_ADMIN_KEY" "http://127.0.0.1:$port/v1/leaderboards/topic:bench/all?limit=10" \
    | tr -d '\r' | awk -F': ' 'tolower($1) == "etag" { print $2 }')"
awk -v body="$page_bytes" -v etag="${#etag}" 'BEGIN {
    printf "a live update of a top-10 page: %d bytes of SSE event per listener (a %d-byte page), before TCP and TLS framing\n",
        body + etag + length("id: \nevent: page\ndata: \n\n"), body }'
stop_server

if [ "${BENCH_SCALE:-1}" != 0 ]; then
    start_server
    echo
    echo "== Podium at 1,000,000 players (seeded in SQL, then rankings rebuild)"
    psql_bench -f ops/bench/seed-million.sql
    stop_server
    /usr/bin/time -f "rankings rebuild: %e s wall, %M KB peak" "$bin" rankings rebuild | tail -n 1
    entries="$(redis-cli -p "$redis_port" -n 2 ZCARD 'podium:lb:{topic:scale:all:all}')"
    bytes="$(redis-cli -p "$redis_port" -n 2 MEMORY USAGE 'podium:lb:{topic:scale:all:all}' SAMPLES 0)"
    awk -v b="$bytes" -v n="$entries" 'BEGIN { printf "redis: %d entries, %.1f bytes per entry (target <= 100)\n", n, b / n }'
    # Once per player, not per board period: the hashes that translate members (member to player, user id to member).
    players="$(redis-cli -p "$redis_port" -n 2 HLEN 'podium:member:players')"
    hashes=0
    for hash in podium:member:players podium:user:members; do
        hashes=$((hashes + $(redis-cli -p "$redis_port" -n 2 MEMORY USAGE "$hash" SAMPLES 0)))
    done
    awk -v b="$hashes" -v n="$players" 'BEGIN { printf "redis: %d players in the member hashes, %.1f bytes per player\n", n, b / n }'
    start_server
    "$bin" bench --url "http://127.0.0.1:$port" --players 1000000 --concurrency "$clients" --duration "$duration" \
        --topic scale --phases ingest,reads
    echo "podium peak resident memory: $(peak_memory)"
fi

# ---------------------------------------------------------------------------------------------------------------
# Idle: what one replica with no traffic costs PostgreSQL (SPEC: at most one transaction per second). The replica is
# restarted, left to settle (its first passes, its listener connecting), then PostgreSQL's own count of the
# database's transactions is read twice. A backend hands its counts to pg_stat_database within about 10 s of going
# idle, so the window is a minute, which also holds one run of each every-minute job. The counts are read from the
# `postgres` database, so reading them adds nothing. BENCH_IDLE=0 skips this part.
if [ "${BENCH_IDLE:-1}" != 0 ]; then
    idle_settle="${BENCH_IDLE_SETTLE:-20}"
    idle_window="${BENCH_IDLE_SECONDS:-60}"
    echo
    echo "== Idle: PostgreSQL transactions of one replica without traffic, over $idle_window s"
    stop_server
    # pgbench's completions ('pgb-…', written by SQL, never ranked) would otherwise keep the replica's ranking sync
    # busy ranking some 90,000 of them: about 50 transactions a second of catching up, not of idling.
    psql_bench -c "UPDATE completions SET ranked = true WHERE id LIKE 'pgb-%' AND NOT ranked" >/dev/null
    start_server
    sleep "$idle_settle"
    transactions() {
        psql -h 127.0.0.1 -p "$pg_port" -U postgres -d postgres -qAt \
            -c "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = 'podium_bench'"
    }
    idle_before="$(transactions)"
    sleep "$idle_window"
    idle_after="$(transactions)"
    awk -v a="$idle_before" -v b="$idle_after" -v s="$idle_window" \
        'BEGIN { printf "idle replica: %d transactions in %d s, %.2f per second (target <= 1)\n", b - a, s, (b - a) / s }'
fi

# ---------------------------------------------------------------------------------------------------------------
# Leagues: a week of 1,000,000 players (33,336 cohorts) closing, with Redis's bytes per cohort (ops/bench/bench-leagues.sh,
# on its own database; it empties Redis db 2, so the replica above stops first). BENCH_SCALE=0 skips it with the rest.
if [ "${BENCH_SCALE:-1}" != 0 ]; then
    echo
    stop_server
    BENCH_BINARY="$bin" bash ops/bench/bench-leagues.sh
fi

# ---------------------------------------------------------------------------------------------------------------
# Quiz, best and teams boards: rows and CPU of a completion on a quiz board, Redis bytes per quiz-board entry, the
# rebuild of 1,000,000 players' quiz boards, and a week's close of 1,000 quiz boards and 100 teams boards
# (ops/bench/bench-quiz.sh, on its own database and Redis db 4). BENCH_SCALE=0 skips it with the rest.
if [ "${BENCH_SCALE:-1}" != 0 ]; then
    echo
    BENCH_BINARY="$bin" bash ops/bench/bench-quiz.sh
fi
