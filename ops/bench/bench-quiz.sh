#!/usr/bin/env bash
# Benchmark: quiz boards and best and latest boards (issue 36; docs/RULES.md, "Best and latest boards", "Quiz boards").
#
#   bash ops/bench/bench-quiz.sh                         all parts
#   BENCH_BINARY=path bash ops/bench/bench-quiz.sh       measure that podium binary instead of building this tree's
#   BENCH_DURATION=20 bash ops/bench/bench-quiz.sh       seconds of returning players per run (default 10)
#   BENCH_QUIZ_ROUNDS=3 bash ops/bench/bench-quiz.sh     runs of part 1 without and with quiz boards, in turns (default 2)
#   BENCH_QUIZ_PLAYERS=100000 bash ops/bench/bench-quiz.sh   players of parts 3 and 4 (default 1,000,000)
#   BENCH_QUIZ_GOALS=0 bash ops/bench/bench-quiz.sh      part 1 without its goals runs
#
# A release binary copied out of .build finds its resource bundles (migrations, the Lua scripts, the console) beside
# itself, else at the absolute .build path of the tree it was built in, whatever that tree holds now: to measure another
# commit's build, put it in a directory of its own with that commit's podium_PodiumStore.resources and
# podium_PodiumHTTP.resources (ops/bench/HISTORY.md, "Issue 36").
#
# Prints:
#   1. rows and CPU per completion on a quiz board: `podium bench` over 1,000 players (each completion with one of 50
#      quiz ids, `q-<player % 50>`) with an ingest key, against a replica with no quiz rule and one with
#      {"scope": "quiz:*", "aggregate": "best", "metric": "points", "windows": ["week", "all"]}, in turns, a fresh
#      database each: rows per completion of new players (the seed, batches of 500) and of returning ones (single
#      completions at 64 clients), from pg_stat_user_tables as bench.sh counts them, and CPU per completion of Podium,
#      PostgreSQL and Redis from /proc; then the means and their ratios (target: each quiz board a completion counts on
#      adds at most one row, board_current_scores, and CPU within noise plus that row); and a third run each round with no
#      quiz rule but two goals every completion counts toward (a personal one, and a class one over 50 of the 100 groups
#      the benchmark's players play for), against the runs without;
#   2. Redis bytes per entry of a best board, a latest board and (for comparison) a sum board of 200,000 players each
#      (MEMORY USAGE / ZCARD of the all-time sorted set, a skiplist as in bench.sh's figure);
#   3. `podium rankings rebuild` of 1,000,000 players on 1,000 quiz boards (best, week and all time: 2,000,000 entries,
#      ops/bench/seed-quiz.sql; target <= 30 s), and Redis's bytes per entry of those 1,000-player boards;
#   4. the close of those 1,000 quiz boards' week (medals on the week: "medal_windows": ["week"]) by one `podium jobs
#      run close-periods`, as ops/bench/bench-leagues.sh closes a league week, and checks that it closed each board
#      period exactly once: one final snapshot each, medals not doubled; a second run and a `podium periods close` of
#      one of them find them closed;
#   4b. the close of 100 teams boards' week (team:t-0 … team:t-99, ten groups each, the 1,000,000 players spread over
#      the 1,000 groups' boards), by one more `podium jobs run close-periods`, checked as part 4 (one final snapshot and
#      one period.closed per teams board, no medal given twice; a second run changes nothing);
#   5. the baseline of part 3 in the same run: `podium rankings rebuild` of ops/bench/seed-million.sql (1,000,000 players
#      on one sum board, bench.sh's scale figure), by the same binary (BENCH_QUIZ_BASELINE=0 skips it);
# and, last, how many transactions other databases committed meanwhile: the CPU figures count every PostgreSQL and Redis
# process, so a test suite run beside the benchmark shows in them (run it on a quiet machine).
# Uses its own database (podium_bench_quiz) and Redis db 4, which nothing else uses, and drops and empties them at the
# end; refuses to start when something answers on its port (BENCH_PORT, default 18084).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
bash ops/services.sh >/dev/null
. "$root/ops/lib/swift.sh"

