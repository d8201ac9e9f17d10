#!/usr/bin/env bash
# Quick start, "test": runs the whole test suite against a local PostgreSQL and
# Redis on loopback.
#
#   bash ops/test.sh                 install/start PostgreSQL + Redis (ops/services.sh),
#                                    reset the test database and Redis db 15, check that
#                                    SQL is written only as typed statements
#                                    (ops/test/sql-statements-check.py) and that the vendored
#                                    QR encoder is its Debian package's file
#                                    (ops/test/vendored-check.sh), then
#                                    `swift build --build-tests` (the multi-process test
#                                    runs the executable) and the Swift Testing binary
#                                    (`podiumPackageTests.xctest`, what `swift test` runs),
#                                    then against that build: the Redis tests through
#                                    stunnel to a TLS-only Redis (ops/test/stunnel-test.sh),
#                                    the clients' generated code against openapi.json
#                                    (clients/regenerate.sh --check), each typed client installed
#                                    as a newcomer would and tested against a real Podium behind a
#                                    fault proxy (clients/{python,typescript,swift}/test.sh), the
#                                    browser end-to-end tests (ops/test/browser-test.sh),
#                                    schemathesis over the OpenAPI document
#                                    (ops/test/schemathesis.sh), the monitoring tests
#                                    (ops/test/monitoring-test.sh), the PostgreSQL failover
#                                    drill (ops/test/failover-test.sh) and the ranking suites and
#                                    drills on a Redis Cluster (ops/test/redis-cluster-test.sh)
#   bash ops/test.sh ARGS...         extra arguments go to the test binary,
#                                    e.g. `bash ops/test.sh --filter RedisTests`
#
# It ends by printing how long each part took (also when a part fails).
#
# Fails if the build or any test fails, and also if no test ran at all (a
# filter that matches nothing, a test bundle that found no tests), and if any
# of the other suites fails. The full output is kept in .local/test-last.log,
# the other suites' in .local/<script name>.log.
#
# PODIUM_TEST_DATABASE_URL / PODIUM_TEST_REDIS_URL, when set, are used as they
# are and not reset; otherwise they point at the local services (ports from
# PODIUM_PG_PORT / PODIUM_REDIS_PORT) and start from a clean slate.
#
# PODIUM_TEST_TIME_LIMIT_S (default 2400) bounds the Swift tests as a whole: when they run longer (a test
# hangs), they are stopped with everything they started, the tests still running are printed, and the run
# fails (ops/lib/time-limit.sh). Processes a test left running after the binary ended are named and killed.
# Each suite also has its own `.timeLimit`, and each of the other scripts a limit of
# PODIUM_SUITE_TIME_LIMIT_S (default 1800).
#
# PODIUM_TEST_DATE_SHIFT=N (days) runs the tests, and the `podium` processes they
# start, as if the wall clock were N days ahead (a small preload library,
# ops/test/clock-shift/clock_shift.c, built with gcc); the build itself runs on the
# real clock. ops/test/date-shift.sh uses it.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
started=$SECONDS

# How long each part took, printed at the end (and when a part fails), so that a part that grows is seen.
timings=()
part_started=$SECONDS
part_done() {
    timings+=("$(printf '%6ss  %s' "$((SECONDS - part_started))" "$1")")
    part_started=$SECONDS
}
print_timings() {
    [ "${#timings[@]}" -gt 0 ] || return 0
    echo "time per part:"
    printf '  %s\n' "${timings[@]}"
    echo "  $(printf '%6ss' "$((SECONDS - started))")  in all"
}
trap print_timings EXIT

bash ops/services.sh
part_done "services (PostgreSQL, Redis)"

. "$root/ops/lib/swift.sh"
. "$root/ops/lib/time-limit.sh"
# Some tests start their own redis-server processes on other loopback ports.
command -v redis-server >/dev/null || { echo "redis-server is not on PATH" >&2; exit 1; }

pg_port="${PODIUM_PG_PORT:-5432}"
redis_port="${PODIUM_REDIS_PORT:-6379}"

