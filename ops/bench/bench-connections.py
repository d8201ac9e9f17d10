#!/usr/bin/env python3
"""Connection-limit benchmark: slow clients against one running Podium replica.

    python3 ops/bench/bench-connections.py --url http://127.0.0.1:8080 --pid PID --key INGEST_KEY

Opens N connections (default 1000) on loopback: half send part of a request's
headers and stall (slowloris), half send whole headers with a valid ingest key
and Content-Length of 1 MiB, then 256 KiB of the body, and stall (`--mode
headers` or `--mode bodies` opens only one kind). Meanwhile it
asks /healthz over a separate connection and samples the replica's resident
memory (from /proc/PID/status). It prints:

- the replica's RSS before, at its peak while the slow clients hold on, and after;
- the /healthz latency percentiles while they hold on;
- when the replica closed the slow connections (seconds after they opened),
  which shows the header and body timeouts at work.

Bounded: it stops after --hold seconds (default 40) whatever happens, and every connect and /healthz waits at
most 5 s. A slow body is answered before its connection closes (408 at the body timeout, or 503 at once when the
bodies being read pass the replica's 16 MiB budget): the answers are counted by status.
Loopback only; it never sends traffic anywhere else.
"""
import argparse
import socket
import statistics
import threading
import time
import urllib.parse


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default="http://127.0.0.1:8080")
    parser.add_argument("--pid", type=int, required=True, help="the replica's process id (for its RSS)")
    parser.add_argument("--key", required=True, help="an ingest key (the slow bodies pass the key check)")
    parser.add_argument("--connections", type=int, default=1000)
    parser.add_argument("--hold", type=float, default=40.0, help="seconds to watch before giving up")
    parser.add_argument("--mode", choices=["both", "headers", "bodies"], default="both",
                        help="which slow clients to open: half of each (default), or all of one kind")
    args = parser.parse_args()
    url = urllib.parse.urlparse(args.url)
    host, port = url.hostname, url.port or 80
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise SystemExit("loopback only")

    before = rss_kib(args.pid)
    sockets = []
    opened = time.monotonic()
    body_prefix = b"{" + b" " * (256 * 1024)
    def kind(index):
        if args.mode == "both":
            return "headers" if index % 2 == 0 else "body"
        return "headers" if args.mode == "headers" else "body"

    for index in range(args.connections):
        s = socket.create_connection((host, port), timeout=5)
        if kind(index) == "headers":
            s.sendall(b"GET /v1/leaderboards HTTP/1.1\r\nHost: podium\r\nX-Slow: ")
        else:
            s.sendall((f"POST /v1/completions HTTP/1.1\r\nHost: podium\r\nAuthorization: Bearer {args.key}\r\n"
                       f"Content-Type: application/json\r\nContent-Length: {1 << 20}\r\n\r\n").encode() + body_prefix)
        s.setblocking(False)
        sockets.append((s, kind(index)))
    print(f"opened {len(sockets)} slow connections in {time.monotonic() - opened:.1f} s")

    closed_at = {}
    statuses = {}  # index -> status of the answer the replica sent before closing
    latencies = []
    peak = before
    stop = threading.Event()

    def poll_health():
        while not stop.is_set():
            start = time.monotonic()
            try:
                with socket.create_connection((host, port), timeout=5) as c:
                    c.sendall(b"GET /healthz HTTP/1.1\r\nHost: podium\r\nConnection: close\r\n\r\n")
                    while c.recv(4096):
                        pass
                latencies.append((time.monotonic() - start) * 1000)
            except OSError:
                latencies.append(5000.0)
            time.sleep(0.02)

    poller = threading.Thread(target=poll_health)
    poller.start()
    deadline = opened + args.hold
    while time.monotonic() < deadline and len(closed_at) < len(sockets):
        peak = max(peak, rss_kib(args.pid))
        for index, (s, kind) in enumerate(sockets):
            if index in closed_at:
                continue
            try:
                data = s.recv(65536)
                if data.startswith(b"HTTP/1.1 ") and index not in statuses:
                    statuses[index] = data[9:12].decode()
                if data == b"":
                    closed_at[index] = time.monotonic() - opened
            except BlockingIOError:
                pass
            except OSError:
                closed_at[index] = time.monotonic() - opened
        time.sleep(0.2)
    stop.set()
    poller.join()
    for s, _ in sockets:
        s.close()
    time.sleep(2)
    after = rss_kib(args.pid)

    print(f"replica RSS: before {before / 1024:.0f} MB, peak {peak / 1024:.0f} MB, after {after / 1024:.0f} MB")
    if latencies:
        print(f"/healthz while held: {len(latencies)} requests, p50 {statistics.median(latencies):.1f} ms, "
              f"p99 {percentile(latencies, 0.99):.1f} ms, max {max(latencies):.1f} ms")
    for kind in ("headers", "body"):
        times = [closed_at[i] for i, (_, k) in enumerate(sockets) if k == kind and i in closed_at]
        total = sum(1 for _, k in sockets if k == kind)
        if total == 0:
            continue
        if times:
            answered = [statuses[i] for i, (_, k) in enumerate(sockets) if k == kind and i in statuses]
            answers = (" (answered first: " + ", ".join(f"{answered.count(s)} {s}" for s in sorted(set(answered))) + ")"
                       if answered else "")
            print(f"unfinished {kind}: {len(times)} of {total} closed by the replica{answers}, "
                  f"after {min(times):.1f} to {max(times):.1f} s")
        else:
            print(f"unfinished {kind}: none of {total} closed within {args.hold:.0f} s")


if __name__ == "__main__":
    main()