duration="${BENCH_DURATION:-10}"
clients="${BENCH_CLIENTS:-64}"
rounds="${BENCH_QUIZ_ROUNDS:-2}"
players="${BENCH_QUIZ_PLAYERS:-1000000}"
boards="${BENCH_QUIZ_BOARDS:-1000}"
big="${BENCH_QUIZ_BIG:-200000}"
port="${BENCH_PORT:-18084}"
pg_port="${PODIUM_PG_PORT:-5432}"
redis_port="${PODIUM_REDIS_PORT:-6379}"
db=podium_bench_quiz
redis_db=4
work="$root/.local/bench-quiz"
mkdir -p "$work"

benchmark_binary
benchmark_environment "$db" "$redis_db" "$port"
export PODIUM_LOG_LEVEL=warning
unset PODIUM_RULES_FILE
psql_bench() { psql -h 127.0.0.1 -p "$pg_port" -U postgres -d "$db" -v ON_ERROR_STOP=1 -qAt "$@"; }
redis_bench() { redis-cli -p "$redis_port" -n "$redis_db" "$@"; }

# A server left on the port (by a run that was killed) would answer instead of this build, with another admin key.
if curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then
    echo "something already answers on port $port: stop it (or set BENCH_PORT) and run again" >&2
    exit 1
fi

fresh_database() {
    dropdb -h 127.0.0.1 -p "$pg_port" -U postgres --if-exists --force "$db"
    createdb -h 127.0.0.1 -p "$pg_port" -U postgres "$db"
    redis_bench FLUSHDB >/dev/null
    "$bin" migrate >/dev/null 2>&1
}

server_pid=""
start_server() {
    "$bin" serve > "$work/server.log" 2>&1 &
    server_pid=$!
    until curl -fs "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; do
        kill -0 "$server_pid" 2>/dev/null || { echo "podium serve stopped; its log:" >&2; tail -n 20 "$work/server.log" >&2; exit 1; }
        sleep 0.02
    done
}
stop_server() {
    [ -n "$server_pid" ] || return 0
    kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true
    server_pid=""
}
cleanup() {
    stop_server
    dropdb -h 127.0.0.1 -p "$pg_port" -U postgres --if-exists --force "$db" 2>/dev/null || true
    redis_bench FLUSHDB >/dev/null 2>&1 || true
}
trap cleanup EXIT
others_transactions() {
    psql -h 127.0.0.1 -p "$pg_port" -U postgres -d postgres -qAt \
        -c "SELECT sum(xact_commit + xact_rollback) FROM pg_stat_database WHERE datname IS NOT NULL AND datname NOT IN ('$db', 'postgres')"
}
others_before="$(others_transactions)"

# The rules: quiz boards on every quiz id, a best board of points, week and all time, medals on the week; one quiz id
# (part 2's latest board) keeps each player's latest run instead; group boards of the week, and 100 teams boards
# (team:t-0 … team:t-99) of ten groups each (t0-0 … t0-9 for team:t-0), for part 4b.
{
    echo '{ "boards": ['
    echo '    { "scope": "quiz:*", "aggregate": "best", "metric": "points", "windows": ["week", "all"], "medal_windows": ["week"] },'
    echo '    { "scope": "quiz:latest-0", "aggregate": "latest", "metric": "points", "windows": ["week", "all"] },'
    echo '    { "scope": "group:*", "windows": ["week"] },'
    for team in $(seq 0 98); do echo "    { \"scope\": \"team:t-$team\", \"teams\": [\"t$team-*\"], \"windows\": [\"week\"], \"medal_windows\": [\"week\"] },"; done
    echo '    { "scope": "team:t-99", "teams": ["t99-*"], "windows": ["week"], "medal_windows": ["week"] }'
    echo '] }'
} > "$work/quiz-rules.json"
"$bin" rules check "$work/quiz-rules.json" >/dev/null

