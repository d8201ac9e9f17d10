"""The ops console at /console: Chromium (Playwright) against the session's `podium serve` (conftest.py).

What a browser adds to the Swift suites: that console.js, under the pages' strict content security policy, renders
every screen from the real API without a console error or a failed request; that its flows do what they say (a
dry run then the close of a due period, with exactly the medals the API then holds; a manual job run; a key's
secret shown once; a key's last day ending in the operator's zone; erasing a player only after the id was typed); that text from the API stays text (a display
name holding markup); and that the key from the address's fragment leaves the address bar. Screenshots of every
screen, at 1280 px and at phone width, go to .local/browser/console-*.png.

A due period needs time to pass: a completion counts in a period only until the period's end plus the grace
(an older one lists it under `missed_periods`), and the period is due only after that. So the close test has a
Podium of its own (fixture `due_podium`): its scores land in today's day period, then it is restarted on the same
database with its wall clock two days ahead (ops/test/clock-shift, as ops/test/date-shift.sh does), and that period is due.
"""

import datetime
import hashlib
import hmac
import http.server
import io
import json
import re
import secrets
import shutil
import string
import subprocess
import threading
import time
import urllib.parse
import zoneinfo

import pytest
import zxingcpp
from playwright.sync_api import expect
from PIL import Image

from conftest import (OUT, ROOT, TIMEOUT_MS, free_port, http_json, new_admin_key, own_storage, psql_binary, start_podium,
                      stop)

expect.set_options(timeout=TIMEOUT_MS)
GROUP = "console"
BOARD = f"group:{GROUP}"
# The due Podium's one board rule: a group board in a zone other than UTC that awards medals daily too.
MEDAL_GROUP = "console-medals"
MEDAL_BOARD = f"group:{MEDAL_GROUP}"
MEDAL_BOARD_ZONE = "Europe/Paris"
SHIFT_DAYS = 2
MARKUP = "<img src=x onerror=alert(1)><b>bold</b>"
SCREENS = ["boards", "contests", "leagues", "goals", "snapshots", "jobs", "calendar", "keys", "webhooks", "players", "audit"]
# Screenshot name suffix: (viewport, colour scheme).
VARIANTS = {"": ((1280, 900), "light"), "-phone": ((390, 844), "light"), "-dark": ((1280, 900), "dark")}

# Set before the console's script runs: every content-security-policy violation the page causes.
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
    window.__cspViolations.push(`${event.violatedDirective} blocked ${event.blockedURI || "inline"}`);
});
"""


def completion(completion_id, user_id, difficulty, display_name=None, group=GROUP):
    body = {"id": completion_id, "user_id": user_id, "quiz_id": "q-console", "topic": "history",
            "difficulty": difficulty, "correct": 4, "total": 4, "duration_ms": 60000, "groups": [group]}
    if display_name:
        body["display_name"] = display_name
    return body


def post_completion(podium, body):
    status, answer = http_json("POST", f"{podium['base']}/v1/completions", podium["admin_key"], body)
    assert status == 201, answer
    return answer


def admin(podium, method, path, body=None):
    return http_json(method, f"{podium['base']}{path}", podium["admin_key"], body)


def wait_for(check, what, timeout=30.0):
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.2)


def run_job(podium, name):
    """Runs a job now through the API and waits until that run succeeded; returns the run."""
    status, run = admin(podium, "POST", f"/v1/admin/jobs/{name}/run", {"slot": "now"})
    assert status == 202, run

    def finished():
        status, runs = admin(podium, "GET", f"/v1/admin/jobs/{name}/runs?limit=20")
        assert status == 200, runs
        mine = [r for r in runs["runs"] if r["slot"] == run["slot"]]
        return mine[0] if mine and mine[0]["status"] not in ("pending", "running") else None
    done = wait_for(finished, f"the {name} run of {run['slot']}")
    assert done["status"] == "succeeded", done
    return done


@pytest.fixture(scope="session")
def seeded(podium):
    """Players on BOARD (one named with markup), two snapshots between which the lead changed hands, a closed day
    and a webhook with a dead delivery."""
    hook_port = free_port()  # nothing listens there: every delivery fails, and is dead at once
    status, hook = admin(podium, "POST", "/v1/admin/webhooks",
                         {"url": f"http://127.0.0.1:{hook_port}/podium", "event_types": ["completion.recorded"],
                          "secret": "console-test-secret-0123456789"})
    assert status == 201, hook
    post_completion(podium, completion("c-con-ada-1", "u-con-ada", "hard", display_name="Ada"))
    post_completion(podium, completion("c-con-bo-1", "u-con-bo", "medium", display_name="Bo"))
    post_completion(podium, completion("c-con-markup-1", "u-con-markup", "easy", display_name=MARKUP))
    run_job(podium, "snapshot-leaderboards")
    post_completion(podium, completion("c-con-bo-2", "u-con-bo", "hard"))  # Bo 8, Ada 5, markup 2
    run_job(podium, "snapshot-leaderboards")
    day = (datetime.date.today() + datetime.timedelta(days=40)).isoformat()
    status, closed = admin(podium, "PUT", f"/v1/admin/calendar/closed-days/{day}", {"note": "Founders' day"})
    assert status == 200, closed

    def dead():
        status, answer = admin(podium, "GET", f"/v1/admin/webhooks/{hook['id']}/deliveries?limit=50")
        assert status == 200, answer
        return [d for d in answer["deliveries"] if d["status"] == "dead"]
    wait_for(dead, "a dead webhook delivery")
    return {"webhook": hook, "closed_day": day}


def clock_shift_library(directory):
    """ops/test/clock-shift/clock_shift.c built with the C compiler (ops/test/browser-test.sh installs gcc when missing)."""
    compiler = shutil.which("gcc") or shutil.which("cc")
    if not compiler:
        pytest.fail("a C compiler is needed for the shifted clock (apt-get install gcc libc6-dev)")
    library = directory / "libclock_shift.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-Wall", "-o", str(library),
                    str(ROOT / "ops" / "test" / "clock-shift" / "clock_shift.c"), "-ldl"], check=True, timeout=120)
    return library


def wait_until_idle(podium, job):
    """Until the job's newest run is neither pending nor running (a run under way could still close periods)."""
    def idle():
        status, jobs = admin(podium, "GET", "/v1/admin/jobs")
        assert status == 200, jobs
        summary = next(j for j in jobs["jobs"] if j["name"] == job)
        return summary.get("last_run", {}).get("status") not in ("pending", "running")
    wait_for(idle, f"{job} to be idle")


@pytest.fixture(scope="module")
def due_podium(tmp_path_factory):
    """A Podium of its own whose day period of MEDAL_BOARD is due, with three players (scores 5, 3 and 2), and
    `close-periods` paused: scores recorded today, then the same database served with the clock SHIFT_DAYS ahead."""
    directory = tmp_path_factory.mktemp("due-podium")
    library = clock_shift_library(directory)
    rules = directory / "rules.json"
    rules.write_text(json.dumps({"boards": [{"scope": MEDAL_BOARD, "time_zone": MEDAL_BOARD_ZONE,
                                             "medal_windows": ["day", "week", "month"]}]}))
    key = new_admin_key()
    with own_storage("podium_console", 12) as (database, redis):
        process, base, log = start_podium(database, redis, key, "podium-console-today.log",
                                          PODIUM_RULES_FILE=str(rules))
        today = {"base": base, "admin_key": key}
        try:
            status, paused = admin(today, "POST", "/v1/admin/jobs/close-periods/pause")
            assert status == 200 and paused["paused"] is True, paused
            wait_until_idle(today, "close-periods")
            period = None
            for user, difficulty in (("u-close-gold", "hard"), ("u-close-silver", "medium"), ("u-close-bronze", "easy")):
                answer = post_completion(today, completion(f"c-{user}", user, difficulty, group=MEDAL_GROUP))
                period = next(r["period"] for r in answer["ranks"] if r["board"] == MEDAL_BOARD and r["window"] == "day")
        finally:
            stop(process)
            log.close()
        process, base, log = start_podium(database, redis, key, "podium-console-shifted.log",
                                          PODIUM_RULES_FILE=str(rules), LD_PRELOAD=str(library),
                                          PODIUM_CLOCK_SHIFT_DAYS=str(SHIFT_DAYS))
        try:
            yield {"base": base, "admin_key": key, "period": period}
        finally:
            stop(process)
            log.close()


