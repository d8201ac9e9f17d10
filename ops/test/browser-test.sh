#!/usr/bin/env bash
# Browser end-to-end test: Debian's Chromium, driven by Playwright for Python,
# against an already-built `podium serve` (Tests/browser/test_browser.py).
#
#   bash ops/test/browser-test.sh             install what is missing, then
#                                        `python -m pytest -q Tests/browser`
#   bash ops/test/browser-test.sh ARGS...     extra arguments go to pytest, e.g. `-k display`
#
# Installs with apt only what is missing (chromium, fonts-liberation when no
# font is installed, python3, python3-venv, gcc), and Playwright, pytest, zxing-cpp and Pillow with pip
# into a venv at .local/browser-venv, so system packages are left alone.
# Playwright never downloads a browser (PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1):
# the test launches /usr/bin/chromium.
#
# It builds nothing: the binary is PODIUM_BINARY (default .build/debug/podium,
# which `swift build` and ops/test.sh make). The tests create databases of their
# own on the test PostgreSQL server (the one PODIUM_TEST_DATABASE_URL names, or
# 127.0.0.1:PODIUM_PG_PORT), drop them at the end, and empty Redis dbs 11, 12 and 13
# (the console test's second Podium, and the docs test's fresh one) on 127.0.0.1:PODIUM_REDIS_PORT.
# Screenshots go to .local/browser/.
#
# Fails if pytest fails, and also if it collected no test (pytest's status 5).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
started=$SECONDS
sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"

export PODIUM_BINARY="${PODIUM_BINARY:-$root/.build/debug/podium}"
if [ ! -x "$PODIUM_BINARY" ]; then
    echo "no podium executable at $PODIUM_BINARY: build it first (swift build, or bash ops/test.sh) or set PODIUM_BINARY" >&2
    exit 1
fi

bash ops/services.sh

# Debian's python3 (not a pyenv or other one on PATH): its venv module is what python3-venv installs.
python=/usr/bin/python3
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
# Minimal images ship no fonts, and pages would render without visible text.
compgen -G "/usr/share/fonts/truetype/*/*.ttf" >/dev/null || missing+=(fonts-liberation)
[ -x "$python" ] || missing+=(python3)
# The console test builds ops/test/clock-shift/clock_shift.c to serve a Podium with its clock moved ahead.
command -v gcc >/dev/null || missing+=(gcc libc6-dev)
{ [ -x "$python" ] && "$python" -c 'import ensurepip, venv' >/dev/null 2>&1; } || missing+=(python3-venv)
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}"
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

venv=".local/browser-venv"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
# No __pycache__ in Tests/browser (not ignored by git).
export PYTHONDONTWRITEBYTECODE=1
if [ ! -x "$venv/bin/python" ]; then
    echo "creating the venv $venv"
    "$python" -m venv "$venv"
fi
# Pinned: the versions this test was written and run with.
# zxing-cpp and Pillow read the console's QR codes back from screenshots.
if ! "$venv/bin/python" -c 'import playwright.sync_api, pytest, zxingcpp, PIL, httpx, attrs, dateutil' >/dev/null 2>&1; then
    echo "installing playwright, pytest, zxing-cpp and pillow into $venv"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check playwright==1.65.2 pytest==9.2.0 zxing-cpp==3.1.1 pillow==13.0.0 httpx==0.28.1 attrs==26.1.0 python-dateutil==4.0.0
fi

mkdir -p .local/browser
echo "python -m pytest -q Tests/browser $*"
set +e
"$venv/bin/python" -m pytest -q -p no:cacheprovider Tests/browser "$@" </dev/null
status=$?
set -e
elapsed=$((SECONDS - started))
case "$status" in
    0) echo "OK: browser tests passed (${elapsed}s); screenshots in .local/browser/" ;;
    5) echo "FAILED: pytest collected no tests (${elapsed}s)" >&2 ;;
    *) echo "FAILED: pytest exited with status $status (${elapsed}s)" >&2 ;;
esac
exit "$status"