# Rows written and CPU spent per completion over one Podium-only stretch of load (ops/lib/bench-counters.sh).
. "$root/ops/lib/bench-counters.sh"
# Rows per completion between the counter files $1 and $2, in all and by table, with the label $3; also appends
# "<label> <rows per completion> <board_current_scores rows per completion>" to $work/rows.txt.
rows_per_completion() {
    awk -v label="$3" -v out="$work/rows.txt" '
        FNR == NR { before[$1] = $2; next }
        { written[$1] = $2 - before[$1]; if ($1 == "completions") n = $2 - before[$1] }
        END {
            for (t in written) { total += written[t]; if (written[t] > 0) parts = parts sprintf(" %s %.2f", t, written[t] / n) }
            printf "rows per completion, %s: %.2f over %d completions (%s )\n", label, total / n, n, parts
            printf "%s %.4f %.4f\n", label, total / n, written["board_current_scores"] / n >> out
        }' "$1" "$2"
}

# ---------------------------------------------------------------------------------------------------------------
echo
echo "== 1. Rows and CPU per completion: 1,000 players, 50 quiz ids, without a quiz rule and with quiz:* (best points, week"
echo "==    and all time), $rounds runs each in turns, a fresh database each; returning players $duration s at $clients clients"
: > "$work/rows.txt"
: > "$work/cpu.txt"
workload() {
    local label="$1"
    fresh_database
    local key
    key="$("$bin" keys create --name bench-quiz --role ingest | awk '$1 == "secret:" { print $2 }')"
    pg_rows > "$work/rows-0.txt"
    start_server
    [ "$label" != goals ] || add_goals
    "$bin" bench --url "http://127.0.0.1:$port" --key "$key" --players 1000 --concurrency "$clients" --topic bench \
        --phases seed > /dev/null
    stop_server
    pg_rows > "$work/rows-1.txt"
    start_server
    local p0 g0 r0 p1 g1 r1
    p0="$(podium_cpu_ticks)"; g0="$(pg_cpu_ticks)"; r0="$(redis_cpu_ticks)"
    "$bin" bench --url "http://127.0.0.1:$port" --key "$key" --players 1000 --concurrency "$clients" --duration "$duration" \
        --topic bench --phases ingest | sed "s/^/$label: /"
    p1="$(podium_cpu_ticks)"; g1="$(pg_cpu_ticks)"; r1="$(redis_cpu_ticks)"
    stop_server
    pg_rows > "$work/rows-2.txt"
    rows_per_completion "$work/rows-0.txt" "$work/rows-1.txt" "$label, new players"
    rows_per_completion "$work/rows-1.txt" "$work/rows-2.txt" "$label, returning players"
    local completed
    completed="$(awk 'FNR == NR { if ($1 == "completions") a = $2; next } $1 == "completions" { print $2 - a }' "$work/rows-1.txt" "$work/rows-2.txt")"
    awk -v label="$label" -v n="$completed" -v hz="$(getconf CLK_TCK)" -v p="$((p1 - p0))" -v g="$((g1 - g0))" -v r="$((r1 - r0))" \
        -v out="$work/cpu.txt" 'BEGIN {
            printf "CPU per completion, %s: podium %.0f us, postgresql %.0f us, redis %.0f us (%d completions)\n", label,
                p / hz / n * 1e6, g / hz / n * 1e6, r / hz / n * 1e6, n
            printf "%s %f %f %f %d\n", label, p / hz / n * 1e6, g / hz / n * 1e6, r / hz / n * 1e6, n >> out
        }'
    psql_bench -F ' ' -c "SELECT count(*) FILTER (WHERE board LIKE 'quiz:%'), count(DISTINCT board) FILTER (WHERE board LIKE 'quiz:%'),
                                 count(*) FROM board_current_scores" |
        awk -v label="$label" '{ printf "board_current_scores, %s: %d rows, %d on %d quiz boards\n", label, $3, $1, $2 }'
}
# Part 1's third run of each round: no quiz rule, two goals every completion counts toward (docs/RULES.md, "Goals"): a
# personal one and a class one over the benchmark's groups (class-0 … class-49 of its class-0 … class-99).
add_goals() {
    local classes
    classes="$(seq 0 49 | awk '{ printf "%s\"group:class-%d\"", (NR > 1 ? ", " : ""), $1 }')"
    for goal in '{"id": "bench-five", "title": "5 quizzes", "scope": ["global"], "measure": "completions", "target": 5, "window": "week"}' \
                "{\"id\": \"bench-class\", \"title\": \"Class: 500 right\", \"kind\": \"class\", \"scope\": [$classes], \"measure\": \"correct\", \"target\": 500, \"window\": \"week\"}"; do
        curl -fsS -o /dev/null -X POST "http://127.0.0.1:$port/v1/admin/goals" -H "Authorization: Bearer $PODIUM_ADMIN_KEY" -d "$goal"
    done
}
for round in $(seq "$rounds"); do
    unset PODIUM_RULES_FILE
    workload "without"
    export PODIUM_RULES_FILE="$work/quiz-rules.json"
    workload "with"
    unset PODIUM_RULES_FILE
    [ "${BENCH_QUIZ_GOALS:-1}" = 0 ] || workload "goals"
