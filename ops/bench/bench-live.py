#!/usr/bin/env python3
"""Live-stream benchmark: many listeners of `GET …/live` on one running Podium replica.

    python3 ops/bench/bench-live.py --url http://127.0.0.1:18081 --pid PID --key ADMIN_KEY --binary .build/release/podium

Run by `bash ops/bench/bench-live.sh`, which starts the replica. In order, it:

1. measures ingest alone: `podium bench --phases ingest` (64 clients, --ingest-seconds);
2. opens --listeners streams spread evenly over --boards topic boards (week window, limit 1) and reports the
   replica's resident memory (VmRSS of --pid) once every stream has its first page, and its peak;
3. posts completions at --rate per second for --seconds, each by a new player on one of the boards in turn,
   and times, for one probe listener per board, the delay from each completion's 201 answer to the first
   page event showing it (the board's `players` count reaching it): p50, p90, p99, max, and what was never seen;
4. measures ingest again with every listener still connected, and prints the ratio to step 1.

Every client has a deadline (--timeout for a post's answer, 30 s to connect a listener, the ingest phases
--ingest-seconds plus 120 s): a post that is refused, reset or not answered in time is counted and printed by
kind, never waited for.

The other listeners read and drop their bytes, in --workers processes of their own, so that the probes' and the
poster's event loop measures the replica rather than a Python loop busy with ten thousand sockets. Loopback only;
it sends nothing anywhere else.
"""
import argparse
import asyncio
import collections
import json
import multiprocessing
import re
import resource
import subprocess
import time
import urllib.parse

from procstat import rss_mib


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def ingest_rate(binary, url, key, seconds, topic):
    """Completions per second `podium bench --phases ingest` reached."""
    try:
        output = subprocess.run(
            [binary, "bench", "--url", url, "--key", key, "--players", "10000", "--concurrency", "64",
             "--duration", str(seconds), "--topic", topic, "--phases", "ingest"],
            capture_output=True, text=True, check=True, timeout=seconds + 120).stdout
    except subprocess.CalledProcessError as error:
        raise SystemExit(f"podium bench failed (exit {error.returncode}):\n{error.stdout[-2000:]}{error.stderr[-2000:]}")
    except subprocess.TimeoutExpired:
        raise SystemExit(f"podium bench did not finish within {seconds + 120} s")
    match = re.search(r"ingest: ([0-9.]+) req/s", output)
    if not match:
        raise SystemExit(f"no ingest rate in podium bench's output:\n{output}")
    return float(match.group(1))


class Listener:
    """One stream; a probe also records when each `players` count was first seen."""

    def __init__(self, host, port, path, key, probe):
        self.host, self.port, self.path, self.key, self.probe = host, port, path, key, probe
        self.first_page = asyncio.Event()
        self.seen = {}  # players count -> monotonic time first seen (probes only)
        self.events = 0

    async def run(self):
        reader, writer = await asyncio.wait_for(asyncio.open_connection(self.host, self.port), 30)
        writer.write((f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\nAuthorization: Bearer {self.key}\r\n"
                      "Accept: text/event-stream\r\n\r\n").encode())
        await writer.drain()
        try:
            if not self.probe:
                while True:
                    chunk = await reader.read(65536)
                    if not chunk:
                        return
                    if b"event: page" in chunk:
                        self.events += 1
                        self.first_page.set()
            while True:
                line = await reader.readline()
                if not line:
                    return
                if line.startswith(b"data: {\"board\""):
                    now = time.monotonic()
                    self.events += 1
                    self.first_page.set()
                    players = json.loads(line[6:])["players"]
                    for count in range(max(self.seen, default=0) + 1, players + 1):
                        self.seen[count] = now
        finally:
            writer.close()


def worker(host, port, key, paths, ready, events):
    """A process holding plain listeners: sets `ready` once each has its first page, adds to `events` when it ends."""
    async def run():
        listeners = [Listener(host, port, path, key, probe=False) for path in paths]
        tasks = []
        for batch in range(0, len(listeners), 500):
            tasks += [asyncio.create_task(listener.run()) for listener in listeners[batch:batch + 500]]
            await asyncio.sleep(0.05)
        await asyncio.wait_for(asyncio.gather(*(listener.first_page.wait() for listener in listeners)), timeout=120)
        ready.set()
        try:
            await asyncio.gather(*tasks)
        except asyncio.CancelledError:
            pass
        finally:
            with events.get_lock():
                events.value += sum(listener.events for listener in listeners)

    loop = asyncio.new_event_loop()  # the descriptor limit main raised is inherited
    main_task = loop.create_task(run())
    import signal
    loop.add_signal_handler(signal.SIGTERM, main_task.cancel)
    try:
        loop.run_until_complete(main_task)
    except asyncio.CancelledError:
        pass


