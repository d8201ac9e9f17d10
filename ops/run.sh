#!/usr/bin/env bash
# Quick start, "run": starts Podium on this machine with a local PostgreSQL and
# Redis on loopback.
#
#   bash ops/run.sh            install/start PostgreSQL + Redis (ops/services.sh),
#                              build podium (release), then run `podium serve`
#   bash ops/run.sh ARGS...    the same, but run `podium ARGS...` instead of `serve`
#
# The first run installs PostgreSQL and Redis with apt and builds for a few
# minutes; later runs start in seconds. Stop with Ctrl-C; `bash ops/services.sh
# stop` stops PostgreSQL and Redis.
#
# Unless PODIUM_ADMIN_KEY is set, a random bootstrap admin key is generated
# into .local/admin-key on the first run and reused afterwards. Every other
# setting has a default (README, "Configuration"); PODIUM_PG_PORT / PODIUM_REDIS_PORT
# move the local services, and the connection URLs follow unless set. Browser pages
# served on loopback (http://localhost:<any port>) may call it, for development,
# unless PODIUM_CORS_ORIGINS is set (empty: none).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

bash ops/services.sh

. "$root/ops/lib/swift.sh"

echo "building podium (release)…"
swift build -c release --product podium
bin="$(swift build -c release --show-bin-path)/podium"

pg_port="${PODIUM_PG_PORT:-5432}"
redis_port="${PODIUM_REDIS_PORT:-6379}"
export PODIUM_DATABASE_URL="${PODIUM_DATABASE_URL:-host=127.0.0.1 port=$pg_port user=postgres dbname=podium}"
export PODIUM_REDIS_URL="${PODIUM_REDIS_URL:-redis://127.0.0.1:$redis_port/0}"

# 40 random characters from [A-Za-z0-9] (no pipes that could die of SIGPIPE).
random_base62() {
    local s=""
    while [ "${#s}" -lt 40 ]; do
        s+="$(LC_ALL=C tr -dc 'A-Za-z0-9' < <(head -c 256 /dev/urandom))"
    done
    printf '%s' "${s:0:40}"
}

if [ -z "${PODIUM_ADMIN_KEY:-}" ]; then
    key_file="$root/.local/admin-key"
    if [ ! -s "$key_file" ]; then
        mkdir -p "$root/.local"
        (umask 077 && printf 'pdm_%s\n' "$(random_base62)" > "$key_file")
        echo "generated a bootstrap admin key in .local/admin-key"
    fi
    PODIUM_ADMIN_KEY="$(tr -d '[:space:]' < "$key_file")"
    export PODIUM_ADMIN_KEY
fi

# A page a developer serves on this machine (http://localhost:5173, http://127.0.0.1:8000) may call this Podium from a
# browser: loopback origins on any port, unless PODIUM_CORS_ORIGINS is set (docs/ACCESS.md, "Browsers").
export PODIUM_CORS_ORIGINS="${PODIUM_CORS_ORIGINS-http://localhost:*,http://127.0.0.1:*,http://[::1]:*}"

host="${PODIUM_HOST:-127.0.0.1}"
port="${PODIUM_PORT:-8080}"
url_host="$host"
case "$host" in
    0.0.0.0 | "::" | "") url_host=127.0.0.1 ;;
    *:*) url_host="[$host]" ;;
esac
url="http://$url_host:$port"

if [ $# -eq 0 ]; then
    set -- serve
    cat <<EOF

Podium is starting on $url
  admin key: $PODIUM_ADMIN_KEY
  try:       curl -H "Authorization: Bearer $PODIUM_ADMIN_KEY" $url/v1/leaderboards
             curl $url/healthz
  keys:      ${bin#"$root"/} keys create --name quiz-app --role ingest
  browsers:  pages on ${PODIUM_CORS_ORIGINS:-no origin} may call it (PODIUM_CORS_ORIGINS)
  stop:      Ctrl-C (then \`bash ops/services.sh stop\` to stop PostgreSQL and Redis)

EOF
fi

# glibc keeps a malloc arena per thread by default; two keep resident memory low (measured in ops/bench/bench.sh).
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
exec "$bin" "$@"