done
awk '
    FNR == NR { k = $1 " " $2; rows[k] += $4; current[k] += $5; rn[k]++; next }
    { cpu_p[$1] += $2; cpu_g[$1] += $3; cpu_r[$1] += $4; cn[$1]++ }
    END {
        for (who in rows) { rows[who] /= rn[who]; current[who] /= rn[who] }
        for (w in cn) { cpu_p[w] /= cn[w]; cpu_g[w] /= cn[w]; cpu_r[w] /= cn[w] }
        print "-- means over the runs, without / with the quiz rule:"
        split("new returning", kinds, " ")
        for (i = 1; i <= 2; i++) {
            kind = kinds[i]
            printf "rows per completion, %s players: %.2f / %.2f (%+.2f), of which board_current_scores %.2f / %.2f (%+.2f; target <= +1)\n",
                kind, rows["without " kind], rows["with " kind], rows["with " kind] - rows["without " kind],
                current["without " kind], current["with " kind], current["with " kind] - current["without " kind]
        }
        printf "CPU per completion, podium: %.0f / %.0f us (ratio %.2f)\n", cpu_p["without"], cpu_p["with"], cpu_p["with"] / cpu_p["without"]
        printf "CPU per completion, postgresql: %.0f / %.0f us (ratio %.2f)\n", cpu_g["without"], cpu_g["with"], cpu_g["with"] / cpu_g["without"]
        printf "CPU per completion, redis: %.0f / %.0f us (ratio %.2f)\n", cpu_r["without"], cpu_r["with"], cpu_r["with"] / cpu_r["without"]
        if (cn["goals"] == 0) exit
        print "-- means over the runs, without / with the two goals:"
        for (i = 1; i <= 2; i++) {
            kind = kinds[i]
            printf "rows per completion, %s players: %.2f / %.2f (%+.2f)\n", kind, rows["without " kind], rows["goals " kind],
                rows["goals " kind] - rows["without " kind]
        }
        printf "CPU per completion, podium: %.0f / %.0f us (ratio %.2f)\n", cpu_p["without"], cpu_p["goals"], cpu_p["goals"] / cpu_p["without"]
        printf "CPU per completion, postgresql: %.0f / %.0f us (ratio %.2f)\n", cpu_g["without"], cpu_g["goals"], cpu_g["goals"] / cpu_g["without"]
    }' <(sed 's/,//g' "$work/rows.txt") "$work/cpu.txt"

