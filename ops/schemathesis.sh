#!/usr/bin/env bash
# Schemathesis over the whole OpenAPI document, against the podium just built.
#
#   bash ops/schemathesis.sh [EXAMPLES]    examples per operation (default 20), seed 1
#
# Starts `podium serve` (the debug build: run `bash ops/test.sh` or `swift build`
# first) on port 18097 with a database and Redis db (8) of its own and rate limits
# out of the way, runs schemathesis with every check (positive and negative data,
# stateful links) as the bootstrap admin, prints its summary and stops the server.
# Installs schemathesis into .local/schemathesis-venv on first use. Not part of
# ops/test.sh yet: see ops/README.md for what it still reports.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
examples="${1:-20}"
bash ops/services.sh >/dev/null
venv=".local/schemathesis-venv"
if [ ! -x "$venv/bin/schemathesis" ]; then
    python3 -m venv "$venv" && "$venv/bin/pip" install -q "schemathesis==4.32.5" || exit 1
fi
pg_bin="$(dirname "$(printf '%s\n' /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)")"
"$pg_bin/dropdb" -h 127.0.0.1 -U postgres --if-exists --force podium_schemathesis
"$pg_bin/createdb" -h 127.0.0.1 -U postgres podium_schemathesis
redis-cli -n 8 FLUSHDB >/dev/null
key="pdm_schemathesis_$(date +%s)_local_only"
PODIUM_DATABASE_URL="host=127.0.0.1 port=5432 user=postgres dbname=podium_schemathesis" PODIUM_REDIS_URL="redis://127.0.0.1:6379/8" \
    PODIUM_PORT=18097 PODIUM_ADMIN_KEY="$key" PODIUM_LOG_LEVEL=warning \
    PODIUM_RATE_LIMITS="ingest=100000000,read=100000000,admin=100000000,display=100000000,player=100000000,failed-auth=100000000" \
    .build/debug/podium serve >.local/schemathesis-serve.log 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null' EXIT
for _ in $(seq 100); do curl -fsS http://127.0.0.1:18097/healthz >/dev/null 2>&1 && break; sleep 0.2; done
"$venv/bin/schemathesis" run http://127.0.0.1:18097/openapi.json -H "Authorization: Bearer $key" \
    --checks all -n "$examples" --seed 1 --no-shrink -w 2 2>&1 | tee .local/schemathesis.log | tail -n 20
exit "${PIPESTATUS[0]}"
