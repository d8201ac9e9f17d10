#!/usr/bin/env python3
"""Posts completions to Podium until told to stop, resending each one until it is acknowledged.

Used by ops/test/failover-test.sh and ops/test/redis-cluster-test.sh. Each of WORKERS threads posts completions
with ids of its own (PREFIX-worker-n), one at a time; an answer of 503, or a connection that fails, is retried
with the same body (the id makes a resend safe) until a 201 or 200 comes. Every acknowledgement goes to ACKED (one
id per line, as it happens, so the script can watch progress); when the file STOP exists the workers finish the
completion in hand and end. With READERS, that many more threads read the global board's top 10 in a loop.

The summary, as JSON on stdout (times in seconds since the start, from one monotonic clock): acknowledged,
answers by status, the first and last 503 and the first acknowledgement after the last 503; the first and last
201 whose ranks were not live (Redis missed it: `rankings_live` false) and the first live one after; reads, and
those that were not a live 200; and any answer that is neither 201, 200 nor 503 with Retry-After.

    failover-client.py BASE_URL KEY ACKED STOP [WORKERS [PREFIX [READERS]]]
"""
import http.client
import json
import os
import sys
import threading
import time
import urllib.parse

base, key, acked_path, stop_path = sys.argv[1:5]
workers = int(sys.argv[5]) if len(sys.argv) > 5 else 8
prefix = sys.argv[6] if len(sys.argv) > 6 else "failover"
readers = int(sys.argv[7]) if len(sys.argv) > 7 else 0
url = urllib.parse.urlparse(base)
started = time.monotonic()
lock = threading.Lock()
statuses = {}
unavailable = []  # times of 503 answers and failed connections
acknowledged = []  # (time, id)
not_live = []  # times of 201 answers whose ranks were not live
live = []  # times of 201 answers with live ranks
reads = {"total": 0, "not_live": []}  # reads, and (time, status) of each that was not a live 200
unexpected = []
acked_file = open(acked_path, "a", buffering=1)


def now():
    return time.monotonic() - started


def post(connection, body):
    """One attempt: the status (None when the connection failed), the body, and the Retry-After header."""
    try:
        connection.request("POST", "/v1/completions", body=body,
                           headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
        response = connection.getresponse()
        text = response.read()
        return response.status, text, response.getheader("Retry-After")
    except (OSError, http.client.HTTPException):
        connection.close()
        return None, b"", None


def work(worker):
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    index = 0
    while not os.path.exists(stop_path):
        index += 1
        completion_id = f"{prefix}-{worker}-{index}"
        body = json.dumps({"id": completion_id, "user_id": f"player-{(worker * 7919 + index) % 50}",
                           "quiz_id": "q-1", "topic": "drill", "difficulty": "medium", "correct": 3 + index % 5,
                           "total": 10, "groups": [f"class-{worker}"]})
        deadline = time.monotonic() + 120
        while True:
            status, text, retry_after = post(connection, body)
            with lock:
                statuses[str(status)] = statuses.get(str(status), 0) + 1
                if status in (201, 200):
                    acknowledged.append((now(), completion_id))
                    if status == 201:
                        (live if json.loads(text).get("rankings_live") else not_live).append(now())
                    acked_file.write(completion_id + "\n")
                    break
                if status == 503 and not retry_after:
                    unexpected.append({"id": completion_id, "status": "503 without Retry-After"})
                if status in (503, None):
                    unavailable.append(now())
                else:
                    unexpected.append({"id": completion_id, "status": status, "body": text[:300].decode("utf-8", "replace")})
                    break
            if time.monotonic() > deadline:
                with lock:
                    unexpected.append({"id": completion_id, "status": "never acknowledged within 120 s"})
                return
            time.sleep(0.05)


def read():
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    while not os.path.exists(stop_path):
        try:
            connection.request("GET", "/v1/leaderboards/global/all?limit=10", headers={"Authorization": f"Bearer {key}"})
            response = connection.getresponse()
            status, page = response.status, response.read()
            fine = status == 200 and json.loads(page).get("live") is True
        except (OSError, http.client.HTTPException, ValueError):
            connection.close()
            status, fine = None, False
        with lock:
            reads["total"] += 1
            if not fine:
                reads["not_live"].append((now(), status))
        time.sleep(0.01)


threads = [threading.Thread(target=work, args=(w,)) for w in range(workers)]
threads += [threading.Thread(target=read) for _ in range(readers)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()

first_503 = min(unavailable) if unavailable else None
last_503 = max(unavailable) if unavailable else None
back = min((t for t, _ in acknowledged if last_503 is not None and t > last_503), default=None)
last_not_live = max(not_live) if not_live else None
live_again = min((t for t in live if last_not_live is not None and t > last_not_live), default=None)
print(json.dumps({
    "acknowledged": len(acknowledged),
    "statuses": statuses,
    "first_unavailable": first_503,
    "last_unavailable": last_503,
    "first_acknowledged_after": back,
    "first_not_live": min(not_live) if not_live else None,
    "last_not_live": last_not_live,
    "first_live_after": live_again,
    "not_live_count": len(not_live),
    "reads": reads["total"],
    "reads_not_live": len(reads["not_live"]),
    "reads_not_live_first": reads["not_live"][:5],
    "unexpected": unexpected[:20],
    "unexpected_count": len(unexpected),
}))
