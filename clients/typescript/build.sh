#!/usr/bin/env bash
# Builds clients/typescript: type-checks the generated API and src/podium.ts with Debian's TypeScript (strict; its
# .d.ts files go to dist/types) and bundles them with Debian's esbuild into one ES module, dist/podium.js, for
# browsers and Node 18+. Installs node-typescript and esbuild with apt when missing.
#
#   bash clients/typescript/build.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
if ! command -v tsc >/dev/null || ! command -v esbuild >/dev/null; then
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends node-typescript esbuild >/dev/null
fi
rm -rf dist
# suppressImplicitAnyIndexErrors (tsconfig.json): the generated models index with `value['id']` after an `in` check,
# which TypeScript narrows only from 4.9; Debian's is 4.8.
tsc -p tsconfig.json
esbuild src/podium.ts --bundle --format=esm --target=es2020 --outfile=dist/podium.js --log-level=warning
echo "built: clients/typescript/dist/podium.js ($(wc -c < dist/podium.js) bytes)"