class Console:
    """A console page, recording what must not happen: console errors, page errors, failed requests, HTTP
    errors, dialogs and content-security-policy violations."""

    def __init__(self, browser, podium, size=(1280, 900), color_scheme="light", **options):
        self.podium = podium
        self.page = browser.new_page(viewport={"width": size[0], "height": size[1]}, color_scheme=color_scheme, **options)
        self.page.set_default_timeout(TIMEOUT_MS)
        self.page.add_init_script(RECORD_VIOLATIONS)
        self.problems = []
        self.requests = []
        self.dialogs = []
        self.page.on("console", lambda message: self.problems.append(f"console {message.type}: {message.text}")
                     if message.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        self.page.on("requestfailed", lambda request: self.problems.append(f"failed: {request.url} ({request.failure})"))
        self.page.on("response", lambda response: self.problems.append(f"HTTP {response.status}: {response.url}")
                     if response.status >= 400 else None)
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("dialog", self._dialog)

    def _dialog(self, dialog):
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def open(self, screen="boards", item=None):
        """Opens `screen`, or one item of it at its own address (#<screen>/<id>), with the key in the fragment."""
        address = f"{screen}/{urllib.parse.quote(item, safe='')}" if item else screen
        response = self.page.goto(f"{self.podium['base']}/console#key={self.podium['admin_key']}&{address}")
        assert response.status == 200
        self.page.locator(f"#screen-{screen}").wait_for(state="attached")
        return self

    def go(self, screen):
        self.page.click(f'#nav a[data-screen="{screen}"]')
        self.page.locator(f"#screen-{screen}").wait_for(state="attached")

    def message(self):
        return self.page.text_content("#message-text") if self.page.is_visible("#message") else ""

    def violations(self):
        return self.page.evaluate("window.__cspViolations")

    def assert_clean(self):
        assert self.problems == [], self.problems
        assert self.violations() == []
        assert self.dialogs == []

    def shot(self, name):
        # From the top, or the sticky header lands in the middle of a full-page shot.
        self.page.evaluate("() => window.scrollTo(0, 0)")
        self.page.screenshot(path=str(OUT / f"console-{name}.png"), full_page=True)

    def close(self):
        self.page.close()


@pytest.fixture
def console(browser, podium, seeded):
    opened = Console(browser, podium)
    try:
        yield opened
    finally:
        opened.close()


def board_card(page, board):
    return page.locator(f'.board[data-board="{board}"]')


def show_board(console, board):
    """The boards screen filtered to one board."""
    page = console.page
    page.fill('#screen-boards input[name="prefix"]', board)
    page.click('#screen-boards form button[type="submit"]')
    card = board_card(page, board)
    card.wait_for(state="visible")
    page.wait_for_function("""(board) => {
        const card = document.querySelector(`.board[data-board="${board}"] .players`);
        return card && card.textContent !== "…";
    }""", arg=board)
    return card


def medals_shown(items):
    return [(item.locator(".badge").text_content(), item.locator(".medal-user").text_content(),
             item.locator(".medal-rank").text_content(), item.locator(".medal-score").text_content())
            for item in items.all()]


# --- the key ---------------------------------------------------------------------------------------------------------

def test_the_key_leaves_the_address_and_signing_out_forgets_it(browser, podium):
    console = Console(browser, podium)
    page = console.page
    try:
        console.open("jobs")
        assert urllib.parse.urlsplit(page.url).fragment == "jobs", page.url
        assert podium["admin_key"] not in page.url
        assert page.evaluate("sessionStorage.getItem('podium.console.key')") == podium["admin_key"]
        page.locator(".job").first.wait_for(state="visible")
        assert page.get_attribute('#nav a[data-screen="jobs"]', "aria-current") == "page"
        # A reload keeps the key of this tab.
        page.reload()
        page.locator(".job").first.wait_for(state="visible")
        page.click("#sign-out")
        page.locator("#login").wait_for(state="visible")
        assert page.evaluate("sessionStorage.getItem('podium.console.key')") is None
        assert page.is_hidden("#nav") and page.locator("#view > *").count() == 0
        console.shot("login")
        console.assert_clean()
        # A key that is not an admin key is refused with the API's own words.
        page.fill("#key-input", "pdm_" + "x" * 40)
        page.click("#login-form button[type=submit]")
        page.wait_for_function("() => document.getElementById('message-text').textContent !== ''")
        status, problem = http_json("GET", f"{podium['base']}/v1/admin/calendar/closed-days", "pdm_" + "x" * 40)
        assert status == 401
        assert console.message() == f"Not signed in: {problem['detail']}"
        assert page.is_visible("#login")
        page.fill("#key-input", podium["admin_key"])
        page.click("#login-form button[type=submit]")
        page.locator("#screen-jobs .job").first.wait_for(state="visible")
        assert page.evaluate("sessionStorage.getItem('podium.console.key')") == podium["admin_key"]
    finally:
        console.close()


# --- a. closing a due period ---------------------------------------------------------------------------------------

def test_a_dry_run_then_the_close_of_a_due_period_award_the_expected_medals(browser, due_podium):
    podium, period = due_podium, due_podium["period"]
    console = Console(browser, podium)
    try:
        expected = [("gold", "u-close-gold", "rank 1", "score 5"), ("silver", "u-close-silver", "rank 2", "score 3"),
                    ("bronze", "u-close-bronze", "rank 3", "score 2")]
        status, listed = admin(podium, "GET", f"/v1/admin/periods/{MEDAL_BOARD}/day?limit=20")
        assert status == 200, listed
        assert listed["time_zone"] == MEDAL_BOARD_ZONE
        due = next(p for p in listed["periods"] if p["period"] == period)
        assert due["status"] == "due" and due["players"] == 3 and due["medals"] == [], due

        page = console.open("boards").page
        card = show_board(console, MEDAL_BOARD)
        # The close time of the current day period, in the board's zone.
        closes = card.locator('tr[data-window="day"] td.closes').text_content()
        assert re.search(r"\b(CET|CEST|GMT\+1|GMT\+2)$", closes), closes
        card.locator('tr[data-window="day"] button').click()
        row = card.locator(f'.periods[data-window="day"] tr[data-period="{period}"]')
        row.wait_for(state="visible")
        assert row.get_attribute("data-status") == "due"
        assert row.locator(".badge").text_content() == "due"
        row.locator("button.close").click()

        preview = card.locator(".close-preview")
        preview.locator("li").nth(2).wait_for(state="visible")
        assert preview.locator("h3").text_content() == "Dry run: 3 players; closing would award"
        assert medals_shown(preview.locator("li")) == expected
        # The dry run wrote nothing.
        status, listed = admin(podium, "GET", f"/v1/admin/periods/{MEDAL_BOARD}/day?limit=20")
        assert next(p for p in listed["periods"] if p["period"] == period)["status"] == "due"
        console.shot("close-preview")

        preview.locator("button.danger").click()
        # Notices go by themselves after 8 s: each is checked as soon as it shows.
        expect(page.locator("#message-text")).to_have_text(f"{MEDAL_BOARD} day {period}: closed, 3 medals awarded.")
        result = card.locator(".close-result")
        result.locator("li").nth(2).wait_for(state="visible")
        assert result.locator("h3").text_content() == "Closed: 3 players; awarded"
        assert medals_shown(result.locator("li")) == expected
        row = card.locator(f'.periods[data-window="day"] tr[data-period="{period}"]')
        assert row.get_attribute("data-status") == "closed"
        assert medals_shown(row.locator(".period-medals li")) == expected
        console.shot("close-result")

        # The API agrees: the period is closed with those medals, and each player holds theirs.
        status, listed = admin(podium, "GET", f"/v1/admin/periods/{MEDAL_BOARD}/day?limit=20")
        closed = next(p for p in listed["periods"] if p["period"] == period)
        assert closed["status"] == "closed" and closed["players"] == 3, closed
        assert [(m["medal"], m["user_id"], f"rank {m['rank']}", f"score {m['score']}") for m in closed["medals"]] == expected
        for medal, user, _, _ in expected:
            status, medals = admin(podium, "GET", f"/v1/users/{user}/medals")
            assert [(m["board"], m["window"], m["period"], m["medal"]) for m in medals["medals"]
                    if m["window"] == "day"] == [(MEDAL_BOARD, "day", period, medal)]

        # The job is resumed from the jobs screen.
        console.go("jobs")
        job = page.locator('.job[data-job="close-periods"]')
        assert job.locator(".card-head .badge").text_content() == "paused"
        job.locator("button.pause").click()
        assert job.locator(".confirm-panel p").text_content().startswith("Resume close-periods? It runs on its schedule again")
        assert admin(podium, "GET", "/v1/admin/jobs")[1]["jobs"][0]["paused"] is not None  # asking changed nothing yet
        job.locator("button.confirm-yes", has_text="Resume close-periods").click()
        page.locator('.job[data-job="close-periods"] .card-head .badge', has_text="active").wait_for(state="visible")
        status, jobs = admin(podium, "GET", "/v1/admin/jobs")
        assert next(j for j in jobs["jobs"] if j["name"] == "close-periods")["paused"] is False
        console.assert_clean()
    finally:
        console.close()


# --- contests --------------------------------------------------------------------------------------------------

# This browser's local time `minutes` from now, as a datetime-local input takes it.
LOCAL_MINUTE = """(minutes) => {
    const d = new Date(Date.now() + minutes * 60000);
    const pad = (n) => String(n).padStart(2, "0");
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}"""


def test_a_contest_is_created_closed_early_with_medals_and_another_cancelled(console, podium):
    page = console.open("contests").page
    page.locator("#contest-list table, #contest-list .empty").first.wait_for(state="visible")
    cup = f"cup-{secrets.token_hex(3)}"
    page.fill('#contest-form input[name="id"]', cup)
    page.fill('#contest-form input[name="title"]', "Console cup")
    page.fill('#contest-form input[name="scope"]', BOARD)
    page.fill('#contest-form input[name="starts_at"]', page.evaluate(LOCAL_MINUTE, -30))
    page.fill('#contest-form input[name="ends_at"]', page.evaluate(LOCAL_MINUTE, 60))
    page.select_option('#contest-form select[name="tie_break"]', "earliest")
    page.click('#contest-form button[type="submit"]')
    row = page.locator(f'#contest-list tr[data-contest="{cup}"]')
    row.wait_for(state="visible")
    assert row.get_attribute("data-status") == "running"
    expect(page.locator("#message-text")).to_have_text(f"Contest “Console cup” created: board contest:{cup}, running.")
    status, shown = admin(podium, "GET", f"/v1/contests/{cup}")
    assert status == 200 and shown["scope"] == [BOARD] and shown["tie_break"] == "earliest" and shown["schedule"] == "once"

    players = [(f"u-{cup}-gold", "hard"), (f"u-{cup}-silver", "medium"), (f"u-{cup}-bronze", "easy")]
    for index, (user, difficulty) in enumerate(players):
        answer = post_completion(podium, completion(f"{cup}-{index}", user, difficulty))
        assert [r["board"] for r in answer["ranks"] if r["window"] == "contest"] == [f"contest:{cup}"]
    row.locator("button.close").click()
    box = page.locator(f'#contest-list tr[data-contest="{cup}"] + tr .close-preview')
    box.locator("li").nth(2).wait_for(state="visible")
    assert box.locator("h3").text_content() == "Dry run: 3 players; closing would award"
    assert [m[:2] for m in medals_shown(box.locator("li"))] == [("gold", players[0][0]), ("silver", players[1][0]), ("bronze", players[2][0])]
    assert admin(podium, "GET", f"/v1/leaderboards/contest:{cup}/contest")[1]["status"] == "open", "the dry run wrote nothing"
    console.shot("contest-close-preview")
    box.locator("button.danger").click()
    result = page.locator(f'#contest-list tr[data-contest="{cup}"] + tr .close-result')
    result.locator("li").nth(2).wait_for(state="visible")
    assert result.locator("h3").text_content() == "Closed: 3 players; awarded"
    board = admin(podium, "GET", f"/v1/leaderboards/contest:{cup}/contest")[1]
    assert board["status"] == "closed" and [e.get("medal") for e in board["entries"]] == ["gold", "silver", "bronze"]
    assert board["title"] == "Console cup"
    closed_row = page.locator(f'#contest-list tr[data-contest="{cup}"]')
    assert closed_row.locator(".badge.closed").text_content().startswith("closed ")
    assert closed_row.locator("button.close").count() == 0, "a closed run offers no close"

    # A recurring contest, cancelled after a confirmation.
    hourly = f"hourly-{secrets.token_hex(3)}"
    status, made = admin(podium, "POST", "/v1/admin/contests", {
        "id": hourly, "title": "Every half hour", "scope": [BOARD], "cron": "*/30 * * * *", "duration_minutes": 20})
    assert status == 201, made
    console.go("boards")
    console.go("contests")
    other = page.locator(f'#contest-list tr[data-contest="{hourly}"]')
    other.wait_for(state="visible")
    assert other.locator("td").nth(1).text_content() == "every 30 minutes, 20 minutes each"
    other.locator("button", has_text="Cancel contest…").click()
    ask = page.locator(f'#contest-list tr[data-contest="{hourly}"] + tr .confirm-panel')
    assert ask.locator("p").text_content().startswith("Cancel the contest “Every half hour”? Nothing counts from now on")
    assert ask.locator("button").all_text_contents() == ["Cancel the contest", "Go back"], "one wording for leaving a question"
    assert admin(podium, "GET", f"/v1/contests/{hourly}")[1]["status"] != "cancelled", "asking first changes nothing"
    ask.locator("button.confirm-yes").click()
    # Cancelled contests leave the default list, and are there when asked for.
    page.locator(f'#contest-list tr[data-contest="{hourly}"]').wait_for(state="detached")
    assert admin(podium, "GET", f"/v1/contests/{hourly}")[1]["status"] == "cancelled"
    page.select_option('#contest-filters select[name="status"]', "cancelled")
    page.locator(f'#contest-list tr[data-contest="{hourly}"][data-status="cancelled"]').wait_for(state="visible")
    console.shot("contests")
    console.assert_clean()


# --- every screen -----------------------------------------------------------------------------------------------

def fill_screen(console, screen, seeded):
    """Waits until the screen shows its data (and opens a detail or two, for the screenshot)."""
    page = console.page
    if screen == "boards":
        show_board(console, BOARD).locator('tr[data-window="day"] button').click()
        page.locator(f'.board[data-board="{BOARD}"] .periods-table').wait_for(state="visible")
        page.fill('#screen-boards input[name="prefix"]', "")
        page.click('#screen-boards form button[type="submit"]')
        page.locator(".board").nth(2).wait_for(state="visible")
        page.wait_for_function("() => [...document.querySelectorAll('.board .players')].every((p) => p.textContent !== '…')")
    elif screen == "contests":
        page.locator("#contest-list table, #contest-list .empty").first.wait_for(state="visible")
    elif screen == "goals":
        page.locator("#goal-list table, #goal-list .empty").first.wait_for(state="visible")
    elif screen == "snapshots":
        page.fill('#snapshot-form input[name="board"]', BOARD)
        page.select_option('#snapshot-form select[name="window"]', "day")
        page.fill('#snapshot-form input[name="top"]', "5")
        page.click('#snapshot-form button[type="submit"]')
        page.locator("#snapshot-results .snapshot").nth(1).wait_for(state="visible")
        page.fill('#history-form input[name="user"]', "u-con-ada")
        page.fill('#history-form input[name="board"]', BOARD)
        page.select_option('#history-form select[name="window"]', "day")
        page.click('#history-form button[type="submit"]')
        page.locator("#rank-history svg.chart").wait_for(state="visible")
    elif screen == "jobs":
        page.locator(".job").first.wait_for(state="visible")
        page.locator('.job[data-job="snapshot-leaderboards"] button', has_text="History").click()
        page.locator('.job[data-job="snapshot-leaderboards"] .runs-table').wait_for(state="visible")
    elif screen == "calendar":
        page.locator(f'#closed-days tr[data-day="{seeded["closed_day"]}"]').wait_for(state="visible")
    elif screen == "keys":
        page.locator("#key-list table, #key-list .empty").first.wait_for(state="visible")
    elif screen == "webhooks":
        hook = page.locator(f'.webhook[data-webhook="{seeded["webhook"]["id"]}"]')
        hook.locator("button.show-deliveries").click()
        hook.locator('.deliveries tr[data-status="dead"]').first.wait_for(state="visible")
    elif screen == "audit":
        page.locator("#audit-list tr[data-entry]").first.wait_for(state="visible")
    elif screen == "players":
        page.fill('#player-form input[name="user"]', "u-con-ada")
        page.click('#player-form button[type="submit"]')
        page.locator("#player .profile").wait_for(state="visible")
        page.locator("#player .player-medals, #player .card .empty").first.wait_for(state="visible")


@pytest.mark.parametrize("suffix", list(VARIANTS))
def test_every_screen_loads_without_an_error(browser, podium, seeded, suffix):
    size, color_scheme = VARIANTS[suffix]
    console = Console(browser, podium, size, color_scheme)
    try:
        console.open("boards")
        for screen in SCREENS:
            console.go(screen)
            assert console.page.title() == f"{screen.capitalize()} · Podium console"
            fill_screen(console, screen, seeded)
            assert console.message() == "", console.message()
            console.shot(f"{screen}{suffix}")
            # Nothing wider than the window: the page never scrolls sideways (wide tables stack on a phone).
            width = console.page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= size[0], f"{screen} is {width} px wide"
        console.assert_clean()
    finally:
        console.close()


# --- b. snapshots and the rank chart ----------------------------------------------------------------------------

def test_the_rank_history_chart_has_a_point_per_snapshot(console, podium):
    status, history = admin(podium, "GET", f"/v1/users/u-con-ada/rank-history?board={BOARD}&window=day")
    assert status == 200
    points = sorted(history["points"], key=lambda p: p["taken_at"])
    assert [p["rank"] for p in points][:2] == [1, 2], points  # the lead went to Bo between the two snapshots
    page = console.open("snapshots").page
    page.fill('#history-form input[name="user"]', "u-con-ada")
    page.fill('#history-form input[name="board"]', BOARD)
    page.select_option('#history-form select[name="window"]', "day")
    page.click('#history-form button[type="submit"]')
    chart = page.locator("#rank-history svg.chart")
    chart.wait_for(state="visible")
    assert chart.locator("circle").count() == len(points)
    line = chart.locator("polyline").get_attribute("points").split()
    assert len(line) == len(points)
    # Rank 1 is drawn above rank 2.
    ys = [float(xy.split(",")[1]) for xy in line]
    assert ys[0] < ys[1]
    assert page.locator("#rank-history .history-table tbody tr").count() == len(points)
    console.assert_clean()


# --- c. jobs --------------------------------------------------------------------------------------------------------

def test_jobs_read_their_schedules_in_words(console, podium):
    """The server says each schedule in words and gives its next slots: the card shows both, and parses no cron."""
    page = console.open("jobs").page
    page.locator(".job").first.wait_for(state="visible")
    assert page.evaluate("typeof window.podiumConsole") == "undefined", "no cron parser of its own"
    status, jobs = admin(podium, "GET", "/v1/admin/jobs")
    assert status == 200
    for job in jobs["jobs"]:
        card = page.locator(f'.job[data-job="{job["name"]}"]')
        assert card.locator("code").text_content() == job["cron"]
        assert len(job["next_slots"]) == 3
        assert card.locator(".next-slots li").count() == (0 if job["paused"] else 3)
    assert page.locator('.job[data-job="close-periods"] .words').text_content() == "every minute "
    assert page.locator('.job[data-job="prune"] .words').text_content() == "every day at 03:30 "
    console.assert_clean()


def test_run_now_shows_the_new_run(console, podium):
    name = "reconcile-rankings"
    status, before = admin(podium, "GET", f"/v1/admin/jobs/{name}/runs?limit=50")
    assert status == 200
    page = console.open("jobs").page
    card = page.locator(f'.job[data-job="{name}"]')
    card.wait_for(state="visible")
    card.locator("button.run-now").click()
    assert card.locator(".confirm-panel p").text_content() == (
        "Run reconcile-rankings now, outside its schedule? It compares the Redis rankings with PostgreSQL and repairs what differs.")
    card.locator("button.confirm-yes", has_text="Run reconcile-rankings now").click()
    expect(console.page.locator("#message-text")).to_have_text(re.compile(f"^{name}: a manual run for "))
    manual = card.locator('.runs-table tr[data-trigger="manual"][data-status="succeeded"]')
    manual.first.wait_for(state="visible")
    status, after = admin(podium, "GET", f"/v1/admin/jobs/{name}/runs?limit=50")
    new = [run for run in after["runs"] if run["slot"] not in {r["slot"] for r in before["runs"]}]
    # The job's own schedule (every 10 minutes) may add a run meanwhile; the button adds exactly one manual run.
    new_manual = [run for run in new if run["trigger"] == "manual"]
    assert [(run["trigger"], run["status"]) for run in new_manual] == [("manual", "succeeded")], new
    assert all(run["trigger"] in ("schedule", "catch-up") for run in new if run not in new_manual), new
    assert manual.count() == len([r for r in after["runs"] if r["trigger"] == "manual"])
    row = card.locator(f'.runs-table tr[data-slot="{new_manual[0]["slot"]}"]')
    assert row.locator(".trigger").text_content() == "manual"
    assert row.locator("td.run-status").text_content() == "succeeded"
    assert row.locator(".attempts").text_content().startswith("1#1 succeeded")
    assert re.fullmatch(r"\d+ ms|\d+\.\d s", row.locator(".duration").text_content())
    console.assert_clean()


# --- markup from the API stays text --------------------------------------------------------------------------------

def test_a_display_name_with_markup_renders_as_text(console, podium):
    page = console.open("players").page
    page.fill('#player-form input[name="user"]', "u-con-markup")
    page.click('#player-form button[type="submit"]')
    name = page.locator("#player .display-name")
    name.wait_for(state="visible")
    assert name.text_content() == MARKUP
    console.go("snapshots")
    page.fill('#snapshot-form input[name="board"]', BOARD)
    page.select_option('#snapshot-form select[name="window"]', "day")
    page.click('#snapshot-form button[type="submit"]')
    page.locator("#snapshot-results .snapshot").first.wait_for(state="visible")
    assert MARKUP in page.locator("#snapshot-results td.name").all_text_contents()
    # No element was made of it, nothing ran, and nothing fetched its image.
    assert page.locator("#app img, #app b").count() == 0
    assert console.dialogs == []
    assert not [url for url in console.requests if urllib.parse.urlsplit(url).path.endswith("/x")]
    console.shot("markup")
    console.assert_clean()


# --- e. keys --------------------------------------------------------------------------------------------------------

def test_a_new_keys_secret_is_shown_once_and_revoking_asks_first(console, podium):
    page = console.open("keys").page
    page.locator("#key-list table, #key-list .empty").first.wait_for(state="visible")
    page.fill('#key-form input[name="name"]', "console teacher key")
    page.select_option('#key-form select[name="role"]', "read")
    page.fill('#key-form input[name="scopes"]', f"{BOARD}, topic:*")
    page.click('#key-form button[type="submit"]')
    secret = page.locator("#new-secret")
    secret.wait_for(state="visible")
    value = secret.text_content()
    assert re.fullmatch(r"pdm_[A-Za-z0-9]{40}", value), value
    status, keys = admin(podium, "GET", "/v1/admin/api-keys")
    made = next(k for k in keys["keys"] if k["name"] == "console teacher key")
    assert made["role"] == "read" and made["scopes"] == [BOARD, "topic:*"] and made["prefix"] == value[:8]
    row = page.locator(f'#key-list tr[data-key="{made["id"]}"]')
    row.wait_for(state="visible")
    assert row.locator("td").nth(2).text_content() == f"{value[:8]}…"
    # The secret works.
    assert http_json("GET", f"{podium['base']}/v1/leaderboards/{BOARD}/all", value)[0] == 200
    page.click("#secret-box button.copy")
    page.wait_for_function("() => document.querySelector('.copy-status').textContent !== ''")
    console.shot("keys-secret")
    # Shown once: leaving and coming back, it is nowhere on the page.
    console.go("calendar")
    console.go("keys")
    page.locator(f'#key-list tr[data-key="{made["id"]}"]').wait_for(state="visible")
    assert page.locator("#new-secret").count() == 0
    assert value not in page.content()
    # Revoking asks first.
    row = page.locator(f'#key-list tr[data-key="{made["id"]}"]')
    row.locator("button", has_text="Revoke…").click()
    assert http_json("GET", f"{podium['base']}/v1/leaderboards/{BOARD}/all", value)[0] == 200
    assert row.locator(".confirm-panel p").text_content() == f"Revoke “console teacher key” ({value[:8]}…)? Clients using it stop working at once."
    row.locator("button", has_text="Revoke the key").click()
    # Revoked keys leave the default list, and are there when asked for.
    page.locator(f'#key-list tr[data-key="{made["id"]}"]').wait_for(state="detached")
    page.select_option('#key-view select[name="state"]', "revoked")
    page.locator(f'#key-list tr.revoked[data-key="{made["id"]}"]').wait_for(state="visible")
    assert http_json("GET", f"{podium['base']}/v1/leaderboards/{BOARD}/all", value)[0] == 401
    console.assert_clean()


def decode_qr(locator):
    """The text of the QR code `locator` shows, read from a screenshot by zxing-cpp (None when none is found)."""
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(locator.screenshot())), formats=zxingcpp.BarcodeFormat.QRCode)
    return found[0].text if found else None