# ---------------------------------------------------------------------------------------------------------------
echo
echo "== 2. Redis bytes per entry: a best, a latest and a sum board of $big players each (all-time sorted sets)"
export PODIUM_RULES_FILE="$work/quiz-rules.json"
fresh_database
week="$(date -u +%G-W%V)"
week_ends="$(date -u -d 'next monday' +%F)T00:00:00Z"
seed() { psql_bench -v week="$week" -v week_ends="$week_ends" -f ops/bench/seed-quiz.sql "$@"; }
seed -v players="$big" -v boards=1 -v prefix=quiz:best- -v aggregate=b
seed -v players="$big" -v boards=1 -v prefix=quiz:latest- -v aggregate=l
seed -v players="$big" -v boards=1 -v prefix=topic:sum- -v aggregate=s
"$bin" rankings rebuild | tail -n 1
for board in quiz:best-0 quiz:latest-0 topic:sum-0; do
    key="podium:lb:{$board:all:all}"
    entries="$(redis_bench ZCARD "$key")"
    bytes="$(redis_bench MEMORY USAGE "$key" SAMPLES 0)"
    encoding="$(redis_bench OBJECT ENCODING "$key")"
    awk -v board="$board" -v b="$bytes" -v n="$entries" -v e="$encoding" -v v="$(redis_bench ZRANGE "$key" 0 0 WITHSCORES | tail -n 1)" \
        'BEGIN { printf "redis, %s: %d entries (%s), %.1f bytes per entry (target <= 100); top stored value %s\n", board, n, e, b / n, v }'
done

# ---------------------------------------------------------------------------------------------------------------
echo
echo "== 3. rankings rebuild of $players players on $boards quiz boards (best, week $week and all time)"
fresh_database
started=$EPOCHREALTIME
seed -v players="$players" -v boards="$boards" -v prefix=quiz:q- -v aggregate=b
awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "seeded in SQL in %.1f s\n", b - a }'
/usr/bin/time -f "rankings rebuild: %e s wall, %M KB peak (target <= 30 s)" "$bin" rankings rebuild 2>&1 | tail -n 2
psql_bench -F ' ' -c "SELECT count(*), count(DISTINCT board), count(DISTINCT user_id) FROM board_current_scores" |
    awk '{ printf "postgresql: %d rows of board_current_scores on %d boards, %d players\n", $1, $2, $3 }'
# MEMORY USAGE of up to 200 of the boards' all-time sets (1,000 entries each at the defaults: a skiplist).
redis_bench --scan --pattern 'podium:lb:{quiz:q-*:all:all}' | awk 'NR <= 200' > "$work/sampled.txt"
awk '{ print "MEMORY USAGE " $0 " SAMPLES 0" }' "$work/sampled.txt" | redis_bench > "$work/sampled-bytes.txt"
awk '{ print "ZCARD " $0 }' "$work/sampled.txt" | redis_bench > "$work/sampled-entries.txt"
paste "$work/sampled-bytes.txt" "$work/sampled-entries.txt" | awk -v e="$(redis_bench OBJECT ENCODING "$(head -n 1 "$work/sampled.txt")")" '
    { bytes += $1; n += $2; boards++ }
    END { printf "redis: %.1f bytes per entry on %d quiz boards of %.0f entries (%s)\n", bytes / n, boards, n / boards, e }'

# ---------------------------------------------------------------------------------------------------------------
echo
echo "== 4. The close of $boards quiz boards' week, medals on the week"
# The seeded week becomes one long over (2020-W10), as if no completion came since: close-periods closes it at once.
psql_bench -c "
    UPDATE board_current_scores SET week_period = '2020-W10',
           week_reached_at = timestamptz '2020-03-02T00:00:00Z' + (week_reached_at - (timestamptz '$week_ends' - interval '7 days'))
    WHERE board LIKE 'quiz:q-%';
    UPDATE board_periods SET period = '2020-W10', ends_at = '2020-03-09T00:00:00Z' WHERE board LIKE 'quiz:q-%' AND board_window = 'week'"
