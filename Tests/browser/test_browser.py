"""Browser end-to-end tests: Debian's Chromium (Playwright) against a real `podium serve`.

What a browser adds to the Swift suites: CORS as a browser enforces it, a player token used from a page of another
origin, and the display page's own script rendering a board. Run with `bash ops/test/browser-test.sh`, which installs
Chromium, Playwright and pytest; the binary is PODIUM_BINARY (default .build/debug/podium), never built here.

The session fixtures (the database, Redis, the frontend's two origins, `podium serve`, Chromium) and the helpers are
in conftest.py, shared with the other browser tests. Screenshots go to .local/browser/.
"""

import datetime
import json
import re
import secrets
import time
import urllib.parse

import pytest

from conftest import GROUP, OUT, TIMEOUT_MS, TcpProxy, _opener, http_json, new_admin_key, own_storage, start_podium, stop

BOARD = f"group:{GROUP}"
PLAYER = "u-browser"  # posts from the frontend page
OTHER = "u-other"  # posted by a backend (urllib), so that its profile exists
STRANGER = "u-stranger"  # the player of the page on the unlisted origin


def utc_text(instant):
    """A Unix time as the API's UTC timestamp, to the minute."""
    return time.strftime("%Y-%m-%dT%H:%M:00Z", time.gmtime(instant))


def completion(completion_id, user_id):
    return {"id": completion_id, "user_id": user_id, "quiz_id": "q1", "topic": "math", "difficulty": "easy",
            "correct": 3, "total": 4, "duration_ms": 40000, "groups": [GROUP]}


def run_frontend(browser, origin, api, token, user, completion_id, screenshot=None):
    """Opens the frontend page on `origin`, waits until its three calls ended, and returns what it shows."""
    fragment = urllib.parse.urlencode({"api": api, "token": token, "user": user, "other": OTHER,
                                       "completion": completion_id})
    page = browser.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        page.goto(f"{origin}/index.html#{fragment}")
        page.wait_for_function("document.getElementById('done').textContent === 'yes'")
        shown = {name: page.text_content(f"#{name}") for name in
                 ("post-status", "post-points", "profile-status", "profile-user", "profile-points", "other-status")}
        results = page.evaluate("window.podiumResults")
        # A plain GET that needs no preflight: the request is sent, but can the script read the answer?
        healthz = page.evaluate("""async (url) => {
            try { const r = await fetch(url); return `read ${r.status}`; } catch (e) { return e.name; }
        }""", f"{api}/healthz")
        if screenshot:
            page.screenshot(path=str(OUT / screenshot), full_page=True)
        return {"shown": shown, "results": results, "healthz": healthz}
    finally:
        page.close()


@pytest.fixture(scope="session")
def other_player(podium):
    """Another player of the group, posted the way a quiz backend would, with that player's own token."""
    status, body = http_json("POST", f"{podium['base']}/v1/completions", podium["token"](OTHER),
                             completion("c-other-1", OTHER))
    assert status == 201, body
    return OTHER


@pytest.fixture(scope="session")
def frontend(browser, podium, other_player):
    """The frontend page on the listed origin, run once for PLAYER."""
    return run_frontend(browser, podium["listed"], podium["base"], podium["token"](PLAYER), PLAYER, "c-browser-1",
                        screenshot="frontend.png")


@pytest.fixture(scope="session")
def display_key(podium):
    status, body = http_json("POST", f"{podium['base']}/v1/admin/api-keys", podium["admin_key"],
                             {"name": "screen", "role": "display", "scopes": [BOARD]})
    assert status == 201, body
    assert body["key"]["role"] == "display" and body["key"]["scopes"] == [BOARD]
    assert body["secret"].startswith("pdm_")
    return body["secret"]


# --- a) a frontend on another origin, with a player token ---------------------------------------------------------

def test_frontend_posts_a_completion_with_a_player_token(frontend):
    assert frontend["shown"]["post-status"] == "201"
    posted = frontend["results"]["posted"]
    assert posted["status"] == "201"
    assert posted["body"]["completion"]["user_id"] == PLAYER
    # easy = 2 points with the default rules, for a first completion with 3 of 4 correct.
    assert posted["body"]["totals"]["points"] == 2
    assert frontend["shown"]["post-points"] == "2"


