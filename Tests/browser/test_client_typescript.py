"""The TypeScript client (clients/typescript) in Chromium against a real `podium serve`, from another origin (the
frontend's listed one, so CORS applies as it does for a quiz app): a player posts and reads its board with a token
the app refreshes, a live board stays current through a server restart and falls back to polling, an offline queue
syncs with no loss and no doubles across a page reload, a newcomer's page on `http://localhost:<port>` calls a Podium
that allows `http://localhost:*` (as `bash ops/run.sh` does), and a page whose origin Podium does not allow is told so.

The npm package is built once (clients/typescript/build.sh: Debian's tsc) and its ES modules are served as they are
on the listed origin by the frontend's static server (conftest.py: `/ts-client/dist/…`), so the page's origin is one
Podium allows and, being a loopback server itself, one Chromium lets reach Podium on loopback.
"""

import re
import secrets
import subprocess
import sys
import time

import pytest
from playwright.sync_api import expect

from conftest import GROUP, OUT, ROOT, TIMEOUT_MS, TcpProxy, free_port, http_json, start_podium, stop

sys.path.insert(0, str(ROOT / "clients" / "python"))
from podium import sign_player_token  # noqa: E402  (the Python client's token helper signs the stale token)

expect.set_options(timeout=TIMEOUT_MS)
BOARD = f"group:{GROUP}"
CLIENT = ROOT / "clients" / "typescript"


@pytest.fixture(scope="session")
def bundle():
    """Builds the package (clients/typescript/package), whose files the static servers serve under /ts-client/dist/
    (conftest.QuietHandler)."""
    subprocess.run(["bash", str(CLIENT / "build.sh")], check=True, stdin=subprocess.DEVNULL, timeout=300)
    return CLIENT / "package"


# A live board of `board` at `base`, recording each page's players in window.pages and its modes in window.modes
# (retry waits cut to 300 ms, polls every second).
LIVE_BOARD = """({ base, key, board }) => {
    window.pages = []; window.modes = [];
    const podium = new Podium.Podium({ baseUrl: base, token: () => key, sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 300))) });
    window.board = podium.liveBoard(board, Podium.LeaderboardWindow.Week, {
        limit: 100, pollSeconds: 1,
        onPage: (page) => window.pages.push(page.entries.map((e) => e.userId)),
        onMode: (mode) => { if (window.modes[window.modes.length - 1] !== mode) window.modes.push(mode); },
    });
}"""


def client_page(browser, podium, bundle, origin=None):
    """A page on `origin` (the listed one by default) with the client loaded as `window.Podium`."""
    page = browser.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{origin or podium['listed']}/ts-client/index.html")
    page.wait_for_function("window.clientReady === true")
    page.errors = errors
    return page


def completion_js(completion_id, user):
    # A player token's completion must be plausible: four questions in a minute.
    return {"id": completion_id, "userId": user, "quizId": "q-ts", "topic": "math", "difficulty": "easy", "correct": 3,
            "total": 4, "durationMs": 60000, "groups": [GROUP]}


def test_a_player_posts_and_reads_its_board_and_the_token_is_refreshed_once(browser, podium, bundle):
    user = f"u-ts-{secrets.token_hex(3)}"
    kid, secret = podium["token"].args
    # The app's first token expired an hour ago; asked again after the 401, it gives a fresh one.
    stale = sign_player_token(kid, secret, user, groups=[GROUP], lifetime=60, now=time.time() - 3600)
    fresh = podium["token"](user)
    page = client_page(browser, podium, bundle)
    try:
        shown = page.evaluate("""async ({ base, stale, fresh, completion, board }) => {
            const asked = [];
            const podium = new Podium.Podium({ baseUrl: base, token: (refresh) => { asked.push(refresh); return refresh ? fresh : stale; } });
            const answer = await podium.record({ ...completion, completedAt: new Date() });
            const page = await podium.leaderboards.fetchLeaderboardPage({ board, window: Podium.LeaderboardWindow.Week, limit: 100 });
            const profile = await podium.users.fetchUserProfile({ id: completion.userId });
            let refused = null;
            try { await podium.users.fetchUserProfile({ id: "u-ts-somebody-else" }); } catch (error) {
                refused = error instanceof Podium.PodiumRefused ? [error.status, error.problem.code] : String(error);
            }
            return { asked, id: answer.completion.id, points: answer.pointsAwarded, onBoard: page.entries.some((e) => e.userId === completion.userId),
                     total: profile.totals.points, refused };
        }""", {"base": podium["base"], "stale": stale, "fresh": fresh, "completion": completion_js(f"{user}-1", user), "board": BOARD})
        assert shown == {"asked": [False, True], "id": f"{user}-1", "points": 2, "onBoard": True, "total": 2,
                         "refused": [403, "forbidden"]}
        assert page.errors == []
    finally:
        page.close()