psql_bench -c "VACUUM ANALYZE board_current_scores" -c "VACUUM ANALYZE board_periods"
close_result() {
    psql_bench -F ' ' -c "SELECT result->>'closed', result->>'medals', result->>'skipped' FROM job_runs
                          WHERE job = 'close-periods' ORDER BY created_at DESC LIMIT 1"
}
started=$EPOCHREALTIME
"$bin" jobs run close-periods | tail -n 1
elapsed="$(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')"
read -r closed medals skipped < <(close_result)
echo "quiz week close: $boards boards, $players players, in $elapsed s: closed=$closed medals=$medals skipped=$skipped"
check() {
    psql_bench -F ' ' -c "
        SELECT (SELECT count(*) FROM board_periods WHERE board LIKE 'quiz:q-%' AND board_window = 'week' AND period = '2020-W10'
                                                  AND closed_at IS NOT NULL),
               (SELECT count(*) FROM snapshots WHERE board LIKE 'quiz:q-%' AND kind = 'final'),
               (SELECT count(*) FROM (SELECT 1 FROM snapshots WHERE board LIKE 'quiz:q-%' AND kind = 'final'
                                      GROUP BY board, board_window, period HAVING count(*) <> 1) d),
               (SELECT count(*) FROM snapshot_entries e JOIN snapshots s ON s.id = e.snapshot_id WHERE s.board LIKE 'quiz:q-%' AND s.kind = 'final'),
               (SELECT count(*) FROM snapshot_entries e JOIN snapshots s ON s.id = e.snapshot_id
                WHERE s.board LIKE 'quiz:q-%' AND s.kind = 'final' AND e.medal IS NOT NULL),
               (SELECT count(*) FROM events WHERE type = 'medal.awarded'),
               (SELECT count(*) FROM events WHERE type = 'period.closed'),
               (SELECT count(*) FROM (SELECT 1 FROM events WHERE type = 'medal.awarded'
                                      GROUP BY user_id, payload->>'board', payload->>'window', payload->>'period' HAVING count(*) > 1) d),
               (SELECT count(*) FROM (SELECT 1 FROM snapshot_entries e JOIN snapshots s ON s.id = e.snapshot_id
                                      WHERE s.board LIKE 'quiz:q-%' AND s.kind = 'final' AND e.medal IS NOT NULL
                                      GROUP BY e.snapshot_id HAVING count(*) < 3) d)"
}
read -r periods_closed finals doubled_finals entries medal_entries medal_events closed_events doubled_medals short_podiums < <(check)
echo "exactly once: $periods_closed of $boards board periods closed, $finals final snapshots ($doubled_finals periods with other than one),"
echo "  $entries snapshot entries, $medal_entries medals on them, $medal_events medal.awarded and $closed_events period.closed events,"
echo "  $doubled_medals players given a board period's medal twice, $short_podiums snapshots with fewer than 3 medals"
first="$periods_closed $finals $doubled_finals $entries $medal_entries $medal_events $closed_events $doubled_medals"
# Again: close-periods finds nothing due, and a close by hand reports the period closed before, with what it awarded.
sleep 1.1
"$bin" jobs run close-periods | tail -n 1
read -r closed2 medals2 skipped2 < <(close_result)
echo "second close-periods: closed=$closed2 medals=$medals2 skipped=$skipped2"
"$bin" periods close quiz:q-0 week 2020-W10 > "$work/close-by-hand.txt"
head -n 1 "$work/close-by-hand.txt"
read -r periods_closed finals doubled_finals entries medal_entries medal_events closed_events doubled_medals short_podiums < <(check)
second="$periods_closed $finals $doubled_finals $entries $medal_entries $medal_events $closed_events $doubled_medals"
echo "after them: $periods_closed periods closed, $finals final snapshots, $medal_entries medals, $medal_events medal.awarded events (unchanged: $([ "$first" = "$second" ] && echo yes || echo NO))"
[ "$periods_closed" = "$boards" ] && [ "$finals" = "$boards" ] && [ "$doubled_finals" = 0 ] && [ "$entries" = "$players" ] \
    && [ "$medal_entries" = "$medal_events" ] && [ "$medal_events" = "$medals" ] && [ "$closed_events" = "$boards" ] \
    && [ "$doubled_medals" = 0 ] && [ "$closed2" = 0 ] && [ "$first" = "$second" ] \
    || { echo "FAILED: the close did not close every board period exactly once" >&2; exit 1; }

# ---------------------------------------------------------------------------------------------------------------
echo
echo "== 4b. The close of 100 teams boards' week (ten groups each, $players players on the groups' boards), medals on the week"
# Player g plays for group t<(g % 1000) / 10>-<g % 10>: 1,000 groups, ten to a team, in the list of boards as a
# completion puts them; the week is long over (2020-W10), and only the teams boards' periods are listed, so close-periods closes those 100 and nothing else.
psql_bench -v players="$players" <<'SQL'
INSERT INTO board_current_scores (board, user_id, updated_at, week_period, week_score, week_reached_at)
SELECT 'group:t' || ((g % 1000) / 10) || '-' || (g % 10), 'player-' || g, now(), '2020-W10', (hashtext('team-' || g) & 31) + 1,
       timestamptz '2020-03-05T12:00:00Z'