def test_frontend_reads_its_own_profile(frontend):
    assert frontend["shown"]["profile-status"] == "200"
    own = frontend["results"]["own"]
    assert own["status"] == "200"
    assert own["body"]["user_id"] == PLAYER
    assert own["body"]["totals"]["points"] > 0
    assert own["body"]["totals"]["points"] == 2
    assert frontend["shown"]["profile-user"] == PLAYER
    assert frontend["shown"]["profile-points"] == "2"
    # The listed origin reads answers of requests without a preflight too.
    assert frontend["healthz"] == "read 200"


def test_frontend_cannot_read_another_players_profile(frontend):
    # 403, and the script can read it: the CORS headers are on error answers too.
    assert frontend["shown"]["other-status"] == "403"
    assert frontend["results"]["theirs"]["status"] == "403"
    assert frontend["results"]["theirs"]["body"]["code"] == "forbidden"


def test_unlisted_origin_cannot_read_answers(browser, podium, other_player):
    seen = run_frontend(browser, podium["unlisted"], podium["base"], podium["token"](STRANGER), STRANGER,
                        "c-stranger-1")
    # fetch rejects with a TypeError: the preflights (Authorization, JSON) get no grant, and the plain GET's
    # answer carries no Access-Control-Allow-Origin for this origin.
    assert seen["shown"]["post-status"] == "error: TypeError"
    assert seen["shown"]["profile-status"] == "error: TypeError"
    assert seen["shown"]["other-status"] == "error: TypeError"
    assert seen["healthz"] == "TypeError"
    # The refused preflight kept the POST from being sent at all.
    status, _ = http_json("GET", f"{podium['base']}/v1/users/{STRANGER}", podium["admin_key"])
    assert status == 404


# --- b) the classroom display ---------------------------------------------------------------------------------------

def test_display_page_shows_the_board(browser, podium, display_key, frontend):
    assert frontend["shown"]["post-status"] == "201"  # PLAYER is on the board
    page = browser.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        page.goto(f"{podium['base']}/display/{BOARD}/week#key={display_key}")
        page.locator("#entries tr").nth(1).wait_for(state="visible")
        assert page.locator("#entries tr").count() == 2
        rows = [row.locator("td").all_text_contents() for row in page.locator("#entries tr").all()]
        assert [cells[2] for cells in rows] == ["Unnamed player"] * 2, "players without a display name are not shown by user id"
        assert [cells[3] for cells in rows] == ["2", "2"]
        assert PLAYER not in page.text_content("body") and OTHER not in page.text_content("body")
        assert page.text_content("#title") == "Class 4b"
        assert page.text_content("#status") == ""
        page.screenshot(path=str(OUT / "display.png"), full_page=True)
    finally:
        page.close()


def test_display_page_shows_a_new_completion_through_the_live_stream(browser, podium, display_key, frontend):
    """Polling is set to an hour: a row that appears before then came through the live stream (and the page read
    nothing but the stream)."""
    assert frontend["shown"]["post-status"] == "201"
    page = browser.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    board_reads = []
    page.on("request", lambda request: board_reads.append(request.url)
            if f"/v1/leaderboards/{BOARD}/week" in urllib.parse.unquote(request.url) else None)
    try:
        page.goto(f"{podium['base']}/display/{BOARD}/week?refresh=3600#key={display_key}")
        page.locator("#entries tr").first.wait_for(state="visible")
        assert page.locator("#entries tr").count() == 2
        newcomer = f"u-live-{secrets.token_hex(4)}"
        posted = time.monotonic()
        status, _ = http_json("POST", f"{podium['base']}/v1/completions", podium["admin_key"],
                              dict(completion(f"{newcomer}-1", newcomer), display_name="Newcomer"))
        assert status == 201
        page.locator("#entries tr", has_text="Newcomer").wait_for(state="visible")
        elapsed = time.monotonic() - posted
        print(f"live update shown {elapsed:.2f} s after the completion was recorded")
        assert page.locator("#entries tr").count() == 3
        assert page.text_content("#status") == ""
        reads = [urllib.parse.unquote(urllib.parse.urlsplit(url).path) for url in board_reads]
        assert reads == [f"/v1/leaderboards/{BOARD}/week/live"], f"one stream, no polls: {reads}"
        page.screenshot(path=str(OUT / "display-live.png"), full_page=True)
    finally:
        page.close()