if [ -z "${PODIUM_TEST_DATABASE_URL:-}" ]; then
    export PODIUM_TEST_DATABASE_URL="host=127.0.0.1 port=$pg_port user=postgres dbname=podium_test"
    pg_bin="$(dirname "$(printf '%s\n' /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)")"
    echo "recreating database podium_test"
    # --force ends sessions left over from an earlier, interrupted run.
    "$pg_bin/dropdb" -h 127.0.0.1 -p "$pg_port" -U postgres --if-exists --force podium_test
    "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres podium_test
else
    echo "PODIUM_TEST_DATABASE_URL is set: using it as it is (not recreated)"
fi

if [ -z "${PODIUM_TEST_REDIS_URL:-}" ]; then
    export PODIUM_TEST_REDIS_URL="redis://127.0.0.1:$redis_port/15"
    # Db 15 and the other dbs tests take for their own replicas (HTTPTestSupport.swift lists them); 0 is ops/run.sh's
    # and 2 the benchmark's. A run on a shifted clock leaves rate-limit buckets stamped days ahead, which the real
    # clock would never refill.
    echo "flushing Redis dbs 1 and 3-15"
    for db in 1 $(seq 3 15); do redis-cli -h 127.0.0.1 -p "$redis_port" -n "$db" FLUSHDB >/dev/null; done
else
    echo "PODIUM_TEST_REDIS_URL is set: using it as it is (not flushed)"
fi

# The wall clock as the tests see it: the real one, or shifted by whole days.
shift_days="${PODIUM_TEST_DATE_SHIFT:-}"
test_prefix=()
if [ -n "$shift_days" ]; then
    case "$shift_days" in
        *[!0-9]*) echo "PODIUM_TEST_DATE_SHIFT must be a whole number of days, not '$shift_days'" >&2; exit 2 ;;
    esac
    command -v gcc >/dev/null || {
        sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
        $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc libc6-dev >/dev/null
    }
    mkdir -p .local
    gcc -shared -fPIC -O2 -Wall -o .local/libclock_shift.so ops/test/clock-shift/clock_shift.c -ldl
    # Tests are built on the real clock, then their binary runs shifted; monotonic
    # clocks stay real, so timeouts and NIO's timers measure real durations.
    test_prefix=(env PODIUM_CLOCK_SHIFT_DAYS="$shift_days" LD_PRELOAD="$root/.local/libclock_shift.so")
fi

# SQL is written only in the Postgres target and statement types (issue 35): a positional placeholder, a bind by
# position or raw SQL text anywhere else fails the run before anything is built.
python3 "$root/ops/test/sql-statements-check.py" "$root"
# openapi.json lists every problem code the server answers with, and no other.
python3 "$root/ops/test/problem-codes-check.py" "$root"
# The console's QR encoder is Debian's node-qrcode-generator, vendored unchanged: a copy that differs fails the run.
bash "$root/ops/test/vendored-check.sh"

mkdir -p .local
log=".local/test-last.log"
time_limit="${PODIUM_TEST_TIME_LIMIT_S:-2400}"
# The multi-process scheduler test starts the `podium` executable itself: build it with the tests. The tests then
# run as their own binary (what `swift test` runs), so that the whole-run limit can stop it and all it started.
echo "swift build --build-tests"
set +e
swift build --build-tests 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
part_done "swift build --build-tests"
if [ "$status" -eq 0 ]; then
    tests="$(swift build --show-bin-path)/podiumPackageTests.xctest"
    echo "${test_prefix[*]} $tests --testing-library swift-testing $*"
    run_with_limit "$time_limit" "$log" "${test_prefix[@]}" "$tests" --testing-library swift-testing "$@"
    status=$?
    part_done "Swift tests${shift_days:+ (clock $shift_days days ahead)}"
fi
set -e

elapsed=$((SECONDS - started))
# Swift Testing ends with e.g.
#   ✔ Test run with 42 tests in 7 suites passed after 1.234 seconds.
#   ✘ Test run with 42 tests in 7 suites failed after 1.234 seconds with 3 issues.
summary="$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -aE 'Test run with [0-9]+ tests? ' | tail -n 1 || true)"
count="$(printf '%s' "$summary" | sed -nE 's/.*Test run with ([0-9]+) tests? .*/\1/p')"

