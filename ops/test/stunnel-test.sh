#!/usr/bin/env bash
# Redis over TLS through an stunnel sidecar: runs the suite's Redis tests
# against a TLS-only redis-server, reached through a client-mode stunnel, the
# way ops/README.md ("Redis over TLS") tells operators to run Podium (Debian
# 12's hiredis 0.14 has no TLS, so Podium refuses rediss:// URLs).
#
#   bash ops/test/stunnel-test.sh             needs the test bundle that
#                                        `swift build --build-tests` (or
#                                        `swift test`, as ops/test.sh runs it)
#                                        leaves; it builds nothing
#   bash ops/test/stunnel-test.sh ARGS...     extra arguments go to the test bundle
#
# What it does, all under .local/stunnel/ (made anew on every run) and on
# loopback only:
#   1. installs stunnel4, openssl and redis-server with apt-get if missing;
#   2. makes a throwaway CA and a server certificate for localhost/127.0.0.1;
#   3. starts redis-server with TLS only (--port 0 --tls-port P) on a free port;
#   4. starts stunnel in client mode on another free port Q, verifying the
#      server's chain against the CA and its name (checkHost = localhost), and
#      a second tunnel that expects another name, which must be refused;
#   5. runs `podiumPackageTests.xctest --testing-library swift-testing --filter
#      RedisTests` with PODIUM_TEST_REDIS_URL=redis://127.0.0.1:Q/15;
#   6. checks that the traffic went through TLS: plain redis-cli gets no answer
#      from port P, and the TLS server's connection and command counters
#      (read with `redis-cli --tls`) grew by what the tests did.
# A trap stops the redis-server and stunnel it started (by pid) however it
# ends, so it can be run again at once. Fails if a test fails, if no test ran,
# or if any check above fails. Logs stay in .local/stunnel/.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
started=$SECONDS
sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"

# 1. Packages.
missing=()
command -v stunnel4 >/dev/null || command -v stunnel >/dev/null || missing+=(stunnel4)
command -v openssl >/dev/null || missing+=(openssl)
command -v redis-server >/dev/null || missing+=(redis-server)
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}"
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    # Debian's redis-server package starts a server of its own on 6379; the project's lives in .local/ (ops/services.sh).
    case " ${missing[*]} " in *" redis-server "*) $sudo service redis-server stop >/dev/null 2>&1 || true ;; esac
fi
stunnel_bin="$(command -v stunnel4 || command -v stunnel)"

. "$root/ops/lib/swift.sh"
bundle="$(swift build --show-bin-path)/podiumPackageTests.xctest"
if [ ! -x "$bundle" ]; then
    echo "no test bundle at $bundle: build it first (swift build --build-tests, or bash ops/test.sh)" >&2
    exit 1
fi

dir="$root/.local/stunnel"
redis_pid=""
stunnel_pid=""
cleanup() {
    local status=$?
    # Only the processes this script started, by their pids.
    for pid in $stunnel_pid $redis_pid; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in $stunnel_pid $redis_pid; do
        wait "$pid" 2>/dev/null || true
    done
    rm -f "$dir/stunnel.pid"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

rm -rf "$dir"
mkdir -p "$dir"

# A loopback port that can be bound now, below Linux's ephemeral range (32768-60999, where an outgoing
# connection may hold a port nothing listens on) and not picked here before; sets `port`. Not run in a
# subshell, so that `taken` keeps the ports picked.
taken=" "
free_port() {
    for _ in $(seq 200); do
        port=$((20000 + RANDOM % 12000))
        case "$taken" in *" $port "*) continue ;; esac
        if python3 -c 'import socket, sys; socket.socket().bind(("127.0.0.1", int(sys.argv[1])))' "$port" 2>/dev/null; then
            taken="$taken$port "
            return 0
        fi
    done
    echo "no free loopback port found" >&2
    return 1
}
free_port; tls_port=$port
free_port; tunnel_port=$port
free_port; wrong_name_port=$port