def test_display_page_falls_back_to_polling_with_etag_when_the_stream_fails(browser, podium, display_key, frontend):
    """Every live stream request fails (as behind a proxy that refuses them): the page polls once a second with
    If-None-Match, is answered 304 while nothing changes, and shows a new completion from its next poll."""
    page = browser.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    polls = []
    page.route("**/live*", lambda route: route.abort())
    page.on("response", lambda response: polls.append((response.status, response.request.headers.get("if-none-match")))
            if urllib.parse.urlsplit(response.url).path == f"/v1/leaderboards/{BOARD}/week" else None)
    try:
        page.goto(f"{podium['base']}/display/{BOARD}/week?refresh=1#key={display_key}")
        page.locator("#entries tr").first.wait_for(state="visible")
        rows = page.locator("#entries tr").count()
        # Waits for the polls that follow (once a second), by what they answer rather than for a set time.
        waited = 0
        while not any(status == 304 and tag for status, tag in polls[1:]) and waited < TIMEOUT_MS:
            page.wait_for_timeout(100)
            waited += 100
        assert polls[0] == (200, None), polls
        assert any(status == 304 and tag for status, tag in polls[1:]), f"unchanged polls answered 304: {polls}"
        newcomer = f"u-poll-{secrets.token_hex(4)}"
        status, _ = http_json("POST", f"{podium['base']}/v1/completions", podium["admin_key"],
                              dict(completion(f"{newcomer}-1", newcomer), display_name="Poller"))
        assert status == 201
        page.locator("#entries tr", has_text="Poller").wait_for(state="visible")
        assert page.locator("#entries tr").count() == rows + 1
        assert polls[-1][0] == 200, "the change came in a full answer"
        page.screenshot(path=str(OUT / "display-polling.png"), full_page=True)
    finally:
        page.close()


DISPLAY_SIZES = {"1080p": (1920, 1080), "720p": (1280, 720), "phone": (390, 844)}


def test_display_page_reads_well_at_every_size(browser, podium, display_key, frontend):
    """A long name never pushes the score off a phone; the period reads as a date; the top three stand out."""
    long_name = "Maximiliana " + "W" * 52  # 64 characters, the most a display name may have
    status, _ = http_json("POST", f"{podium['base']}/v1/completions", podium["admin_key"],
                          dict(completion("c-long-1", "u-long-name"), difficulty="hard", correct=4, display_name=long_name))
    assert status == 201
    for size, (width, height) in DISPLAY_SIZES.items():
        page = browser.new_page(viewport={"width": width, "height": height})
        page.set_default_timeout(TIMEOUT_MS)
        try:
            page.goto(f"{podium['base']}/display/{BOARD}/week?title=Friday%20quiz#key={display_key}")
            row = page.locator("#entries tr", has_text="Maximiliana")
            row.wait_for(state="visible")
            assert page.text_content("#title") == "Friday quiz"
            assert re.fullmatch(r"Week of \d{1,2} [A-Z][a-z]{2} · \d+ players", page.text_content("#period")), page.text_content("#period")
            score = row.locator("td.score").bounding_box()
            assert score["x"] + score["width"] <= width, f"{size}: the score runs off the screen"
            assert row.locator("td.score").text_content() == "5"
            assert "top1" in row.get_attribute("class"), "the leader stands out before the period closes"
            assert all("top" in (r.get_attribute("class") or "") for r in page.locator("#entries tr").all()[:3])
            assert re.fullmatch(r"Updated \d{2}:\d{2}:\d{2}", page.text_content("#updated"))
            page.screenshot(path=str(OUT / f"display-{size}.png"))
        finally:
            page.close()
    status, source = 0, ""
    with _opener.open(f"{podium['base']}/display/{BOARD}/week", timeout=10) as response:
        status, source = response.status, response.read().decode()
    assert status == 200
    assert not re.search("[\U0001F300-\U0001FAFF]", source), "medals and marks need no colour-emoji font"


def test_display_page_says_when_it_is_stale(browser, podium, display_key, frontend):
    page = browser.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        page.clock.install()
        page.goto(f"{podium['base']}/display/{BOARD}/week#key={display_key}")
        page.locator("#entries tr").first.wait_for(state="visible")
        page.wait_for_function("document.getElementById('updated').textContent.startsWith('Updated')")
        # A minute without a page, a heartbeat or a poll: the screen says so rather than showing old ranks as current.
        page.clock.fast_forward("01:00")
        page.wait_for_function("document.getElementById('updated').className === 'stale'")
        assert page.text_content("#updated").startswith("Stale: no update from Podium since ")
        page.screenshot(path=str(OUT / "display-stale.png"))
    finally:
        page.close()


