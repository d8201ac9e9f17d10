#!/usr/bin/env python3
"""Posts completions to Podium until told to stop, resending each one until it is acknowledged.

Used by ops/test/failover-test.sh. Each of WORKERS threads posts completions with ids of its own, one at a
time; an answer of 503, or a connection that fails, is retried with the same body (the id makes a resend safe)
until a 201 or 200 comes. Every acknowledgement goes to ACKED (one id per line, as it happens, so the script can
watch progress); when the file STOP exists the workers finish the completion in hand and end. The summary, as
JSON on stdout: acknowledged, answers by status, the first and last 503 and the first acknowledgement after the
last 503 (seconds since the start, from one monotonic clock), and any answer that is neither 201, 200 nor 503
with Retry-After.

    failover-client.py BASE_URL KEY ACKED STOP [WORKERS]
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
url = urllib.parse.urlparse(base)
started = time.monotonic()
lock = threading.Lock()
statuses = {}
unavailable = []  # times of 503 answers and failed connections
acknowledged = []  # (time, id)
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
        completion_id = f"failover-{worker}-{index}"
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


threads = [threading.Thread(target=work, args=(w,)) for w in range(workers)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()

first_503 = min(unavailable) if unavailable else None
last_503 = max(unavailable) if unavailable else None
back = min((t for t, _ in acknowledged if last_503 is not None and t > last_503), default=None)
print(json.dumps({
    "acknowledged": len(acknowledged),
    "statuses": statuses,
    "first_unavailable": first_503,
    "last_unavailable": last_503,
    "first_acknowledged_after": back,
    "unexpected": unexpected[:20],
    "unexpected_count": len(unexpected),
}))