def test_a_live_board_stays_current_through_a_server_restart_and_polls_while_the_stream_is_blocked(
        browser, podium, bundle, database, redis_url):
    settings = {"PODIUM_CORS_ORIGINS": podium["listed"], "PODIUM_LIVE_STREAM_SECONDS": "300"}
    process, base, log = start_podium(database, redis_url, podium["admin_key"], "ts-client-podium.log", **settings)
    proxy = page = None
    try:  # from here on, a failure still stops Podium, the proxy and the page
        host, port = base.removeprefix("http://").split(":")
        proxy = TcpProxy((host, int(port)))  # the board's one address, whichever process answers behind it
        proxy.start()
        page = client_page(browser, podium, bundle)
        page.evaluate(LIVE_BOARD, {"base": proxy.base, "key": podium["admin_key"], "board": BOARD})
        page.wait_for_function("window.modes[0] === 'live' && window.pages.length > 0")
        shows = lambda user: f"window.pages.length > 0 && window.pages[window.pages.length - 1].includes({user!r})"
        before = f"u-ts-live-{secrets.token_hex(3)}"
        assert http_json("POST", f"{base}/v1/completions", podium["admin_key"], completion(f"{before}-1", before))[0] == 201
        page.wait_for_function(shows(before))

        # The server restarts: the old process ends, a new one answers on another port behind the same address.
        proxy.stop()
        stop(process)
        log.close()
        process, base, log = start_podium(database, redis_url, podium["admin_key"], "ts-client-podium-2.log", **settings)
        proxy.target = ("127.0.0.1", int(base.rsplit(":", 1)[1]))
        proxy.start()
        after = f"u-ts-live-{secrets.token_hex(3)}"
        assert http_json("POST", f"{base}/v1/completions", podium["admin_key"], completion(f"{after}-1", after))[0] == 201
        page.wait_for_function(shows(after))
        page.wait_for_function("window.modes.length >= 3 && window.modes[window.modes.length - 1] === 'live'")
        assert page.evaluate("window.modes")[:3] == ["live", "polling", "live"], "polled while down, live again after"
        # It resumed with the last page's id: that page's ETag is the current one.
        tag = page.evaluate("window.board.lastEventId")
        status, _ = http_json("GET", f"{base}/v1/leaderboards/{BOARD}/week?limit=100", podium["admin_key"])
        assert status == 200 and tag and tag.startswith('"')

        # A proxy that blocks event streams: the board polls, and still shows what changes.
        page.route(re.compile(r".*/live\?.*"), lambda route: route.abort())
        page.evaluate("window.board.close()")
        page.evaluate(LIVE_BOARD, {"base": proxy.base, "key": podium["admin_key"], "board": BOARD})
        polled = f"u-ts-poll-{secrets.token_hex(3)}"
        assert http_json("POST", f"{base}/v1/completions", podium["admin_key"], completion(f"{polled}-1", polled))[0] == 201
        page.wait_for_function(shows(polled))
        assert page.evaluate("window.modes") == ["polling"]
        page.evaluate("window.board.close()")
        assert page.errors == []
    finally:
        if page is not None:
            page.close()
        if proxy is not None:
            proxy.stop()
        stop(process)
        log.close()


