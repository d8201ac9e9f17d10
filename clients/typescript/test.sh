#!/usr/bin/env bash
# Tests the TypeScript client (npm package podium-client) as a newcomer uses it, against a real `podium serve`:
#
# 1. builds the package and its tarball (build.sh);
# 2. makes a new Node project in a temporary folder (`npm init -y`, ES modules) and installs the tarball with
#    `npm install --offline`: the package needs no network and has no dependencies;
# 3. copies the README's blocks marked `<!-- tested: node -->` into one file, compiles it with Debian's `tsc --strict`
#    (`module: nodenext`, so `podium-client` resolves through the package's `exports` and types);
# 4. starts Podium with a fault proxy in front (clients/testing/podium.sh; Redis db 8) and runs test/client.test.mjs
#    with `node --test` in that project: the README's snippet against Podium, then the error model through the proxy
#    (HTML 502/503 pages, a refused token, a rate limit with Retry-After, an offline period, lost answers, a live
#    board with a refused token), time limits, unreadable answers and the queue's stamping of completedAt.
#
#   bash clients/typescript/test.sh
#
# Each step is bounded (`timeout`: the build 5 minutes, each npm or tsc run 2, the tests 5), so a hung step fails the
# script instead of holding it; Podium, the proxy and the temporary project are removed on every path.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
. "$root/clients/testing/podium.sh"
bash ops/services.sh >/dev/null
client="$root/clients/typescript"

timeout 300 bash "$client/build.sh"
version="$(node -p 'require(process.argv[1]).version' "$client/package/package.json")"
tarball="$client/podium-client-$version.tgz"

project="$(mktemp -d)"
cleanup() { stop_client_test_podium; rm -rf "$project"; }
trap cleanup EXIT
cd "$project"
timeout 120 npm init -y >/dev/null
timeout 120 npm pkg set type=module
timeout 120 npm install --offline --no-audit --no-fund "$tarball" >/dev/null
exports="$(timeout 60 node --input-type=module -e 'console.log(Object.keys(await import("podium-client")).length)')"
echo "installed offline: podium-client $version, $(timeout 60 node --input-type=module -e 'console.log(Object.keys(await import("podium-client")).sort().join(", "))')"

# The README's tested blocks, in order, as one program.
awk '/^<!-- tested: node/ { marked = 1; next }
     marked && /^```ts$/ { inside = 1; next }
     inside && /^```$/ { inside = 0; marked = 0; next }
     inside { print }' "$client/README.md" >readme.ts
[ -s readme.ts ] || { echo "no <!-- tested: node --> block in clients/typescript/README.md" >&2; exit 1; }
# `process.env` is @types/node's, which a newcomer installs from the registry; this test has no network, so it
# declares the one name the snippet uses.
echo 'declare const process: { env: Record<string, string | undefined> };' >node-process.d.ts
cat >tsconfig.json <<'JSON'
{
  "compilerOptions": {
    "strict": true,
    "module": "nodenext",
    "moduleResolution": "nodenext",
    "target": "ES2020",
    "lib": ["ES2020", "DOM"],
    "types": []
  },
  "files": ["readme.ts", "node-process.d.ts"]
}
JSON
timeout 120 tsc -p tsconfig.json
echo "compiled the README's snippet ($(wc -l <readme.ts) lines) with tsc $(tsc --version | sed 's/Version //') --strict"

start_client_test_podium ts-client 8
trap cleanup EXIT  # start_client_test_podium set its own; cleanup stops Podium too
cp "$client/test/client.test.mjs" .
set +e
README_SNIPPET="$project/readme.js" timeout 300 node --test --test-reporter=spec client.test.mjs 2>&1 | tee test.log
status=${PIPESTATUS[0]}
set -e
[ "$status" -eq 0 ] || { echo "FAILED: the TypeScript client's tests (status $status)" >&2; exit "$status"; }
passed="$(sed -n 's/^ℹ pass \([0-9]*\)$/\1/p' test.log)"
echo "OK: the TypeScript client ($(basename "$tarball"), $(wc -c <"$tarball") bytes, $exports exports) installed offline, compiled strict, $passed tests passed"