UNREACHABLE = "Podium is unreachable; retrying"


def test_display_page_clears_the_unreachable_notice_once_podium_answers_again(browser, podium, display_key, frontend):
    """A real 10 s outage: the page reaches Podium through a TCP proxy, which is stopped (its listener and every
    connection closed) and then started again on the same port. The page says Podium is unreachable while it is,
    and says so no more once Podium answers again, though no score changed (the stream skips the page it has)."""
    proxy = TcpProxy(("127.0.0.1", urllib.parse.urlsplit(podium["base"]).port))
    proxy.start()
    page = browser.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    shown = "Array.from(document.querySelectorAll('#entries tr'), (row) => row.textContent)"
    try:
        page.goto(f"{proxy.base}/display/{BOARD}/week#key={display_key}")
        page.locator("#entries tr").first.wait_for(state="visible")
        page.wait_for_function("() => document.getElementById('updated').textContent.startsWith('Updated')")
        assert page.text_content("#status") == ""
        rows, period = page.evaluate(shown), page.text_content("#period")

        stopped = time.monotonic()
        proxy.stop()
        page.wait_for_function(f"() => document.getElementById('status').textContent === {UNREACHABLE!r}")
        print(f"notice shown {time.monotonic() - stopped:.1f} s into the outage")
        time.sleep(max(0.0, stopped + 10 - time.monotonic()))  # the outage lasts 10 s, as reported
        assert page.text_content("#status") == UNREACHABLE
        page.screenshot(path=str(OUT / "display-unreachable.png"), full_page=True)

        proxy.start()
        restarted = time.monotonic()
        # Polled every 100 ms (a function: the page's policy forbids evaluating strings).
        page.wait_for_function("() => document.getElementById('status').textContent === ''", timeout=30_000, polling=100)
        print(f"notice cleared {time.monotonic() - restarted:.1f} s after Podium was reachable again")
        assert page.evaluate(shown) == rows and page.text_content("#period") == period, "no score arrived"
        assert page.text_content("#updated").startswith("Updated "), page.text_content("#updated")
        page.screenshot(path=str(OUT / "display-recovered.png"), full_page=True)
    finally:
        page.close()
        proxy.stop()


def test_a_bad_display_link_explains_itself(browser, podium):
    page = browser.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        response = page.goto(f"{podium['base']}/display/planet:mars/decade")
        assert response.status == 400
        assert page.text_content("h1") == "This leaderboard link does not work"
        assert "board" in page.text_content("li")
        assert not page.text_content("body").lstrip().startswith("{"), "no raw JSON"
        page.screenshot(path=str(OUT / "display-bad-link.png"))
    finally:
        page.close()


def test_display_key_cannot_read_profiles(podium, display_key, frontend):
    status, body = http_json("GET", f"{podium['base']}/v1/users/{PLAYER}", display_key)
    assert status == 403, body
    # while the same key reads its board.
    status, body = http_json("GET", f"{podium['base']}/v1/leaderboards/{BOARD}/week", display_key)
    assert status == 200, body
    assert PLAYER in [entry["user_id"] for entry in body["entries"]]