# 2. A throwaway CA and a server certificate it signs, valid two days.
openssl req -x509 -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
    -subj "/CN=Podium stunnel test CA" -addext "basicConstraints=critical,CA:TRUE" \
    -addext "keyUsage=critical,keyCertSign,cRLSign" \
    -keyout "$dir/ca.key" -out "$dir/ca.crt" 2>/dev/null
openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -subj "/CN=localhost" -keyout "$dir/server.key" -out "$dir/server.csr" 2>/dev/null
printf '%s\n' "basicConstraints=CA:FALSE" "keyUsage=critical,digitalSignature" "extendedKeyUsage=serverAuth" \
    "subjectAltName=DNS:localhost,IP:127.0.0.1" >"$dir/server.ext"
openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial -days 2 \
    -extfile "$dir/server.ext" -out "$dir/server.crt" 2>/dev/null
openssl verify -CAfile "$dir/ca.crt" "$dir/server.crt" >/dev/null
echo "certificates: $dir/ca.crt signs $dir/server.crt (localhost, 127.0.0.1)"

tls_cli() { redis-cli --tls --cacert "$dir/ca.crt" -h 127.0.0.1 -p "$tls_port" "$@"; }
info_field() { tls_cli INFO stats | tr -d '\r' | sed -n "s/^$1://p"; }

# 3. Redis with TLS only: no plain port at all.
redis-server --bind 127.0.0.1 --port 0 --tls-port "$tls_port" \
    --tls-cert-file "$dir/server.crt" --tls-key-file "$dir/server.key" --tls-ca-cert-file "$dir/ca.crt" \
    --tls-auth-clients no --save '' --appendonly no --dir "$dir" --daemonize no \
    --logfile "$dir/redis.log" </dev/null &
redis_pid=$!
for _ in $(seq 100); do
    [ "$(tls_cli PING 2>/dev/null || true)" = PONG ] && break
    kill -0 "$redis_pid" 2>/dev/null || { echo "redis-server exited; its log:" >&2; cat "$dir/redis.log" >&2; exit 1; }
    sleep 0.1
done
[ "$(tls_cli PING 2>/dev/null || true)" = PONG ] || { echo "the TLS redis-server does not answer on $tls_port" >&2; exit 1; }
echo "redis-server $(redis-server --version | sed -n 's/.*v=\([^ ]*\).*/\1/p') with TLS only on 127.0.0.1:$tls_port (pid $redis_pid)"

# 4. The client-side tunnel, as ops/README.md describes it, and one that expects another name.
cat >"$dir/stunnel.conf" <<EOF
; Written by ops/test/stunnel-test.sh: a client-mode tunnel to the TLS-only Redis.
foreground = yes
pid = $dir/stunnel.pid
debug = notice

[redis]
client = yes
accept = 127.0.0.1:$tunnel_port
connect = 127.0.0.1:$tls_port
verifyChain = yes
CAfile = $dir/ca.crt
checkHost = localhost

; The same server under a name its certificate does not carry: stunnel must refuse it.
[redis-wrong-name]
client = yes
accept = 127.0.0.1:$wrong_name_port
connect = 127.0.0.1:$tls_port
verifyChain = yes
CAfile = $dir/ca.crt
checkHost = redis.wrong-name.invalid
EOF
"$stunnel_bin" "$dir/stunnel.conf" >"$dir/stunnel.log" 2>&1 </dev/null &
stunnel_pid=$!
plain_cli() { redis-cli -h 127.0.0.1 -p "$1" "${@:2}"; }
for _ in $(seq 100); do
    [ "$(plain_cli "$tunnel_port" PING 2>/dev/null || true)" = PONG ] && break
    kill -0 "$stunnel_pid" 2>/dev/null || { echo "stunnel exited; its log:" >&2; cat "$dir/stunnel.log" >&2; exit 1; }
    sleep 0.1
done
[ "$(plain_cli "$tunnel_port" PING 2>/dev/null || true)" = PONG ] \
    || { echo "no PONG through stunnel on $tunnel_port; its log:" >&2; cat "$dir/stunnel.log" >&2; exit 1; }
