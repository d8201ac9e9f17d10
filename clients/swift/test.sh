#!/usr/bin/env bash
# Tests clients/swift against a real `podium serve`: builds the client package, starts a Podium (PODIUM_BINARY,
# default .build/debug/podium, which ops/test.sh builds) on a database of its own and Redis db 6, signs a player's
# tokens with the Python client's helper, runs the Swift tests, and stops the server and drops the database on every
# path. ops/test.sh runs it after the Swift tests (which also use Redis db 6).
#
#   bash clients/swift/test.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
. "$root/ops/lib/swift.sh"
bash ops/services.sh >/dev/null
binary="${PODIUM_BINARY:-$root/.build/debug/podium}"
[ -x "$binary" ] || { echo "no podium at $binary: build it first (swift build, or bash ops/test.sh)" >&2; exit 1; }
pg_port="${PODIUM_PG_PORT:-5432}"
database="podium_swift_client_$$"
redis_url="redis://127.0.0.1:${PODIUM_REDIS_PORT:-6379}/6"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
secret="swift-client-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
admin="pdm_$(head -c 64 /dev/urandom | tr -dc 'A-Za-z0-9' | head -c 40)"
while [ "${#admin}" -lt 44 ]; do admin="${admin}x"; done
server=""
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
    dropdb -h 127.0.0.1 -p "$pg_port" -U postgres --if-exists --force "$database" 2>/dev/null || true
}
trap cleanup EXIT

(cd clients/swift && swift build --build-tests)
createdb -h 127.0.0.1 -p "$pg_port" -U postgres "$database"
redis-cli -u "$redis_url" FLUSHDB >/dev/null
mkdir -p .local
PODIUM_DATABASE_URL="host=127.0.0.1 port=$pg_port user=postgres dbname=$database" PODIUM_REDIS_URL="$redis_url" \
    PODIUM_HOST=127.0.0.1 PODIUM_PORT="$port" PODIUM_ADMIN_KEY="$admin" PODIUM_LOG_LEVEL=warning \
    PODIUM_PLAYER_TOKEN_HS256_KEYS="k1:$secret" "$binary" serve >.local/swift-client-podium.log 2>&1 &
server=$!
for _ in $(seq 1 300); do
    curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
    kill -0 "$server" 2>/dev/null || { tail -20 .local/swift-client-podium.log >&2; exit 1; }
    sleep 0.1
done
player="u-swift-player-$$"
group="swift-player-$$"
# tokens.py needs only the standard library (the package's __init__ would import httpx).
tokens="$(python3 -c '
import importlib.util, sys, time
spec = importlib.util.spec_from_file_location("tokens", "clients/python/podium/tokens.py")
tokens = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tokens)
sign_player_token = tokens.sign_player_token
secret, player, group = sys.argv[1:4]
print(sign_player_token("k1", secret, player, groups=[group], lifetime=60, now=time.time() - 3600))
print(sign_player_token("k1", secret, player, groups=[group], lifetime=600))
' "$secret" "$player" "$group")"
export PODIUM_CLIENT_TEST_URL="http://127.0.0.1:$port" PODIUM_CLIENT_TEST_ADMIN_KEY="$admin" PODIUM_CLIENT_TEST_PLAYER="$player" \
    PODIUM_CLIENT_TEST_PLAYER_GROUP="$group" PODIUM_CLIENT_TEST_STALE_TOKEN="$(sed -n 1p <<<"$tokens")" \
    PODIUM_CLIENT_TEST_FRESH_TOKEN="$(sed -n 2p <<<"$tokens")"
cd clients/swift
tests="$(swift build --show-bin-path)/PodiumClientPackageTests.xctest"
output="$("$tests" --testing-library swift-testing 2>&1)" || { echo "$output"; exit 1; }
echo "$output" | tail -3
grep -q "Test run with [1-9][0-9]* tests.* passed" <<<"$output" || { echo "FAILED: no Swift client test ran" >&2; exit 1; }
echo "OK: the Swift client's tests passed against a real Podium"
