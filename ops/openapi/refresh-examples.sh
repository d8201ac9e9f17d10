#!/usr/bin/env bash
# Writes the examples of Sources/PodiumHTTP/Resources/openapi.json from a real Podium (ops/openapi/examples.py): run it
# after changing a route or an answer, then review the diff. PodiumOpenAPIDocumentTests.everyExampleIsThereAndMatches
# fails while an example is missing or no longer matches its schema.
#
#   bash ops/openapi/refresh-examples.sh     uses .build/debug/podium (PODIUM_BINARY to choose another)
#
# Starts a Podium on a new database (podium_examples, dropped after) and Redis db 3 of the local services, which
# ops/bench/bench.sh also uses: do not run the two together.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
bash ops/services.sh >/dev/null
. "$root/ops/lib/drill.sh"
. "$root/ops/lib/swift.sh"

bin="${PODIUM_BINARY:-$root/.build/debug/podium}"
[ -x "$bin" ] || { echo "no podium at $bin: run swift build first" >&2; exit 1; }
# The failed-authentication limit keeps its default: the 429 example comes from it.
benchmark_environment podium_examples 3 "${PODIUM_EXAMPLES_PORT:-18093}"
# A delivery to the examples' unreachable webhook receiver is dead after one attempt, so it can be resent.
export PODIUM_WEBHOOK_MAX_ATTEMPTS=1
# Display links as a school's deployment would hand them out.
export PODIUM_PUBLIC_URL=https://podium.example.org
# The player token key of the implausible completion's example.
export PODIUM_EXAMPLES_TOKEN_SECRET="examples-$(date +%s)-secret-of-the-examples"
export PODIUM_PLAYER_TOKEN_HS256_KEYS="examples:$PODIUM_EXAMPLES_TOKEN_SECRET"
mkdir -p .local/openapi

dropdb -h 127.0.0.1 -p "${PODIUM_PG_PORT:-5432}" -U postgres --if-exists --force podium_examples
createdb -h 127.0.0.1 -p "${PODIUM_PG_PORT:-5432}" -U postgres podium_examples
redis-cli -p "${PODIUM_REDIS_PORT:-6379}" -n 3 FLUSHDB >/dev/null
podium_pid=""
finish() {
    [ -z "$podium_pid" ] || { kill "$podium_pid" 2>/dev/null || true; wait "$podium_pid" 2>/dev/null || true; }
    dropdb -h 127.0.0.1 -p "${PODIUM_PG_PORT:-5432}" -U postgres --if-exists --force podium_examples
}
trap finish EXIT
start_podium "$bin" .local/openapi/server.log
python3 ops/openapi/examples.py "http://127.0.0.1:$PODIUM_PORT" "$PODIUM_ADMIN_KEY" Sources/PodiumHTTP/Resources/openapi.json
