#!/usr/bin/env bash
# Writes the generated part of each typed client from Sources/PodiumHTTP/Resources/openapi.json, and the document's
# SHA-256 in clients/openapi.sha256. Run it after changing openapi.json; commit what it writes.
#
#   bash clients/regenerate.sh           regenerate in place
#   bash clients/regenerate.sh --check   regenerate into a temporary folder and fail if anything differs from what is
#                                        committed (ops/test.sh runs this: openapi.json changed, clients not regenerated)
#
# Generators (pinned; installed into .local/clients-venv from PyPI): openapi-python-client 0.29.1 (with ruff, which
# formats its output) for clients/python/podium_client, and openapi-generator-cli 7.26.0 (its JAR, run on the
# machine's Java) with the typescript-fetch generator for clients/typescript/generated; swift-openapi-generator 1.14.3
# (from the Swift package list, built here) for clients/swift/PodiumClient/Sources/PodiumAPI/Generated.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
document="Sources/PodiumHTTP/Resources/openapi.json"
check=false
[ "${1:-}" = "--check" ] && check=true

sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
command -v java >/dev/null || {
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends default-jre-headless >/dev/null
}
venv=".local/clients-venv"
if ! "$venv/bin/python" -c 'import openapi_python_client, openapi_generator_cli' >/dev/null 2>&1; then
    /usr/bin/python3 -m venv "$venv"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check \
        openapi-python-client==0.29.1 ruff==0.17.6 openapi-generator-cli==7.26.0
fi
export PATH="$root/$venv/bin:$PATH"

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

# Python: from a copy of the document with two spots openapi-python-client cannot read (clients/prepare.py), with
# the models' template of clients/python/templates (a model prints only the fields that are set).
python3 clients/prepare.py python "$document" "$out/python-openapi.json"
openapi-python-client generate --path "$out/python-openapi.json" --output-path "$out/podium_client" --meta none \
    --config clients/python/generator.yaml --custom-template-path clients/python/templates --fail-on-warning >"$out/python.log" 2>&1 || { cat "$out/python.log" >&2; exit 1; }

# TypeScript: the fetch generator, ES2020 modules whose relative imports end in `.js`, so that Node and browsers load
# the compiled package as it is, and a `module: nodenext` project resolves its declarations.
openapi-generator-cli generate -i "$document" -g typescript-fetch -o "$out/typescript" \
    --additional-properties=supportsES6=true,typescriptThreePlus=true,importFileExtension=.js \
    >"$out/typescript.log" 2>&1 || { cat "$out/typescript.log" >&2; exit 1; }
rm -rf "$out/podium_client/.ruff_cache"
# Its docs and bookkeeping are not needed: the client's README points to /docs.
rm -rf "$out/typescript/docs" "$out/typescript/.openapi-generator" "$out/typescript/.openapi-generator-ignore"

# Swift: swift-openapi-generator 1.14.3's command, built once into .local/openapi-gen (about 1.5 minutes), from a
# copy of the document whose time zones are plain strings (clients/prepare.py).
. "$root/ops/lib/swift.sh"
generator_package=".local/openapi-gen"
mkdir -p "$generator_package/noop"
cat >"$generator_package/Package.swift" <<'SWIFT'
// swift-tools-version:5.9
// Builds swift-openapi-generator's command for clients/regenerate.sh.
import PackageDescription
let package = Package(
    name: "openapi-gen",
    dependencies: [.package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3")],
    targets: [.executableTarget(name: "noop", dependencies: [
        .product(name: "swift-openapi-generator", package: "swift-openapi-generator")], path: "noop")])
SWIFT
echo 'print("swift-openapi-generator is the product to run")' >"$generator_package/noop/main.swift"
(cd "$generator_package" && swift build -c release --product swift-openapi-generator >"$out/swift-build.log" 2>&1) \
    || { cat "$out/swift-build.log" >&2; exit 1; }
python3 clients/prepare.py swift "$document" "$out/swift-openapi.json"
"$generator_package/.build/release/swift-openapi-generator" generate --config clients/swift/openapi-generator-config.yaml \
    --output-directory "$out/swift" "$out/swift-openapi.json" >"$out/swift.log" 2>&1 || { cat "$out/swift.log" >&2; exit 1; }

sha256sum "$document" | cut -d' ' -f1 >"$out/openapi.sha256"

if $check; then
    status=0
    diff -r -q "$out/podium_client" clients/python/podium_client || status=1
    diff -r -q "$out/typescript" clients/typescript/generated || status=1
    diff -r -q "$out/swift" clients/swift/PodiumClient/Sources/PodiumAPI/Generated || status=1
    diff -q "$out/openapi.sha256" clients/openapi.sha256 || status=1
    if [ "$status" -ne 0 ]; then
        echo "FAILED: the clients' generated code is not what $document gives: run bash clients/regenerate.sh and commit" >&2
        exit 1
    fi
    echo "OK: the generated clients match $document"
else
    rm -rf clients/python/podium_client clients/typescript/generated clients/swift/PodiumClient/Sources/PodiumAPI/Generated
    cp -r "$out/podium_client" clients/python/podium_client
    cp -r "$out/typescript" clients/typescript/generated
    cp -r "$out/swift" clients/swift/PodiumClient/Sources/PodiumAPI/Generated
    cp "$out/openapi.sha256" clients/openapi.sha256
    echo "written: clients/python/podium_client, clients/typescript/generated, clients/swift/PodiumClient/Sources/PodiumAPI/Generated, clients/openapi.sha256"
fi