def test_a_display_keys_answer_offers_its_link_to_copy_and_as_a_qr_code(console, podium, browser):
    page = console.open("keys").page
    page.locator("#key-list table, #key-list .empty").first.wait_for(state="visible")
    page.fill('#key-form input[name="name"]', "Room 12 TV")
    page.select_option('#key-form select[name="role"]', "display")
    page.fill('#key-form input[name="scopes"]', BOARD)
    page.click('#key-form button[type="submit"]')
    page.locator("#display-link").wait_for(state="visible")
    secret = page.text_content("#new-secret")
    link = page.text_content("#display-link")
    assert link == f"{podium['base']}/display/{BOARD}/week#key={secret}"
    assert decode_qr(page.locator("#display-qr")) == link, "the QR code opens the same link"
    page.locator("#secret-box button", has_text="Copy display link").click()
    page.wait_for_function("() => [...document.querySelectorAll('.copy-status')].some((s) => s.textContent !== '')")
    console.shot("keys-display-link")
    # The link works: its page shows the board with the key from its fragment.
    shown = browser.new_page()
    try:
        shown.goto(link)
        shown.locator("#entries tr").first.wait_for(state="visible")
        assert shown.text_content("#status") == ""
    finally:
        shown.close()
    console.assert_clean()


# The operator's zone in the expiry tests: the last day the console sends ends at 23:59:59 there.
OPERATOR_ZONE = "Europe/Paris"


