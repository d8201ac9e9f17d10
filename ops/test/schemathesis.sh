#!/usr/bin/env bash
# Schemathesis over the whole OpenAPI document, against the podium just built.
#
#   bash ops/test/schemathesis.sh [EXAMPLES]    examples per operation (default 20), seed 1
#
# Starts `podium serve` (the debug build: run `bash ops/test.sh` or `swift build`
# first) on port 18097 with a database and Redis db (8) of its own and rate limits
# out of the way, runs schemathesis with every check (positive and negative data,
# stateful links) as the bootstrap admin, with the hooks in Tests/schemathesis,
# prints its summary and stops the server. Fails on any failure or error.
# ops/test.sh runs it after the Swift and browser tests. Installs python3-venv
# (apt) and schemathesis (PyPI, pinned) into .local/schemathesis-venv on first use.
# One worker: with two, CPython 3.11's ast module failed inside hypothesis now and
# then ("AST constructor recursion depth mismatch").
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
examples="${1:-20}"
bash ops/services.sh >/dev/null
# Debian's python3, as ops/test/browser-test.sh uses: its venv module is what python3-venv installs.
python=/usr/bin/python3
if ! { [ -x "$python" ] && "$python" -c 'import ensurepip, venv' >/dev/null 2>&1; }; then
    sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv >/dev/null || exit 1
fi
venv=".local/schemathesis-venv"
if [ ! -x "$venv/bin/schemathesis" ]; then
    rm -rf "$venv"
    "$python" -m venv "$venv" && "$venv/bin/pip" install -q "schemathesis==4.32.5" || exit 1
fi
pg_bin="$(dirname "$(printf '%s\n' /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)")"
"$pg_bin/dropdb" -h 127.0.0.1 -U postgres --if-exists --force podium_schemathesis
"$pg_bin/createdb" -h 127.0.0.1 -U postgres podium_schemathesis
redis-cli -n 8 FLUSHDB >/dev/null
key="pdm_schemathesis_$(date +%s)_local_only"
PODIUM_DATABASE_URL="host=127.0.0.1 port=5432 user=postgres dbname=podium_schemathesis" PODIUM_REDIS_URL="redis://127.0.0.1:6379/8" \
    PODIUM_PORT=18097 PODIUM_ADMIN_KEY="$key" PODIUM_LOG_LEVEL=warning \
    PODIUM_RATE_LIMITS="ingest=100000000,read=100000000,admin=100000000,display=100000000,player=100000000,failed-auth=100000000" \
    PODIUM_LIVE_STREAM_SECONDS=1 \
    .build/debug/podium serve >.local/schemathesis-serve.log 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null' EXIT
for _ in $(seq 150); do
    "$python" -c 'import urllib.request; urllib.request.urlopen("http://127.0.0.1:18097/healthz", timeout=1)' 2>/dev/null && break
    sleep 0.2
done
SCHEMATHESIS_HOOKS=Tests/schemathesis/hooks.py "$venv/bin/schemathesis" run http://127.0.0.1:18097/openapi.json -H "Authorization: Bearer $key" \
    --checks all -n "$examples" --seed "${PODIUM_SCHEMATHESIS_SEED:-1}" --no-shrink -w 1 2>&1 | tee .local/schemathesis.log | tail -n 20
exit "${PIPESTATUS[0]}"
