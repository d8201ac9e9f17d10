#!/usr/bin/env bash
# Tests the monitoring pieces in ops/monitoring/ (Prometheus scrape config and
# alert rules, Grafana dashboard, nginx in front of the replicas) and the
# compose file that runs them, then runs them against a real Podium.
#
#   bash ops/test/monitoring-test.sh            every check below
#   bash ops/test/monitoring-test.sh --static   only the checks that need no Podium (1 to 4)
#
# 1. promtool: `check config` on prometheus.yml, `check rules` on alerts.yml,
#    `test rules` on alerts_test.yml (every alert fires in a unit test, with its
#    labels and annotations, and stays quiet where it should).
# 2. `docker-compose -f docker-compose.yml config -q` (Debian's docker-compose
#    1.29; no Docker daemon needed).
# 3. python3 over the dashboard (grafana/dashboards/podium.json: unique panel
#    ids, a grid position in the 24 columns and no overlaps, the `prometheus`
#    data source and a query on every panel), over the alerts (every rule has
#    `for`, a severity, a summary and a description, and a firing unit test),
#    and over every metric name the dashboard and the alerts use, which must be
#    in the catalogue ops/monitoring/metrics.txt. Every dashboard query must
#    also parse as PromQL (promtool check rules on a generated file). The
#    podium_ names in Sources/ must be exactly the catalogue's.
# 4. nginx -t on ops/monitoring/nginx.conf (its upstreams pointed at loopback).
# 5. Live, with PODIUM_BINARY (default .build/debug/podium; this script builds
#    nothing): `podium serve` on a free loopback port with a database of its own
#    on the local test PostgreSQL (127.0.0.1:PODIUM_PG_PORT, created here and
#    dropped at the end) and Redis db 7 (emptied first) on 127.0.0.1:PODIUM_REDIS_PORT;
#    a webhook registered, one completion posted (and one refused, 400) and one
#    leaderboard read, as the bootstrap admin; an implausible completion posted
#    with a player token (HS256, signed here); an unknown key used twice (401,
#    then 429: the failed-auth limit is set to 1 a minute); then
#    - its /metrics: `promtool check metrics` must find nothing at all; every
#      podium_ family must be in metrics.txt, and those that exist from the
#      start (or after a completion) must be there;
#    - a real `prometheus` on a free port, with prometheus.yml's scrape settings
#      (targets and intervals replaced: the Podium above, every second) and
#      alerts.yml: the query API must return podium_build_info, the rule group
#      must have been evaluated with every rule healthy, the completion must
#      show in podium_completions_recorded_total, a close-periods run (asked for
#      here) must show as podium_job_last_success_timestamp_seconds{job="close-periods"}
#      (the selector PodiumClosePeriodsLate uses), every dashboard query must
#      run without error, and no alert may be firing;
#    - nginx with nginx.conf in front of it: a read through it, and the first
#      event of a live stream (Server-Sent Events), read until it comes (30 s at most);
#    - a webhook registered before the completion (to a receiver this script
#      runs) must get its delivery within 30 seconds;
#    - /metrics again, linted and checked the same way, and now also with
#      podium_live_listeners, the scheduler's podium_job_*, the webhook, the
#      error, the rate-limit and the implausible-completion families.
#
# Installs with apt what is missing: prometheus (promtool and prometheus),
# docker-compose, nginx, python3-yaml, curl. Starts PostgreSQL and Redis with
# ops/services.sh for the live part. Logs and Prometheus's data go to
# .local/monitoring/ (emptied at each run). Stops everything it started on exit.
# Fails (non-zero) on the first check that fails.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
started=$SECONDS
sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"

live=1
case "${1:-}" in
    "") ;;
    --static) live=0 ;;
    *) echo "usage: bash ops/test/monitoring-test.sh [--static]" >&2; exit 2 ;;
esac

mon="ops/monitoring"
work="$root/.local/monitoring"
python=/usr/bin/python3
checked=()
ok() { echo "ok: $*"; checked+=("$*"); }
fail() { echo "FAILED: $* ($((SECONDS - started))s)" >&2; exit 1; }

# --- what the checks need ---------------------------------------------------
missing=()
{ command -v promtool >/dev/null && command -v prometheus >/dev/null; } || missing+=(prometheus)
command -v docker-compose >/dev/null || missing+=(docker-compose)
[ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v curl >/dev/null || missing+=(curl)
[ -x "$python" ] || missing+=(python3)
{ [ -x "$python" ] && "$python" -c 'import yaml' >/dev/null 2>&1; } || missing+=(python3-yaml)
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}"
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
echo "promtool: $(promtool --version 2>&1 | head -n 1)"

rm -rf "$work"
mkdir -p "$work"