def test_an_offline_queue_syncs_with_no_loss_and_no_doubles_across_a_reload(browser, podium, bundle):
    user = f"u-ts-queue-{secrets.token_hex(3)}"
    token = podium["token"](user)
    host, port = podium["base"].removeprefix("http://").split(":")
    proxy = TcpProxy((host, int(port)))  # not started: offline
    page = client_page(browser, podium, bundle)
    sync = """async ({ base, token }) => {
        const podium = new Podium.Podium({ baseUrl: base, token: () => token });
        const report = await new Podium.OfflineQueue(podium, localStorage).sync();
        return { recorded: report.recorded, replayed: report.replayed, refused: report.refused.map((r) => [r.id, r.problem.status]),
                 left: report.left.map((r) => [r.id, r.reason]) };
    }"""
    try:
        # Played two minutes apart, as a player would (a player token's completions must be plausible).
        played = [dict(completion_js(f"{user}-{n}", user), completedAt=utc(time.time() - (3 - n) * 120)) for n in range(3)]
        add = """({ base, token, items }) => {
            const queue = new Podium.OfflineQueue(new Podium.Podium({ baseUrl: base, token: () => token }), localStorage);
            for (const item of items) queue.add(item);  // completedAt as an ISO string
        }"""
        page.evaluate(add, {"base": proxy.base, "token": token,
                            "items": played + [dict(completion_js(f"{user}-bad", user), correct=9, completedAt=utc(time.time()))]})
        offline = page.evaluate(sync, {"base": proxy.base, "token": token})
        assert offline == {"recorded": [], "replayed": [], "refused": [],
                           "left": [[f"{user}-{n}", "offline"] for n in [0, 1, 2, "bad"]]}
        page.reload()  # the queue is in storage: nothing is lost with the page
        page.wait_for_function("window.clientReady === true")
        proxy.start()
        report = page.evaluate(sync, {"base": proxy.base, "token": token})
        assert report == {"recorded": [f"{user}-{n}" for n in range(3)], "replayed": [], "refused": [[f"{user}-bad", 400]], "left": []}
        # The same completions queued again (a sync whose answer was lost): replays, never doubles.
        page.evaluate(add, {"base": proxy.base, "token": token, "items": played})
        again = page.evaluate(sync, {"base": proxy.base, "token": token})
        assert again == {"recorded": [], "replayed": [f"{user}-{n}" for n in range(3)], "refused": [], "left": []}
        # A completion added while a sync's batch is on its way stays queued for the next sync.
        during = page.evaluate("""async ({ base, token, next, late }) => {
            let queue;
            const podium = new Podium.Podium({ baseUrl: base, token: () => token, fetch: (input, init) => {
                queue.add(late);
                return fetch(input, init);
            } });
            queue = new Podium.OfflineQueue(podium, localStorage);
            queue.add(next);
            const report = await queue.sync();
            return { recorded: report.recorded, left: report.left.length, pending: queue.pending().map((c) => c.id) };
        }""", {"base": proxy.base, "token": token, "next": dict(completion_js(f"{user}-3", user), completedAt=utc(time.time())),
               "late": dict(completion_js(f"{user}-late", user), completedAt=utc(time.time()))})
        assert during == {"recorded": [f"{user}-3"], "left": 0, "pending": [f"{user}-late"]}
        status, profile = http_json("GET", f"{podium['base']}/v1/users/{user}", podium["admin_key"])
        assert status == 200 and profile["totals"]["completions"] == 4
        page.screenshot(path=str(OUT / "client-typescript.png"))
        assert page.errors == []
    finally:
        page.close()
        proxy.stop()


# A page records a completion and reads its board; what it shows, or the error it got (its class, reason and message).
RECORD_AND_READ = """async ({ base, token, completion, board }) => {
    const podium = new Podium.Podium({ baseUrl: base, token: () => token, sleep: () => Promise.resolve() });
    try {
        const answer = await podium.record(completion);
        const page = await podium.leaderboards.fetchLeaderboardPage({ board, window: Podium.LeaderboardWindow.Week, limit: 100 });
        return { points: answer.pointsAwarded, onBoard: page.entries.some((e) => e.userId === completion.userId) };
    } catch (error) {
        return { error: error.name, reason: error.reason, attempts: error.attempts, message: error.message };
    }
}"""