def test_display_page_shows_a_contest_with_its_title_and_run(browser, podium, display_key, frontend):
    """A contest of the display key's group: its title, its run as times, and a completion arriving live."""
    assert frontend["shown"]["post-status"] == "201"
    # The run is the two hours around now, to the minute; the page shows it in the viewer's zone, which is chosen
    # so that the viewer's clock reads near noon: the run then lies inside one local day at any hour of the test.
    now = int(time.time()) // 60 * 60
    start, end = now - 3600, now + 3600
    offset_hours = 12 - time.gmtime(now).tm_hour  # -11 ... 12
    viewer_zone = "Etc/GMT" if offset_hours == 0 else f"Etc/GMT{-offset_hours:+d}"  # Etc/GMT-5 is UTC+5
    local_start, local_end = time.gmtime(start + offset_hours * 3600), time.gmtime(end + offset_hours * 3600)
    month = "Sept" if local_start.tm_mon == 9 else time.strftime("%b", local_start)  # en-GB's short September
    shown_run = (f"{time.strftime('%a', local_start)} {local_start.tm_mday} {month}, "
                 f"{time.strftime('%H:%M', local_start)}–{time.strftime('%H:%M', local_end)}")
    contest_id = f"cup-{secrets.token_hex(4)}"
    status, body = http_json("POST", f"{podium['base']}/v1/admin/contests", podium["admin_key"], {
        "id": contest_id, "title": "Friday quiz hour", "scope": [BOARD], "starts_at": utc_text(start), "ends_at": utc_text(end)})
    assert status == 201, body
    player = f"u-contest-{secrets.token_hex(4)}"
    status, _ = http_json("POST", f"{podium['base']}/v1/completions", podium["admin_key"],
                          dict(completion(f"{player}-1", player), display_name="First Contestant"))
    assert status == 201
    page = browser.new_page(timezone_id=viewer_zone)
    page.set_default_timeout(TIMEOUT_MS)
    try:
        page.goto(f"{podium['base']}/display/contest:{contest_id}/contest?refresh=3600#key={display_key}")
        page.locator("#entries tr", has_text="First Contestant").wait_for(state="visible")
        assert page.text_content("#title") == "Friday quiz hour"
        assert page.text_content("#period") == f"{shown_run} · 1 player"
        second = f"u-contest-{secrets.token_hex(4)}"
        status, _ = http_json("POST", f"{podium['base']}/v1/completions", podium["admin_key"],
                              dict(completion(f"{second}-1", second), display_name="Second Contestant"))
        assert status == 201
        page.locator("#entries tr", has_text="Second Contestant").wait_for(state="visible")
        assert page.locator("#entries tr").count() == 2
        page.screenshot(path=str(OUT / "display-contest.png"), full_page=True)
    finally:
        page.close()


# --- d) period names in the board's zone ---------------------------------------------------------------------------

# Two zones 23 hours apart: at 11:00 UTC Auckland's day begins (UTC+13) and Pago Pago's (UTC-11) is one day older,
# so both day periods start at the same instant, and only the board's zone tells which day the display shows.
ZONED_BOARDS = {"group:akl": "Pacific/Auckland", "group:pago": "Pacific/Pago_Pago", "group:paris": "Europe/Paris"}


@pytest.fixture(scope="module")
def zoned_podium(tmp_path_factory):
    """A Podium of its own whose three boards are in ZONED_BOARDS' zones, a display key for them, and one score on
    each board (so each display has a row)."""
    rules = tmp_path_factory.mktemp("zoned-podium") / "rules.json"
    rules.write_text(json.dumps({"boards": [{"scope": scope, "time_zone": zone} for scope, zone in ZONED_BOARDS.items()]}))
    key = new_admin_key()
    with own_storage("podium_zoned", 10) as (database, redis):
        process, base, log = start_podium(database, redis, key, "podium-zoned.log", PODIUM_RULES_FILE=str(rules))
        try:
            status, body = http_json("POST", f"{base}/v1/admin/api-keys", key,
                                     {"name": "zones", "role": "display", "scopes": list(ZONED_BOARDS)})
            assert status == 201, body
            groups = [scope.split(":", 1)[1] for scope in ZONED_BOARDS]
            status, answer = http_json("POST", f"{base}/v1/completions", key,
                                       {"id": "c-zoned-1", "user_id": "u-zoned", "quiz_id": "q1", "topic": "math",
                                        "difficulty": "easy", "correct": 3, "total": 4, "groups": groups})
            assert status == 201, answer
            yield {"base": base, "display_key": body["secret"]}
        finally:
            stop(process)
            log.close()


def expected_period_name(window, key):
    """What the display should call a period, from its key alone (the calendar the test knows, not the page's)."""
    if window == "day":
        day = datetime.date.fromisoformat(key)
        return f"{day:%a} {day.day} {day:%b}"
    if window == "week":
        monday = datetime.date.fromisocalendar(int(key[:4]), int(key[6:]), 1)
        return f"Week of {monday.day} {monday:%b}"
    return f"{datetime.date.fromisoformat(key + '-01'):%B %Y}"