free_port() {
    "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# --- 1. promtool --------------------------------------------------------------
promtool check config "$mon/prometheus.yml" >"$work/promtool.log" 2>&1 || { cat "$work/promtool.log" >&2; fail "promtool check config $mon/prometheus.yml"; }
ok "promtool check config $mon/prometheus.yml"
promtool check rules "$mon/alerts.yml" >"$work/promtool.log" 2>&1 || { cat "$work/promtool.log" >&2; fail "promtool check rules $mon/alerts.yml"; }
ok "promtool check rules $mon/alerts.yml ($(grep -o '[0-9]* rules found' "$work/promtool.log"))"
promtool test rules "$mon/alerts_test.yml" >"$work/promtool.log" 2>&1 || { cat "$work/promtool.log" >&2; fail "promtool test rules $mon/alerts_test.yml"; }
ok "promtool test rules $mon/alerts_test.yml"

# --- 2. compose file ----------------------------------------------------------
docker-compose -f docker-compose.yml config -q >"$work/compose.log" 2>&1 || { cat "$work/compose.log" >&2; fail "docker-compose -f docker-compose.yml config -q"; }
services="$(docker-compose -f docker-compose.yml config --services 2>/dev/null | tr '\n' ' ' | sed 's/ $//')"
for service in postgres redis podium-1 podium-2 nginx prometheus grafana; do
    case " $services " in *" $service "*) ;; *) fail "docker-compose.yml has no service $service (it has: $services)" ;; esac
done
ok "docker-compose config -q (services: $services)"

# --- 3. dashboard, alerts and the metric catalogue ----------------------------
"$python" - "$mon" "$work/dashboard-queries.yml" <<'PY' || fail "dashboard, alert or catalogue check (above)"
import json, re, sys, yaml

mon, queries_out = sys.argv[1], sys.argv[2]
problems = []
catalogue = [l.strip() for l in open(f"{mon}/metrics.txt") if l.strip() and not l.startswith("#")]
if len(set(catalogue)) != len(catalogue):
    problems.append("metrics.txt lists a name twice")
catalogue = set(catalogue)
builtin = {"up"}  # made by Prometheus for every target

KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "and", "or", "unless", "bool", "offset", "inf", "nan"}

def metric_names(expr):
    """Metric names in a PromQL expression: identifiers outside strings, label matchers,
    ranges and grouping clauses that are neither functions nor keywords."""
    e = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)
    e = re.sub(r"'(?:[^'\\]|\\.)*'", "''", e)
    e = re.sub(r"\{[^{}]*\}", " ", e)
    e = re.sub(r"\[[^\]]*\]", " ", e)
    e = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", e)
    names = set()
    for m in re.finditer(r"(?<![\w$.:])([a-zA-Z_:][a-zA-Z0-9_:]*)\b(?!\s*\()", e):
        if m.group(1).lower() not in KEYWORDS:
            names.add(m.group(1))
    return names

def check_names(where, expr, used):
    for name in metric_names(expr):
        base = re.sub(r"_(bucket|sum|count)$", "", name)
        if name in catalogue or name in builtin or (base != name and base in catalogue):
            used.add(name if name in catalogue or name in builtin else base)
        else:
            problems.append(f"{where}: metric {name} is not in metrics.txt")

used = set()

# The dashboard.
d = json.load(open(f"{mon}/grafana/dashboards/podium.json"))
if not isinstance(d.get("schemaVersion"), int) or not 36 <= d["schemaVersion"] <= 41:
    problems.append(f"dashboard schemaVersion {d.get('schemaVersion')!r}, expected about 39")
for key in ("uid", "title"):
    if not d.get(key):
        problems.append(f"dashboard has no {key}")
panels = []
for p in d.get("panels", []):
    panels.append(p)
    panels.extend(p.get("panels", []))  # inside collapsed rows
ids = [p.get("id") for p in panels]
if len(ids) != len(set(ids)) or any(not isinstance(i, int) for i in ids):
    problems.append(f"panel ids are not unique integers: {ids}")
