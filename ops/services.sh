#!/usr/bin/env bash
# Installs (if needed) and starts the local PostgreSQL and Redis that Podium's
# quick start, tests and benchmarks use: both on loopback only, data under
# .local/ in the project folder. Safe to run again: it starts what is not running.
#
#   ops/services.sh            start both, create databases `podium` and `podium_test`
#   ops/services.sh stop       stop both
#
# Ports come from PODIUM_PG_PORT (default 5432) and PODIUM_REDIS_PORT (default 6379).
#
# When run as root from a folder the `postgres` user cannot reach (a checkout
# under /root, say), the PostgreSQL data go to /var/lib/podium-dev/<hash>/pg
# instead: PostgreSQL refuses to run as root, so it needs a folder of its own.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
local_dir="$root/.local"
pg_port="${PODIUM_PG_PORT:-5432}"
redis_port="${PODIUM_REDIS_PORT:-6379}"
redis_dir="$local_dir/redis"
sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"

as_postgres() {
    # From / so that postgres is not left in a folder it cannot read.
    if [ "$(id -u)" = 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}

install_packages() {
    local missing=()
    command -v redis-server >/dev/null || missing+=(redis-server)
    pkg-config --exists hiredis 2>/dev/null || missing+=(libhiredis-dev)
    pkg-config --exists libpq 2>/dev/null || missing+=(libpq-dev)
    # The server, not just the client tools (which also live in /usr/lib/postgresql/*/bin).
    ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql postgresql-contrib)
    command -v pkg-config >/dev/null || missing+=(pkg-config)
    # Not services, but the build and the time zone rules need them too
    # (minimal Debian images ship without both).
    command -v git >/dev/null || missing+=(git)
    [ -e /usr/share/zoneinfo/Europe/Paris ] || missing+=(tzdata)
    # The console's QR encoder is this package's file, vendored; ops/test/vendored-check.sh compares the two.
    [ -e /usr/share/nodejs/qrcode-generator/qrcode.js ] || missing+=(node-qrcode-generator)
    if [ ${#missing[@]} -gt 0 ]; then
        echo "installing: ${missing[*]}"
        $sudo apt-get update -qq
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
        # The Debian package starts its own cluster and Redis; ours live in .local/.
        $sudo service postgresql stop >/dev/null 2>&1 || true
        $sudo service redis-server stop >/dev/null 2>&1 || true
    fi
}

pg_bin() { dirname "$(printf '%s\n' /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)"; }

# Where the cluster lives: .local/pg, unless root runs us from a folder the
# postgres user cannot traverse.
pg_home() {
    mkdir -p "$local_dir"
    if [ "$(id -u)" = 0 ] && id postgres >/dev/null 2>&1 && ! (cd / && runuser -u postgres -- test -x "$local_dir"); then
        echo "/var/lib/podium-dev/$(printf '%s' "$root" | md5sum | cut -c1-12)/pg"
    else
        echo "$local_dir/pg"
    fi
}

# A distribution cluster (apt's postgresql starts one) holding our port would
# keep ours from starting: stop it.
stop_distro_postgres() {
    command -v pg_lsclusters >/dev/null || return 0
    local ver name port status
    while read -r ver name port status _; do
        case "$status" in
            online*)
                if [ "$port" = "$pg_port" ]; then
                    echo "stopping the system PostgreSQL cluster $ver/$name on port $port"
                    $sudo pg_ctlcluster "$ver" "$name" stop || true
                fi
                ;;
        esac
    done < <(pg_lsclusters -h 2>/dev/null || true)
}

start_postgres() {
    local bin home pg_data pg_run
    bin="$(pg_bin)"; home="$(pg_home)"; pg_data="$home/data"; pg_run="$home/run"
    [ "$home" = "$local_dir/pg" ] || echo "PostgreSQL data in $home (postgres cannot reach $local_dir)"
    mkdir -p "$pg_run" "$home"
    if [ "$(id -u)" = 0 ]; then chown -R postgres:postgres "$home"; fi
    if [ ! -f "$pg_data/PG_VERSION" ]; then
        echo "initialising PostgreSQL in $pg_data"
        # Trust on loopback: a local development and test cluster, never exposed.
        as_postgres "$bin/initdb" -D "$pg_data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
    fi
    if ! as_postgres "$bin/pg_ctl" -D "$pg_data" status >/dev/null 2>&1 \
        && "$bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -tAc "select 1" >/dev/null 2>&1; then
        # Another checkout's cluster (or one started by hand) already answers as postgres: share it.
        echo "using the PostgreSQL already answering on 127.0.0.1:$pg_port"
    elif ! as_postgres "$bin/pg_ctl" -D "$pg_data" status >/dev/null 2>&1; then
        stop_distro_postgres
        if ! as_postgres "$bin/pg_ctl" -D "$pg_data" -l "$home/server.log" -w -t 60 start \
            -o "-h 127.0.0.1 -p $pg_port -k $pg_run -c max_connections=400 -c shared_buffers=256MB -c max_wal_size=4GB" >/dev/null; then
            echo "PostgreSQL did not start; the end of $home/server.log:" >&2
            tail -n 20 "$home/server.log" >&2 || true
            exit 1
        fi
    fi
    for db in podium podium_test; do
        if ! "$bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -tAc "select 1 from pg_database where datname='$db'" | grep -q 1; then
            "$bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres "$db"
        fi
    done
}

start_redis() {
    mkdir -p "$redis_dir"
    if ! redis-cli -h 127.0.0.1 -p "$redis_port" ping >/dev/null 2>&1; then
        # Rankings are a cache rebuilt from PostgreSQL: no persistence needed.
        redis-server --bind 127.0.0.1 --port "$redis_port" --dir "$redis_dir" --save "" \
            --appendonly no --daemonize yes --logfile "$redis_dir/redis.log" --pidfile "$redis_dir/redis.pid"
        for _ in $(seq 50); do redis-cli -h 127.0.0.1 -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.1; done
        if ! redis-cli -h 127.0.0.1 -p "$redis_port" ping >/dev/null 2>&1; then
            echo "Redis did not start; the end of $redis_dir/redis.log:" >&2
            tail -n 20 "$redis_dir/redis.log" >&2 || true
            exit 1
        fi
    fi
}

stop_all() {
    local bin pg_data; bin="$(pg_bin)"; pg_data="$(pg_home)/data"
    if [ -f "$pg_data/PG_VERSION" ]; then
        as_postgres "$bin/pg_ctl" -D "$pg_data" -m fast stop >/dev/null 2>&1 || true
    fi
    redis-cli -h 127.0.0.1 -p "$redis_port" shutdown nosave >/dev/null 2>&1 || true
}

case "${1:-start}" in
    start)
        install_packages
        start_postgres
        start_redis
        echo "PostgreSQL on 127.0.0.1:$pg_port, Redis on 127.0.0.1:$redis_port"
        ;;
    stop) stop_all ;;
    *) echo "usage: $0 [start|stop]" >&2; exit 2 ;;
esac
