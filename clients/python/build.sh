#!/usr/bin/env bash
# Builds the Python client's wheel and sdist into clients/python/dist/: podium_client-<version>-py3-none-any.whl and
# podium_client-<version>.tar.gz, <version> being the server's (Sources/PodiumHTTP/BuildInfo.swift). Builds from a
# copy under .local/ (its version written in, py.typed added to the generated package), with `python -m build` from
# a venv under .local/ (PyPI's build and setuptools). PYTHON picks the interpreter (default: the newest Python >= 3.11
# found, as clients/python/test.sh finds them).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
version="$(sed -n 's/.*public static let version = "\([^"]*\)".*/\1/p' Sources/PodiumHTTP/BuildInfo.swift)"
[ -n "$version" ] || { echo "no version in Sources/PodiumHTTP/BuildInfo.swift" >&2; exit 1; }

python="${PYTHON:-}"
if [ -z "$python" ]; then
    for candidate in /root/.pyenv/versions/3.13.*/bin/python3 /root/.pyenv/versions/3.12.*/bin/python3 \
                     /root/.pyenv/versions/3.11.*/bin/python3 /usr/bin/python3; do
        if [ -x "$candidate" ] && "$candidate" -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            python="$candidate"; break
        fi
    done
fi
[ -n "$python" ] || { echo "no Python >= 3.11 with venv found" >&2; exit 1; }

venv=".local/python-client-build-venv"
if ! "$venv/bin/python" -c 'import build' >/dev/null 2>&1; then
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check build==1.2.2.post1 'setuptools>=68' wheel
fi

stage=".local/python-client-stage"
rm -rf "$stage"
mkdir -p "$stage"
cp -r clients/python/pyproject.toml clients/python/README.md clients/python/podium clients/python/podium_client "$stage/"
find "$stage" -name __pycache__ -prune -exec rm -rf {} +
printf '"""The client'"'"'s version: the server'"'"'s (Sources/PodiumHTTP/BuildInfo.swift), written by clients/python/build.sh."""\n\n__version__ = "%s"\n' \
    "$version" >"$stage/podium/_version.py"
touch "$stage/podium_client/py.typed"

rm -rf clients/python/dist
"$venv/bin/python" -m build --no-isolation --outdir clients/python/dist "$stage" >"$stage.log" 2>&1 \
    || { cat "$stage.log" >&2; exit 1; }
wheel="clients/python/dist/podium_client-$version-py3-none-any.whl"
[ -f "$wheel" ] && [ -f "clients/python/dist/podium_client-$version.tar.gz" ] \
    || { echo "the build did not give podium_client-$version's wheel and sdist:" >&2; ls clients/python/dist >&2; exit 1; }
echo "built: $wheel ($(stat -c %s "$wheel") bytes), clients/python/dist/podium_client-$version.tar.gz"
