#!/usr/bin/env python3
"""What one connection costs a running replica: idle keep-alive connections against live-stream listeners.

    python3 ops/bench/bench-connection-memory.py --port 18082 --pid PID --key KEY --mode idle --connections 5000
    python3 ops/bench/bench-connection-memory.py --port 18082 --pid PID --key KEY --mode live --connections 5000

`idle` sends one GET /healthz per connection and keeps it open; `live` opens GET …/live?limit=1 on 100 topic
boards. Prints the replica's VmRSS before and 5 s after the last connection opened, and the difference per
connection. Start the replica with a raised descriptor limit (ulimit -n), PODIUM_MAX_CONNECTIONS above the count
and, for `idle`, PODIUM_IDLE_TIMEOUT_MS above 30 s. Loopback only.
"""
import argparse
import asyncio
import resource

from procstat import rss_mib


async def hold(port, key, mode, index):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    path = "/healthz" if mode == "idle" else f"/v1/leaderboards/topic:memory-{index % 100}/week/live?limit=1"
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {key}\r\n\r\n".encode())
    await writer.drain()
    await reader.read(1000)
    await asyncio.sleep(30)


async def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--mode", choices=["idle", "live"], required=True)
    parser.add_argument("--connections", type=int, default=5000)
    arguments = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    before = rss_mib(arguments.pid)
    tasks = []
    for index in range(arguments.connections):
        tasks.append(asyncio.create_task(hold(arguments.port, arguments.key, arguments.mode, index)))
        if index % 500 == 0:
            await asyncio.sleep(0.05)
    await asyncio.sleep(5)
    after = rss_mib(arguments.pid)
    print(f"{arguments.mode}: {arguments.connections} connections, replica RSS {before:.0f} -> {after:.0f} MiB, "
          f"{(after - before) * 1024 / arguments.connections:.1f} KiB each")
    for task in tasks:
        task.cancel()


if __name__ == "__main__":
    asyncio.run(main())