FROM generate_series(0, :players - 1) g;
INSERT INTO boards (board, created_at)
SELECT 'group:t' || (g / 10) || '-' || (g % 10), now() FROM generate_series(0, 999) g ON CONFLICT DO NOTHING;
INSERT INTO board_periods (board, board_window, period, ends_at)
SELECT 'team:t-' || t, 'week', '2020-W10', timestamptz '2020-03-09T00:00:00Z' FROM generate_series(0, 99) t;
ANALYZE;
SQL
team_counts() {
    psql_bench -F ' ' -c "
        SELECT (SELECT count(*) FROM board_periods WHERE board LIKE 'team:t-%' AND closed_at IS NOT NULL),
               (SELECT count(*) FROM snapshots WHERE board LIKE 'team:t-%' AND kind = 'final'),
               (SELECT count(*) FROM (SELECT 1 FROM snapshots WHERE board LIKE 'team:t-%' AND kind = 'final'
                                      GROUP BY board, board_window, period HAVING count(*) <> 1) d),
               (SELECT count(*) FROM events WHERE type = 'period.closed' AND payload->>'board' LIKE 'team:t-%'),
               (SELECT count(*) FROM events WHERE type = 'medal.awarded' AND payload->>'board' LIKE 'team:t-%'),
               (SELECT count(*) FROM (SELECT 1 FROM events WHERE type = 'medal.awarded' AND payload->>'board' LIKE 'team:t-%'
                                      GROUP BY payload->>'board', payload->>'user_id' HAVING count(*) > 1) d)"
}
started=$EPOCHREALTIME
"$bin" jobs run close-periods | tail -n 1
elapsed="$(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')"
read -r closed medals skipped < <(close_result)
echo "teams week close: 100 teams boards of 10 groups, $players players, in $elapsed s: closed=$closed medals=$medals skipped=$skipped"
read -r team_closed team_finals team_doubled team_closes team_medals team_doubled_medals < <(team_counts)
echo "exactly once: $team_closed of 100 teams board periods closed, $team_finals final snapshots ($team_doubled with other than one),"
echo "  $team_closes period.closed and $team_medals medal.awarded events, $team_doubled_medals teams given a board's medal twice"
"$bin" jobs run close-periods | tail -n 1
[ "$team_closed" = 100 ] && [ "$team_finals" = 100 ] && [ "$team_doubled" = 0 ] && [ "$team_closes" = 100 ] \
    && [ "$team_medals" = "$medals" ] && [ "$team_doubled_medals" = 0 ] && [ "$(team_counts)" = "$team_closed $team_finals $team_doubled $team_closes $team_medals $team_doubled_medals" ] \
    || { echo "FAILED: the close did not close every teams board period exactly once" >&2; exit 1; }

# ---------------------------------------------------------------------------------------------------------------
if [ "${BENCH_QUIZ_BASELINE:-1}" != 0 ]; then
    echo
    echo "== 5. Baseline: rankings rebuild of ops/bench/seed-million.sql (1,000,000 players on one sum board), same binary"
    fresh_database
    psql_bench -f ops/bench/seed-million.sql
    # As part 3's seed ends with ANALYZE: without statistics, the first rebuild of the just-written rows took 58 s (66 s
    # of PostgreSQL CPU), the next 24 s (7 s).
    psql_bench -c "VACUUM ANALYZE"
    /usr/bin/time -f "rankings rebuild: %e s wall, %M KB peak" "$bin" rankings rebuild 2>&1 | tail -n 2
fi

echo
awk -v a="$others_before" -v b="$(others_transactions)" \
    'BEGIN { printf "meanwhile other databases committed %d transactions (0 on a quiet machine: the CPU figures count every process)\n", b - a }'
