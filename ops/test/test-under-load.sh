#!/usr/bin/env bash
# The README's test command, several times in a row, with CPU burners beside it: the suite must not depend on the
# machine's speed (issue 23, part 9).
#
#   bash ops/test/test-under-load.sh            five runs of `bash ops/test.sh` beside two `yes > /dev/null`
#   RUNS=3 BURNERS=1 bash ops/test/test-under-load.sh
#
# Prints one line per run (status, seconds, the run's last OK/FAILED line, and the failing tests' lines); each run's
# output is kept in .local/test-under-load-<n>.log. Fails if any run failed.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
mkdir -p .local
burners=()
for _ in $(seq "${BURNERS:-2}"); do yes > /dev/null & burners+=($!); done
trap 'kill "${burners[@]}" 2>/dev/null' EXIT
failed=0
for run in $(seq "${RUNS:-5}"); do
    log=".local/test-under-load-$run.log"
    start=$SECONDS
    bash ops/test.sh </dev/null > "$log" 2>&1
    status=$?
    echo "run $run: status $status in $((SECONDS - start)) s: $(grep -aE '^(OK|FAILED)' "$log" | tail -n 1)"
    if [ "$status" -ne 0 ]; then
        failed=1
        sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -aE 'recorded an issue|^FAILED' | head -n 5 | cut -c1-300
    fi
done
exit "$failed"