[ -s "$dir/stunnel.pid" ] || { echo "stunnel wrote no pid file" >&2; exit 1; }
echo "$("$stunnel_bin" -version 2>&1 | grep -m1 "^stunnel" | cut -d" " -f1-2) client on 127.0.0.1:$tunnel_port -> 127.0.0.1:$tls_port (pid $stunnel_pid)"

# Checks before the tests: the name is verified, and the TLS port speaks no plain Redis.
if [ "$(timeout 10 redis-cli -h 127.0.0.1 -p "$wrong_name_port" PING 2>/dev/null || true)" = PONG ]; then
    echo "FAILED: stunnel accepted a server certificate for another name (checkHost not enforced)" >&2
    exit 1
fi
echo "checked: stunnel refuses the server under a name its certificate lacks"
if [ "$(timeout 10 redis-cli -h 127.0.0.1 -p "$tls_port" PING 2>/dev/null || true)" = PONG ]; then
    echo "FAILED: plain redis-cli got an answer from the TLS port $tls_port" >&2
    exit 1
fi
echo "checked: plain redis-cli gets no answer from the TLS port"

connections_before="$(info_field total_connections_received)"
commands_before="$(info_field total_commands_processed)"
accepted_before="$(grep -c 'Service \[redis\] accepted connection' "$dir/stunnel.log" || true)"

# 5. The Redis tests through the tunnel.
export PODIUM_TEST_REDIS_URL="redis://127.0.0.1:$tunnel_port/15"
log="$dir/test.log"
echo "PODIUM_TEST_REDIS_URL=$PODIUM_TEST_REDIS_URL $bundle --testing-library swift-testing --filter RedisTests $*"
set +e
timeout 600 "$bundle" --testing-library swift-testing --filter RedisTests "$@" </dev/null 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
summary="$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -aE 'Test run with [0-9]+ tests? ' | tail -n 1 || true)"
count="$(printf '%s' "$summary" | sed -nE 's/.*Test run with ([0-9]+) tests? .*/\1/p')"
if [ "$status" -ne 0 ]; then
    sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -aE '^✘ |recorded an issue|Fatal error' | head -n 40 >&2 || true
    echo "FAILED: the Redis tests through stunnel exited with status $status; output in $log" >&2
    exit "$status"
fi
if [ -z "$summary" ] || [ "${count:-0}" -eq 0 ]; then
    echo "FAILED: no Redis test ran through stunnel (${summary:-no summary line}); output in $log" >&2
    exit 1
fi
case "$summary" in
    *" passed after "*) ;;
    *) echo "FAILED: $summary" >&2; exit 1 ;;
esac

# 6. The traffic went through TLS: the TLS-only server saw the tests' connections and commands.
kill -0 "$stunnel_pid" 2>/dev/null || { echo "FAILED: stunnel died during the tests; its log:" >&2; cat "$dir/stunnel.log" >&2; exit 1; }
connections=$(( $(info_field total_connections_received) - connections_before - 1 ))  # less this INFO's own
commands=$(( $(info_field total_commands_processed) - commands_before - 1 ))
accepted=$(( $(grep -c 'Service \[redis\] accepted connection' "$dir/stunnel.log" || true) - accepted_before ))
echo "the TLS-only server saw $connections connection(s) and $commands command(s) during the tests; stunnel accepted $accepted"
if [ "$connections" -lt 1 ] || [ "$commands" -lt 10 ] || [ "$accepted" -lt 1 ]; then
    echo "FAILED: too little traffic went through the tunnel to the TLS server" >&2
    exit 1
fi
if [ "$(tls_cli -n 15 DBSIZE)" != 0 ]; then
    echo "FAILED: the tests left keys in db 15 of the TLS server" >&2
    exit 1
fi

echo "OK: $count Redis test(s) passed through stunnel to a TLS-only Redis ($((SECONDS - started))s)"
