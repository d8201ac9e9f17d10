#!/usr/bin/env bash
# Benchmark: a league week's close at scale (issue 27: 1,000,000 players close in at most 60 s).
#
#   bash ops/bench/bench-leagues.sh                          1,000,000 players (33,336 cohorts of 30 in six tiers)
#   BENCH_LEAGUE_PLAYERS=100000 bash ops/bench/bench-leagues.sh
#   BENCH_BINARY=path bash ops/bench/bench-leagues.sh        measure that podium binary instead of building this tree's
#
# Seeds the league in SQL (ops/bench/seed-league.sql: every player placed in week 2020-W10, long over), brings the
# cohorts into Redis with `podium rankings rebuild` and prints Redis's bytes per cohort, then times `podium jobs run
# close-periods`, which closes every cohort (final snapshots, medals, moves, events), and checks it did so exactly once:
# one result and one league event per player, every cohort closed, none twice.
# Uses its own database (podium_league_bench) and Redis db 2, which ops/bench/bench.sh also uses: not both at once.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
bash ops/services.sh >/dev/null
. "$root/ops/lib/swift.sh"

players="${BENCH_LEAGUE_PLAYERS:-1000000}"
pg_port="${PODIUM_PG_PORT:-5432}"
redis_port="${PODIUM_REDIS_PORT:-6379}"
benchmark_binary
benchmark_environment podium_league_bench 2 "${BENCH_PORT:-18080}"
export PODIUM_LOG_LEVEL=warning
psql_bench() { psql -h 127.0.0.1 -p "$pg_port" -U postgres -d podium_league_bench -v ON_ERROR_STOP=1 -qAt "$@"; }

dropdb -h 127.0.0.1 -p "$pg_port" -U postgres --if-exists --force podium_league_bench
createdb -h 127.0.0.1 -p "$pg_port" -U postgres podium_league_bench
redis-cli -p "$redis_port" -n 2 FLUSHDB >/dev/null
"$bin" migrate >/dev/null 2>&1

echo "== A league week of $players players closing"
psql_bench -v players="$players" -f ops/bench/seed-league.sql
cohorts="$(psql_bench -c "SELECT count(*) FROM league_cohorts")"
"$bin" rankings rebuild | tail -n 1
# Redis's bytes per cohort: MEMORY USAGE of up to 2,000 cohort boards (a sorted set of its players each).
redis-cli -p "$redis_port" -n 2 --scan --pattern 'podium:lb:{league:*' | awk 'NR <= 2000 { print "MEMORY USAGE " $0 " SAMPLES 0" }' \
    | redis-cli -p "$redis_port" -n 2 | awk -v size=30 '{ bytes += $1; n++ }
        END { printf "redis: %.0f bytes per cohort of %d (%.1f per player; %d cohorts measured)\n", bytes / n, size, bytes / n / size, n }'

started=$EPOCHREALTIME
"$bin" jobs run close-periods | tail -n 1
elapsed="$(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')"
read -r results events closed finals doubled < <(psql_bench -F ' ' -c "
    SELECT (SELECT count(*) FROM league_results),
           (SELECT count(*) FROM events WHERE type LIKE 'league.%'),
           (SELECT count(*) FROM board_periods WHERE board LIKE 'league:%' AND closed_at IS NOT NULL),
           (SELECT count(*) FROM snapshots WHERE board LIKE 'league:%' AND kind = 'final'),
           (SELECT count(*) FROM (SELECT user_id FROM events WHERE type LIKE 'league.%' GROUP BY user_id HAVING count(*) > 1) d)")
echo "league close: $players players in $cohorts cohorts closed in $elapsed s (target <= 60 s)"
echo "exactly once: $results results, $events league events, $closed of $cohorts cohorts closed, $finals final snapshots, $doubled players moved twice"
[ "$results" = "$players" ] && [ "$events" = "$players" ] && [ "$closed" = "$cohorts" ] && [ "$finals" = "$cohorts" ] && [ "$doubled" = 0 ] \
    || { echo "FAILED: the close did not settle every player exactly once" >&2; exit 1; }
dropdb -h 127.0.0.1 -p "$pg_port" -U postgres --force podium_league_bench