cells = {}
queries = []
for p in panels:
    name = f"panel {p.get('id')} {p.get('title')!r}"
    g = p.get("gridPos")
    if not isinstance(g, dict) or any(not isinstance(g.get(k), int) for k in ("h", "w", "x", "y")):
        problems.append(f"{name}: gridPos missing or not h, w, x, y integers")
    elif g["x"] < 0 or g["w"] < 1 or g["x"] + g["w"] > 24 or g["h"] < 1:
        problems.append(f"{name}: gridPos {g} outside the 24 columns")
    else:
        for cx in range(g["x"], g["x"] + g["w"]):
            for cy in range(g["y"], g["y"] + g["h"]):
                if (cx, cy) in cells:
                    problems.append(f"{name}: overlaps panel {cells[(cx, cy)]}")
                    break
                cells[(cx, cy)] = p.get("id")
            else:
                continue
            break
    if not p.get("title"):
        problems.append(f"{name}: no title")
    if p.get("type") == "row":
        continue
    ds = p.get("datasource") or {}
    if ds.get("uid") != "prometheus":
        problems.append(f"{name}: datasource {ds!r} is not uid prometheus")
    targets = p.get("targets") or []
    if not targets:
        problems.append(f"{name}: no targets")
    refs = [t.get("refId") for t in targets]
    if len(refs) != len(set(refs)) or not all(refs):
        problems.append(f"{name}: refIds {refs} missing or repeated")
    for t in targets:
        tds = t.get("datasource")
        if tds is not None and tds.get("uid") != "prometheus":
            problems.append(f"{name}: target {t.get('refId')} datasource {tds!r}")
        expr = (t.get("expr") or "").strip()
        if not expr:
            problems.append(f"{name}: target {t.get('refId')} has no expr")
            continue
        check_names(name, expr, used)
        queries.append((p.get("id"), t.get("refId"), expr))
for v in d.get("templating", {}).get("list", []):
    q = v.get("query")
    q = q.get("query") if isinstance(q, dict) else q
    m = re.match(r"label_values\((.*),\s*\w+\)$", q or "")
    if m:
        check_names(f"variable {v.get('name')}", m.group(1), used)

# Every dashboard query as a recording rule, Grafana's variables filled in, for promtool to parse.
def fill(expr):
    return (expr.replace("$__rate_interval", "1m").replace("$__interval", "1m")
                .replace("$__range", "1h").replace("$instance", ".*"))
rules = [{"record": f"dashboard:panel_{pid}_{ref}", "expr": fill(e)} for pid, ref, e in queries]
yaml.safe_dump({"groups": [{"name": "dashboard", "rules": rules}]}, open(queries_out, "w"), sort_keys=False)

# The alerts and their unit tests.
alerts = [r for g in yaml.safe_load(open(f"{mon}/alerts.yml"))["groups"] for r in g["rules"] if "alert" in r]
tests = yaml.safe_load(open(f"{mon}/alerts_test.yml"))["tests"]
firing, quiet = set(), set()
for t in tests:
    for a in t.get("alert_rule_test", []):
        (firing if a.get("exp_alerts") else quiet).add(a["alertname"])
names = [a["alert"] for a in alerts]
if len(names) != len(set(names)):
    problems.append("an alert name is used twice")
for a in alerts:
    n = a["alert"]
    if not a.get("for"):
        problems.append(f"alert {n}: no for")
    if a.get("labels", {}).get("severity") not in ("critical", "warning", "info"):
        problems.append(f"alert {n}: severity {a.get('labels', {}).get('severity')!r}")
    for k in ("summary", "description"):
        if not a.get("annotations", {}).get(k):
            problems.append(f"alert {n}: no {k} annotation")
    if n not in firing:
        problems.append(f"alert {n}: no unit test in alerts_test.yml where it fires")
    check_names(f"alert {n}", a["expr"], used)
for n in sorted((firing | quiet) - set(names)):
    problems.append(f"alerts_test.yml tests {n}, which alerts.yml does not have")

unused = sorted(catalogue - used)
if problems:
    print("\n".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"ok: dashboard {d['title']!r}: {len(panels)} panels, {len(queries)} queries, ids unique, grid fits, every panel on uid prometheus with queries")
no_quiet = sorted(set(names) - quiet)
print(f"ok: {len(alerts)} alerts, each with for, severity, summary and description, each firing in a unit test; "
      + (f"all but {', '.join(no_quiet)} also have a case where they stay quiet" if no_quiet else "each also has a case where it stays quiet"))
print(f"ok: {len(used - builtin)} metric names used by the dashboard and alerts, all in metrics.txt ({len(catalogue)} names)"
      + (f"; not used: {', '.join(unused)}" if unused else "; every catalogue name is used"))
PY
checked+=("dashboard JSON, alert coverage and the metric catalogue")
promtool check rules "$work/dashboard-queries.yml" >"$work/promtool.log" 2>&1 || { cat "$work/promtool.log" >&2; fail "a dashboard query is not valid PromQL"; }
ok "every dashboard query parses as PromQL ($(grep -o '[0-9]* rules found' "$work/promtool.log"))"