# What failed, so that a CI log showing only its last lines still names it.
failures() {
    sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -aE '^✘ |recorded an issue|Fatal error|Crash' | head -n 40 >&2 || true
}

if [ "$status" -ne 0 ]; then
    failures
    echo "FAILED: the tests exited with status $status (${elapsed}s); output in $log" >&2
    exit "$status"
fi
if [ -z "$summary" ]; then
    echo "FAILED: no Swift Testing summary line in the output (${elapsed}s); output in $log" >&2
    exit 1
fi
if [ "${count:-0}" -eq 0 ]; then
    echo "FAILED: zero tests ran (${elapsed}s): $summary" >&2
    exit 1
fi
case "$summary" in
    *" passed after "*) ;;
    *) failures; echo "FAILED: $summary" >&2; exit 1 ;;
esac

# Then, on the real clock only (date-shift runs check the Swift suites), the other suites against the
# `podium` just built, each with its output kept in .local/<name>.log; the first failure ends the run.
run_suite() {
    local script="$1" log=".local/$2.log"
    shift 2
    echo "bash $script $*"
    set +e
    # Each bounded as a whole too: a hung browser or server fails the run instead of holding it.
    timeout --kill-after=30 "${PODIUM_SUITE_TIME_LIMIT_S:-1800}" bash "$script" "$@" </dev/null 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    set -e
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
        echo "FAILED: $script did not end within ${PODIUM_SUITE_TIME_LIMIT_S:-1800}s (PODIUM_SUITE_TIME_LIMIT_S); output in $log" >&2
        exit 124
    fi
    part_done "$script${*:+ $*}"
    if [ "$status" -ne 0 ]; then
        echo "FAILED: $script exited with status $status ($((SECONDS - started))s); output in $log" >&2
        exit "$status"
    fi
}
others=""
if [ -z "$shift_days" ]; then
    # The Redis tests again, through stunnel to a TLS-only Redis (ops/README.md, "Redis over TLS").
    run_suite ops/test/stunnel-test.sh stunnel-test
    # The typed clients' generated code is what openapi.json gives (clients/regenerate.sh --check).
    run_suite clients/regenerate.sh clients-generated --check
    # Each typed client installed as a newcomer would (a wheel into fresh venvs, a tarball into a new Node project, a
    # package depending on PodiumClient by path), its README's snippet run and its error model tested against a real
    # Podium behind a fault proxy.
    run_suite clients/python/test.sh python-client-test
    run_suite clients/typescript/test.sh typescript-client-test
    run_suite clients/swift/test.sh swift-client-test
    # The browser end-to-end tests (CORS, player tokens, the display page, the console, the docs, the TypeScript
    # client in Chromium).
    run_suite ops/test/browser-test.sh browser-test
    # Schemathesis over the whole OpenAPI document.
    run_suite ops/test/schemathesis.sh schemathesis-test
    # The monitoring pieces: promtool over the alerts and their unit tests, the compose file, the dashboard,
    # and a real Prometheus scraping this build.
    run_suite ops/test/monitoring-test.sh monitoring-test
    # PostgreSQL failover: a primary killed mid-ingest, its synchronous standby promoted, Podium carrying on.
    run_suite ops/test/failover-test.sh failover-test
    # Redis Cluster: the ranking suites on a six-node cluster, a primary killed and a reshard mid-load.
    run_suite ops/test/redis-cluster-test.sh redis-cluster-test
    others=", the Redis tests through stunnel, the clients' generated code, the Python, TypeScript and Swift clients, the browser tests, schemathesis, the monitoring tests, the failover drill and the Redis Cluster suites and drills"
    elapsed=$((SECONDS - started))
fi
echo "OK: all $count test(s) passed${others} (${elapsed}s)${shift_days:+ with the clock $shift_days days ahead}"