@pytest.mark.parametrize("window", ["day", "week", "month"])
def test_display_names_the_period_in_the_boards_zone(browser, zoned_podium, window):
    """Each board's display names its period by the board's local dates, whatever the browser's zone: Auckland's and
    Pago Pago's day periods start at the same UTC instant and are still two different days on their displays."""
    base, key = zoned_podium["base"], zoned_podium["display_key"]
    names = {}
    for scope, zone in ZONED_BOARDS.items():
        status, answer = http_json("GET", f"{base}/v1/leaderboards/{scope}/{window}", key)
        assert status == 200 and answer["time_zone"] == zone, answer
        page = browser.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        try:
            page.goto(f"{base}/display/{scope}/{window}#key={key}")
            page.locator("#entries tr").first.wait_for(state="visible")
            shown = page.text_content("#period").split(" · ")[0]
            names[scope] = shown
            assert shown == expected_period_name(window, answer["period"]), (scope, answer["period"], answer["starts_at"])
            if window == "day" and scope == "group:akl":
                page.screenshot(path=str(OUT / "display-zoned-day.png"))
        finally:
            page.close()
    if window == "day":
        akl = datetime.date.fromisoformat(http_json("GET", f"{base}/v1/leaderboards/group:akl/day", key)[1]["period"])
        pago = datetime.date.fromisoformat(http_json("GET", f"{base}/v1/leaderboards/group:pago/day", key)[1]["period"])
        assert akl - pago == datetime.timedelta(days=1) and names["group:akl"] != names["group:pago"], names


# --- e) quiz boards: times and accuracy --------------------------------------------------------------------------

QUIZ_RULES = [
    {"scope": "quiz:times@tables", "aggregate": "best", "metric": "duration", "windows": ["week", "all"]},
    {"scope": "quiz:*", "aggregate": "latest", "metric": "accuracy", "windows": ["week"]},
    {"scope": "team:classes", "teams": ["class-*"], "team_score": "average", "windows": ["week"]},
]


@pytest.fixture(scope="module")
def quiz_podium(tmp_path_factory):
    """A Podium of its own whose quiz `times@tables` ranks the fastest perfect run and every other quiz the latest
    accuracy, with a display key for both boards and three players' runs on each."""
    rules = tmp_path_factory.mktemp("quiz-podium") / "rules.json"
    rules.write_text(json.dumps({"boards": QUIZ_RULES}))
    key = new_admin_key()
    with own_storage("podium_quiz", 14) as (database, redis):
        process, base, log = start_podium(database, redis, key, "podium-quiz.log", PODIUM_RULES_FILE=str(rules))
        try:
            status, body = http_json("POST", f"{base}/v1/admin/api-keys", key,
                                     {"name": "quiz screen", "role": "display",
                                      "scopes": ["quiz:times@tables", "quiz:spelling", "team:classes"]})
            assert status == 201, body
            runs = [  # (user, name, quiz, correct, total, duration_ms)
                ("u-ada", "Ada", "times@tables", 12, 12, 65_430), ("u-ada", "Ada", "times@tables", 11, 12, 30_000),
                ("u-ben", "Ben", "times@tables", 12, 12, 48_120), ("u-cy", "Cy", "times@tables", 12, 12, 125_000),
                ("u-ada", "Ada", "spelling", 7, 8, 40_000), ("u-ben", "Ben", "spelling", 5, 8, 40_000),
                ("u-cy", "Cy", "spelling", 8, 8, 40_000),
            ]
            classes = {"u-ada": "class-4a", "u-ben": "class-4a", "u-cy": "class-4b"}
            completions = [{"id": f"c-quiz-{index}", "user_id": user, "display_name": name, "quiz_id": quiz, "topic": "maths",
                            "difficulty": "easy", "correct": correct, "total": total, "duration_ms": duration,
                            "groups": [classes[user]]}
                           for index, (user, name, quiz, correct, total, duration) in enumerate(runs)]
            status, answer = http_json("POST", f"{base}/v1/completions/batch", key, {"completions": completions})
            assert status == 200 and answer["created"] == len(runs), answer
            yield {"base": base, "display_key": body["secret"], "admin_key": key}
        finally:
            stop(process)
            log.close()


