# Sourced, not run: `. "$root/ops/lib/swift.sh"` in ops/run.sh, ops/test.sh,
# the scripts in ops/bench/ and .ci/run. Puts a Swift toolchain on PATH, looking on PATH and
# then in /opt/swift/usr/bin, or stops the script that sourced it.
if ! command -v swift >/dev/null 2>&1; then export PATH="/opt/swift/usr/bin:$PATH"; fi
if ! command -v swift >/dev/null 2>&1; then
    echo "swift not found (looked on PATH and in /opt/swift/usr/bin): install a Swift 6 toolchain" >&2
    exit 1
fi

# Sets `bin` to the podium binary a benchmark measures: $BENCH_BINARY when set (an older commit's build, made in a
# worktree), else this tree's release build, built first. Used by the scripts in ops/bench/.
benchmark_binary() {
    if [ -n "${BENCH_BINARY:-}" ]; then
        bin="$BENCH_BINARY"
        echo "benchmarking $bin"
    else
        echo "building podium (release)…"
        swift build -c release --product podium >/dev/null
        bin="$(swift build -c release --show-bin-path)/podium"
    fi
}

# Exports what a benchmark's replica needs: database $1 and Redis db $2 on the local services (PODIUM_PG_PORT,
# PODIUM_REDIS_PORT), HTTP port $3, a throwaway admin key, rate limits far above any load (still checked on every
# request), and two malloc arenas (glibc keeps one per thread by default; two are plenty and keep resident memory
# low). Used by the scripts in ops/bench/.
benchmark_environment() {
    export PODIUM_DATABASE_URL="host=127.0.0.1 port=${PODIUM_PG_PORT:-5432} user=postgres dbname=$1"
    export PODIUM_REDIS_URL="redis://127.0.0.1:${PODIUM_REDIS_PORT:-6379}/$2"
    export PODIUM_PORT="$3"
    export PODIUM_ADMIN_KEY="pdm_$1_$(date +%s)_local_only"
    export PODIUM_RATE_LIMITS="ingest=100000000,read=100000000,admin=100000000"
    export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
}
