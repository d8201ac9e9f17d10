"""An HTTP proxy in front of a real `podium serve` that answers as a broken network or a proxy in trouble would, for the
clients' error-model tests (clients/*/test.sh).

Requests pass through to Podium unchanged (streamed both ways, so a live board's Server-Sent Events flow) until a test
queues faults; each fault answers the next request in Podium's place:

- `{"status": 502}` (or 503, 504, 500): an HTML error page, as nginx sends it (`text/html`, no problem+json);
- `{"status": 429, "retry_after": 2}`: a rate limit with `Retry-After` (an HTML body unless `"problem": true`, which
  answers a problem+json document as Podium writes one, for 403 and 429);
- `{"drop": true}`: the connection closed before any answer, the request never passed on (offline, a reset);
- `{"lose_answer": true}`: the request passed on to Podium, which answers, but the connection is closed before that
  answer is sent back (a retry must then be a replay, never a second completion).

`"times": N` repeats a fault for N requests, `"path": "/v1/completions"` applies it only to requests whose path starts
so (others pass), and `"cors": true` adds `Access-Control-Allow-Origin` for the request's origin (nginx's
`add_header … always`; without it a browser sees a CORS failure, as it would). Control, on the proxy's own port:

    POST /__faults          body: a fault or a list of faults, appended to the queue
    DELETE /__faults        empties the queue
    GET /__faults/log       every request seen: [{"method", "path", "answer", "authorized"}], `answer` being the status
                            sent (0 for a drop)

Run it as `python3 fault_proxy.py UPSTREAM_URL PORT_FILE`: it listens on a free loopback port and writes the port to
PORT_FILE once it does. Stops on SIGTERM.
"""

import http.client
import json
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

HTML_PAGES = {
    429: "429 Too Many Requests",
    500: "500 Internal Server Error",
    502: "502 Bad Gateway",
    503: "503 Service Temporarily Unavailable",
    504: "504 Gateway Time-out",
}
# Podium's problems the proxy can stand in for: status → code, title, detail.
PROBLEMS = {
    403: ("forbidden", "Forbidden", "this needs a key with the ingest role"),
    429: ("rate-limited", "Too many requests", "Slow down."),
}
# Headers that belong to one hop, never forwarded.
HOP_HEADERS = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade"}


def fault_error(fault):
    """What is wrong with `fault` (as POST /__faults takes it), or None when the proxy can answer it."""
    if not isinstance(fault, dict):
        return f"a fault is an object, not {fault!r}"
    if fault.get("drop") or fault.get("lose_answer"):
        return None
    status = fault.get("status")
    if not isinstance(status, int) or not 400 <= status <= 599:
        return f"a fault needs drop, lose_answer or a status 400-599: {fault!r}"
    if fault.get("problem") and status not in PROBLEMS:
        return f"the proxy writes problems for {sorted(PROBLEMS)} only: {fault!r}"
    return None


