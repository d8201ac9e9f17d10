#!/usr/bin/env bash
# Tests the Swift client (clients/swift/PodiumClient) as a newcomer uses it, against a real `podium serve`:
#
# 1. writes a new package, .local/swift-newcomer, that depends on PodiumClient by path exactly as the client's README
#    says (`.package(path: …/PodiumClient)`, `.product(name: "PodiumClient", package: "PodiumClient")`), whose
#    executable is the README's snippet (the block after `<!-- tested: main.swift -->`) and whose test target is the
#    client's own tests (PodiumClient/Tests), so the client and its dependencies are built once;
# 2. builds it, printing how long the build took (cold on a fresh clone: the figure the README gives);
# 3. starts Podium with a fault proxy in front (clients/testing/podium.sh; Redis db 6), signs a player's tokens with
#    the Python client's helper, runs the snippet, then the tests (the error model through the proxy: HTML 502/503
#    pages, a rate limit with Retry-After, a refused token, an offline period; the queue's outcomes; the live board).
#
#   bash clients/swift/test.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
. "$root/ops/lib/swift.sh"
. "$root/clients/testing/podium.sh"
bash ops/services.sh >/dev/null

newcomer="$root/.local/swift-newcomer"
mkdir -p "$newcomer/Sources/Snippet"
rm -rf "$newcomer/Tests" && mkdir -p "$newcomer/Tests"
cp -r clients/swift/PodiumClient/Tests/PodiumClientTests "$newcomer/Tests/"
# The README's snippet, as it is written there.
python3 - "$root/clients/swift/PodiumClient/README.md" "$newcomer/Sources/Snippet/main.swift" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
found = re.search(r"<!-- tested: main.swift -->\s*```swift\n(.*?)```", text, re.S)
if not found:
    sys.exit("no `<!-- tested: main.swift -->` block in the README")
open(sys.argv[2], "w", encoding="utf-8").write(found.group(1))
PY
cat >"$newcomer/Package.swift" <<SWIFT
// swift-tools-version:6.0
// A newcomer's app, written by clients/swift/test.sh: PodiumClient by path, as its README says.
import PackageDescription
let package = Package(
    name: "Newcomer",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(path: "$root/clients/swift/PodiumClient")],
    targets: [
        .executableTarget(name: "Snippet", dependencies: [.product(name: "PodiumClient", package: "PodiumClient")]),
        .testTarget(name: "PodiumClientTests", dependencies: [
            .product(name: "PodiumClient", package: "PodiumClient"), .product(name: "PodiumAPI", package: "PodiumClient"),
        ]),
    ]
)
SWIFT

started=$SECONDS
(cd "$newcomer" && swift build --build-tests)
echo "built the newcomer package with PodiumClient in $((SECONDS - started)) s"

start_client_test_podium swift-client 6
player="u-swift-player-$$"
group="swift-player-$$"
# tokens.py needs only the standard library (the package's __init__ would import httpx).
tokens="$(python3 -c '
import importlib.util, sys, time
spec = importlib.util.spec_from_file_location("tokens", "clients/python/podium/tokens.py")
tokens = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tokens)
kid, secret, player, group = sys.argv[1:5]
print(tokens.sign_player_token(kid, secret, player, groups=[group], lifetime=60, now=time.time() - 3600))
print(tokens.sign_player_token(kid, secret, player, groups=[group], lifetime=600))
print(tokens.sign_player_token(kid, secret, "u-swift-readme", groups=["class-4b"], lifetime=600))
' "$PODIUM_CLIENT_TEST_TOKEN_KID" "$PODIUM_CLIENT_TEST_TOKEN_SECRET" "$player" "$group")"
export PODIUM_CLIENT_TEST_PLAYER="$player" PODIUM_CLIENT_TEST_PLAYER_GROUP="$group" \
    PODIUM_CLIENT_TEST_STALE_TOKEN="$(sed -n 1p <<<"$tokens")" PODIUM_CLIENT_TEST_FRESH_TOKEN="$(sed -n 2p <<<"$tokens")"

cd "$newcomer"
bin="$(swift build --show-bin-path)"
# The snippet as the README has it: PODIUM_URL and the player token its backend signed.
snippet="$(PODIUM_URL="$PODIUM_CLIENT_TEST_URL" PODIUM_PLAYER_TOKEN="$(sed -n 3p <<<"$tokens")" timeout 120 "$bin/Snippet" 2>&1)" \
    || { echo "$snippet"; echo "FAILED: the README's snippet" >&2; exit 1; }
echo "$snippet"
grep -qE "^recorded [0-9A-F-]{36}: 3 points" <<<"$snippet" || { echo "FAILED: the snippet did not record its completion" >&2; exit 1; }

output="$(timeout 600 "$bin/NewcomerPackageTests.xctest" --testing-library swift-testing 2>&1)" || { echo "$output"; exit 1; }
echo "$output" | tail -3
grep -q "Test run with [1-9][0-9]* tests.* passed" <<<"$output" || { echo "FAILED: no Swift client test ran" >&2; exit 1; }
echo "OK: the Swift client, depended on by path as PodiumClient, ran its README's snippet and its tests against a real Podium"
