# Sourced, not run: `. "$root/ops/lib/swift.sh"` in ops/run.sh, ops/test.sh,
# ops/bench/bench.sh and .ci/run. Puts a Swift toolchain on PATH, looking on PATH and
# then in /opt/swift/usr/bin, or stops the script that sourced it.
if ! command -v swift >/dev/null 2>&1; then export PATH="/opt/swift/usr/bin:$PATH"; fi
if ! command -v swift >/dev/null 2>&1; then
    echo "swift not found (looked on PATH and in /opt/swift/usr/bin): install a Swift 6 toolchain" >&2
    exit 1
fi
