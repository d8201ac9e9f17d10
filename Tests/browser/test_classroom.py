"""The classroom screen (issue 26, part 1): the display page as a class sees it on a TV, and as a teacher's phone shows it.

A class of 40 real-looking players (long, right-to-left, CJK and emoji names) at 1920×1080; a larger board that needs
pages; a contest with its countdown, class totals and medals; rows that move and a new leader; links whose key is
wrong. Each test makes its own groups and keys on the session's Podium (conftest.py), so the boards hold only its
players. Screenshots go to .local/browser/classroom-*.png.
"""

import datetime
import secrets
import time

import re

import pytest
from playwright.sync_api import expect

import subprocess

from conftest import OUT, TIMEOUT_MS, http_json, psql_binary, server_time

expect.set_options(timeout=TIMEOUT_MS)
TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
# Names a class list holds: long, right-to-left, CJK, emoji, combining marks.
NAMES = ["Maximiliana " + "W" * 52, "محمد عبد الرحمن", "שירה לוי", "王小明", "さくら", "김민준", "Zoë 🦊", "José-María",
         "Nguyễn Văn An", "Ōkubo Ren", "Αλέξανδρος", "Олександра", "Chloé", "Aarav", "Amara", "Björn", "Camille", "Dmitri",
         "Emeka", "Fatima", "Giulia", "Hiroshi", "Ingrid", "Jamal", "Kaia", "Liam", "Mei", "Nikolai", "Olu", "Priya",
         "Quentin", "Rosa", "Sven", "Tariq", "Uma", "Viktor", "Wanjiru", "Xavier", "Yusuf", "Zainab"]
# The script counts the animations the page starts (Element.animate), so motion is asserted by count, not by timing.
COUNT_ANIMATIONS = """
window.podiumAnimations = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) { window.podiumAnimations += 1; return animate.apply(this, args); };
"""


