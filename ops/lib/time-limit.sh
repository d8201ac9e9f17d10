# Sourced, not run: `. "$root/ops/lib/time-limit.sh"` in ops/test.sh. A whole-run time limit for the Swift tests,
# so that a test that hangs fails the run instead of keeping it (and CI) waiting.
#
#   run_with_limit SECONDS LOG COMMAND...    runs COMMAND under `timeout` (its whole process group gets SIGTERM at
#                                            the limit, SIGKILL 30 s later), appending its output to LOG; returns
#                                            COMMAND's status, or 124 when the limit was hit, after printing the
#                                            tests that had started and not ended by then. Call it with `set +e`.

# The tests that Swift Testing reported as started ("◇ Test x() started.") and never as ended (passed, failed,
# skipped), one per line; read from LOG.
still_running_tests() {
    sed 's/\x1b\[[0-9;]*m//g' "$1" | python3 -c '
import collections, re, sys
open_tests = collections.Counter()
for line in sys.stdin:
    started = re.match(r"^\S+ Test (.*) started\.$", line.rstrip("\n"))
    if started and started.group(1) != "run":
        open_tests[started.group(1)] += 1
        continue
    ended = re.match(r"^\S+ Test (.*?) (passed|failed|skipped|recorded)", line)
    if ended and open_tests[ended.group(1)] > 0:
        open_tests[ended.group(1)] -= 1
for name, count in open_tests.items():
    for _ in range(count):
        print("    " + name)
'
}

run_with_limit() {
    local limit="$1" log="$2"
    shift 2
    local status
    timeout --kill-after=30 "$limit" "$@" 2>&1 | tee -a "$log"
    status=${PIPESTATUS[0]}
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
        {
            echo "FAILED: the tests did not end within the whole-run limit of ${limit}s (PODIUM_TEST_TIME_LIMIT_S); still running:"
            still_running_tests "$log"
        } | tee -a "$log" >&2
        return 124
    fi
    return "$status"
}