def end_of_day(day, zone=OPERATOR_ZONE):
    """23:59:59 of `day` (a date) in `zone`, as the UTC instant the API reads back."""
    local = datetime.datetime.combine(day, datetime.time(23, 59, 59), tzinfo=zoneinfo.ZoneInfo(zone))
    return local.astimezone(datetime.timezone.utc)


def instant(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def open_keys(console):
    page = console.open("keys").page
    page.locator("#key-list table, #key-list .empty").first.wait_for(state="visible")
    return page


def test_a_key_made_with_a_last_day_expires_at_its_end_in_the_operators_zone_and_the_list_and_trail_say_so(browser, podium, seeded):
    console = Console(browser, podium, timezone_id=OPERATOR_ZONE)
    try:
        page = open_keys(console)
        assert page.text_content("#key-expiry-hint") == "No expiry: works until revoked."
        # The 31st of March next year, after the clocks go forward in Paris: 23:59:59 CEST is 21:59:59 UTC.
        day = datetime.date(datetime.date.today().year + 1, 3, 31)
        expires = end_of_day(day)
        assert expires.hour == 21
        run = secrets.token_hex(3)
        page.fill('#key-form input[name="name"]', f"term key {run}")
        page.select_option('#key-form select[name="role"]', "display")
        page.fill('#key-form input[name="scopes"]', BOARD)
        page.fill('#key-form input[name="expires"]', day.isoformat())
        assert page.text_content("#key-expiry-hint") == f"Stops working after {day:%a, %-d %b %Y}, 23:59 CEST."
        console.shot("keys-expiry-chosen")
        page.click('#key-form button[type="submit"]')
        page.locator("#new-secret").wait_for(state="visible")
        assert page.text_content("#secret-expiry") == f"It stops working after {day:%a, %-d %b %Y}, 23:59 CEST."
        assert page.input_value('#key-form input[name="expires"]') == "", "the form is empty again, with no expiry"
        assert page.text_content("#key-expiry-hint") == "No expiry: works until revoked."
        status, keys = admin(podium, "GET", "/v1/admin/api-keys")
        assert status == 200
        made = next(k for k in keys["keys"] if k["name"] == f"term key {run}")
        assert instant(made["expires_at"]) == expires, made
        # The list, and the key's own address its name links to, show the day and time it stops, in the operator's zone.
        row = page.locator(f'#key-list tr[data-key="{made["id"]}"]')
        for alone in (False, True):
            row.wait_for(state="visible")
            assert row.locator("td.expires").text_content() == f"{day:%-d %b %Y}, 23:59 CEST"
            assert row.locator("td.state").text_content() == "valid"
            assert page.locator("#key-list thead th").all_text_contents() == ["Name", "Role", "Scopes", "Prefix", "Created", "Expires", "State", ""]
            console.shot(f"keys-expiry-{'alone' if alone else 'listed'}")
            if not alone:
                row.locator("th a").click()
                page.wait_for_function("(id) => location.hash === `#keys/${id}`", arg=made["id"])
                expect(page.locator("#key-list tr[data-key]")).to_have_count(1)
        # The audit trail says which key was made, and when it expires.
        status, trail = admin(podium, "GET", "/v1/admin/audit?q=api-keys&limit=5")
        assert status == 200
        entry = next(e for e in trail["entries"] if made["id"] in (e.get("detail") or ""))
        assert entry["detail"] == f"display key {made['id']}, expires {expires:%Y-%m-%dT%H:%M:%S}.000Z", entry
        console.go("audit")
        page.fill('#audit-form input[name="q"]', "api-keys")
        page.click('#audit-form button[type="submit"]')
        row = page.locator(f'#audit-list tr[data-entry="{entry["id"]}"]')
        row.wait_for(state="visible")
        assert row.locator(".audit-detail").text_content() == entry["detail"]
        assert row.locator("td.target").text_content() == f"{entry['target']}{entry['detail']}"
        console.shot("audit-detail")
        console.assert_clean()
    finally:
        console.close()


def test_a_last_day_already_past_shows_the_servers_words(browser, podium, seeded):
    console = Console(browser, podium, timezone_id=OPERATOR_ZONE)
    try:
        page = open_keys(console)
        yesterday = datetime.datetime.now(zoneinfo.ZoneInfo(OPERATOR_ZONE)).date() - datetime.timedelta(days=1)
        sent = f"{end_of_day(yesterday):%Y-%m-%dT%H:%M:%S}.000Z"
        status, problem = admin(podium, "POST", "/v1/admin/api-keys", {"name": "too late", "role": "read", "expires_at": sent})
        assert status == 400 and [error["field"] for error in problem["errors"]] == ["expires_at"], problem
        page.fill('#key-form input[name="name"]', "too late")
        page.fill('#key-form input[name="expires"]', yesterday.isoformat())
        page.click('#key-form button[type="submit"]')
        page.locator("#message.error").wait_for(state="visible")
        assert console.message() == problem["detail"]
        assert page.locator("#new-secret").count() == 0
        assert not [k for k in admin(podium, "GET", "/v1/admin/api-keys")[1]["keys"] if k["name"] == "too late"]
        console.shot("keys-expiry-past")
        assert f"HTTP 400: {podium['base']}/v1/admin/api-keys" in console.problems
        console.problems.clear()  # the 400 was asked for
        console.assert_clean()
    finally:
        console.close()


def test_an_expired_key_is_shown_as_expired_and_only_when_asked_for(console, podium):
    run = secrets.token_hex(3)
    tomorrow = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1)
    status, made = admin(podium, "POST", "/v1/admin/api-keys", {"name": f"old term {run}", "role": "read",
                                                                "expires_at": f"{tomorrow:%Y-%m-%dT%H:%M:%S}Z"})
    assert status == 201 and made["key"]["expires_at"], made
    # The console reads its own clock: two days on, that key has expired (as it has for the server by then).
    console.page.clock.set_fixed_time(time.time() + 2 * 86400)
    page = open_keys(console)
    row = page.locator(f'#key-list tr[data-key="{made["key"]["id"]}"]')
    page.fill('#key-view input[name="q"]', run)
    expect(page.locator("#key-view .list-body")).to_have_text("Nothing matches.")
    page.select_option('#key-view select[name="state"]', "expired")
    row.wait_for(state="visible")
    assert row.get_attribute("class") == "expired"
    assert row.locator("td.state").text_content() == "expired"
    assert row.locator("td.state .badge.bad").count() == 1
    page.select_option('#key-view select[name="state"]', "revoked")
    expect(page.locator("#key-view .list-body")).to_have_text("Nothing matches.")
    page.select_option('#key-view select[name="state"]', "")
    row.wait_for(state="visible")
    console.shot("keys-expired")
    console.assert_clean()


@pytest.mark.parametrize("length", [17, 80, 200, 500, 1200])
def test_the_consoles_qr_codes_decode_to_their_text_at_every_size(browser, podium, length):
    """Versions 1 to about 27 of the code (17 to 1,200 bytes), each drawn where the console shows a new display key's
    link (240 px, read at three device pixels per CSS pixel) and decoded from the screen. The test answers the key's
    creation itself, with a link of that length (no key is made); the console's own requests go to Podium."""
    text = ("https://podium.example.org/display/group:class-4b/week#key=pdm_" + string.ascii_letters * 30)[:length]
    created = {"secret": "pdm_" + "q" * 40, "display_url": text,
               "key": {"id": "qr-size", "name": f"QR of {length} bytes", "prefix": "pdm_qqqq", "role": "display",
                       "scopes": [BOARD], "created_at": "2026-11-27T17:44:16.736Z"}}
    console = Console(browser, podium, device_scale_factor=3)
    try:
        page = console.open("keys").page
        page.route("**/v1/admin/api-keys", lambda route: route.fulfill(status=201, json=created)
                   if route.request.method == "POST" else route.continue_())
        page.fill('#key-form input[name="name"]', created["key"]["name"])
        page.select_option('#key-form select[name="role"]', "display")
        page.fill('#key-form input[name="scopes"]', BOARD)
        page.click('#key-form button[type="submit"]')
        page.locator("#display-qr").wait_for(state="visible")
        assert page.text_content("#display-link") == text
        assert decode_qr(page.locator("#display-qr")) == text
        console.assert_clean()
    finally:
        console.close()


