# Sourced, not run: `. "$root/ops/lib/swift.sh"` in ops/run.sh, ops/test.sh,
# ops/bench/bench.sh, ops/bench/bench-live.sh and .ci/run. Puts a Swift toolchain on PATH, looking on PATH and
# then in /opt/swift/usr/bin, or stops the script that sourced it.
if ! command -v swift >/dev/null 2>&1; then export PATH="/opt/swift/usr/bin:$PATH"; fi
if ! command -v swift >/dev/null 2>&1; then
    echo "swift not found (looked on PATH and in /opt/swift/usr/bin): install a Swift 6 toolchain" >&2
    exit 1
fi

# Sets `bin` to the podium binary a benchmark measures: $BENCH_BINARY when set (an older commit's build, made in a
# worktree), else this tree's release build, built first. Used by ops/bench/bench.sh and ops/bench/bench-live.sh.
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
