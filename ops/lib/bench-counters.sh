# Sourced, not run: `. "$root/ops/lib/bench-counters.sh"` in ops/bench/bench.sh and ops/bench/bench-quiz.sh. Counters
# read before and after a stretch of load, for rows and CPU per completion. They use the caller's `psql_bench` (psql on
# the bench's database), `server_pid` (Podium's pid) and `redis_port`.
#
#   pg_rows           every table's inserted, updated and deleted rows ("table count" lines; the monthly partitions of
#                     events, migration 021, and of completions, 022, count as their table). Read it with the server
#                     stopped: a backend hands its counters over when it ends.
#   pg_cpu_ticks      CPU of every PostgreSQL process, in clock ticks (the postmaster's own counters hold its children
#                     that ended)
#   podium_cpu_ticks  Podium's CPU, in clock ticks
#   redis_cpu_ticks   Redis's CPU, in clock ticks

pg_rows() {
    psql_bench -F ' ' -c "
        SELECT CASE WHEN relname ~ '^(events|completions)_(default|[0-9]{4}_[0-9]{2})$' THEN substring(relname from '^[a-z]+')
                    ELSE relname END AS t,
               sum(n_tup_ins + n_tup_upd + n_tup_del)
        FROM pg_stat_user_tables GROUP BY 1 ORDER BY 1"
}
pg_cpu_ticks() {
    local postmaster
    postmaster="$(head -n 1 "$(psql_bench -c 'SHOW data_directory')/postmaster.pid")"
    { awk '{ print $14 + $15 + $16 + $17 }' "/proc/$postmaster/stat"
      for child in $(pgrep -P "$postmaster"); do awk '{ print $14 + $15 }' "/proc/$child/stat" 2>/dev/null || true; done
    } | awk '{ n += $1 } END { print n }'
}
podium_cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$server_pid/stat"; }
redis_cpu_ticks() {
    awk '{ print $14 + $15 }' "/proc/$(redis-cli -p "$redis_port" INFO server | tr -d '\r' | awk -F: '$1 == "process_id" { print $2 }')/stat"
}