# --- d. calendar, f. webhooks, g. players --------------------------------------------------------------------------

def test_closed_days_are_added_and_removed(console, podium):
    day = (datetime.date.today() + datetime.timedelta(days=60)).isoformat()
    page = console.open("calendar").page
    page.locator("#closed-days table").wait_for(state="visible")
    page.fill('#closed-day-form input[name="day"]', day)
    page.fill('#closed-day-form input[name="note"]', "Sports day")
    page.click('#closed-day-form button[type="submit"]')
    row = page.locator(f'#closed-days tr[data-day="{day}"]')
    row.wait_for(state="visible")
    assert row.locator("td").nth(1).text_content() == "Sports day"
    status, days = admin(podium, "GET", "/v1/admin/calendar/closed-days")
    assert {"day": day, "note": "Sports day"} in days["closed_days"]
    row.locator("button", has_text="Remove…").click()
    row.locator("button.confirm-yes", has_text=f"Open {day}").click()
    row.wait_for(state="detached")
    status, days = admin(podium, "GET", "/v1/admin/calendar/closed-days")
    assert day not in [d["day"] for d in days["closed_days"]]
    console.assert_clean()


def test_a_dead_delivery_is_resent(console, podium, seeded):
    hook_id = seeded["webhook"]["id"]
    status, answer = admin(podium, "GET", f"/v1/admin/webhooks/{hook_id}/deliveries?limit=50")
    dead = next(d for d in answer["deliveries"] if d["status"] == "dead")
    page = console.open("webhooks").page
    hook = page.locator(f'.webhook[data-webhook="{hook_id}"]')
    hook.locator("button.show-deliveries").click()
    row = hook.locator(f'.deliveries tr[data-delivery="{dead["id"]}"]')
    row.wait_for(state="visible")
    assert row.get_attribute("data-status") == "dead"
    row.locator("button.resend").click()
    row.locator("button.confirm-yes", has_text="Resend it").click()
    page.wait_for_function("() => document.getElementById('message-text').textContent !== ''")
    assert console.message() == f"Delivery {dead['id']} is queued again."

    # The receiver is still down: it is tried once more, then dead again.
    def tried_again():
        status, answer = admin(podium, "GET", f"/v1/admin/webhooks/{hook_id}/deliveries?limit=50")
        again = next(d for d in answer["deliveries"] if d["id"] == dead["id"])
        return again if again["attempts"] > dead["attempts"] and again["status"] == "dead" else None
    again = wait_for(tried_again, "the resent delivery's attempt")
    assert again["attempts"] == dead["attempts"] + 1
    console.assert_clean()


def test_an_api_error_shows_its_problem_detail_until_the_next_action_and_notices_stay_until_dismissed(console, podium):
    status, problem = admin(podium, "POST", "/v1/admin/api-keys", {"name": "bad scope", "role": "read", "scopes": ["planet:mars"]})
    assert status == 400
    console.page.clock.install()
    page = console.open("keys").page
    page.locator("#key-list table, #key-list .empty").first.wait_for(state="visible")
    page.fill('#key-form input[name="name"]', "bad scope")
    page.fill('#key-form input[name="scopes"]', "planet:mars")
    page.click('#key-form button[type="submit"]')
    page.locator("#message.error").wait_for(state="visible")
    assert console.message() == problem["detail"]
    page.clock.fast_forward("00:30")
    assert page.locator("#message.error").is_visible(), "an error stays until the next action"
    # The next action takes it away; a success notice stays until it is dismissed.
    page.fill('#key-form input[name="scopes"]', "")
    page.click('#key-form button[type="submit"]')
    page.locator("#new-secret").wait_for(state="visible")
    assert page.locator("#message").is_hidden()
    made = page.text_content("#new-secret")[:8]
    row = page.locator("#key-list tr", has_text=f"{made}…")
    row.locator("button", has_text="Revoke…").click()
    row.locator("button.confirm-yes").click()
    page.locator("#message.notice").wait_for(state="visible")
    assert console.message() == f"Key “bad scope” ({made}…) is revoked."
    page.clock.fast_forward("10:00")
    assert page.locator("#message.notice").is_visible(), "a notice stays until it is read"
    assert console.message() == f"Key “bad scope” ({made}…) is revoked."
    page.click("#message-close")
    page.locator("#message").wait_for(state="hidden")
    console.problems.clear()  # the 400 above was asked for


def test_erasing_a_player_needs_the_id_typed(console, podium):
    post_completion(podium, completion("c-con-erase", "u-con-erase", "easy", display_name="Leaving"))
    page = console.open("players").page
    page.fill('#player-form input[name="user"]', "u-con-erase")
    page.click('#player-form button[type="submit"]')
    page.locator("#player .profile").wait_for(state="visible")
    erase = page.locator('#erase-form button[type="submit"]')
    assert erase.is_disabled()
    page.fill('#erase-form input[name="confirm"]', "u-con-eras")
    assert erase.is_disabled()
    page.fill('#erase-form input[name="confirm"]', "u-con-erase")
    assert erase.is_enabled()
    console.shot("erase")
    erase.click()
    page.locator("#player .erased").wait_for(state="visible")
    assert page.text_content("#player .erased") == "u-con-erase was erased everywhere."
    assert admin(podium, "GET", "/v1/users/u-con-erase")[0] == 404
    console.assert_clean()


# --- the console at scale (issue 26, part 2) ------------------------------------------------------------------------

def test_contests_are_searched_filtered_and_paged_with_cancelled_ones_hidden(console, podium):
    run = secrets.token_hex(3)
    now = int(time.time()) // 60 * 60
    at = lambda offset: time.strftime("%Y-%m-%dT%H:%M:00Z", time.gmtime(now + offset))
    for index in range(30):
        status, made = admin(podium, "POST", "/v1/admin/contests", {
            "id": f"page-{run}-{index:02d}", "title": f"Paging {run} {index:02d}", "scope": [BOARD],
            "starts_at": at(-3600 + index * 60), "ends_at": at(7200 + index * 60)})
        assert status == 201, made
    for index in (3, 7):
        assert admin(podium, "POST", f"/v1/admin/contests/page-{run}-{index:02d}/cancel")[0] == 200
    page = console.open("contests").page
    page.fill('#contest-filters input[name="q"]', f"paging {run}")
    page.click('#contest-filters button[type="submit"]')
    status_text = page.locator("#screen-contests .pager-status")
    expect(status_text).to_have_text("1–25 of 28")
    shown = page.locator("#contest-list tr[data-contest]")
    # Running, ending soonest first: 00, 01, 02, 04, … (03 and 07 cancelled, so hidden).
    expected = [f"page-{run}-{index:02d}" for index in range(30) if index not in (3, 7)]
    assert [row.get_attribute("data-contest") for row in shown.all()] == expected[:25]
    page.click("#screen-contests button.pager-next")
    expect(status_text).to_have_text("26–28 of 28")
    assert [row.get_attribute("data-contest") for row in shown.all()] == expected[25:]
    assert page.locator("#screen-contests button.pager-next").is_disabled()
    page.select_option('#contest-filters select[name="status"]', "cancelled")
    expect(status_text).to_have_text("1–2 of 2")
    # Cancelled ones latest first: 07 ran later than 03.
    assert [row.get_attribute("data-contest") for row in shown.all()] == [f"page-{run}-07", f"page-{run}-03"]
    console.shot("contests-paged")
    console.assert_clean()


def test_players_are_found_by_name_and_medals_show_names(console, podium):
    run = secrets.token_hex(3)
    group = f"named-{run}"
    contest = f"named-{run}"
    now = int(time.time()) // 60 * 60
    status, made = admin(podium, "POST", "/v1/admin/contests", {
        "id": contest, "title": "Named medals", "scope": [f"group:{group}"],
        "starts_at": time.strftime("%Y-%m-%dT%H:%M:00Z", time.gmtime(now - 600)),
        "ends_at": time.strftime("%Y-%m-%dT%H:%M:00Z", time.gmtime(now + 3000))})
    assert status == 201, made
    named = [(f"u-{run}-a", "hard", f"Zanele {run}"), (f"u-{run}-b", "medium", None), (f"u-{run}-c", "easy", f"Ximena {run}")]
    for index, (user, difficulty, name) in enumerate(named):
        post_completion(podium, completion(f"{run}-{index}", user, difficulty, display_name=name, group=group))

    page = console.open("players").page
    page.fill('#player-form input[name="user"]', f"ENA {run}")  # part of "Ximena …", in any case
    page.click('#player-form button[type="submit"]')
    page.locator("#player .profile").wait_for(state="visible")
    assert page.text_content("#player .user-id") == f"u-{run}-c", "one player found is shown at once"
    page.fill('#player-form input[name="user"]', f"u-{run}")
    page.click('#player-form button[type="submit"]')
    rows = page.locator("#player-matches tr[data-user]")
    expect(rows).to_have_count(3)
    assert [row.locator("td").first.text_content() for row in rows.all()] == [f"Zanele {run}", "no display name", f"Ximena {run}"]
    rows.nth(0).locator("button.show-player").click()
    page.locator("#player .profile").wait_for(state="visible")
    assert page.text_content("#player .display-name") == f"Zanele {run}"
    console.shot("players-found")

    # The dry run of the contest's close names its medallists.
    console.go("contests")
    page.fill('#contest-filters input[name="q"]', contest)
    page.click('#contest-filters button[type="submit"]')
    page.locator(f'#contest-list tr[data-contest="{contest}"] button.close').click()
    preview = page.locator(f'#contest-list tr[data-contest="{contest}"] + tr .close-preview')
    expect(preview.locator("li")).to_have_count(3)
    assert preview.locator(".medal-name").all_text_contents() == [f"Zanele {run}", "no display name", f"Ximena {run}"]
    assert preview.locator(".medal-user").all_text_contents() == [user for user, _, _ in named]
    console.assert_clean()