# --- 3b. the catalogue against the code ---------------------------------------------
# metrics.txt is the one list of Podium's metric names: the names the Swift sources hold are checked against it, both
# ways (a name in the code and not in the list, or listed and no longer in the code, fails).
code_names="$(grep -rhoE '"podium_[a-z0-9_]+"' Sources --include='*.swift' | tr -d '"' | sort -u)"
listed_names="$(grep -E '^podium_' "$mon/metrics.txt" | sort -u)"
if ! diff <(echo "$code_names") <(echo "$listed_names") > "$work/metric-names.diff"; then
    sed 's/^</  in Sources only:/; s/^>/  in metrics.txt only:/' "$work/metric-names.diff" | grep '^  in' >&2
    fail "the podium_ metric names in Sources/ and ops/monitoring/metrics.txt differ (above)"
fi
ok "the $(echo "$code_names" | wc -l) podium_ metric names in Sources/ are exactly those of metrics.txt"

# --- 4. nginx -t ------------------------------------------------------------------
# nginx.conf is a conf.d file (upstream and server blocks); here it runs inside a
# minimal main configuration, its upstreams and listen address moved to loopback.
nginx_port="$(free_port)"
podium_port="$(free_port)"
mkdir -p "$work/nginx"
sed -e "s/server podium-[12]:8080/server 127.0.0.1:$podium_port/" \
    -e "s/^\(\s*\)listen 80;/\1listen 127.0.0.1:$nginx_port;/" "$mon/nginx.conf" >"$work/nginx/podium.conf"
if grep -q 'podium-[12]:8080\|listen 80;' "$work/nginx/podium.conf" || [ "$(grep -c "server 127.0.0.1:$podium_port" "$work/nginx/podium.conf")" != 2 ]; then
    fail "nginx.conf no longer has 'server podium-1:8080', 'server podium-2:8080' and 'listen 80;' where this script rewrites them"
fi
cat >"$work/nginx/nginx.conf" <<EOF
worker_processes 1;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 256; }
http {
    access_log $work/nginx/access.log;
    client_body_temp_path $work/nginx/body;
    proxy_temp_path $work/nginx/proxy;
    fastcgi_temp_path $work/nginx/fastcgi;
    uwsgi_temp_path $work/nginx/uwsgi;
    scgi_temp_path $work/nginx/scgi;
    include $work/nginx/podium.conf;
}
EOF
/usr/sbin/nginx -t -q -p "$work/nginx" -e "$work/nginx/error.log" -c "$work/nginx/nginx.conf" >"$work/nginx/test.log" 2>&1 \
    || { cat "$work/nginx/test.log" "$work/nginx/error.log" >&2 2>/dev/null; fail "nginx -t on $mon/nginx.conf"; }
ok "nginx -t on $mon/nginx.conf ($(/usr/sbin/nginx -v 2>&1))"

if [ "$live" = 0 ]; then
    echo "OK: ${#checked[@]} static checks passed ($((SECONDS - started))s); the live checks were not run (--static)"
    exit 0
fi

# --- 5. live ------------------------------------------------------------------------
binary="${PODIUM_BINARY:-$root/.build/debug/podium}"
[ -x "$binary" ] || fail "no podium executable at $binary: build it first (swift build), set PODIUM_BINARY, or run with --static"

bash ops/services.sh >/dev/null
pg_port="${PODIUM_PG_PORT:-5432}"
redis_port="${PODIUM_REDIS_PORT:-6379}"
pg_bin="$(dirname "$(printf '%s\n' /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)")"
database=podium_monitoring_test
key="pdm_monitoring_test_$(date +%s)_local_only"
token_secret="monitoring-test-hs256-secret-$(date +%s)-local-only"
prom_port="$(free_port)"
podium_pid=""; prom_pid=""; nginx_pid=""; hook_pid=""

