# Sourced by the clients' test scripts (clients/*/test.sh): starts a real `podium serve` for them, with a fault proxy
# in front (fault_proxy.py), and stops both and drops their database on every path.
#
#   . clients/testing/podium.sh
#   start_client_test_podium NAME REDIS_DB
#
# Needs `root` (the repository) set and PostgreSQL and Redis running (ops/services.sh). Uses PODIUM_BINARY (default
# .build/debug/podium, which ops/test.sh builds). Exports, for the tests:
#   PODIUM_CLIENT_TEST_URL           Podium itself
#   PODIUM_CLIENT_TEST_PROXY_URL     the fault proxy in front of it (POST /__faults there queues faults)
#   PODIUM_CLIENT_TEST_ADMIN_KEY     the bootstrap admin key
#   PODIUM_CLIENT_TEST_TOKEN_KID, PODIUM_CLIENT_TEST_TOKEN_SECRET
#                                    the HS256 key Podium takes player tokens signed with
# It sets `trap stop_client_test_podium EXIT`, replacing an earlier EXIT trap: a caller with clean-up of its own sets
# its trap after the call, and calls stop_client_test_podium from it. The server allows loopback origins (`http://localhost:*`, `http://127.0.0.1:*`), as `bash ops/run.sh` does. Its log
# is .local/NAME-podium.log.

client_test_server=""
client_test_proxy=""
client_test_database=""

# Stops `pid`: SIGTERM, then SIGKILL when it has not ended within 10 s.
stop_client_test_process() {
    local pid="$1"
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

stop_client_test_podium() {
    stop_client_test_process "$client_test_proxy"
    stop_client_test_process "$client_test_server"
    client_test_proxy="" client_test_server=""
    if [ -n "$client_test_database" ]; then
        dropdb -h 127.0.0.1 -p "${PODIUM_PG_PORT:-5432}" -U postgres --if-exists --force "$client_test_database" 2>/dev/null || true
    fi
    client_test_database=""
}

start_client_test_podium() {
    local name="$1" redis_db="$2"
    local binary="${PODIUM_BINARY:-$root/.build/debug/podium}"
    [ -x "$binary" ] || { echo "no podium at $binary: build it first (swift build, or bash ops/test.sh)" >&2; return 1; }
    local pg_port="${PODIUM_PG_PORT:-5432}"
    local redis_url="redis://127.0.0.1:${PODIUM_REDIS_PORT:-6379}/$redis_db"
    local port admin secret
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    secret="$name-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
    admin="pdm_$(head -c 64 /dev/urandom | tr -dc 'A-Za-z0-9' | head -c 40)"
    while [ "${#admin}" -lt 44 ]; do admin="${admin}x"; done
    client_test_database="podium_${name//-/_}_$$"
    trap stop_client_test_podium EXIT

    createdb -h 127.0.0.1 -p "$pg_port" -U postgres "$client_test_database"
    redis-cli -u "$redis_url" FLUSHDB >/dev/null
    mkdir -p "$root/.local"
    local log="$root/.local/$name-podium.log"
    PODIUM_DATABASE_URL="host=127.0.0.1 port=$pg_port user=postgres dbname=$client_test_database" \
        PODIUM_REDIS_URL="$redis_url" PODIUM_HOST=127.0.0.1 PODIUM_PORT="$port" PODIUM_ADMIN_KEY="$admin" \
        PODIUM_LOG_LEVEL=warning PODIUM_PLAYER_TOKEN_HS256_KEYS="k1:$secret" \
        PODIUM_CORS_ORIGINS="http://localhost:*,http://127.0.0.1:*" "$binary" serve >"$log" 2>&1 &
    client_test_server=$!
    local ready=false
    for _ in $(seq 1 600); do
        if curl -fsS --max-time 5 "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; then ready=true; break; fi
        kill -0 "$client_test_server" 2>/dev/null || break
        sleep 0.1
    done
    $ready || { echo "podium did not become ready; the end of $log:" >&2; tail -20 "$log" >&2; return 1; }

    local port_file
    port_file="$(mktemp)"
    python3 "$root/clients/testing/fault_proxy.py" "http://127.0.0.1:$port" "$port_file" &
    client_test_proxy=$!
    for _ in $(seq 1 100); do [ -s "$port_file" ] && break; sleep 0.1; done
    [ -s "$port_file" ] || { echo "the fault proxy did not start" >&2; return 1; }

    export PODIUM_CLIENT_TEST_URL="http://127.0.0.1:$port"
    export PODIUM_CLIENT_TEST_PROXY_URL="http://127.0.0.1:$(cat "$port_file")"
    export PODIUM_CLIENT_TEST_ADMIN_KEY="$admin" PODIUM_CLIENT_TEST_TOKEN_KID=k1 PODIUM_CLIENT_TEST_TOKEN_SECRET="$secret"
    rm -f "$port_file"
}