class Receiver(http.server.BaseHTTPRequestHandler):
    """A webhook receiver on loopback: answers 200 and keeps each request (headers and body) in `received`."""
    received = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"] or 0)).decode()
        Receiver.received.append((dict(self.headers), body))
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def test_a_webhook_is_created_tested_and_deleted_from_the_console(console, podium):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/hooks/podium-{secrets.token_hex(3)}"
        secret = "console-webhook-secret-" + secrets.token_hex(8)
        page = console.open("webhooks").page
        page.fill('#webhook-form input[name="url"]', url)
        page.fill('#webhook-form input[name="secret"]', secret)
        page.check('#webhook-form input[value="medal.awarded"]')
        page.check('#webhook-form input[value="level.reached"]')
        page.click('#webhook-form button[type="submit"]')
        page.fill('#webhook-view input[name="q"]', url)
        card = page.locator(".webhook", has_text=url)
        card.wait_for(state="visible")
        hook_id = card.get_attribute("data-webhook")
        status, hooks = admin(podium, "GET", "/v1/admin/webhooks")
        made = next(h for h in hooks["webhooks"] if h["id"] == hook_id)
        assert made["url"] == url and made["event_types"] == ["level.reached", "medal.awarded"] and made["enabled"]

        card.locator("button.test-webhook").click()
        result = card.locator(".test-result")
        expect(result).to_have_text(re.compile(r"^Delivered: the receiver answered 200 in \d+ ms \(evt_test_[0-9a-f]{16}\)\.$"))
        headers, body = Receiver.received[-1]
        assert headers["Podium-Event-Type"] == "webhook.test"
        event = json.loads(body)
        assert event["type"] == "webhook.test" and event["data"] == {"webhook_id": hook_id} and event["id"] in result.text_content()
        timestamp, signature = (part.split("=", 1)[1] for part in headers["Podium-Signature"].split(","))
        assert signature == hmac.new(secret.encode(), f"{timestamp}.{body}".encode(), hashlib.sha256).hexdigest()
        status, deliveries = admin(podium, "GET", f"/v1/admin/webhooks/{hook_id}/deliveries")
        assert deliveries["deliveries"] == [], "a test event is not a delivery"
        console.shot("webhook-tested")

        card.locator("button.delete-webhook").click()
        assert card.locator(".confirm-panel p").text_content().startswith(f"Delete the webhook to {url}?")
        assert admin(podium, "GET", f"/v1/admin/webhooks/{hook_id}/deliveries")[0] == 200, "asking first changes nothing"
        card.locator("button.confirm-yes", has_text="Delete the webhook").click()
        card.wait_for(state="detached")
        assert admin(podium, "GET", f"/v1/admin/webhooks/{hook_id}/deliveries")[0] == 404
        expect(page.locator("#message-text")).to_have_text(f"The webhook to {url} is deleted.")
        console.assert_clean()
    finally:
        server.shutdown()
        server.server_close()


def test_the_audit_trail_shows_who_did_what(console, podium):
    day = (datetime.date.today() + datetime.timedelta(days=90)).isoformat()
    page = console.open("calendar").page
    page.fill('#closed-day-form input[name="day"]', day)
    page.fill('#closed-day-form input[name="note"]', "Audit day")
    page.click('#closed-day-form button[type="submit"]')
    page.locator(f'#closed-days tr[data-day="{day}"]').wait_for(state="visible")
    console.go("audit")
    page.fill('#audit-form input[name="q"]', day)
    page.click('#audit-form button[type="submit"]')
    row = page.locator("#audit-list tr[data-entry]")
    expect(row).to_have_count(1)
    cells = row.locator("td").all_text_contents()
    assert cells[1] == "bootstrap keybootstrap" and cells[2] == "PUT /v1/admin/calendar/closed-days/{day}"
    assert cells[3] == f"/v1/admin/calendar/closed-days/{day}" and cells[4] == "200"
    status, trail = admin(podium, "GET", f"/v1/admin/audit?q={day}")
    assert [entry["request_id"] for entry in trail["entries"]] == [cells[5]]
    console.shot("audit")
    console.assert_clean()


def test_the_erase_confirmation_shows_the_id_as_it_is_typed(console, podium):
    post_completion(podium, completion("c-con-case", "u-Con-Case", "easy"))
    page = console.open("players").page
    page.fill('#player-form input[name="user"]', "u-Con-Case")
    page.click('#player-form button[type="submit"]')
    page.locator("#player .profile").wait_for(state="visible")
    shown = page.locator("#erase-form .confirm-id")
    assert shown.text_content() == "u-Con-Case"
    assert shown.evaluate("(code) => getComputedStyle(code).textTransform") == "none"
    assert shown.inner_text() == "u-Con-Case", "rendered as stored, not in capitals"
    page.fill('#erase-form input[name="confirm"]', shown.inner_text())
    assert page.locator('#erase-form button[type="submit"]').is_enabled()
    console.assert_clean()


def test_an_ended_period_still_in_its_grace_offers_its_dry_run(browser, tmp_path):
    """A period that has ended but not yet closed (inside its 15-minute grace) can be closed early, after a dry run:
    a contest's run, made to end ten minutes from now, seen by a Podium (and a browser) whose clock is 15 minutes
    ahead, so it ended five minutes ago. On a database and Redis db 13 of its own (test_docs.py empties db 13 again)."""
    library = clock_shift_library(tmp_path)
    key = new_admin_key()
    contest = "ended-just-now"
    now = int(time.time()) // 60 * 60
    at = lambda offset: time.strftime("%Y-%m-%dT%H:%M:00Z", time.gmtime(now + offset))
    with own_storage("podium_console", 13) as (database, redis):
        process, base, log = start_podium(database, redis, key, "podium-console-grace-today.log")
        try:
            status, made = admin({"base": base, "admin_key": key}, "POST", "/v1/admin/contests", {
                "id": contest, "title": "Ended just now", "scope": [BOARD], "starts_at": at(-1800), "ends_at": at(600)})
            assert status == 201, made
        finally:
            stop(process)
            log.close()
        process, base, log = start_podium(database, redis, key, "podium-console-grace-shifted.log",
                                          LD_PRELOAD=str(library), PODIUM_CLOCK_SHIFT_SECONDS="900")
        shifted = {"base": base, "admin_key": key}
        console = Console(browser, shifted)
        try:
            status, listed = admin(shifted, "GET", f"/v1/admin/periods/contest:{contest}/contest?limit=5")
            assert status == 200, listed
            ended = listed["periods"][0]
            assert ended["status"] == "open", "ended five minutes ago (on this clock), it closes ten minutes from now"
            console.page.clock.set_fixed_time(time.time() + 900)  # the browser's clock agrees with the server's
            console.open("boards")
            card = show_board(console, f"contest:{contest}")
            card.locator('tr[data-window="contest"] button').click()
            row = card.locator(f'.periods[data-window="contest"] tr[data-period="{ended["period"]}"]')
            row.wait_for(state="visible")
            assert row.get_attribute("data-status") == "open"
            row.locator("button.close").click()
            expect(card.locator(".close-preview h3")).to_have_text("Dry run: 0 players; closing would award")
            status, listed = admin(shifted, "GET", f"/v1/admin/periods/contest:{contest}/contest?limit=5")
            assert listed["periods"][0]["status"] == "open", "the dry run wrote nothing"
            console.assert_clean()
        finally:
            console.close()
            stop(process)
            log.close()