async def post(host, port, key, body, timeout):
    """One POST /v1/completions on its own connection, within `timeout` seconds from connecting to the whole answer.

    Returns the status (or, when there is none, why: `timeout`, `reset`, `refused`, `closed`, `error <errno>`) and
    when the answer came."""
    async def exchange():
        reader, writer = await asyncio.open_connection(host, port)
        try:
            data = json.dumps(body).encode()
            writer.write((f"POST /v1/completions HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {key}\r\n"
                          f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\nConnection: close\r\n\r\n").encode()
                         + data)
            await writer.drain()
            line = await reader.readline()
            if not line:
                return "closed", None
            await reader.read()
            return int(line.split()[1]), time.monotonic()
        finally:
            writer.close()

    try:
        return await asyncio.wait_for(exchange(), timeout)
    except asyncio.TimeoutError:
        return "timeout", None
    except ConnectionResetError:
        return "reset", None
    except ConnectionRefusedError:
        return "refused", None
    except OSError as error:
        return f"error {error.errno}", None


async def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--listeners", type=int, default=10_000)
    parser.add_argument("--boards", type=int, default=100)
    parser.add_argument("--rate", type=float, default=500)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--ingest-seconds", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=10, help="seconds a post may take, connecting included")
    arguments = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    parts = urllib.parse.urlsplit(arguments.url)
    host, port = parts.hostname, parts.port
    run = f"{int(time.time())}"

    alone = await asyncio.to_thread(ingest_rate, arguments.binary, arguments.url, arguments.key,
                                    arguments.ingest_seconds, f"live-ingest-a-{run}")
    print(f"ingest without listeners: {alone:.0f} completions/s")

    boards = [f"topic:live-{run}-{index}" for index in range(arguments.boards)]
    rss_before = rss_mib(arguments.pid)
    paths = [f"/v1/leaderboards/{boards[index % len(boards)]}/week/live?limit=1" for index in range(arguments.listeners)]
    # One probe per board here; the others in the worker processes.
    listeners = [Listener(host, port, path, arguments.key, probe=True) for path in paths[:len(boards)]]
    others = paths[len(boards):]
    started = time.monotonic()
    events = multiprocessing.Value("q", 0)
    workers = []
    for index in range(arguments.workers):
        ready = multiprocessing.Event()
        process = multiprocessing.Process(
            target=worker, args=(host, port, arguments.key, others[index::arguments.workers], ready, events))
        process.start()
        workers.append((process, ready))
    tasks = [asyncio.create_task(listener.run()) for listener in listeners]
    try:
        await asyncio.wait_for(asyncio.gather(*(listener.first_page.wait() for listener in listeners)), timeout=120)
        for process, ready in workers:
            if not await asyncio.to_thread(ready.wait, 120):
                raise SystemExit("a worker's listeners did not all get their first page within 120 s")
        connected = rss_mib(arguments.pid)
        print(f"{len(paths)} listeners on {len(boards)} boards connected in {time.monotonic() - started:.1f} s "
              f"({arguments.workers} worker processes); replica RSS {rss_before:.0f} MiB before, {connected:.0f} MiB with them")

        peak = connected
        answered = {}  # (board index, players count after it) -> answer time
        failures = collections.Counter()  # status other than 201, or why there was none -> posts
        interval = 1 / arguments.rate
        next_at = time.monotonic()
        pending = set()
        total = int(arguments.rate * arguments.seconds)
        for number in range(total):
            next_at += interval
            board = number % len(boards)
            count = number // len(boards) + 1
            body = {"id": f"live-{run}-{number}", "user_id": f"live-{run}-{number}", "quiz_id": "q", "difficulty": "easy",
                    "topic": boards[board].removeprefix("topic:"), "correct": 3, "total": 4, "duration_ms": 40_000}

            async def one(board=board, count=count, body=body):
                status, at = await post(host, port, arguments.key, body, arguments.timeout)
                if status == 201:
                    answered[(board, count)] = at
                else:
                    failures[status] += 1
            task = asyncio.create_task(one())
            pending.add(task)
            task.add_done_callback(pending.discard)
            if number % 250 == 0:
                peak = max(peak, rss_mib(arguments.pid))
            await asyncio.sleep(max(0, next_at - time.monotonic()))
        await asyncio.gather(*pending)
        await asyncio.sleep(3)
        settled = rss_mib(arguments.pid)
        peak = max(peak, settled)
        delays = []
        unseen = 0
        for (board, count), at in answered.items():
            shown = listeners[board].seen.get(count)
            if shown is None:
                unseen += 1
            else:
                delays.append(max(0.0, shown - at))
        failed = ", ".join(f"{count} {kind}" for kind, count in sorted(failures.items(), key=lambda item: str(item[0])))
        print(f"posted {total} completions at {arguments.rate:.0f}/s over {arguments.seconds:.0f} s "
              f"({sum(failures.values())} not 201{': ' + failed if failed else ''}; timeout {arguments.timeout:.0f} s); "
              f"peak replica RSS {peak:.0f} MiB, {settled:.0f} MiB 3 s after the last answer")
        print(f"answer -> probe listener: p50 {percentile(delays, 0.5) * 1000:.0f} ms, p90 {percentile(delays, 0.9) * 1000:.0f} ms, "
              f"p99 {percentile(delays, 0.99) * 1000:.0f} ms, max {max(delays, default=float('nan')) * 1000:.0f} ms "
              f"({len(delays)} seen, {unseen} never seen; target p99 < 1000 ms)")
        probe_events = sum(listener.events for listener in listeners)

        loaded = await asyncio.to_thread(ingest_rate, arguments.binary, arguments.url, arguments.key,
                                         arguments.ingest_seconds, f"live-ingest-b-{run}")
        print(f"ingest with {len(paths)} listeners: {loaded:.0f} completions/s; "
              f"ratio {loaded / alone:.2f} (target >= 0.8)")
    finally:
        # Also when a step failed: the workers' streams would otherwise keep this process alive until the replica
        # ends them (PODIUM_LIVE_STREAM_SECONDS later).
        for task in tasks:
            task.cancel()
        for process, _ in workers:
            process.terminate()
        for process, _ in workers:
            await asyncio.to_thread(process.join, 30)
    print(f"page events received by all listeners: {probe_events + events.value}")


if __name__ == "__main__":
    asyncio.run(main())
