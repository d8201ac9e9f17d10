#!/usr/bin/env bash
# The Python client's whole test (ops/test.sh runs it): builds the wheel (build.sh), starts a real `podium serve` with
# the fault proxy in front (clients/testing/podium.sh, Redis db 7), then for every Python >= 3.11 found (pyenv's
# 3.11, 3.12, 3.13 and Debian's /usr/bin/python3) installs the wheel into a fresh venv as a newcomer would and runs the
# snippets of clients/python/README.md marked `<!-- tested: NAME -->` against the server; in the newest one, mypy
# --strict over the installed layer, the snippets and the tests (py.typed), and pytest over clients/python/tests.
# Needs PyPI (the wheel's dependencies, pytest, mypy) and .build/debug/podium (PODIUM_BINARY).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
bash ops/services.sh >/dev/null
# Debian's python3 makes venvs only with python3-venv.
if ! /usr/bin/python3 -c 'import venv, ensurepip' 2>/dev/null; then
    sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
fi
bash clients/python/build.sh
version="$(sed -n 's/.*public static let version = "\([^"]*\)".*/\1/p' Sources/PodiumHTTP/BuildInfo.swift)"
wheel="$root/clients/python/dist/podium_client-$version-py3-none-any.whl"

pythons=()
for candidate in /root/.pyenv/versions/3.1[1-9].*/bin/python3 /usr/bin/python3; do
    [ -x "$candidate" ] && "$candidate" -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))' 2>/dev/null \
        && pythons+=("$candidate")
done
[ "${#pythons[@]}" -gt 0 ] || { echo "FAILED: no Python >= 3.11 with venv found" >&2; exit 1; }

work="$root/.local/python-client-test"
rm -rf "$work"
mkdir -p "$work"
# The README's tested snippets, one file each, with what each must print.
python3 - "$root/clients/python/README.md" "$work" <<'PY'
import pathlib, re, sys
readme, work = pathlib.Path(sys.argv[1]).read_text(), pathlib.Path(sys.argv[2])
snippets = re.findall(r"<!-- tested: (\w+) -->\n```python\n(.*?)```", readme, re.S)
names = [name for name, _ in snippets]
if sorted(names) != ["async", "backend", "errors", "player", "queue"]:
    sys.exit(f"FAILED: the README's tested snippets are {names}")
for name, code in snippets:
    (work / f"snippet_{name}.py").write_text(code)
PY
declare -A expected=(
    [backend]='^\+3 points: [0-9]+ in all, level [0-9]+$'
    [player_run]='^[0-9]+ u-7-[0-9]+ 2$'
    [queue]="^recorded \['[0-9a-f-]{36}'\], replayed \[\], 0 still queued$"
    [errors]="^400 \[\('correct', "
    [async]='^[0-9a-f-]{36} 2$'
)

. "$root/clients/testing/podium.sh"
start_client_test_podium python-client 7
trap 'stop_client_test_podium; rm -rf "$work"' EXIT
ingest_key="$(curl -fsS --max-time 30 -X POST "$PODIUM_CLIENT_TEST_URL/v1/admin/api-keys" -H "Authorization: Bearer $PODIUM_CLIENT_TEST_ADMIN_KEY" \
    -H "Content-Type: application/json" -d '{"name": "README snippets", "role": "ingest"}' \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["secret"])')"

# A newcomer's shell: nothing of this repository on the path, only the environment the README names.
newcomer() {
    (cd "$work" && env -i PATH="$1/bin:/usr/bin:/bin" HOME="$work" PODIUM_URL="$PODIUM_CLIENT_TEST_URL" \
        PODIUM_INGEST_KEY="$ingest_key" PODIUM_TOKEN_KID="$PODIUM_CLIENT_TEST_TOKEN_KID" \
        PODIUM_TOKEN_SECRET="$PODIUM_CLIENT_TEST_TOKEN_SECRET" timeout 300 "${@:2}")
}

