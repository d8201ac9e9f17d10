# Sourced, not run: `. "$root/ops/lib/time-limit.sh"` in ops/test.sh. A whole-run time limit for the Swift tests,
# so that a test that hangs fails the run instead of keeping it (and CI) waiting.
#
#   run_with_limit SECONDS LOG COMMAND...    runs COMMAND in a session of its own (setsid), its output appended to
#                                            LOG and shown; returns COMMAND's status, or 124 when the limit was hit,
#                                            after printing the tests that had started and not ended by then.
#                                            Either way, whatever is left in the session afterwards (a private
#                                            redis-server, a frozen proxy, a `podium` replica) is named and killed:
#                                            every process a test starts lives in that session, whatever process
#                                            group Foundation's Process gave it.

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
    ended = re.match(r"^\S+ Test (.*?) (passed|failed|skipped)", line)
    if ended and open_tests[ended.group(1)] > 0:
        open_tests[ended.group(1)] -= 1
for name, count in open_tests.items():
    for _ in range(count):
        print("    " + name)
'
}

# Kills every process of session SID (SIGCONT first, for frozen ones) and names them; quiet when none is left.
end_session() {
    local sid="$1" left
    left="$(ps -o pid=,args= -s "$sid" 2>/dev/null || true)"
    [ -n "$left" ] || return 0
    echo "processes left in the test session, killed:" >&2
    printf '%s\n' "$left" | sed 's/^/    /' >&2
    pkill -CONT -s "$sid" 2>/dev/null || true
    pkill -KILL -s "$sid" 2>/dev/null || true
}

run_with_limit() {
    local limit="$1" log="$2"
    shift 2
    local pid status deadline=$((SECONDS + limit)) timed_out=0
    # Not a process group leader (no job control in a script), so setsid runs COMMAND in place: its pid is the session id.
    setsid "$@" > >(tee -a "$log") 2>&1 &
    pid=$!
    while kill -0 "$pid" 2>/dev/null; do
        if [ "$SECONDS" -ge "$deadline" ]; then
            timed_out=1
            pkill -TERM -s "$pid" 2>/dev/null || true
            for _ in $(seq 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
            break
        fi
        sleep 1
    done
    end_session "$pid"
    wait "$pid"
    status=$?
    # Let tee write the last lines before the log is read.
    sleep 0.2
    if [ "$timed_out" -eq 1 ]; then
        {
            echo "FAILED: the tests did not end within the whole-run limit of ${limit}s (PODIUM_TEST_TIME_LIMIT_S); still running:"
            still_running_tests "$log"
        } | tee -a "$log" >&2
        return 124
    fi
    return "$status"
}