class FaultQueue:
    """The faults still to answer, and the log of what was answered; shared by the handler threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.faults = []
        self.log = []

    def take(self, path):
        """The fault for a request to `path`, or None to pass it through."""
        with self.lock:
            for index, fault in enumerate(self.faults):
                if path.startswith(fault.get("path", "")):
                    remaining = fault.get("times", 1) - 1
                    if remaining <= 0:
                        del self.faults[index]
                    else:
                        self.faults[index] = dict(fault, times=remaining)
                    return fault
            return None

    def record(self, method, path, answer, authorized):
        with self.lock:
            self.log.append({"method": method, "path": path, "answer": answer, "authorized": authorized})


class FaultProxyHandler(BaseHTTPRequestHandler):
    """Passes a request to Podium, or answers it with the next queued fault."""

    protocol_version = "HTTP/1.1"
    server_version = "nginx"

    def log_message(self, format, *args):
        pass

    def _body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else None

    def _control(self):
        queue = self.server.queue
        if self.command == "POST":
            faults = json.loads(self._body() or b"[]")
            faults = faults if isinstance(faults, list) else [faults]
            wrong = [fault for fault in faults if fault_error(fault)]
            if wrong:
                self._answer_json(400, {"errors": [fault_error(fault) for fault in wrong]})
                return
            with queue.lock:
                queue.faults.extend(faults)
            self._answer_json(204, None)
        elif self.command == "DELETE":
            with queue.lock:
                queue.faults.clear()
            self._answer_json(204, None)
        else:
            with queue.lock:
                self._answer_json(200, list(queue.log))

    def _answer_json(self, status, value):
        body = b"" if value is None else json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _fault(self, fault):
        if fault.get("lose_answer"):
            self._forward(lose_answer=True)
            return
        if fault.get("drop"):
            self.server.queue.record(self.command, self.path, 0, "Authorization" in self.headers)
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        status = int(fault["status"])
        self.server.queue.record(self.command, self.path, status, "Authorization" in self.headers)
        if fault.get("problem"):
            code, title, detail = PROBLEMS[status]
            body = json.dumps({"type": f"https://podium.dev/problems/{code}", "title": title, "status": status,
                               "detail": detail, "code": code}).encode()
            kind = "application/problem+json"
        else:
            title = HTML_PAGES.get(status, f"{status} Error")
            body = (f"<html>\r\n<head><title>{title}</title></head>\r\n<body>\r\n<center><h1>{title}</h1></center>\r\n"
                    "<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n").encode()
            kind = "text/html"
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        if "retry_after" in fault:
            self.send_header("Retry-After", str(fault["retry_after"]))
        if fault.get("cors") and self.headers.get("Origin"):
            self.send_header("Access-Control-Allow-Origin", self.headers["Origin"])
            self.send_header("Access-Control-Expose-Headers", "Retry-After")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _forward(self, lose_answer=False):
        body = self._body()
        upstream = http.client.HTTPConnection(self.server.upstream_host, self.server.upstream_port, timeout=600)
        headers = {name: value for name, value in self.headers.items() if name.lower() not in HOP_HEADERS}
        try:
            upstream.request(self.command, self.path, body=body, headers=headers)
            answer = upstream.getresponse()
        except OSError:
            upstream.close()
            self.server.queue.record(self.command, self.path, 0, "Authorization" in self.headers)
            self.close_connection = True
            return
        if lose_answer:
            answer.read()
            upstream.close()
            self.server.queue.record(self.command, self.path, 0, "Authorization" in self.headers)
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        self.server.queue.record(self.command, self.path, answer.status, "Authorization" in self.headers)
        self.send_response(answer.status, answer.reason)
        length = answer.getheader("Content-Length")
        for name, value in answer.getheaders():
            if name.lower() not in HOP_HEADERS:
                self.send_header(name, value)
        if length is None:
            # A stream (Server-Sent Events): passed on as it comes, ended by closing the connection.
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        try:
            while True:
                chunk = answer.read1(65536) if self.command != "HEAD" else b""
                if not chunk:
                    break
                self.wfile.write(chunk)
                self.wfile.flush()
        except OSError:
            self.close_connection = True
        finally:
            upstream.close()

    def _handle(self):
        if self.path.startswith("/__faults"):
            return self._control()
        fault = self.server.queue.take(self.path)
        if fault is not None and not fault.get("lose_answer"):
            self._body()
        if fault is not None:
            return self._fault(fault)
        return self._forward()

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = _handle


class FaultProxy(ThreadingHTTPServer):
    """The proxy, listening on a free loopback port in front of `upstream` (`http://host:port`)."""

    daemon_threads = True

    def __init__(self, upstream):
        super().__init__(("127.0.0.1", 0), FaultProxyHandler)
        parts = urlsplit(upstream)
        self.upstream_host, self.upstream_port = parts.hostname, parts.port
        self.queue = FaultQueue()
        self.thread = None

    @property
    def base(self):
        """The proxy's URL, to give a client in Podium's place."""
        return f"http://127.0.0.1:{self.server_address[1]}"

    def start(self):
        """Serves in a background thread (for tests in this process)."""
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)
        self.thread.start()
        return self

    def stop(self):
        """Stops serving and closes the listener."""
        self.shutdown()
        self.server_close()

    def add(self, *faults):
        """Queues `faults` (as POST /__faults takes them); raises ValueError for one the proxy cannot answer."""
        for fault in faults:
            if fault_error(fault):
                raise ValueError(fault_error(fault))
        with self.queue.lock:
            self.queue.faults.extend(faults)

    def requests(self):
        """The log (as GET /__faults/log gives it)."""
        with self.queue.lock:
            return list(self.queue.log)


def main():
    upstream, port_file = sys.argv[1:3]
    proxy = FaultProxy(upstream)
    with open(port_file, "w", encoding="utf-8") as file:
        file.write(str(proxy.server_address[1]))
    import signal
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=proxy.shutdown).start())
    proxy.serve_forever()
    proxy.server_close()


if __name__ == "__main__":
    main()