def past_league_week(database, league, players):
    """A league whose week 2020-W10 is long over, written in SQL (as ops/bench/seed-league.sql): `players` players,
    bronze and silver, cohorts of 3, each player of cohort n of a tier scoring 3, 2 and 1 in turn."""
    sql = f"""
        INSERT INTO users (user_id, display_name, points, completions, correct_answers, total_answers, created_at, updated_at)
        SELECT '{league}-p' || g, 'Past ' || g, 1, 1, 1, 1, now(), now() FROM generate_series(0, {players} - 1) g;
        INSERT INTO leagues (id, name, scope, time_zone, tiers, cohort_size, metric, tie_break, medals, created_at)
        VALUES ('{league}', 'Past league', '{{group:{GROUP}}}', 'UTC',
                '[{{"name": "bronze", "title": "Bronze", "up": 1, "down": 0}}, {{"name": "silver", "title": "Silver", "up": 0, "down": 1}}]',
                3, 'points', 'shared', true, '2020-01-01T00:00:00Z');
        INSERT INTO league_entries (league_id, period, user_id, tier, cohort, placed_at)
        SELECT '{league}', '2020-W10', '{league}-p' || g, g % 2, (g / 2) / 3 + 1, '2020-03-02T08:00:00Z' FROM generate_series(0, {players} - 1) g;
        INSERT INTO league_cohorts SELECT league_id, period, tier, cohort, count(*) FROM league_entries WHERE league_id = '{league}'
        GROUP BY league_id, period, tier, cohort;
        INSERT INTO board_current_scores (board, user_id, updated_at, week_period, week_score, week_reached_at)
        SELECT 'league:{league}:' || (ARRAY['bronze', 'silver'])[tier + 1] || ':' || cohort, user_id, '2020-03-05T12:00:00Z', period,
               3 - (row_number() OVER (PARTITION BY tier, cohort ORDER BY user_id) - 1) % 3, '2020-03-05T12:00:00Z'
        FROM league_entries WHERE league_id = '{league}';
        INSERT INTO board_periods (board, board_window, period, ends_at)
        SELECT DISTINCT board, 'week', '2020-W10', timestamptz '2020-03-09T00:00:00Z' FROM board_current_scores WHERE board LIKE 'league:{league}:%';
        SELECT pg_notify('podium_contests', '');
    """
    subprocess.run([psql_binary(), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", database, "-c", sql],
                   check=True, stdin=subprocess.DEVNULL, timeout=60)


def test_a_league_is_created_its_week_dry_run_shown_and_a_past_week_closed(console, podium, database):
    run = secrets.token_hex(3)
    page = console.open("leagues").page
    page.locator("#league-list table, #league-list .empty").first.wait_for(state="visible")
    league = f"weekly-{run}"
    page.fill('#league-form input[name="id"]', league)
    page.fill('#league-form input[name="name"]', "Console league")
    page.fill('#league-form input[name="scope"]', BOARD)
    page.fill('#league-form input[name="tiers"]', "Bronze, Silver, Gold")
    page.fill('#league-form input[name="cohort_size"]', "3")
    page.fill('#league-form input[name="up"]', "1")
    page.fill('#league-form input[name="down"]', "1")
    page.fill('#league-view input[name="q"]', league)
    page.click('#league-form button[type="submit"]')
    row = page.locator(f'#league-list tr[data-league="{league}"]')
    row.wait_for(state="visible")
    status, shown = admin(podium, "GET", f"/v1/leagues/{league}")
    assert status == 200 and [t["name"] for t in shown["tiers"]] == ["bronze", "silver", "gold"]
    assert [(t["up"], t["down"]) for t in shown["tiers"]] == [(1, 0), (1, 1), (0, 1)]
    expect(page.locator("#message-text")).to_have_text(f"League “Console league” created: 3 tiers, week {shown['week']['period']}.")

    # Four players this week: three fill bronze cohort 1, the fourth opens cohort 2.
    players = [(f"u-{run}-{index}", difficulty) for index, difficulty in enumerate(["hard", "medium", "easy", "easy"])]
    for index, (user, difficulty) in enumerate(players):
        answer = post_completion(podium, completion(f"{league}-{index}", user, difficulty))
        assert f"league:{league}:bronze:{1 if index < 3 else 2}" in [r["board"] for r in answer["ranks"]]
    row.locator("button.week").click()
    view = page.locator(f'#league-list tr[data-league="{league}"] + tr .week-view')
    expect(view.locator(".week-state")).to_have_text("4 players in 2 cohorts, 0 closed: shown as if the week closed now.")
    bronze = view.locator('.league-summary tr[data-tier="bronze"] td')
    assert [bronze.nth(i).text_content() for i in range(6)] == ["2", "4", "2", "0", "2", "4"]
    first = view.locator(f'.cohort[data-board="league:{league}:bronze:1"]')
    first.locator("summary").click()
    assert [r.get_attribute("data-move") for r in first.locator("tr[data-move]").all()] == ["promoted", "stayed", "stayed"]
    assert view.locator("button.close-week").count() == 0, "the week under way cannot close"
    console.shot("league-week")

    # Ended after a confirmation (pausing and resuming ask too: test_pausing_resuming_and_ending_a_league_ask_first).
    page.locator(f'#league-list tr[data-league="{league}"] button.end-league').click()
    page.locator(f'#league-list tr[data-league="{league}"] + tr .confirm-yes').click()
    expect(page.locator(f'#league-list tr[data-league="{league}"]')).to_have_attribute("data-status", "ended")
    assert admin(podium, "GET", f"/v1/leagues/{league}")[1]["status"] == "ended"

    # A week long over: its dry run, then the close of its four cohorts after a confirmation.
    past = f"past-{run}"
    past_league_week(database, past, 12)
    wait_for(lambda: admin(podium, "GET", f"/v1/leagues/{past}")[0] == 200, "the server to read the new league")
    console.go("boards")
    console.go("leagues")
    page.fill('#league-view input[name="q"]', past)
    past_row = page.locator(f'#league-list tr[data-league="{past}"]')
    past_row.locator("button.week").click()
    view = page.locator(f'#league-list tr[data-league="{past}"] + tr .week-view')
    view.locator('input[name="period"]').fill("2020-W10")
    view.locator('button[type="submit"]').click()
    expect(view.locator(".week-state")).to_have_text("12 players in 4 cohorts, 0 closed: the week has ended.")
    view.locator("button.close-week").click()
    confirm = page.locator(f'#league-list tr[data-league="{past}"] + tr .confirm-panel')
    expect(confirm.locator("p")).to_contain_text("Bronze: 2 up, 0 down; Silver: 0 up, 2 down")
    console.shot("league-close-confirm")
    confirm.locator(".confirm-yes").click()
    expect(page.locator("#message-text")).to_have_text("Week 2020-W10 of “Past league”: 4 of 4 cohorts closed.")
    view = page.locator(f'#league-list tr[data-league="{past}"] + tr .week-view')
    expect(view.locator(".week-state")).to_have_text("12 players in 4 cohorts, 4 closed.")
    assert view.locator(".cohort .badge.closed").count() == 4
    status, mine = admin(podium, "GET", f"/v1/users/{past}-p0/leagues")
    assert status == 200 and mine["leagues"][0]["tier"] == "silver", "p0 led bronze cohort 1 and moved up"
    console.shot("league-closed")
    console.assert_clean()


# --- the console's leagues, messages and addresses (issue 34, 14-17) ---------------------------------------------------

def create_league(podium, league, name, scope):
    status, made = admin(podium, "POST", "/v1/admin/leagues", {
        "id": league, "name": name, "scope": [scope], "time_zone": "UTC", "cohort_size": 10, "up": 2, "down": 2,
        "tiers": [{"name": "bronze", "title": "Bronze"}, {"name": "silver", "title": "Silver"}]})
    assert status == 201, made
    return made


def test_pausing_resuming_and_ending_a_league_ask_first(console, podium):
    run = secrets.token_hex(3)
    # "0-…" sorts first among the leagues still counting, so its row is on the list's first page.
    league = f"0-ask-{run}"
    create_league(podium, league, f"Asking {run}", f"group:ask-{run}")
    page = console.open("leagues").page
    row = page.locator(f'#league-list tr[data-league="{league}"]')
    ask = page.locator(f'#league-list tr[data-league="{league}"] + tr .confirm-panel')
    row.locator("button.pause-league").click()
    expect(ask.locator("p")).to_have_text(
        f"Pause the league “Asking {run}”? No completion counts until it is resumed; its weeks still close at their end.")
    assert ask.locator("button").all_text_contents() == ["Pause the league", "Go back"]
    assert admin(podium, "GET", f"/v1/leagues/{league}")[1]["status"] == "active", "asking first changes nothing"
    console.shot("league-pause-confirm")
    ask.locator("button.confirm-no").click()
    expect(ask).to_have_count(0)
    assert admin(podium, "GET", f"/v1/leagues/{league}")[1]["status"] == "active", "going back changes nothing"

    row.locator("button.pause-league").click()
    ask.locator("button.confirm-yes").click()
    expect(row).to_have_attribute("data-status", "paused")
    expect(page.locator("#message-text")).to_have_text(f"League “Asking {run}” is paused: no completion counts until it is resumed.")
    assert admin(podium, "GET", f"/v1/leagues/{league}")[1]["status"] == "paused"

    row.locator("button.resume-league").click()
    expect(ask.locator("p")).to_have_text(f"Resume the league “Asking {run}”? Completions count again from now on.")
    assert admin(podium, "GET", f"/v1/leagues/{league}")[1]["status"] == "paused", "asking first changes nothing"
    ask.locator("button.confirm-yes").click()
    expect(row).to_have_attribute("data-status", "active")
    assert admin(podium, "GET", f"/v1/leagues/{league}")[1]["status"] == "active"

    row.locator("button.end-league").click()
    expect(ask.locator("p")).to_contain_text(f"End the league “Asking {run}”?")
    assert admin(podium, "GET", f"/v1/leagues/{league}")[1]["status"] == "active", "asking first changes nothing"
    ask.locator("button.confirm-yes").click()
    expect(page.locator("#message-text")).to_have_text(f"League “Asking {run}” has ended.")
    assert admin(podium, "GET", f"/v1/leagues/{league}")[1]["status"] == "ended"
    console.assert_clean()


def test_leagues_are_searched_filtered_and_paged_with_ended_ones_last(console, podium):
    run = secrets.token_hex(3)
    ids = [f"paging-{run}-{index:03d}" for index in range(243)]
    for index, league in enumerate(ids):
        create_league(podium, league, f"Paging {run} {index:03d}", f"group:paging-{run}")
    for league in ids[:10]:
        assert admin(podium, "POST", f"/v1/admin/leagues/{league}/end")[0] == 200
    for league in ids[10:15]:
        assert admin(podium, "POST", f"/v1/admin/leagues/{league}/pause")[0] == 200
    # Those still counting (active or paused) by id, then the ended ones.
    expected = ids[10:] + ids[:10]
    page = console.open("leagues").page
    page.fill('#league-view input[name="q"]', f"paging {run}")
    status_text = page.locator("#screen-leagues .pager-status")
    shown = page.locator("#league-list tr[data-league]")
    expect(status_text).to_have_text("1–25 of 243")
    assert [row.get_attribute("data-league") for row in shown.all()] == expected[:25]
    console.shot("leagues-paged")
    page.click("#screen-leagues button.pager-next")
    expect(status_text).to_have_text("26–50 of 243")
    assert [row.get_attribute("data-league") for row in shown.all()] == expected[25:50]
    page.click("#screen-leagues button.pager-previous")
    expect(status_text).to_have_text("1–25 of 243")
    page.select_option('#league-view select[name="status"]', "ended")
    expect(status_text).to_have_text("1–10 of 10")
    assert [row.get_attribute("data-league") for row in shown.all()] == ids[:10]
    assert page.locator("#screen-leagues button.pager-next").is_disabled()
    page.select_option('#league-view select[name="status"]', "paused")
    expect(status_text).to_have_text("1–5 of 5")
    assert [row.get_attribute("data-status") for row in shown.all()] == ["paused"] * 5
    page.select_option('#league-view select[name="status"]', "active")
    page.fill('#league-view input[name="q"]', f"paging {run} 24")  # names 240, 241 and 242
    expect(status_text).to_have_text("1–3 of 3")
    assert [row.get_attribute("data-league") for row in shown.all()] == ids[240:]
    console.assert_clean()


# --- goals -------------------------------------------------------------------------------------------------------

def test_a_class_goal_is_created_listed_and_paused_resumed_and_ended_after_asking(console, podium):
    run = secrets.token_hex(3)
    goal = f"right-{run}"
    # A class goal needs groups: sent with the form's first choices and scope, the server's words say so.
    status, problem = admin(podium, "POST", "/v1/admin/goals", {
        "id": goal, "title": f"Class {run}: 40 right answers", "kind": "class", "scope": ["global"], "measure": "completions",
        "target": 3, "window": "day", "time_zone": "UTC"})
    assert status == 400 and "must list groups" in problem["detail"], problem
    page = console.open("goals").page
    page.locator("#goal-list table, #goal-list .empty").first.wait_for(state="visible")
    page.fill('#goal-view input[name="q"]', goal)
    page.fill('#goal-form input[name="id"]', goal)
    page.fill('#goal-form input[name="title"]', f"Class {run}: 40 right answers")
    page.select_option('#goal-form select[name="kind"]', "class")
    page.click('#goal-form button[type="submit"]')
    page.locator("#message.error").wait_for(state="visible")
    assert console.message() == problem["detail"]
    assert admin(podium, "GET", f"/v1/goals/{goal}")[0] == 404

    page.fill('#goal-form input[name="scope"]', f"group:goals-{run}")
    page.select_option('#goal-form select[name="measure"]', "correct")
    page.fill('#goal-form input[name="target"]', "40")
    page.select_option('#goal-form select[name="window"]', "week")
    page.fill('#goal-form input[name="time_zone"]', "Europe/London")
    page.click('#goal-form button[type="submit"]')
    row = page.locator(f'#goal-list tr[data-goal="{goal}"]')
    row.wait_for(state="visible")
    status, made = admin(podium, "GET", f"/v1/goals/{goal}")
    assert status == 200, made
    assert ({k: made[k] for k in ("title", "kind", "scope", "measure", "target", "window", "time_zone", "status")}
            == {"title": f"Class {run}: 40 right answers", "kind": "class", "scope": [f"group:goals-{run}"], "measure": "correct",
                "target": 40, "window": "week", "time_zone": "Europe/London", "status": "active"})
    expect(page.locator("#message-text")).to_have_text(
        f"Goal “Class {run}: 40 right answers” created: 40 correct answers a week, class, period {made['period']}.")
    cells = [cell.text_content() for cell in row.locator("th, td").all()]
    assert cells[:5] == [f"Class {run}: 40 right answers{goal}", "class: each group's", f"group:goals-{run}",
                         "40 correct answers a weekcorrect · week · Europe/London", "active"], cells
    assert cells[5].startswith(f"{made['period']} until "), cells[5]
    console.shot("goal-created")

    ask = page.locator(f'#goal-list tr[data-goal="{goal}"] + tr .confirm-panel')
    row.locator("button.pause-goal").click()
    expect(ask.locator("p")).to_have_text(
        f"Pause the goal “Class {run}: 40 right answers”? No completion counts toward it until it is resumed; progress made so far stays.")
    assert ask.locator("button").all_text_contents() == ["Pause the goal", "Go back"]
    assert admin(podium, "GET", f"/v1/goals/{goal}")[1]["status"] == "active", "asking first changes nothing"
    ask.locator("button.confirm-yes").click()
    expect(row).to_have_attribute("data-status", "paused")
    expect(row.locator(".badge.status")).to_have_text("paused")
    expect(page.locator("#message-text")).to_have_text(
        f"Goal “Class {run}: 40 right answers” is paused: no completion counts toward it until it is resumed.")
    assert admin(podium, "GET", f"/v1/goals/{goal}")[1]["status"] == "paused"
    assert row.locator("button").all_text_contents() == ["Resume…", "End goal…"]
    console.shot("goal-paused")

    row.locator("button.resume-goal").click()
    expect(ask.locator("p")).to_have_text(f"Resume the goal “Class {run}: 40 right answers”? Completions count toward it again from now on.")
    ask.locator("button.confirm-yes").click()
    expect(row).to_have_attribute("data-status", "active")
    assert admin(podium, "GET", f"/v1/goals/{goal}")[1]["status"] == "active"

    row.locator("button.end-goal").click()
    expect(ask.locator("p")).to_contain_text(f"End the goal “Class {run}: 40 right answers”?")
    ask.locator("button.confirm-yes").click()
    expect(row).to_have_attribute("data-status", "ended")
    expect(page.locator("#message-text")).to_have_text(f"Goal “Class {run}: 40 right answers” has ended.")
    assert admin(podium, "GET", f"/v1/goals/{goal}")[1]["status"] == "ended"
    assert row.locator("button").count() == 0, "an ended goal has nothing left to do"
    # The refused class goal above was asked for: its 400, and the browser's line about it.
    console.problems = [p for p in console.problems if p != f"HTTP 400: {podium['base']}/v1/admin/goals" and "status of 400" not in p]
    console.assert_clean()


def in_view(page, selector):
    """Whether the element lies wholly inside the window (the part of the page the reader sees)."""
    box = page.locator(selector).bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def test_messages_show_in_view_wherever_the_page_is_scrolled_and_stay_until_dismissed(browser, podium, seeded):
    run = secrets.token_hex(3)
    made = []
    for index in range(22):
        status, answer = admin(podium, "POST", "/v1/admin/api-keys", {"name": f"notice {run} {index:02d}", "role": "read"})
        assert status == 201, answer
        made.append(answer["key"])
    console = Console(browser, podium, size=(1280, 500))
    try:
        page = console.page
        page.clock.install()
        console.open("keys")
        page.fill('#key-view input[name="q"]', f"notice {run}")
        rows = page.locator("#key-list tr[data-key]")
        expect(rows).to_have_count(20)
        # The page's last row, far below the top; its key is revoked behind the console's back, so revoking it fails.
        last = rows.nth(19)
        gone = next(k for k in made if k["id"] == last.get_attribute("data-key"))
        assert admin(podium, "DELETE", f"/v1/admin/api-keys/{gone['id']}")[0] == 204
        last.locator("button", has_text="Revoke…").click()
        last.locator("button.confirm-yes").click()
        page.locator("#message.error").wait_for(state="visible")
        assert console.message() == f"no valid key {gone['id']}"
        assert page.evaluate("window.scrollY") > 500, "the page is scrolled far down"
        assert in_view(page, "#message"), page.locator("#message").bounding_box()
        page.screenshot(path=str(OUT / "console-error-in-view.png"))
        page.clock.fast_forward("10:00")
        assert page.locator("#message.error").is_visible() and in_view(page, "#message")

        # A notice, after an action far down the page: in view, and there until dismissed.
        other = rows.nth(18)
        kept = next(k for k in made if k["id"] == other.get_attribute("data-key"))
        other.locator("button", has_text="Revoke…").click()
        other.locator("button.confirm-yes").click()
        page.locator("#message.notice").wait_for(state="visible")
        assert console.message() == f"Key “{kept['name']}” ({kept['prefix']}…) is revoked."
        assert in_view(page, "#message"), page.locator("#message").bounding_box()
        page.screenshot(path=str(OUT / "console-notice-in-view.png"))
        page.clock.fast_forward("10:00")
        assert page.locator("#message.notice").is_visible() and in_view(page, "#message")
        page.click("#message-close")
        page.locator("#message").wait_for(state="hidden")
        console.problems = [p for p in console.problems if "404" not in p]  # the refused revoke, asked for
        console.assert_clean()
    finally:
        console.close()


def fragment(page):
    return urllib.parse.urlsplit(page.url).fragment


def test_every_item_has_an_address_that_opens_it_and_back_and_forward_move_between_them(console, podium, browser):
    run = secrets.token_hex(3)
    now = int(time.time()) // 60 * 60
    contest = f"link-{run}"
    status, made = admin(podium, "POST", "/v1/admin/contests", {
        "id": contest, "title": f"Linked {run}", "scope": [BOARD],
        "starts_at": time.strftime("%Y-%m-%dT%H:%M:00Z", time.gmtime(now - 600)),
        "ends_at": time.strftime("%Y-%m-%dT%H:%M:00Z", time.gmtime(now + 3000))})
    assert status == 201, made
    league = f"link-{run}"
    create_league(podium, league, f"Linked {run}", f"group:link-{run}")
    status, key = admin(podium, "POST", "/v1/admin/api-keys", {"name": f"link {run}", "role": "read"})
    assert status == 201, key
    key_id = key["key"]["id"]
    user = f"u-link-{run}"
    post_completion(podium, completion(f"c-link-{run}", user, "easy", display_name=f"Linked {run}"))

    # From each list, the item's link; the address then names the item, and the screen shows it alone.
    page = console.open("contests").page
    page.fill('#contest-filters input[name="q"]', contest)
    page.click('#contest-filters button[type="submit"]')
    page.locator(f'#contest-list tr[data-contest="{contest}"] a.item-link').click()
    expect(page.locator("#contest-filters")).to_have_count(0)
    assert fragment(page) == f"contests/{contest}"
    expect(page.locator("#contest-list tr[data-contest]")).to_have_count(1)
    assert page.title() == f"{contest} · Contests · Podium console"
    console.shot("contest-item")
    page.go_back()
    expect(page.locator("#contest-filters")).to_be_visible()
    assert fragment(page) == "contests"
    page.go_forward()
    expect(page.locator("#contest-filters")).to_have_count(0)
    expect(page.locator(f'#contest-list tr[data-contest="{contest}"]')).to_be_visible()

    console.go("leagues")
    page.fill('#league-view input[name="q"]', league)
    page.locator(f'#league-list tr[data-league="{league}"] a.item-link').click()
    expect(page.locator("#league-view")).to_have_count(0)
    assert fragment(page) == f"leagues/{league}"
    expect(page.locator("#league-list tr[data-league]")).to_have_count(1)

    console.go("keys")
    page.fill('#key-view input[name="q"]', f"link {run}")
    page.locator(f'#key-list tr[data-key="{key_id}"] a.item-link').click()
    expect(page.locator("#key-view")).to_have_count(0)
    assert fragment(page) == f"keys/{key_id}"
    expect(page.locator("#key-list tr[data-key]")).to_have_count(1)

    console.go("jobs")
    page.locator('.job[data-job="prune"] a.item-link').click()
    expect(page.locator(".job")).to_have_count(1)
    assert fragment(page) == "jobs/prune"
    page.locator('.job[data-job="prune"] .runs-table, .job[data-job="prune"] .runs .empty').first.wait_for(state="visible")

    console.go("players")
    page.fill('#player-form input[name="user"]', user)
    page.click('#player-form button[type="submit"]')
    expect(page.locator("#player .user-id")).to_have_text(user)
    assert fragment(page) == f"players/{user}"

    # Back through them all, then forward again.
    page.go_back()
    expect(page.locator("#screen-players")).to_be_visible()
    expect(page.locator("#player .profile")).to_have_count(0)
    page.go_back()
    expect(page.locator(".job")).to_have_count(1)
    page.go_back()
    expect(page.locator(".job")).to_have_count(len(admin(podium, "GET", "/v1/admin/jobs")[1]["jobs"]))
    page.go_back()
    expect(page.locator("#key-list tr[data-key]")).to_have_count(1)
    page.go_back()
    page.go_back()
    expect(page.locator("#league-list tr[data-league]")).to_have_count(1)
    page.go_forward()
    page.go_forward()
    expect(page.locator("#key-list tr[data-key]")).to_have_count(1)
    assert fragment(page) == f"keys/{key_id}"
    console.assert_clean()

    # A link sent to another operator: their tab has no key yet; once signed in, it shows the item.
    for screen, item, shown in [("leagues", league, f'#league-list tr[data-league="{league}"]'),
                                ("contests", contest, f'#contest-list tr[data-contest="{contest}"]'),
                                ("keys", key_id, f'#key-list tr[data-key="{key_id}"]'),
                                ("jobs", "prune", '.job[data-job="prune"] .runs'),
                                ("players", user, "#player .profile")]:
        other = Console(browser, podium)
        try:
            other.page.goto(f"{podium['base']}/console#{screen}/{item}")
            other.page.fill("#key-input", podium["admin_key"])
            other.page.click("#login-form button[type=submit]")
            other.page.locator(shown).wait_for(state="visible")
            assert fragment(other.page) == f"{screen}/{item}"
            other.assert_clean()
        finally:
            other.close()
    # With the key in the address too.
    other = Console(browser, podium).open("players", user)
    try:
        expect(other.page.locator("#player .user-id")).to_have_text(user)
        assert fragment(other.page) == f"players/{user}"
        other.shot("player-item")
        other.assert_clean()
    finally:
        other.close()