def post_class(podium, group, names, head_start=0, prefix=None):
    """Completions in `group` that rank `names` in their order, each with its own score: the player `n` from the end
    (plus `head_start`) plays n // 2 hard quizzes (5 points each) and n % 2 + 1 easy ones (2 each), so scores run 4, 7,
    9, 12, 14, … from the last. The user ids are `prefix` (random when None) and the index. Returns them, best first."""
    prefix = prefix or f"{group}-{secrets.token_hex(3)}"
    users = [f"{prefix}-{index}" for index in range(len(names))]
    items = []
    for index, (user, name) in enumerate(zip(users, names)):
        n = len(names) - index + head_start
        for play, difficulty in enumerate(["hard"] * (n // 2) + ["easy"] * (n % 2 + 1)):
            items.append({"id": f"{user}-{play}", "user_id": user, "quiz_id": f"q-{play}", "topic": "math", "difficulty": difficulty,
                          "correct": 8, "total": 10, "duration_ms": 600000, "groups": [group], "display_name": name})
    for first in range(0, len(items), 500):
        chunk = items[first:first + 500]
        status, body = http_json("POST", f"{podium['base']}/v1/completions/batch", podium["admin_key"], {"completions": chunk})
        assert status == 200 and body["created"] == len(chunk), body
    return users


def class_score(count, index):
    """The score `post_class` gives the player at `index` of `count`."""
    n = count - index
    return 5 * (n // 2) + 2 * (n % 2 + 1)


def display_key(podium, *scopes):
    status, body = http_json("POST", f"{podium['base']}/v1/admin/api-keys", podium["admin_key"],
                             {"name": f"TV {secrets.token_hex(2)}", "role": "display", "scopes": list(scopes)})
    assert status == 201, body
    return body


def open_display(browser, url, viewport=TV, fixed_time=None, **options):
    """The display at `url`, counting its animations; with `fixed_time` (Unix seconds) its clock shows that instant."""
    page = browser.new_page(viewport=viewport, **options)
    page.set_default_timeout(TIMEOUT_MS)
    page.add_init_script(COUNT_ANIMATIONS)
    if fixed_time is not None:
        page.clock.set_fixed_time(fixed_time)
    page.goto(url)
    return page


def visible_rows(page):
    """The rows shown now: [rank, name, score] each, in order."""
    return page.evaluate("""() => [...document.querySelectorAll('#entries tr')].filter((tr) => !tr.hidden)
        .map((tr) => [tr.querySelector('.rank').textContent, tr.querySelector('.name').textContent, tr.querySelector('.score').textContent])""")


def rows_on_screen(page):
    """Whether every shown row lies inside the viewport above the footer, and every name is shown whole (nothing clipped)."""
    return page.evaluate("""() => {
        const rows = [...document.querySelectorAll('#entries tr')].filter((tr) => !tr.hidden);
        const footer = document.getElementById('updated').getBoundingClientRect().top;
        return rows.every((tr) => { const box = tr.getBoundingClientRect();
                                    return box.top >= 0 && box.bottom <= footer && box.left >= 0 && box.right <= innerWidth; })
            && rows.every((tr) => { const name = tr.querySelector('.name'); return name.scrollWidth <= name.clientWidth + 1; });
    }""")


def luminance(rgb):
    def channel(value):
        value /= 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b):
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def background(page, selector):
    text = page.eval_on_selector(selector, "(element) => getComputedStyle(element).backgroundColor")
    return [int(float(part)) for part in text[text.index("(") + 1:text.index(")")].split(",")[:3]]


def test_a_whole_class_fits_a_tv_and_the_top_ten_fills_it(browser, podium):
    group = f"class-{secrets.token_hex(3)}"
    post_class(podium, group, NAMES)
    key = display_key(podium, f"group:{group}")
    page = open_display(browser, key["display_url"].replace("/week#", "/week?limit=40#"))
    try:
        expect(page.locator("#entries tr")).to_have_count(40)
        shown = visible_rows(page)
        assert [row[1] for row in shown] == NAMES, "every player, best first, with the whole name"
        assert [row[2] for row in shown] == [str(class_score(40, index)) for index in range(40)]
        assert [row[0] for row in shown] == [str(rank) for rank in range(1, 41)]
        assert rows_on_screen(page), "all 40 rows on one screen, no name cut"
        assert page.text_content("#pager") == "", "no pages when the class fits"
        font = page.eval_on_selector("#entries .name", "(cell) => parseFloat(getComputedStyle(cell).fontSize)")
        assert font >= 0.022 * TV["height"], f"{font}px is too small to read from the back of the room"
        first, twenty_first = (page.locator("#entries tr").nth(n).bounding_box() for n in (0, 20))
        assert twenty_first["x"] > first["x"] + first["width"] / 2, "two columns: rank 21 heads the second"
        assert page.locator("main").count() == 1 and page.locator("main #board").count() == 1
        assert page.locator("#board thead th").all_text_contents()[:4] == ["#", "Medal", "Player", "Score"]
        page.screenshot(path=str(OUT / "classroom-40.png"))
    finally:
        page.close()

    page = open_display(browser, key["display_url"])  # the top 10 (the default limit)
    try:
        expect(page.locator("#entries tr")).to_have_count(10)
        assert [row[1] for row in visible_rows(page)] == NAMES[:10]
        assert rows_on_screen(page)
        bottom = page.evaluate("document.getElementById('board').getBoundingClientRect().bottom")
        assert bottom >= 0.75 * TV["height"], f"the top 10 ends at {bottom}px of {TV['height']}: it should fill the screen"
        ten_font = page.eval_on_selector("#entries .name", "(cell) => parseFloat(getComputedStyle(cell).fontSize)")
        assert ten_font > font * 1.5, "ten rows are shown larger than forty"
        page.screenshot(path=str(OUT / "classroom-top10.png"))
    finally:
        page.close()


def test_a_board_too_long_for_one_screen_turns_pages(browser, podium):
    group = f"hall-{secrets.token_hex(3)}"
    names = [f"Player {index:02d}" for index in range(90)]
    post_class(podium, group, names)
    key = display_key(podium, f"group:{group}")
    page = open_display(browser, key["display_url"].replace("/week#", "/week?limit=90&page_seconds=3#"))
    try:
        expect(page.locator("#entries tr")).to_have_count(90)
        expect(page.locator("#pager")).to_have_text(re.compile("^Page 1 of 2"))
        first = visible_rows(page)
        assert rows_on_screen(page)
        assert [row[0] for row in first] == [str(rank) for rank in range(1, len(first) + 1)]
        assert page.locator("#pager .dot").count() == 2 and page.locator("#pager .dot.current").count() == 1
        page.screenshot(path=str(OUT / "classroom-page1.png"))
        expect(page.locator("#pager")).to_have_text(re.compile("^Page 2 of 2"))
        second = visible_rows(page)
        assert rows_on_screen(page)
        assert [row[1] for row in first + second] == names, "the two pages show every row once, in order"
        page.screenshot(path=str(OUT / "classroom-page2.png"))
        expect(page.locator("#pager")).to_have_text(re.compile("^Page 1 of 2"))
    finally:
        page.close()


def test_a_contest_shows_its_countdown_class_totals_and_medals_without_colour_alone(browser, podium):
    run = secrets.token_hex(3)
    groups = [f"c5a-{run}", f"c5b-{run}"]
    now = int(time.time()) // 60 * 60
    start, end = now - 600, now + 3000
    contest = f"tables-{run}"
    status, body = http_json("POST", f"{podium['base']}/v1/admin/contests", podium["admin_key"], {
        "id": contest, "title": "Times tables hour", "scope": [f"group:{group}" for group in groups],
        "starts_at": time.strftime("%Y-%m-%dT%H:%M:00Z", time.gmtime(start)),
        "ends_at": time.strftime("%Y-%m-%dT%H:%M:00Z", time.gmtime(end))})
    assert status == 201, body
    post_class(podium, groups[0], ["Ada", "Bo", "Cy"])
    post_class(podium, groups[1], ["Dee", "Eli"], head_start=10)  # 32 and 29: ahead of Ada's 9
    key = display_key(podium, f"contest:{contest}")
    assert key["display_url"].endswith(f"/display/contest:{contest}/contest#key={key['secret']}")
    page = open_display(browser, key["display_url"], fixed_time=end - 754)  # 12 min 34 s before the run ends
    try:
        expect(page.locator("#group-list li")).to_have_count(2)
        assert page.text_content("#countdown") == "Ends in 12:34"
        status, totals = http_json("GET", f"{podium['base']}/v1/leaderboards/contest:{contest}/contest/groups", key["secret"])
        assert status == 200
        status, standing = http_json("GET", f"{podium['base']}/v1/leaderboards/contest:{contest}/contest", key["secret"])
        assert status == 200
        scores = {entry["display_name"]: entry["score"] for entry in standing["entries"]}
        expected = {groups[0]: scores["Ada"] + scores["Bo"] + scores["Cy"], groups[1]: scores["Dee"] + scores["Eli"]}
        assert {group["group"]: group["total"] for group in totals["groups"]} == expected, "a class total is its players' sum"
        best = sorted(expected, key=lambda group: -expected[group])
        readable = lambda group: group.replace("-", " ").capitalize()
        assert page.locator("#group-list li .group").all_text_contents() == [f"1. {readable(best[0])}", f"2. {readable(best[1])}"]
        assert page.locator("#group-list li .total").all_text_contents() == [str(expected[best[0]]), str(expected[best[1]])]
        assert page.text_content("#groups h2") == "Class totals"
        # The top three: their place as a number on gold, silver and bronze that differ by at least 3:1 each.
        assert page.locator("#entries .place").all_text_contents() == ["1", "2", "3"]
        places = [background(page, f"#entries tr:nth-child({n}) .place") for n in (1, 2, 3)]
        for a, b in ((0, 1), (1, 2), (0, 2)):
            assert contrast(places[a], places[b]) >= 3, f"places {a + 1} and {b + 1}: {contrast(places[a], places[b]):.2f}:1"
        page.screenshot(path=str(OUT / "classroom-contest.png"))

        # Closed early with medals: each medal is a word on its colour.
        status, body = http_json("POST", f"{podium['base']}/v1/admin/contests/{contest}/close", podium["admin_key"])
        assert status == 200, body
        expect(page.locator("#entries .badge")).to_have_count(3)
        assert page.locator("#entries .badge").all_text_contents() == ["Gold", "Silver", "Bronze"]
        medals = [background(page, f"#entries tr:nth-child({n}) .badge") for n in (1, 2, 3)]
        assert min(contrast(medals[0], medals[1]), contrast(medals[1], medals[2]), contrast(medals[0], medals[2])) >= 3
        expect(page.locator("#countdown")).to_have_text("Finished")
        page.screenshot(path=str(OUT / "classroom-contest-final.png"))
    finally:
        page.close()


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_new_leader_is_announced_and_rows_slide_unless_motion_is_reduced(browser, podium, motion):
    group = f"moves-{secrets.token_hex(3)}"
    users = post_class(podium, group, ["Ana", "Ben", "Cleo"])
    key = display_key(podium, f"group:{group}")
    page = open_display(browser, key["display_url"].replace("/week#", "/week?refresh=3600#"), reduced_motion=motion)
    try:
        expect(page.locator("#entries tr")).to_have_count(3)
        expect(page.locator("#updated")).to_have_text(re.compile("^Updated"))
        assert page.text_content("#leader") == "" and page.evaluate("window.podiumAnimations") == 0
        # Cleo (4) passes Ana (9) with two hard quizzes (14).
        status, body = http_json("POST", f"{podium['base']}/v1/completions/batch", podium["admin_key"], {"completions": [
            {"id": f"{users[2]}-jump-{n}", "user_id": users[2], "quiz_id": "q-jump", "topic": "math", "difficulty": "hard",
             "correct": 10, "total": 10, "duration_ms": 600000, "groups": [group]} for n in range(2)]})
        assert status == 200 and body["created"] == 2, body
        expect(page.locator("#leader")).to_have_text("New leader: Cleo")
        assert [row[1] for row in visible_rows(page)] == ["Cleo", "Ana", "Ben"]
        animations = page.evaluate("window.podiumAnimations")
        if motion == "reduce":
            assert animations == 0, "nothing moves for a viewer who asked for reduced motion"
        else:
            assert animations >= 4, f"three rows slide and the announcement pops: {animations} animations"
        page.screenshot(path=str(OUT / f"classroom-new-leader-{motion}.png"))
    finally:
        page.close()


def test_a_bad_key_is_explained_in_a_teachers_words(browser, podium):
    group = f"keys-{secrets.token_hex(3)}"
    post_class(podium, group, ["Ana"])
    key = display_key(podium, f"group:{group}")
    other = display_key(podium, f"group:other-{secrets.token_hex(3)}")
    status, _ = http_json("DELETE", f"{podium['base']}/v1/admin/api-keys/{key['key']['id']}", podium["admin_key"])
    assert status == 204
    base = key["display_url"].split("#")[0]
    cases = {
        "revoked": (key["display_url"], "This display link's key was revoked or mistyped; ask for a new display link."),
        "mistyped": (f"{base}#key={key['secret'][:-1]}x", "This display link's key was revoked or mistyped; ask for a new display link."),
        "missing": (base, "This display link has no key; ask for a display link from the Podium console."),
        "another board": (f"{base}#key={other['secret']}",
                          "This display link's key may not show this board; ask for a display link made for this board."),
    }
    for name, (url, words) in cases.items():
        page, _ = paused_page(browser)  # the wait below counts down with the page's clock: it stands still
        page.goto(url)
        try:
            expect(page.locator("#status")).not_to_be_empty()
            assert page.text_content("#status") == f"{words} Trying again in 5 s.", name
            page.screenshot(path=str(OUT / f"classroom-key-{name.replace(' ', '-')}.png"))
        finally:
            page.close()


def test_a_phone_cuts_long_names_and_shows_them_whole_on_a_tap(browser, podium):
    group = f"phone-{secrets.token_hex(3)}"
    post_class(podium, group, NAMES[:3])
    key = display_key(podium, f"group:{group}")
    page = open_display(browser, key["display_url"], viewport=PHONE)
    try:
        expect(page.locator("#entries tr")).to_have_count(3)
        name = page.locator("#entries tr").first.locator(".name")
        assert name.get_attribute("title") == NAMES[0]
        assert name.evaluate("(cell) => cell.scrollWidth > cell.clientWidth"), "a long name ends in an ellipsis on a phone"
        page.locator("#entries tr").first.click()
        assert name.evaluate("(cell) => cell.scrollWidth <= cell.clientWidth + 1"), "tapped, the whole name shows"
        page.screenshot(path=str(OUT / "classroom-phone.png"), full_page=True)
    finally:
        page.close()


def test_a_league_cohort_shows_its_league_tier_and_zone_lines_in_words_too(browser, podium, database):
    run = secrets.token_hex(3)
    group = f"lg-{run}"
    league = f"class-league-{run}"
    status, body = http_json("POST", f"{podium['base']}/v1/admin/leagues", podium["admin_key"], {
        "id": league, "name": "Class league", "scope": [f"group:{group}"], "cohort_size": 8, "up": 2, "down": 3,
        "tiers": [{"name": "bronze", "title": "Bronze"}, {"name": "silver", "title": "Silver"}, {"name": "gold", "title": "Gold"}]})
    assert status == 201, body
    # The six earned silver in an earlier week (as a close writes it), so their cohort has both zones.
    prefix = f"{group}-p"
    subprocess.run([psql_binary(), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", database, "-c",
                    f"INSERT INTO league_players SELECT '{league}', '{prefix}-' || g, 1, '2020-W01' FROM generate_series(0, 5) g"],
                   check=True, stdin=subprocess.DEVNULL, timeout=60)
    post_class(podium, group, ["Ada", "Bo", "Cy", "Dee", "Eli", "Fay"], prefix=prefix)
    key = display_key(podium, f"group:{group}")
    page = open_display(browser, f"{podium['base']}/display/league:{league}:silver:1/week#key={key['secret']}")
    try:
        expect(page.locator("#entries tr")).to_have_count(6)
        assert page.text_content("#title") == "Class league · Silver · Cohort 1"
        # 6 of 8: 2 × 6/8 up, rounded up, and 3 × 6/8 down, rounded down.
        assert page.text_content("#zones") == "Top 2 move up to the next tier · Last 2 move down"
        marks = page.evaluate("""() => [...document.querySelectorAll('#entries tr')]
            .map((tr) => (tr.classList.contains('zone-up-end') ? 'up' : '') + (tr.classList.contains('zone-down-start') ? 'down' : ''))""")
        assert marks == ["", "up", "", "", "down", ""], "a line under the second row and one above the fifth"
        assert page.eval_on_selector("#entries tr.zone-up-end", "(tr) => getComputedStyle(tr).borderBottomStyle") == "solid"
        assert page.eval_on_selector("#entries tr.zone-down-start", "(tr) => getComputedStyle(tr).borderTopStyle") == "dashed"
        page.screenshot(path=str(OUT / "classroom-league.png"))
    finally:
        page.close()


def paused_page(browser):
    """A TV page whose clock stands still (its timers run only when the test moves it), and the list of the URLs it
    sends to /v1/, which grows as it sends them."""
    page = browser.new_page(viewport=TV)
    page.set_default_timeout(TIMEOUT_MS)
    start = time.time()
    page.clock.install(time=start)
    page.clock.pause_at(start + 1)
    sent = []
    page.on("request", lambda request: sent.append(request.url) if "/v1/" in request.url else None)
    return page, sent


def test_a_refused_key_backs_off_says_when_and_tries_a_new_key_at_once(browser, podium):
    group = f"back-{secrets.token_hex(3)}"
    post_class(podium, group, ["Ana", "Ben"])
    good = display_key(podium, f"group:{group}")
    revoked = display_key(podium, f"group:{group}")
    status, _ = http_json("DELETE", f"{podium['base']}/v1/admin/api-keys/{revoked['key']['id']}", podium["admin_key"])
    assert status == 204
    page, sent = paused_page(browser)
    words = "This display link's key was revoked or mistyped; ask for a new display link."

    def waiting(seconds):
        return f"{words} Trying again in {seconds} s." if seconds < 60 else \
            f"{words} Trying again in {seconds // 60} min{f' {seconds % 60} s' if seconds % 60 else ''}."

    try:
        page.goto(revoked["display_url"])
        expect(page.locator("#status")).to_have_text(waiting(5))
        assert len(sent) == 1, f"one refused request, no polling behind it: {sent}"
        # Each refusal doubles the wait, up to 5 minutes: the clock moves to a second before each retry, then past it.
        for asked, (wait, then) in enumerate(((5, 10), (10, 20), (20, 40), (40, 80), (80, 160), (160, 300), (300, 300)), start=1):
            page.clock.run_for((wait - 1) * 1000)
            expect(page.locator("#status")).to_have_text(waiting(1))
            assert len(sent) == asked, f"nothing sent while waiting: {sent}"
            page.clock.run_for(1000)
            expect(page.locator("#status")).to_have_text(waiting(then))
            assert len(sent) == asked + 1
        assert len(sent) == 8, "eight requests in ten minutes and 15 s, where it sent 600"
        page.screenshot(path=str(OUT / "classroom-refused-backoff.png"))
        # A new key in the link is tried at once, without waiting out the 5 minutes.
        page.evaluate(f"location.hash = '#key={good['secret']}'")
        expect(page.locator("#entries tr")).to_have_count(2)
        expect(page.locator("#status")).to_be_empty()
        assert len(sent) == 9, f"one request with the new key: {sent}"
    finally:
        page.close()


@pytest.mark.parametrize("reason", ["revoked", "expired"])
def test_a_stream_ended_by_its_key_says_why_and_waits_before_asking_again(browser, podium, reason):
    # A stand-in for the server's stream (issue 34 item 4): `event: ended` and the end of the stream, then 401s.
    group = f"ended-{secrets.token_hex(3)}"
    post_class(podium, group, ["Ana"])
    key = display_key(podium, f"group:{group}")
    page, sent = paused_page(browser)
    streams = []

    def stream(route):
        streams.append(route.request.url)
        if len(streams) == 1:
            route.fulfill(status=200, headers={"Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache"},
                          body=f'event: ended\ndata: {{"reason":"{reason}"}}\n\n')
        else:
            route.fulfill(status=401, headers={"Content-Type": "application/problem+json"},
                          body='{"type":"about:blank","title":"Unauthorized","status":401,"code":"unauthorized"}')

    page.route("**/live?*", stream)
    words = {"revoked": "This display key was revoked; ask for a new display link.",
             "expired": "This display key has expired; ask for a new display link."}[reason]
    try:
        page.goto(key["display_url"])
        expect(page.locator("#status")).to_have_text(f"{words} Trying again in 5 s.")
        page.screenshot(path=str(OUT / f"classroom-stream-ended-{reason}.png"))
        page.clock.run_for(4000)
        assert len(sent) == 1, f"nothing asked while waiting: {sent}"
        page.clock.run_for(1000)
        expect(page.locator("#status")).to_have_text(f"{words} Trying again in 10 s.")
        assert len(sent) == 2 and len(streams) == 2, "one reconnection, refused: the words stay and the wait doubles"
    finally:
        page.close()


def watched_streams(page):
    """The live streams `page` opens, in order, each a dict with its answer's `status` once it came and `finished` once its
    body ended (the server closed it)."""
    streams = []

    def opened(request):
        if "/live?" in request.url:
            streams.append({"request": request, "status": None, "finished": False})

    def mark(request, **fields):
        for stream in streams:
            if stream["request"] is request:
                stream.update(fields)

    page.on("request", opened)
    page.on("response", lambda response: mark(response.request, status=response.status))
    page.on("requestfinished", lambda request: mark(request, finished=True))
    page.on("requestfailed", lambda request: mark(request, finished=True))
    return streams


def wait_for_page(page, check, what, timeout_ms=TIMEOUT_MS):
    """Waits until `check()` is true, letting the page's events arrive meanwhile."""
    deadline = time.monotonic() + timeout_ms / 1000
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        page.wait_for_timeout(50)


def assert_backs_off(page, sent, words):
    """With the display showing `words` after its stream ended (and the stream closed), the page's clock runs ten
    minutes: it asks again after 5 s, 10, 20, … up to 5 minutes, each answered 401, and sends nothing in between."""
    def waiting(seconds):
        return f"{words} Trying again in {seconds} s." if seconds < 60 else \
            f"{words} Trying again in {seconds // 60} min{f' {seconds % 60} s' if seconds % 60 else ''}."

    expect(page.locator("#status")).to_have_text(waiting(5))
    asked = len(sent)
    for wait, then in ((5, 10), (10, 20), (20, 40), (40, 80), (80, 160), (160, 300), (300, 300)):
        page.clock.run_for((wait - 1) * 1000)
        expect(page.locator("#status")).to_have_text(waiting(1))
        assert len(sent) == asked, f"nothing sent while waiting: {sent}"
        page.clock.run_for(1000)
        expect(page.locator("#status")).to_have_text(waiting(then))
        asked += 1
        assert len(sent) == asked, f"one request after the wait: {sent}"
    return asked


def test_a_display_whose_key_is_revoked_while_it_shows_says_so_and_stops_asking(browser, podium):
    # Issue 34 item 4, end to end: the real server ends the live stream of a key revoked through the API.
    group = f"revoke-{secrets.token_hex(3)}"
    users = post_class(podium, group, ["Ana", "Ben"])
    key = display_key(podium, f"group:{group}")
    page, sent = paused_page(browser)
    streams = watched_streams(page)
    try:
        page.goto(key["display_url"])
        expect(page.locator("#entries tr")).to_have_count(2)
        wait_for_page(page, lambda: streams and streams[0]["status"] == 200, "the live stream")
        assert len(sent) == 1, f"the stream alone, nothing polled: {sent}"
        status, _ = http_json("DELETE", f"{podium['base']}/v1/admin/api-keys/{key['key']['id']}", podium["admin_key"])
        assert status == 204
        words = "This display key was revoked; ask for a new display link."
        expect(page.locator("#status")).to_have_text(f"{words} Trying again in 5 s.")
        wait_for_page(page, lambda: streams[0]["finished"], "the server to close the ended stream")
        page.screenshot(path=str(OUT / "classroom-revoked-live.png"))
        # Ben passes Ana now, but nothing reaches the screen with the revoked key.
        status, body = http_json("POST", f"{podium['base']}/v1/completions", podium["admin_key"], {
            "id": f"{users[1]}-after", "user_id": users[1], "quiz_id": "q-after", "topic": "math", "difficulty": "hard",
            "correct": 10, "total": 10, "duration_ms": 600000, "groups": [group]})
        assert status == 201, body
        asked = assert_backs_off(page, sent, words)
        assert asked == 8, "the stream and seven refused attempts in ten minutes"
        assert [stream["status"] for stream in streams] == [200] + [401] * 7
        assert [row[1] for row in visible_rows(page)] == ["Ana", "Ben"]
        # The footer says the board is old, and leaves the retrying to the message above it, which says when.
        updated = page.text_content("#updated")
        assert updated.startswith("Stale: no update from Podium since ") and "retrying" not in updated, updated
        page.screenshot(path=str(OUT / "classroom-revoked-live-backoff.png"))
    finally:
        page.close()


def test_a_display_whose_key_expires_while_it_shows_says_so(browser, podium):
    # Issue 34 item 5, end to end: a key made to expire a few seconds ahead of the server's clock. The stream must open
    # before that instant: when the page was too slow to open it (the stream's first answer is 401), the test makes
    # a new key with twice the time and tries again, so a slow machine takes longer but never fails.
    group = f"expire-{secrets.token_hex(3)}"
    post_class(podium, group, ["Ana", "Ben"])
    ahead = 4
    while True:
        expires = server_time(podium["base"]) + datetime.timedelta(seconds=ahead)
        status, key = http_json("POST", f"{podium['base']}/v1/admin/api-keys", podium["admin_key"], {
            "name": f"TV {secrets.token_hex(2)}", "role": "display", "scopes": [f"group:{group}"],
            "expires_at": f"{expires:%Y-%m-%dT%H:%M:%S}Z"})
        assert status == 201, key
        page, sent = paused_page(browser)
        streams = watched_streams(page)
        page.goto(key["display_url"])
        wait_for_page(page, lambda: streams and streams[0]["status"] is not None, "the live stream's answer")
        if streams[0]["status"] == 200:
            break
        assert streams[0]["status"] == 401, streams[0]
        page.close()
        ahead *= 2
        assert ahead <= 64, "the stream never opened within a minute of making its key"
    try:
        expect(page.locator("#entries tr")).to_have_count(2)
        words = "This display key has expired; ask for a new display link."
        # Ended within 5 s of the key's expiry.
        expect(page.locator("#status")).to_have_text(f"{words} Trying again in 5 s.", timeout=(ahead + 5) * 1000 + TIMEOUT_MS)
        assert server_time(podium["base"]) >= expires
        wait_for_page(page, lambda: streams[0]["finished"], "the server to close the ended stream")
        page.screenshot(path=str(OUT / "classroom-expired-live.png"))
        page.clock.run_for(5000)
        expect(page.locator("#status")).to_have_text(f"{words} Trying again in 10 s.")
        assert [stream["status"] for stream in streams] == [200, 401] and len(sent) == 2
    finally:
        page.close()


def test_a_cancelled_contest_says_so_and_far_starts_are_dates(browser, podium):
    run = secrets.token_hex(3)
    now = int(time.time()) // 60 * 60
    start = now + 15 * 86400  # 15 days away
    contests = {}
    for name in ("far", "called-off"):
        contest = f"{name}-{run}"
        status, body = http_json("POST", f"{podium['base']}/v1/admin/contests", podium["admin_key"], {
            "id": contest, "title": name.capitalize(), "scope": [f"group:g-{run}"],
            "starts_at": time.strftime("%Y-%m-%dT%H:%M:00Z", time.gmtime(start)),
            "ends_at": time.strftime("%Y-%m-%dT%H:%M:00Z", time.gmtime(start + 3600))})
        assert status == 201, body
        contests[name] = contest
    status, body = http_json("POST", f"{podium['base']}/v1/admin/contests/{contests['called-off']}/cancel", podium["admin_key"])
    assert status == 200 and body["status"] == "cancelled", body
    cancelled_at = time.gmtime(time.mktime(time.strptime(body["cancelled_at"][:19], "%Y-%m-%dT%H:%M:%S")) - time.timezone)
    day = lambda moment: time.strftime("%a %-d %b, %H:%M", moment)
    key = display_key(podium, f"group:g-{run}")
    page = open_display(browser, f"{podium['base']}/display/contest:{contests['far']}/contest#key={key['secret']}", timezone_id="UTC")
    try:
        expect(page.locator("#countdown")).to_have_text(f"Starts {day(time.gmtime(start))}")
        expect(page.locator("#notice")).to_have_text("Nobody has scored on this board yet.")
        page.screenshot(path=str(OUT / "classroom-contest-far.png"))
    finally:
        page.close()
    page = open_display(browser, f"{podium['base']}/display/contest:{contests['called-off']}/contest#key={key['secret']}",
                        timezone_id="UTC")
    try:
        expect(page.locator("#countdown")).to_have_text("Cancelled")
        expect(page.locator("#notice")).to_have_text(
            f"This contest was cancelled on {day(cancelled_at)}; nothing counts in it any more.")
        assert "final" not in page.text_content("#period")
        page.screenshot(path=str(OUT / "classroom-contest-cancelled.png"))
    finally:
        page.close()


def test_a_recurring_contest_between_runs_says_when_the_next_starts(browser, podium):
    run = secrets.token_hex(3)
    contest = f"weekly-{run}"
    # Weekly at 09:00 UTC on the weekday three days from today: the last run ended four days ago, the next is 2-3 days away.
    weekday = (int(time.strftime("%w", time.gmtime())) + 3) % 7
    status, body = http_json("POST", f"{podium['base']}/v1/admin/contests", podium["admin_key"], {
        "id": contest, "title": "Weekly quiz", "scope": [f"group:m-{run}"], "cron": f"0 9 * * {weekday}", "duration_minutes": 60,
        "time_zone": "UTC"})
    assert status == 201, body
    key = display_key(podium, f"contest:{contest}")
    status, board = http_json("GET", f"{podium['base']}/v1/leaderboards/contest:{contest}/contest", key["secret"])
    assert status == 200 and board["next_starts_at"] == body["next_runs"][0]["starts_at"], board
    last_end = time.mktime(time.strptime(board["ends_at"][:19], "%Y-%m-%dT%H:%M:%S")) - time.timezone
    next_start = time.mktime(time.strptime(board["next_starts_at"][:19], "%Y-%m-%dT%H:%M:%S")) - time.timezone
    assert last_end < time.time() and next_start - time.time() > 86400
    page = open_display(browser, key["display_url"], fixed_time=next_start - 754, timezone_id="UTC")
    try:
        expect(page.locator("#countdown")).to_have_text("Next run starts in 12:34")
        expect(page.locator("#period")).to_have_text(
            f"Last run: {time.strftime('%a %-d %b', time.gmtime(last_end))}, 09:00–10:00 · final · 0 players")
        page.screenshot(path=str(OUT / "classroom-contest-next-run.png"))
    finally:
        page.close()
    page = open_display(browser, key["display_url"], timezone_id="UTC")  # now: more than a day before it
    try:
        expect(page.locator("#countdown")).to_have_text(f"Next run starts {time.strftime('%a %-d %b, %H:%M', time.gmtime(next_start))}")
    finally:
        page.close()


def test_a_mistyped_board_says_it_does_not_exist_and_an_empty_one_that_nobody_scored(browser, podium):
    run = secrets.token_hex(3)
    status, body = http_json("POST", f"{podium['base']}/v1/admin/contests", podium["admin_key"], {
        "id": f"named-{run}", "title": "Named", "scope": [f"group:empty-{run}"], "starts_at": "2030-01-07T09:00:00Z",
        "ends_at": "2030-01-07T10:00:00Z"})
    assert status == 201, body
    key = display_key(podium, f"group:empty-{run}")
    page = open_display(browser, f"{podium['base']}/display/group:empty-{run}/week#key={key['secret']}")
    try:
        expect(page.locator("#notice")).to_have_text("Nobody has scored on this board yet.")
        assert page.locator("#entries tr").count() == 0
        page.screenshot(path=str(OUT / "classroom-empty-group.png"))
    finally:
        page.close()
    for board, reason in ((f"group:emtpy-{run}", f"no board group:emtpy-{run}: no completion was ever recorded for group "
                           f"emtpy-{run}, and no rule, contest or league names it"),
                          (f"league:nope-{run}:silver:1", f"no league nope-{run}")):
        page = open_display(browser, f"{podium['base']}/display/{board}/week#key={key['secret']}")
        try:
            expect(page.locator("h1")).to_have_text("This leaderboard link does not work")
            assert page.locator("li").all_text_contents() == [reason]
            assert "display key" in page.text_content("body") and "read key" not in page.text_content("body")
            page.screenshot(path=str(OUT / f"classroom-missing-{board.split(':')[0]}.png"))
        finally:
            page.close()


def test_league_zone_words_count_a_tie_and_a_single_place(browser, podium):
    run = secrets.token_hex(3)
    key = None
    shown = {}
    for up in (2, 1):
        group = f"zw{up}-{run}"
        league = f"zone-words-{up}-{run}"
        status, body = http_json("POST", f"{podium['base']}/v1/admin/leagues", podium["admin_key"], {
            "id": league, "name": "Words", "scope": [f"group:{group}"], "cohort_size": 4, "up": up, "down": 1,
            "tiers": [{"name": "bronze", "title": "Bronze"}, {"name": "silver", "title": "Silver"}]})
        assert status == 201, body
        # Ana 10, Ben 5, Cy 5, Dee 2: Ben and Cy share second place.
        plays = {"ana": ["hard", "hard"], "ben": ["hard"], "cy": ["hard"], "dee": ["easy"]}
        items = [{"id": f"{group}-{user}-{n}", "user_id": f"{group}-{user}", "quiz_id": f"q-{n}", "topic": "math", "difficulty": level,
                  "correct": 8, "total": 10, "duration_ms": 600000, "groups": [group], "display_name": user.capitalize()}
                 for user, levels in plays.items() for n, level in enumerate(levels)]
        status, body = http_json("POST", f"{podium['base']}/v1/completions/batch", podium["admin_key"], {"completions": items})
        assert status == 200 and body["created"] == len(items), body
        key = display_key(podium, f"group:{group}")
        page = open_display(browser, f"{podium['base']}/display/league:{league}:bronze:1/week#key={key['secret']}")
        try:
            expect(page.locator("#entries tr")).to_have_count(4)
            shown[up] = page.text_content("#zones")
            page.screenshot(path=str(OUT / f"classroom-league-words-{up}.png"))
        finally:
            page.close()
    assert shown == {2: "Top 3 move up to the next tier (a tie)", 1: "The leader moves up to the next tier"}


@pytest.mark.parametrize("players, viewport, per_page", [(52, TV, 26), (90, TV, 45)])
def test_pages_share_the_rows_out_evenly(browser, podium, players, viewport, per_page):
    group = f"even-{secrets.token_hex(3)}"
    names = [f"Player {index:02d}" for index in range(players)]
    post_class(podium, group, names)
    key = display_key(podium, f"group:{group}")
    page = open_display(browser, key["display_url"].replace("/week#", f"/week?limit={players}&page_seconds=3#"), viewport=viewport)
    try:
        expect(page.locator("#entries tr")).to_have_count(players)
        expect(page.locator("#pager")).to_have_text(re.compile("^Page 1 of 2"))
        first = visible_rows(page)
        assert rows_on_screen(page)
        page.screenshot(path=str(OUT / f"classroom-even-{players}-page1.png"))
        expect(page.locator("#pager")).to_have_text(re.compile("^Page 2 of 2"))
        second = visible_rows(page)
        assert rows_on_screen(page)
        assert (len(first), len(second)) == (per_page, per_page)
        assert [row[1] for row in first + second] == names
        page.screenshot(path=str(OUT / f"classroom-even-{players}-page2.png"))
    finally:
        page.close()