def test_display_shows_a_quiz_boards_times_and_accuracy(browser, quiz_podium):
    """The display of a duration quiz board (its id holding "@") lists the fastest perfect runs first as times, under
    a Time heading, Ada's imperfect 30 s run left out; an accuracy board lists percentages."""
    base, key = quiz_podium["base"], quiz_podium["display_key"]
    status, answer = http_json("GET", f"{base}/v1/leaderboards/quiz:times@tables/week", key)
    assert status == 200 and (answer["metric"], answer["aggregate"]) == ("duration", "best"), answer
    assert [(entry["display_name"], entry["score"]) for entry in answer["entries"]] == [("Ben", 48_120), ("Ada", 65_430),
                                                                                        ("Cy", 125_000)]
    expected = {
        "quiz:times%40tables": ("Time", [("Ben", "48.12 s"), ("Ada", "1:05.43"), ("Cy", "2:05.00")], "display-quiz-times.png"),
        "quiz:spelling": ("Accuracy", [("Cy", "100 %"), ("Ada", "87.5 %"), ("Ben", "62.5 %")], "display-quiz-accuracy.png"),
    }
    for board, (heading, rows, shot) in expected.items():
        page = browser.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        try:
            page.goto(f"{base}/display/{board}/week#key={key}")
            page.locator("#entries tr").first.wait_for(state="visible")
            assert page.text_content("#score-heading") == heading
            shown = page.eval_on_selector_all(
                "#entries tr", "rows => rows.map(r => [r.querySelector('.name').textContent, r.querySelector('.score').textContent])")
            assert [tuple(row) for row in shown] == rows, shown
            page.screenshot(path=str(OUT / shot))
        finally:
            page.close()


def test_display_shows_class_against_class(browser, quiz_podium):
    """A teams board's display lists the classes, headed Team, each scored by its average points per player on its own
    group board (class 4a: Ada and Ben; class 4b: Cy), best first."""
    base, key = quiz_podium["base"], quiz_podium["display_key"]
    averages = {}
    for group in ["class-4a", "class-4b"]:
        status, board = http_json("GET", f"{base}/v1/leaderboards/group:{group}/week", quiz_podium["admin_key"])
        assert status == 200, board
        scores = [entry["score"] for entry in board["entries"]]
        averages[group] = int(sum(scores) / len(scores) + 0.5)
    expected = sorted(averages, key=lambda group: (-averages[group], group))
    status, answer = http_json("GET", f"{base}/v1/leaderboards/team:classes/week", key)
    assert status == 200, answer
    assert [(entry["display_name"], entry["score"]) for entry in answer["entries"]] == [(group, averages[group]) for group in expected]
    page = browser.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        page.goto(f"{base}/display/team:classes/week#key={key}")
        page.locator("#entries tr").first.wait_for(state="visible")
        assert page.text_content("#name-heading") == "Team"
        assert page.text_content("#period").endswith(" · 2 teams")
        shown = page.eval_on_selector_all(
            "#entries tr", "rows => rows.map(r => [r.querySelector('.name').textContent, r.querySelector('.score').textContent])")
        assert [tuple(row) for row in shown] == [(group, str(averages[group])) for group in expected], shown
        page.screenshot(path=str(OUT / "display-class-against-class.png"))
    finally:
        page.close()


# --- f) a class goal on its group's display ----------------------------------------------------------------------------

GOAL_GROUP = "5c"


def goal_completion(user, name, difficulty, correct, total):
    return {"id": f"c-{user}-{secrets.token_hex(3)}", "user_id": user, "display_name": name, "quiz_id": "q-goal", "topic": "math",
            "difficulty": difficulty, "correct": correct, "total": total, "duration_ms": 60000, "groups": [GOAL_GROUP]}