cleanup() {
    set +e
    for pid in "$nginx_pid" "$prom_pid" "$podium_pid" "$hook_pid"; do
        [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    done
    "$pg_bin/dropdb" -h 127.0.0.1 -p "$pg_port" -U postgres --if-exists --force "$database" 2>/dev/null
}
trap cleanup EXIT

# --force ends sessions left over from an interrupted run.
PGOPTIONS="-c client_min_messages=warning" "$pg_bin/dropdb" -h 127.0.0.1 -p "$pg_port" -U postgres --if-exists --force "$database"
"$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres "$database"
redis-cli -h 127.0.0.1 -p "$redis_port" -n 7 FLUSHDB >/dev/null

api="http://127.0.0.1:$podium_port"
PODIUM_DATABASE_URL="host=127.0.0.1 port=$pg_port user=postgres dbname=$database" \
PODIUM_REDIS_URL="redis://127.0.0.1:$redis_port/7" \
PODIUM_HOST=127.0.0.1 PODIUM_PORT="$podium_port" PODIUM_ADMIN_KEY="$key" \
PODIUM_REPLICA_NAME=monitoring-test PODIUM_LOG_LEVEL=warning \
PODIUM_LIVE_STREAM_SECONDS=30 PODIUM_RATE_LIMITS="failed-auth=1" \
PODIUM_PLAYER_TOKEN_HS256_KEYS="monitoring:$token_secret" \
    "$binary" serve >"$work/podium.log" 2>&1 &
podium_pid=$!
for _ in $(seq 300); do
    curl -sf -o /dev/null "$api/healthz" && break
    kill -0 "$podium_pid" 2>/dev/null || { tail -n 20 "$work/podium.log" >&2; fail "podium serve exited; log in $work/podium.log"; }
    sleep 0.2
done
curl -sf -o /dev/null "$api/healthz" || fail "podium serve did not answer /healthz within 60 s; log in $work/podium.log"
ok "podium serve ($binary) on $api, database $database, Redis db 7"

auth=(-H "Authorization: Bearer $key")
# A webhook receiver that takes everything, so that the webhook metrics exist.
hook_port="$(free_port)"
"$python" - "$hook_port" "$work/hook.log" <<'PY' &
import sys
from http.server import HTTPServer, BaseHTTPRequestHandler
class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        with open(sys.argv[2], "a") as log:
            log.write(f"{self.headers.get('Podium-Event-Id')}\n")
        self.send_response(204)
        self.end_headers()
    def log_message(self, *args):
        pass
HTTPServer(("127.0.0.1", int(sys.argv[1])), Receiver).serve_forever()
PY
hook_pid=$!
status="$(curl -s -o "$work/webhook.json" -w '%{http_code}' -X POST "$api/v1/admin/webhooks" "${auth[@]}" -H 'Content-Type: application/json' \
    -d "{\"url\": \"http://127.0.0.1:$hook_port/hook\", \"event_types\": [\"completion.recorded\"], \"secret\": \"monitoring-test-secret-0123456789\"}")"
[ "$status" = 201 ] || { cat "$work/webhook.json" >&2; fail "POST /v1/admin/webhooks answered $status, not 201"; }
status="$(curl -s -o "$work/completion.json" -w '%{http_code}' -X POST "$api/v1/completions" "${auth[@]}" -H 'Content-Type: application/json' -d '{
  "id": "monitoring-1", "user_id": "u-monitoring", "quiz_id": "fractions-3", "topic": "math", "difficulty": "hard",
  "correct": 9, "total": 10, "duration_ms": 81000, "groups": ["class-4b"], "display_name": "Ada"}')"
[ "$status" = 201 ] || { cat "$work/completion.json" >&2; fail "POST /v1/completions answered $status, not 201"; }
status="$(curl -s -o /dev/null -w '%{http_code}' "$api/v1/leaderboards/global/week?limit=10" "${auth[@]}")"
[ "$status" = 200 ] || fail "GET /v1/leaderboards/global/week answered $status, not 200"
status="$(curl -s -o /dev/null -w '%{http_code}' -X POST "$api/v1/completions" "${auth[@]}" -H 'Content-Type: application/json' -d '{}')"
[ "$status" = 400 ] || fail "POST /v1/completions with {} answered $status, not 400"
# A player token's completion that breaks a plausibility rule (10 questions in 0.1 s). The token is the Python
# client's (clients/python/podium/tokens.py), loaded from its file: the `podium` package imports the generated
# client, whose dependencies Debian's python3 need not have.
player_token="$("$python" - "$root/clients/python/podium/tokens.py" "$token_secret" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("podium_tokens", sys.argv[1])
tokens = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tokens)
print(tokens.sign_player_token("monitoring", sys.argv[2], "u-monitoring-player"))
PY
)"
status="$(curl -s -o "$work/implausible.json" -w '%{http_code}' -X POST "$api/v1/completions" -H "Authorization: Bearer $player_token" -H 'Content-Type: application/json' -d '{
  "id": "monitoring-player-1", "user_id": "u-monitoring-player", "quiz_id": "fractions-3", "topic": "math", "difficulty": "hard",
  "correct": 9, "total": 10, "duration_ms": 100}')"
grep -q implausible "$work/implausible.json" || { cat "$work/implausible.json" >&2; fail "a player token's completion of 10 questions in 0.1 s answered $status, not implausible-completion"; }
# One failed authentication a minute (PODIUM_RATE_LIMITS above): the second is refused by the limit.
statuses=""
for _ in 1 2; do
    statuses+="$(curl -s -o /dev/null -w '%{http_code}' "$api/v1/leaderboards" -H 'Authorization: Bearer pdm_not_a_key') "
done
[ "$statuses" = "401 429 " ] || fail "two requests with an unknown key answered $statuses, not 401 then 429"
ok "POST /v1/admin/webhooks 201, POST /v1/completions 201 (and 400 for {}), GET /v1/leaderboards/global/week 200, an implausible player completion $status, an unknown key 401 then 429"

