"""The TypeScript client (clients/typescript) in Chromium against a real `podium serve`, from another origin (the
frontend's listed one, so CORS applies as it does for a quiz app): a player posts and reads its board with a token
the app refreshes, a live board stays current through a server restart and falls back to polling, and an offline
queue syncs with no loss and no doubles across a page reload.

The bundle is built once (clients/typescript/build.sh: Debian's tsc and esbuild) and served on the listed origin by
the frontend's static server (conftest.py), so the page's origin is one Podium allows and, being a loopback server
itself, one Chromium lets reach Podium on loopback.
"""

import re
import secrets
import subprocess
import sys
import time

import pytest
from playwright.sync_api import expect

from conftest import GROUP, OUT, ROOT, TIMEOUT_MS, TcpProxy, http_json, start_podium, stop

sys.path.insert(0, str(ROOT / "clients" / "python"))
from podium import sign_player_token  # noqa: E402  (the Python client's token helper signs the stale token)

expect.set_options(timeout=TIMEOUT_MS)
BOARD = f"group:{GROUP}"
CLIENT = ROOT / "clients" / "typescript"


@pytest.fixture(scope="session")
def bundle():
    """Builds dist/podium.js, which the listed origin serves as /ts-client/podium.js (conftest.QuietHandler)."""
    subprocess.run(["bash", str(CLIENT / "build.sh")], check=True, stdin=subprocess.DEVNULL, timeout=300)
    return CLIENT / "dist" / "podium.js"


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


def client_page(browser, podium, bundle):
    """A page on the listed origin with the client loaded as `window.Podium`."""
    page = browser.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{podium['listed']}/ts-client/index.html")
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
            try { await podium.users.fetchUserProfile({ id: "u-ts-somebody-else" }); } catch (error) { refused = error.response.status; }
            return { asked, id: answer.completion.id, points: answer.pointsAwarded, onBoard: page.entries.some((e) => e.userId === completion.userId),
                     total: profile.totals.points, refused };
        }""", {"base": podium["base"], "stale": stale, "fresh": fresh, "completion": completion_js(f"{user}-1", user), "board": BOARD})
        assert shown == {"asked": [False, True], "id": f"{user}-1", "points": 2, "onBoard": True, "total": 2, "refused": 403}
        assert page.errors == []
    finally:
        page.close()


def test_a_live_board_stays_current_through_a_server_restart_and_polls_while_the_stream_is_blocked(
        browser, podium, bundle, database, redis_url):
    settings = {"PODIUM_CORS_ORIGINS": podium["listed"], "PODIUM_LIVE_STREAM_SECONDS": "300"}
    process, base, log = start_podium(database, redis_url, podium["admin_key"], "ts-client-podium.log", **settings)
    host, port = base.removeprefix("http://").split(":")
    proxy = TcpProxy((host, int(port)))  # the board's one address, whichever process answers behind it
    proxy.start()
    page = client_page(browser, podium, bundle)
    try:
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
        page.close()
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
        return { recorded: report.recorded, replayed: report.replayed, refused: report.refused.map((r) => [r.id, r.status]), left: report.left };
    }"""
    try:
        # Played two minutes apart, as a player would (a player token's completions must be plausible).
        played = [dict(completion_js(f"{user}-{n}", user), completedAt=utc(time.time() - (3 - n) * 120)) for n in range(3)]
        add = """({ base, token, items }) => {
            const queue = new Podium.OfflineQueue(new Podium.Podium({ baseUrl: base, token: () => token }), localStorage);
            for (const item of items) queue.add({ ...item, completedAt: new Date(item.completedAt) });
        }"""
        page.evaluate(add, {"base": proxy.base, "token": token,
                            "items": played + [dict(completion_js(f"{user}-bad", user), correct=9, completedAt=utc(time.time()))]})
        assert page.evaluate(sync, {"base": proxy.base, "token": token}) == {"recorded": [], "replayed": [], "refused": [], "left": 4}
        page.reload()  # the queue is in storage: nothing is lost with the page
        page.wait_for_function("window.clientReady === true")
        proxy.start()
        report = page.evaluate(sync, {"base": proxy.base, "token": token})
        assert report == {"recorded": [f"{user}-{n}" for n in range(3)], "replayed": [], "refused": [[f"{user}-bad", 400]], "left": 0}
        # The same completions queued again (a sync whose answer was lost): replays, never doubles.
        page.evaluate(add, {"base": proxy.base, "token": token, "items": played})
        again = page.evaluate(sync, {"base": proxy.base, "token": token})
        assert again == {"recorded": [], "replayed": [f"{user}-{n}" for n in range(3)], "refused": [], "left": 0}
        # A completion added while a sync's batch is on its way stays queued for the next sync.
        during = page.evaluate("""async ({ base, token, next, late }) => {
            let queue;
            const podium = new Podium.Podium({ baseUrl: base, token: () => token, fetch: (input, init) => {
                queue.add({ ...late, completedAt: new Date(late.completedAt) });
                return fetch(input, init);
            } });
            queue = new Podium.OfflineQueue(podium, localStorage);
            queue.add({ ...next, completedAt: new Date(next.completedAt) });
            const report = await queue.sync();
            return { recorded: report.recorded, left: report.left, pending: queue.pending().map((c) => c.id) };
        }""", {"base": proxy.base, "token": token, "next": dict(completion_js(f"{user}-3", user), completedAt=utc(time.time())),
               "late": dict(completion_js(f"{user}-late", user), completedAt=utc(time.time()))})
        assert during == {"recorded": [f"{user}-3"], "left": 1, "pending": [f"{user}-late"]}
        status, profile = http_json("GET", f"{podium['base']}/v1/users/{user}", podium["admin_key"])
        assert status == 200 and profile["totals"]["completions"] == 4
        page.screenshot(path=str(OUT / "client-typescript.png"))
        assert page.errors == []
    finally:
        page.close()
        proxy.stop()


def utc(instant):
    """A Unix time as RFC 3339 UTC, to the second."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(instant))


def completion(completion_id, user):
    return {"id": completion_id, "user_id": user, "quiz_id": "q-ts", "topic": "math", "difficulty": "easy", "correct": 3,
            "total": 4, "groups": [GROUP]}