def test_display_shows_its_groups_class_goal_and_when_the_class_reaches_it(browser, podium):
    """Class 5c's goal of 40 correct answers a week: two players' completions take the class to 23, which the display of
    group:5c shows with its title, a bar filled to 23/40, "23 / 40" and the time left; a third player's completion takes
    it to 40, and the display says it is reached (on a phone, under the rows). A display whose goals can no longer be
    read shows the board alone."""
    base, admin_key = podium["base"], podium["admin_key"]
    goal = f"five-c-right-{secrets.token_hex(3)}"
    status, made = http_json("POST", f"{base}/v1/admin/goals", admin_key, {
        "id": goal, "title": "40 right answers this week", "kind": "class", "scope": [f"group:{GOAL_GROUP}"],
        "measure": "correct", "target": 40, "window": "week"})
    assert status == 201 and (made["kind"], made["status"]) == ("class", "active"), made
    status, key = http_json("POST", f"{base}/v1/admin/api-keys", admin_key,
                            {"name": "class 5c screen", "role": "display", "scopes": [f"group:{GOAL_GROUP}"]})
    assert status == 201, key
    display = key["secret"]
    advances = []
    for user, name, difficulty, correct, total in [("u-5c-ada", "Ada", "hard", 12, 15), ("u-5c-ben", "Ben", "medium", 11, 12)]:
        status, answer = http_json("POST", f"{base}/v1/completions", admin_key, goal_completion(user, name, difficulty, correct, total))
        assert status == 201, answer
        advances += [(a["goal"], a["group"], a["progress"], a["completed"]) for a in answer["goals"] if a["goal"] == goal]
    assert advances == [(goal, GOAL_GROUP, 12, False), (goal, GOAL_GROUP, 23, False)]
    status, goals = http_json("GET", f"{base}/v1/groups/{GOAL_GROUP}/goals", display)
    assert status == 200 and [(g["goal"], g["progress"], g["target"]) for g in goals["goals"]] == [(goal, 23, 40)], goals

    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.set_default_timeout(TIMEOUT_MS)
    try:
        page.goto(f"{base}/display/group:{GOAL_GROUP}/week#key={display}")
        item = page.locator(f'#goals li[data-goal="{goal}"]')
        item.wait_for(state="visible")
        assert page.text_content("#goals-title") == "Class goals"
        assert item.locator(".goal-title").text_content() == "40 right answers this week"
        assert item.locator(".count").text_content() == "23 / 40"
        left = item.locator(".state").text_content()
        assert re.fullmatch(r"(\d+ days?( \d+ h)?|\d+ h( \d+ min)?|\d+ min) left", left), left
        bar = item.locator(".bar")
        assert (bar.get_attribute("aria-valuenow"), bar.get_attribute("aria-valuemax")) == ("23", "40")
        filled = item.locator(".fill").bounding_box()["width"] / bar.bounding_box()["width"]
        assert abs(filled - 23 / 40) < 0.01, filled
        assert page.locator("#entries tr").count() == 2
        assert page.text_content("#status") == ""
        page.screenshot(path=str(OUT / "display-class-goal.png"))

        status, answer = http_json("POST", f"{base}/v1/completions", admin_key, goal_completion("u-5c-cy", "Cy", "easy", 17, 20))
        assert status == 201, answer
        assert [(a["progress"], a["completed"]) for a in answer["goals"] if a["goal"] == goal] == [(40, True)]
        page.locator(f'#goals li.reached[data-goal="{goal}"]').wait_for(state="visible")
        assert item.locator(".count").text_content() == "40 / 40"
        assert item.locator(".state").text_content() == "Reached"
        assert item.locator(".bar").get_attribute("aria-valuenow") == "40"
        page.locator("#entries tr").nth(2).wait_for(state="visible")
        page.screenshot(path=str(OUT / "display-class-goal-reached.png"))
    finally:
        page.close()

    # On a phone the goals come under the rows, within the screen's width.
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.set_default_timeout(TIMEOUT_MS)
    try:
        page.goto(f"{base}/display/group:{GOAL_GROUP}/week#key={display}")
        item = page.locator(f'#goals li.reached[data-goal="{goal}"]')
        item.wait_for(state="visible")
        assert item.locator(".count").text_content() == "40 / 40"
        box = item.bounding_box()
        assert box["y"] >= page.locator("#board").bounding_box()["y"] + page.locator("#board").bounding_box()["height"]
        assert box["x"] + box["width"] <= 390
        page.screenshot(path=str(OUT / "display-class-goal-phone.png"), full_page=True)
    finally:
        page.close()

    # When the goals can no longer be read (a refusal stands in for it), the panel goes; the board and its words stay.
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.set_default_timeout(TIMEOUT_MS)
    try:
        page.goto(f"{base}/display/group:{GOAL_GROUP}/week#key={display}")
        page.locator(f'#goals li[data-goal="{goal}"]').wait_for(state="visible")
        page.route(f"**/v1/groups/{GOAL_GROUP}/goals", lambda route: route.fulfill(
            status=403, content_type="application/problem+json", body=json.dumps({"status": 403, "title": "Forbidden"})))
        status, answer = http_json("POST", f"{base}/v1/completions", admin_key, goal_completion("u-5c-dee", "Dee", "easy", 5, 10))
        assert status == 201, answer
        page.locator("#entries tr", has_text="Dee").wait_for(state="visible")
        page.locator("#goals").wait_for(state="hidden")
        assert page.text_content("#status") == ""
    finally:
        page.close()