# /metrics: promtool's lint must find nothing; every podium_ and process_ family
# must be in metrics.txt with the type the catalogue implies; those that exist
# from the start (or after this script's requests), and any named as arguments,
# must be there.
check_metrics() {
    local file="$1"; shift
    curl -sf "$api/metrics" -o "$file" || fail "GET /metrics failed"
    set +e
    promtool check metrics <"$file" >"$work/lint.log" 2>&1
    local lint_status=$?
    set -e
    if [ "$lint_status" -ne 0 ] || [ -s "$work/lint.log" ]; then
        cat "$work/lint.log" >&2
        fail "promtool check metrics found the problems above in /metrics (status $lint_status; saved in $file)"
    fi
    ok "promtool check metrics on /metrics: no findings ($(grep -c '^# TYPE' "$file") families, $(grep -vc '^#' "$file") samples)"
    "$python" - "$mon/metrics.txt" "$file" "$@" <<'PY' || fail "/metrics does not match metrics.txt (above; saved in $file)"
import re, sys
catalogue = {l.strip() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")}
families = {}
for line in open(sys.argv[2]):
    m = re.match(r"# TYPE (\S+) (\S+)", line)
    if m:
        families[m.group(1)] = m.group(2)
ours = {n for n in families if n.startswith(("podium_", "process_"))}
required = {
    "podium_build_info", "podium_http_requests_total", "podium_http_request_duration_seconds",
    "podium_http_requests_in_flight", "podium_completions_recorded_total", "podium_group_commit_batch_size",
    "podium_postgres_pool_size", "podium_postgres_pool_in_use", "podium_postgres_pool_waiters",
    "podium_redis_pool_size", "podium_redis_pool_in_use", "podium_redis_pool_waiters",
    "podium_postgres_up", "podium_redis_up", "podium_rankings_pending",
    "process_resident_memory_bytes", "process_virtual_memory_bytes", "process_open_fds",
    "process_cpu_seconds_total", "process_start_time_seconds",
} | set(sys.argv[3:])
problems = [f"/metrics has {n}, which metrics.txt does not list" for n in sorted(ours - catalogue)]
problems += [f"/metrics has no {n}" for n in sorted(required - ours)]
histograms = {"podium_http_request_duration_seconds", "podium_group_commit_batch_size",
              "podium_job_duration_seconds", "podium_job_lateness_seconds"}
for n in sorted(ours):
    kind = families[n]
    want = "histogram" if n in histograms else "counter" if n.endswith("_total") else "gauge"
    if kind != want:
        problems.append(f"{n} is a {kind}, the catalogue says {want}")
if problems:
    print("\n".join(problems), file=sys.stderr)
    sys.exit(1)
later = sorted(catalogue - ours)
print(f"ok: /metrics: {len(ours)} podium_/process_ families, all in metrics.txt with the right types, {len(required)} required ones there"
      + (f"; not exported yet (nothing to count so far): {', '.join(later)}" if later else ""))
PY
    checked+=("/metrics against metrics.txt")
}
check_metrics "$work/metrics-start.prom"

# A real Prometheus with prometheus.yml's scrape settings, scraping this Podium every second.
"$python" - "$mon/prometheus.yml" "$work/prometheus.yml" "127.0.0.1:$podium_port" "$root/$mon/alerts.yml" <<'PY'
import sys, yaml
cfg = yaml.safe_load(open(sys.argv[1]))
cfg["global"]["scrape_interval"] = "1s"
cfg["global"]["evaluation_interval"] = "1s"
cfg["rule_files"] = [sys.argv[4]]
jobs = cfg["scrape_configs"]
assert [j["job_name"] for j in jobs] == ["podium"], "prometheus.yml should have exactly the scrape job podium"
jobs[0]["scrape_interval"] = "1s"
jobs[0]["scrape_timeout"] = "1s"
jobs[0]["static_configs"] = [{"targets": [sys.argv[3]]}]
yaml.safe_dump(cfg, open(sys.argv[2], "w"), sort_keys=False)
PY
promtool check config "$work/prometheus.yml" >"$work/promtool.log" 2>&1 || { cat "$work/promtool.log" >&2; fail "promtool check config on the generated $work/prometheus.yml"; }
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/prometheus-data" \
    --web.listen-address="127.0.0.1:$prom_port" --log.level=warn >"$work/prometheus.log" 2>&1 &
prom_pid=$!
prom="http://127.0.0.1:$prom_port"

# Prints the JSON answer of an instant query.
query() { curl -sfG "$prom/api/v1/query" --data-urlencode "query=$1"; }
# Reads a JSON answer on stdin and runs a python expression over it (`d`), printing its value.
json() { "$python" -c "import json, sys; d = json.load(sys.stdin); print($1)"; }

deadline=$((SECONDS + 60))
until [ "$(query 'podium_build_info' 2>/dev/null | json 'len(d["data"]["result"])' 2>/dev/null || echo 0)" -ge 1 ]; do
    kill -0 "$prom_pid" 2>/dev/null || { tail -n 20 "$work/prometheus.log" >&2; fail "prometheus exited; log in $work/prometheus.log"; }
    [ $SECONDS -lt $deadline ] || fail "Prometheus returned no podium_build_info within 60 s; log in $work/prometheus.log"
    sleep 0.5
done
ok "prometheus ($(prometheus --version 2>&1 | head -n 1 | awk '{print $3}')) on $prom: podium_build_info = $(query 'podium_build_info' | json 'd["data"]["result"][0]["metric"]')"
# The newest scrape succeeded, asked until it has (30 s): one scrape slowed past its 1 s timeout by a loaded machine
# is a 0 until the next one.
deadline=$((SECONDS + 30))
until [ "$(query 'up{job="podium"}' | json 'd["data"]["result"][0]["value"][1]')" = 1 ]; do
    [ $SECONDS -lt $deadline ] || fail 'up{job="podium"} was not 1 for 30 s'
    sleep 0.5
done
ok 'up{job="podium"} = 1'

deadline=$((SECONDS + 30))
rules_state() {
    curl -sf "$prom/api/v1/rules" -o "$work/rules.json" || { echo "no answer from /api/v1/rules"; return; }
    "$python" - "$mon/alerts.yml" "$work/rules.json" <<'PY'
import json, sys, yaml
want = [r["alert"] for g in yaml.safe_load(open(sys.argv[1]))["groups"] for r in g["rules"] if "alert" in r]
groups = [g for g in json.load(open(sys.argv[2]))["data"]["groups"] if g["name"] == "podium"]
if not groups:
    print("no rule group podium")
    sys.exit()
g = groups[0]
bad = ["%s: %s %s" % (r["name"], r["health"], r.get("lastError", "")) for r in g["rules"] if r["health"] != "ok"]
if g["lastEvaluation"].startswith("0001-"):
    print("group podium not evaluated yet")
elif sorted(r["name"] for r in g["rules"]) != sorted(want):
    print("the loaded rules differ from alerts.yml")
elif bad:
    print("unhealthy rules: " + "; ".join(bad))
else:
    print("ok %d %s" % (len(g["rules"]), g["lastEvaluation"]))
PY
}
until state="$(rules_state 2>&1)"; [[ "$state" == ok* ]]; do
    [ $SECONDS -lt $deadline ] || fail "/api/v1/rules: $state"
    sleep 0.5
done
read -r _ rule_count last_evaluation <<<"$state"
ok "/api/v1/rules: group podium evaluated ($last_evaluation), all $rule_count rules health ok"

completions="$(query 'sum(podium_completions_recorded_total)' | json 'd["data"]["result"][0]["value"][1] if d["data"]["result"] else 0')"
"$python" -c "import sys; sys.exit(0 if float('$completions') >= 1 else 1)" || fail "sum(podium_completions_recorded_total) is $completions, expected >= 1"
ok "sum(podium_completions_recorded_total) = $completions (>= 1)"

# close-periods runs every minute anyway; asking for a run now makes it sooner. Its
# last success must show under job="close-periods" (honor_labels in prometheus.yml).
status="$(curl -s -o "$work/run.json" -w '%{http_code}' -X POST "$api/v1/admin/jobs/close-periods/run" "${auth[@]}" -H 'Content-Type: application/json' -d '{"slot": "now"}')"
[ "$status" = 202 ] || { cat "$work/run.json" >&2; fail "POST /v1/admin/jobs/close-periods/run answered $status, not 202"; }
deadline=$((SECONDS + 90))
selector='podium_job_last_success_timestamp_seconds{job="close-periods"}'
until [ "$(query "$selector" 2>/dev/null | json 'len(d["data"]["result"])' 2>/dev/null || echo 0)" -ge 1 ]; do
    [ $SECONDS -lt $deadline ] || fail "$selector did not appear in Prometheus within 90 s of asking for a run (exported_job instead of job? check honor_labels)"
    sleep 1
done
ok "$selector is in Prometheus ($(query "time() - max($selector)" | json 'round(float(d["data"]["result"][0]["value"][1]), 1)') s ago)"

# Every dashboard query against the live Prometheus: none may fail.
"$python" - "$mon/grafana/dashboards/podium.json" "$prom" <<'PY' || fail "a dashboard query failed in Prometheus (above)"
import json, sys, urllib.parse, urllib.request
d = json.load(open(sys.argv[1]))
panels = [p for top in d["panels"] for p in [top] + top.get("panels", [])]
total, with_data, problems = 0, 0, []
for p in panels:
    for t in p.get("targets", []):
        expr = (t["expr"].replace("$__rate_interval", "30s").replace("$__interval", "30s")
                .replace("$__range", "1h").replace("$instance", ".*"))
        total += 1
        try:
            with urllib.request.urlopen(sys.argv[2] + "/api/v1/query?" + urllib.parse.urlencode({"query": expr}), timeout=10) as r:
                answer = json.load(r)
        except urllib.error.HTTPError as e:
            answer = json.load(e)
        if answer.get("status") != "success":
            problems.append(f"panel {p['id']} {p['title']!r} {t['refId']}: {answer.get('error')}")
        elif answer["data"]["result"]:
            with_data += 1
if problems:
    print("\n".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"ok: all {total} dashboard queries run in Prometheus without error; {with_data} return data already "
      "(the others wait for webhooks, medals, errors or more history)")
PY
checked+=("every dashboard query in the live Prometheus")

firing="$(curl -sf "$prom/api/v1/alerts" | json '", ".join(sorted(a["labels"]["alertname"] for a in d["data"]["alerts"] if a["state"] == "firing"))')"
[ -z "$firing" ] || fail "alerts firing against a healthy Podium: $firing"
pending="$(curl -sf "$prom/api/v1/alerts" | json '", ".join(sorted(a["labels"]["alertname"] for a in d["data"]["alerts"] if a["state"] == "pending")) or "none"')"
ok "no alert firing against a healthy Podium (pending: $pending)"

# nginx in front of it.
/usr/sbin/nginx -p "$work/nginx" -e "$work/nginx/error.log" -c "$work/nginx/nginx.conf" >"$work/nginx/nginx.log" 2>&1 &
nginx_pid=$!
lb="http://127.0.0.1:$nginx_port"
for _ in $(seq 50); do
    curl -sf -o /dev/null "$lb/healthz" && break
    kill -0 "$nginx_pid" 2>/dev/null || { cat "$work/nginx/nginx.log" "$work/nginx/error.log" >&2; fail "nginx exited"; }
    sleep 0.1
done
status="$(curl -s -o /dev/null -w '%{http_code}' "$lb/v1/leaderboards/global/week?limit=10" "${auth[@]}")"
[ "$status" = 200 ] || fail "GET /v1/leaderboards/global/week through nginx answered $status, not 200"
# The stream read until its first event (30 s at most), its content type written where the checks below look.
set +e
"$python" - "$lb/v1/leaderboards/global/week/live?limit=10" "$key" "$work/live-headers.txt" "$work/live.txt" <<'PY'
import sys, urllib.request
url, key, headers_path, body_path = sys.argv[1:]
request = urllib.request.Request(url, headers={"Authorization": f"Bearer {key}"})
with urllib.request.urlopen(request, timeout=30) as response, open(body_path, "wb") as body:
    with open(headers_path, "w") as headers:
        headers.write(f"content-type: {response.headers.get('Content-Type')}\n")
    for line in response:
        body.write(line)
        if line.startswith(b"data:"):
            break
PY
set -e
grep -qi '^content-type: text/event-stream' "$work/live-headers.txt" || { cat "$work/live-headers.txt" >&2; fail "the live stream through nginx is not text/event-stream"; }
grep -q '^data:' "$work/live.txt" || { head -c 500 "$work/live.txt" >&2; fail "no event of the live stream came through nginx within 30 s"; }
ok "nginx ($mon/nginx.conf) in front: a read 200, a live stream's first event"

# The completion's event reaches the webhook receiver.
deadline=$((SECONDS + 30))
until [ -s "$work/hook.log" ]; do
    [ $SECONDS -lt $deadline ] || fail "the webhook receiver got no delivery within 30 s; log in $work/podium.log"
    sleep 0.5
done
ok "the webhook receiver got $(wc -l <"$work/hook.log") delivery(ies)"

# /metrics again, now that a live stream was open, close-periods has run, a
# request failed and a webhook delivery was made.
check_metrics "$work/metrics-end.prom" podium_live_listeners podium_job_runs_total podium_job_duration_seconds \
    podium_job_lateness_seconds podium_job_last_success_timestamp_seconds podium_http_request_errors_total \
    podium_rate_limit_rejections_total podium_implausible_completions_total \
    podium_webhook_attempts_total podium_webhook_deliveries_total podium_webhook_pending_deliveries \
    podium_webhook_dead_deliveries podium_webhook_oldest_undelivered_age_seconds

echo "OK: ${#checked[@]} checks passed ($((SECONDS - started))s); logs in .local/monitoring/"
