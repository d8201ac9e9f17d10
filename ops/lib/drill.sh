# Sourced, not run: `. "$root/ops/lib/drill.sh"` in the drills that run Podium under ops/test/failover-client.py's
# load (ops/test/failover-test.sh, ops/test/redis-cluster-test.sh) and in ops/bench/bench-history.sh and
# ops/bench/bench-cluster.sh.
#
#   start_podium BIN LOG        `BIN serve` in the background (its pid in podium_pid), waits up to 30 s for /readyz on
#                               PODIUM_PORT, and stops the script, naming LOG, when it never answers.
#   wait_for_acks N             waits up to 120 s until the file $acked holds N acknowledgements; fails when the
#                               client ($client_pid) ended first.
#   live_board BOARD            prints BOARD's all-time ranking as Podium on PODIUM_PORT serves it from Redis ("user
#                               score" lines, sorted), asking again while an answer comes from PostgreSQL (a read
#                               that missed its deadline on a loaded machine) for up to 30 s; prints nothing when no
#                               answer was live by then.

start_podium() {
    "$1" serve >"$2" 2>&1 &
    podium_pid=$!
    for _ in $(seq 600); do curl -fs "http://127.0.0.1:$PODIUM_PORT/readyz" >/dev/null 2>&1 && return 0; sleep 0.05; done
    echo "podium never got ready; see $2" >&2
    exit 1
}

wait_for_acks() {
    for _ in $(seq 1200); do
        [ "$(wc -l < "$acked")" -ge "$1" ] && return 0
        kill -0 "$client_pid" 2>/dev/null || { echo "the client ended early" >&2; return 1; }
        sleep 0.1
    done
    echo "fewer than $1 acknowledgements after 120 s" >&2; return 1
}

live_board() {
    local served
    for _ in $(seq 60); do
        served="$(curl -fs -H "Authorization: Bearer $PODIUM_ADMIN_KEY" "http://127.0.0.1:$PODIUM_PORT/v1/leaderboards/$1/all?limit=100" \
            | python3 -c 'import json, sys; page = json.load(sys.stdin); page["live"] or sys.exit(1); print("\n".join(sorted("%s %s" % (e["user_id"], e["score"]) for e in page["entries"])))')" \
            && { echo "$served"; return 0; }
        sleep 0.5
    done
    echo "$1: no answer from Redis (live) in 30 s" >&2
}