def test_a_newcomers_page_on_localhost_calls_a_podium_that_allows_localhost_on_any_port(
        browser, podium, bundle, database, redis_url):
    # The quick start's Podium: `bash ops/run.sh` allows loopback pages on any port.
    kid, secret = podium["token"].args
    process, base, log = start_podium(database, redis_url, podium["admin_key"], "ts-client-localhost-podium.log",
                                      PODIUM_CORS_ORIGINS="http://localhost:*,http://127.0.0.1:*",
                                      PODIUM_PLAYER_TOKEN_HS256_KEYS=f"{kid}:{secret}")
    page = None
    try:  # from here on, a failure still stops Podium and the page
        # A development server's page: the listed static server, reached by the name localhost.
        origin = podium["listed"].replace("127.0.0.1", "localhost")
        page = client_page(browser, podium, bundle, origin=origin)
        assert page.evaluate("location.origin") == origin
        user = f"u-ts-localhost-{secrets.token_hex(3)}"
        shown = page.evaluate(RECORD_AND_READ, {"base": base, "token": podium["token"](user), "board": BOARD,
                                                "completion": dict(completion_js(f"{user}-1", user), completedAt=utc(time.time()))})
        assert shown == {"points": 2, "onBoard": True}
        assert page.errors == []
    finally:
        if page is not None:
            page.close()
        stop(process)
        log.close()


def test_a_dropped_connection_from_an_allowed_page_is_offline_and_retried_not_origin_not_allowed(browser, podium, bundle):
    # The listed origin's page; its first POST of the completion fails as a dropped connection does (a TypeError in the
    # page). Podium answers /healthz to the page (cors): the origin is allowed, so it is "offline", and record retries.
    page = client_page(browser, podium, bundle)
    try:
        dropped = []

        def drop_once(route):
            if route.request.method == "POST" and not dropped:
                dropped.append(route.request.url)
                route.abort("connectionreset")
            else:
                route.continue_()

        page.route(re.compile(r".*/v1/completions$"), drop_once)
        user = f"u-ts-dropped-{secrets.token_hex(3)}"
        shown = page.evaluate(RECORD_AND_READ, {"base": podium["base"], "token": podium["token"](user), "board": BOARD,
                                                "completion": dict(completion_js(f"{user}-1", user), completedAt=utc(time.time()))})
        assert shown == {"points": 2, "onBoard": True}
        assert dropped == [f"{podium['base']}/v1/completions"]
        status, profile = http_json("GET", f"{podium['base']}/v1/users/{user}", podium["admin_key"])
        assert status == 200 and profile["totals"]["completions"] == 1
    finally:
        page.close()


def test_a_page_whose_origin_podium_does_not_allow_is_told_the_likely_cause(browser, podium, bundle):
    # The unlisted origin's page calls the session's Podium, which allows the listed origin only.
    page = client_page(browser, podium, bundle, origin=podium["unlisted"])
    try:
        user = f"u-ts-unlisted-{secrets.token_hex(3)}"
        shown = page.evaluate(RECORD_AND_READ, {"base": podium["base"], "token": podium["token"](user), "board": BOARD,
                                                "completion": dict(completion_js(f"{user}-1", user), completedAt=utc(time.time()))})
        assert shown == {
            "error": "PodiumUnavailable", "reason": "origin_not_allowed", "attempts": 1,
            "message": f"Podium at {podium['base']} answered, but the browser withheld the answer: the page's origin "
                       f"{podium['unlisted']} is likely not allowed (add it to Podium's PODIUM_CORS_ORIGINS)"}
        status, _ = http_json("GET", f"{podium['base']}/v1/users/{user}", podium["admin_key"])
        assert status == 404, "nothing was recorded"
        # Podium down: the same page is told the network is offline or Podium is down (and the other likely cause).
        nowhere = f"http://127.0.0.1:{free_port()}"
        offline = page.evaluate(RECORD_AND_READ, {"base": nowhere, "token": "t", "board": BOARD,
                                                  "completion": dict(completion_js(f"{user}-2", user), completedAt=utc(time.time()))})
        assert offline["error"] == "PodiumUnavailable" and offline["reason"] == "offline" and offline["attempts"] == 4
        assert offline["message"].startswith(f"Podium at {nowhere} could not be reached: the network is offline or "
                                             f"Podium is down (or the page's origin {podium['unlisted']} is not allowed")
        assert page.errors == []
    finally:
        page.close()


def utc(instant):
    """A Unix time as RFC 3339 UTC, to the second."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(instant))


def completion(completion_id, user):
    return {"id": completion_id, "user_id": user, "quiz_id": "q-ts", "topic": "math", "difficulty": "easy", "correct": 3,
            "total": 4, "groups": [GROUP]}