tested=()
venv=""
for python in "${pythons[@]}"; do
    release="$("$python" -c 'import platform; print(platform.python_version())')"
    venv="$work/venv-$release-$(echo "$python" | md5sum | head -c 6)"
    "$python" -m venv "$venv"
    timeout 300 "$venv/bin/python" -m pip install -q --disable-pip-version-check "$wheel"
    newcomer "$venv" python -c "
import podium, podium_client, sys
assert podium.__version__ == '$version', podium.__version__
assert podium.__file__.startswith(sys.prefix) and podium_client.__file__.startswith(sys.prefix), podium.__file__"
    # Each Python's run plays as another player: Podium refuses a player's same quiz again within 60 s.
    sed "s/\"u-7\"/\"u-7-${#tested[@]}\"/g" "$work/snippet_player.py" >"$work/snippet_player_run.py"
    for name in backend player_run queue errors async; do
        output="$(newcomer "$venv" python "snippet_$name.py")" \
            || { echo "FAILED: the README's $name snippet on Python $release ($python)" >&2; exit 1; }
        grep -Eq "${expected[$name]}" <<<"$output" \
            || { echo "FAILED: the README's $name snippet on Python $release printed:" >&2; echo "$output" >&2; exit 1; }
    done
    echo "ok: the wheel and the README's snippets on Python $release ($python)"
    tested+=("$release")
done

# The newest Python: types as a user's mypy sees them (py.typed), then the tests, against the installed wheel.
newest="$(for v in "$work"/venv-*; do echo "$("$v/bin/python" -c 'import sys; print("%d.%03d" % sys.version_info[:2])') $v"; done \
    | sort -n | tail -1 | cut -d' ' -f2)"
timeout 300 "$newest/bin/python" -m pip install -q --disable-pip-version-check 'pytest>=8,<9' 'mypy>=1.11,<2'
cp -r "$root/clients/python/tests" "$work/tests"
newcomer "$newest" python -m mypy --strict --no-incremental -p podium
newcomer "$newest" python -m mypy --strict --no-incremental snippet_backend.py snippet_player.py snippet_queue.py \
    snippet_errors.py snippet_async.py
newcomer "$newest" env MYPYPATH="$work/tests" python -m mypy --strict --no-incremental tests
log="$work/pytest.log"
(cd "$work" && env -i PATH="$newest/bin:/usr/bin:/bin" HOME="$work" PODIUM_CLIENT_TEST_URL="$PODIUM_CLIENT_TEST_URL" \
    PODIUM_CLIENT_TEST_PROXY_URL="$PODIUM_CLIENT_TEST_PROXY_URL" PODIUM_CLIENT_TEST_ADMIN_KEY="$PODIUM_CLIENT_TEST_ADMIN_KEY" \
    PODIUM_CLIENT_TEST_TOKEN_KID="$PODIUM_CLIENT_TEST_TOKEN_KID" PODIUM_CLIENT_TEST_TOKEN_SECRET="$PODIUM_CLIENT_TEST_TOKEN_SECRET" \
    timeout 600 python -m pytest -q -p no:cacheprovider tests) 2>&1 | tee "$log" \
    || { echo "FAILED: the Python client's tests (the end of .local/python-client-podium.log:)" >&2; \
         tail -5 "$root/.local/python-client-podium.log" >&2; exit 1; }
passed="$(grep -Eo '^[0-9]+ passed' "$log" | grep -Eo '[0-9]+')"
# Every test passed: "N passed in", or "N passed, M warnings in" (nothing failed, errored or was skipped).
grep -Eq "^$passed passed(, [0-9]+ warnings?)? in " "$log" || { echo "FAILED: not every test passed" >&2; exit 1; }

releases="$(IFS=,; echo "${tested[*]}" | sed 's/,/, /g')"
echo "OK: the Python client (wheel podium_client-$version, $(stat -c %s "$wheel") bytes) on Python $releases: $passed tests passed"
