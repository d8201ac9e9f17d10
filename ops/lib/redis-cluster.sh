# Sourced, not run: `. "$root/ops/lib/redis-cluster.sh"` in ops/test/redis-cluster-test.sh and ops/bench/bench-cluster.sh.
#
#   start_redis_cluster DIR     six redis-server processes in cluster mode on free loopback ports (each with a free
#                               cluster bus port and a folder under DIR), made three primaries with a replica each by
#                               `redis-cli --cluster create --cluster-replicas 1` (REDIS_CLUSTER_REPLICAS=0: three
#                               primaries alone); waits until every node sees all 16,384 slots served. Sets cluster_ports and cluster_pids (arrays, in the same order)
#                               and cluster_url (redis+cluster://… naming every node).
#   stop_redis_cluster          kills every node it started (by pid) and waits for them.
#   cluster_primary_of KEY      the port of the primary that serves KEY's slot now.
#   cluster_node_pid PORT       the pid of the node on PORT.
#
# REDIS_CLUSTER_NODE_TIMEOUT_MS (default 2000) is how long a node may be silent before its replica takes over.

cluster_free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

start_redis_cluster() {
    local dir="$1" port bus replicas="${REDIS_CLUSTER_REPLICAS:-1}"
    cluster_ports=(); cluster_pids=()
    for _ in $(seq $((3 * (1 + replicas)))); do
        port="$(cluster_free_port)"; bus="$(cluster_free_port)"
        mkdir -p "$dir/$port"
        redis-server --bind 127.0.0.1 --port "$port" --cluster-port "$bus" --cluster-enabled yes \
            --cluster-config-file nodes.conf --cluster-node-timeout "${REDIS_CLUSTER_NODE_TIMEOUT_MS:-2000}" \
            --save "" --appendonly no --dir "$dir/$port" >"$dir/$port/redis.log" 2>&1 &
        cluster_pids+=("$!"); cluster_ports+=("$port")
    done
    for port in "${cluster_ports[@]}"; do
        for _ in $(seq 200); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.05; done
        redis-cli -p "$port" ping >/dev/null || { echo "redis-server on $port did not start; see $dir/$port/redis.log" >&2; return 1; }
    done
    local nodes=()
    for port in "${cluster_ports[@]}"; do nodes+=("127.0.0.1:$port"); done
    redis-cli --cluster create "${nodes[@]}" --cluster-replicas "$replicas" --cluster-yes >"$dir/create.log" 2>&1 \
        || { echo "redis-cli --cluster create failed; see $dir/create.log" >&2; return 1; }
    wait_for_redis_cluster || return 1
    cluster_url="redis+cluster://$(IFS=,; echo "${nodes[*]}")"
}

# Waits (up to 60 s) until every node still running reports the cluster ok with all slots served.
wait_for_redis_cluster() {
    local port info ok
    for _ in $(seq 600); do
        ok=1
        for port in "${cluster_ports[@]}"; do
            info="$(redis-cli -p "$port" cluster info 2>/dev/null)" || continue  # a node killed on purpose
            case "$info" in *cluster_state:ok*cluster_slots_ok:16384*) ;; *) ok=0 ;; esac
        done
        [ "$ok" = 1 ] && return 0
        sleep 0.1
    done
    echo "the Redis cluster was not served within 60 s" >&2
    return 1
}

stop_redis_cluster() {
    local pid
    for pid in "${cluster_pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
    for pid in "${cluster_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    cluster_pids=()
}

cluster_primary_of() {
    local port slot
    for port in "${cluster_ports[@]}"; do
        slot="$(redis-cli -p "$port" cluster keyslot "$1" 2>/dev/null)" || continue
        # CLUSTER NODES: id, ip:port@bus, flags, …, then the slot ranges a primary serves ("0-5460", "5461", "[…]").
        redis-cli -p "$port" cluster nodes | awk -v slot="$slot" '$3 ~ /master/ && $3 !~ /fail/ {
            for (i = 9; i <= NF; i++) {
                if ($i ~ /^\[/) continue
                n = split($i, range, "-"); low = range[1] + 0; high = (n == 2 ? range[2] : range[1]) + 0
                if (slot >= low && slot <= high) { split($2, address, "@"); n = split(address[1], parts, ":"); print parts[n]; exit }
            }
        }'
        return
    done
}

cluster_node_pid() {
    local i
    for i in "${!cluster_ports[@]}"; do
        [ "${cluster_ports[$i]}" = "$1" ] && { echo "${cluster_pids[$i]}"; return; }
    done
}
