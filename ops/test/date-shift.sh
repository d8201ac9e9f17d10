#!/usr/bin/env bash
# Runs the whole test suite as if it were later: the tests must pass on any date.
#
#   bash ops/test/date-shift.sh              the suite at +1, +40 and +400 days
#   bash ops/test/date-shift.sh 7 3650       the suite at +7 and +3650 days
#
# Each run is `bash ops/test.sh` with PODIUM_TEST_DATE_SHIFT=<days>: a fresh test
# database and Redis db, then the test binary with ops/test/clock-shift/clock_shift.c
# preloaded, which moves the wall clock of the test process and of the
# `podium` replicas it starts by whole days. Fixed instants in the tests stay
# where they are, so a test that mixes one with the real clock breaks here.
# PostgreSQL and Redis keep the real clock: Podium binds every time it stores
# or compares from its injected clock and never reads the servers' clocks (no
# `now()` in its SQL; rate-limit buckets take their times from it and expire by a
# relative duration), which is what lets this check cover
# the whole suite. More in ops/README.md, "Testing on other dates".
#
# Prints one line per shift and fails if any run failed; each run's output is
# kept in .local/date-shift-<days>.log.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
shifts=("$@")
[ ${#shifts[@]} -gt 0 ] || shifts=(1 40 400)

mkdir -p .local
results=()
failed=0
for days in "${shifts[@]}"; do
    echo "== the suite with the clock $days days ahead"
    PODIUM_TEST_DATE_SHIFT="$days" bash ops/test.sh </dev/null 2>&1 | tee ".local/date-shift-$days.log"
    status=${PIPESTATUS[0]}
    line="$(grep -aE '^(OK|FAILED)' ".local/date-shift-$days.log" | tail -n 1)"
    results+=("+$days days: ${line:-no result (status $status)}")
    if [ "$status" -ne 0 ]; then
        # The failing tests' lines, for a CI log that shows only its end.
        while IFS= read -r failure; do results+=("    $failure"); done < <(
            sed 's/\x1b\[[0-9;]*m//g' ".local/date-shift-$days.log" |
                grep -aE '^✘ |recorded an issue|Fatal error' | head -n 20)
    fi
    [ "$status" -eq 0 ] || failed=1
done
echo "== date shift"
printf '%s\n' "${results[@]}"
exit "$failed"
