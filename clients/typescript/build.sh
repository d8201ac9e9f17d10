#!/usr/bin/env bash
# Builds the npm package podium-client: type-checks the generated API and src/ with Debian's TypeScript (strict),
# emits ES2020 modules and their .d.ts files into package/dist, writes package/package.json (package.template.json,
# with the server's version from Sources/PodiumHTTP/BuildInfo.swift) and package/README.md, and packs it with
# `npm pack` into podium-client-<version>.tgz (package/ and the tarball are git-ignored). The package has no
# dependencies: `npm install ./podium-client-<version>.tgz` needs no network. Installs node-typescript (and Node with
# npm) with apt when missing.
#
#   bash clients/typescript/build.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
if ! command -v tsc >/dev/null; then
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends node-typescript >/dev/null
fi
# Node 18+ with npm packs and tests the client: this machine image has Node 20's; elsewhere Debian's (Node 18).
if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
version="$(sed -n 's/.*public static let version = "\([^"]*\)".*/\1/p' ../../Sources/PodiumHTTP/BuildInfo.swift)"
[ -n "$version" ] || { echo "no version in Sources/PodiumHTTP/BuildInfo.swift" >&2; exit 1; }

rm -rf package dist podium-client-*.tgz
# suppressImplicitAnyIndexErrors (tsconfig.json): the generated models index with `value['id']` after an `in` check,
# which TypeScript narrows only from 4.9; Debian's is 4.8.
tsc -p tsconfig.json
sed "s/@VERSION@/$version/" package.template.json >package/package.json
cp README.md package/README.md
tarball="$(cd package && npm pack --silent --pack-destination .. 2>/dev/null | tail -1)"
[ "$tarball" = "podium-client-$version.tgz" ] || { echo "npm pack wrote '$tarball', not podium-client-$version.tgz" >&2; exit 1; }
echo "built: clients/typescript/$tarball ($(wc -c <"$tarball") bytes; unpacked in clients/typescript/package)"
