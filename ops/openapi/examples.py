"""Writes the examples of openapi.json from a real Podium: every request body's example is the body this script sends,
every operation's success answer is the answer it got, and every shared error answer is one Podium gave.

Run by ops/openapi/refresh-examples.sh, which starts a Podium on an empty database of its own:

    python3 ops/openapi/examples.py BASE_URL ADMIN_KEY OPENAPI_JSON

The requests tell a small class's story (class 4B plays, a teacher follows it on a display, ops run the jobs), so the
examples read as a quiz app's would. Fails, naming the operation, when an answer is not the documented success, or
when an operation of the document was not called (so a new route cannot go without its example).
"""

import importlib.util
import json
import os
import pathlib
import sys
import time
from datetime import date, timedelta
import urllib.error
import urllib.parse
import urllib.request

BASE, ADMIN, DOCUMENT = sys.argv[1], sys.argv[2], sys.argv[3]
PLAYER_TOKEN_SECRET = os.environ["PODIUM_EXAMPLES_TOKEN_SECRET"]
METHODS = ("get", "post", "put", "delete")

# The Python client's signer (clients/python/podium/tokens.py), loaded from its file: the `podium` package imports the
# generated client, whose dependencies (httpx, attrs, dateutil) the python3 running this script need not have.
_spec = importlib.util.spec_from_file_location(
    "podium_tokens", pathlib.Path(__file__).resolve().parents[2] / "clients" / "python" / "podium" / "tokens.py")
tokens = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tokens)

with open(DOCUMENT, encoding="utf-8") as file:
    document = json.load(file)

answers = {}         # (method, path template) -> {status: (content type, body)}
request_bodies = {}  # (method, path template) -> body sent
used_paths = {}      # (method, path template) -> the path and query sent
errors = {}          # component response name -> problem body


def call(method, template, path=None, body=None, credential=ADMIN, expect=None, headers=None):
    """Sends one request to `path` (the template filled in); records the answer under the template."""
    url = BASE + (path or template)
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, method=method.upper(), data=data)
    if credential:
        request.add_header("Authorization", f"Bearer {credential}")
    if body is not None:
        request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, kind, raw = response.status, response.headers.get("Content-Type", ""), response.read()
    except urllib.error.HTTPError as error:
        status, kind, raw = error.code, error.headers.get("Content-Type", ""), error.read()
    if expect is not None and status != expect:
        sys.exit(f"{method.upper()} {url}: expected {expect}, got {status}: {raw[:400]!r}")
    parsed = json.loads(raw) if raw and "json" in kind else raw.decode(errors="replace")
    key = (method, template)
    if 200 <= status < 300 and status not in answers.get(key, {}):
        answers.setdefault(key, {})[status] = (kind.split(";")[0], parsed)
        used_paths.setdefault(key, path or template)
        if body is not None:
            request_bodies.setdefault(key, body)
    return parsed


def first_event(template, path, credential):
    """Records the first event of a live stream (`text/event-stream`) as its answer."""
    request = urllib.request.Request(BASE + path)
    request.add_header("Authorization", f"Bearer {credential}")
    with urllib.request.urlopen(request, timeout=30) as response:
        lines = []
        while True:
            line = response.readline().decode()
            if line.strip() == "" and lines:
                break
            lines.append(line)
        answers[("get", template)] = {response.status: ("text/event-stream", "".join(lines) + "\n")}
        used_paths[("get", template)] = path


def player_token(user):
    """An HS256 player token for `user`, signed with the key refresh-examples.sh gives Podium, vouching for class 4B."""
    return tokens.sign_player_token("examples", PLAYER_TOKEN_SECRET, user, groups=["class-4b"])


def error(name, method, path, status, body=None, credential=ADMIN):
    """Records the problem answer of component response `name`."""
    errors[name] = call(method, path, body=body, credential=credential, expect=status)


# Health and the document itself.
call("get", "/healthz", expect=200)
call("get", "/readyz", expect=200)
call("get", "/openapi.json", expect=200)

# Keys: the classroom display's key (its answer, with the display link, is the example), the quiz backend's ingest key,
# a teacher's read key for the class.
display = call("post", "/v1/admin/api-keys", body={"name": "Classroom TV, room 12", "role": "display", "scopes": ["group:class-4b"]},
               expect=201)
ingest = call("post", "/v1/admin/api-keys", body={"name": "Quiz backend (production)", "role": "ingest"}, expect=201)["secret"]
teacher = call("post", "/v1/admin/api-keys", body={"name": "Ms Okafor, class 4B", "role": "read", "scopes": ["group:class-4b"]},
               expect=201)["secret"]
spare = call("post", "/v1/admin/api-keys", body={"name": "Old display, room 9", "role": "display", "scopes": ["group:class-4b"]},
             expect=201)

# The quiz backend hears of levels, achievements and medals (its receiver is not reachable from here: deliveries fail).
hook = call("post", "/v1/admin/webhooks", body={"url": "https://quiz.example.com/hooks/podium",
                                                "event_types": ["level.reached", "achievement.unlocked", "medal.awarded"],
                                                "secret": "whsec-5b1f0c2e8a7d4e9f"}, expect=201)

# Goals, set before class 4B plays: the class's 40 right answers this week (each completion posted for the class adds
# its correct answers to the class's progress) and three quizzes a day for everyone.
call("post", "/v1/admin/goals", expect=201, body={
    "id": "class-4b-40-right", "title": "40 right answers this week", "kind": "class", "scope": ["group:class-4b"],
    "measure": "correct", "target": 40, "window": "week", "time_zone": "Europe/London"})
call("post", "/v1/admin/goals", expect=201, body={"id": "three-a-day", "title": "Three quizzes a day", "scope": ["global"],
                                                  "measure": "completions", "target": 3, "window": "day"})

# Class 4B plays.
players = [("amara", "Amara N."), ("jonas", "Jonas K."), ("mei", "Mei L."), ("yusuf", "Yusuf A.")]
completion = {"id": "c-7f3b2a91", "user_id": "amara", "quiz_id": "fractions-1", "topic": "math", "difficulty": "medium",
              "correct": 8, "total": 10, "duration_ms": 184000, "groups": ["class-4b"], "display_name": "Amara N."}
call("post", "/v1/completions", body=completion, credential=ingest, expect=201)
call("post", "/v1/completions", body=completion, credential=ingest, expect=200)
batch = {"completions": [
    {"id": f"c-{user}-{quiz}", "user_id": user, "quiz_id": quiz, "topic": topic, "difficulty": difficulty, "correct": correct,
     "total": 10, "duration_ms": 150000 + 1000 * correct, "groups": ["class-4b"], "display_name": name}
    for (user, name), (quiz, topic, difficulty, correct) in zip(
        players[1:] + players[:1],
        [("fractions-1", "math", "medium", 9), ("planets-2", "science", "easy", 7), ("fractions-2", "math", "hard", 6),
         ("planets-2", "science", "easy", 10)])]}
call("post", "/v1/completions/batch", body=batch, credential=ingest, expect=200)
# The batch took the class to its 40 right answers: the class's screen reads its goals with the display key.
call("get", "/v1/groups/{group}/goals", path="/v1/groups/class-4b/goals", credential=display["secret"], expect=200)

# Boards.
call("get", "/v1/leaderboards", path="/v1/leaderboards?kind=group", credential=teacher, expect=200)
call("get", "/v1/leaderboards/{board}/{window}", path="/v1/leaderboards/group:class-4b/week?limit=10", credential=teacher,
     expect=200)
call("post", "/v1/leaderboards/{board}/{window}/compare", path="/v1/leaderboards/group:class-4b/week/compare",
     body={"user_ids": ["amara", "mei"]}, credential=teacher, expect=200)
call("get", "/v1/leaderboards/{board}/{window}/snapshots", path="/v1/leaderboards/group:class-4b/week/snapshots?limit=5",
     credential=teacher, expect=200)
first_event("/v1/leaderboards/{board}/{window}/live", "/v1/leaderboards/group:class-4b/week/live?limit=3", teacher)
call("get", "/metrics", expect=200)
call("get", "/display/{board}/{window}", path=f"/display/group:class-4b/week?key={display['secret']}", credential=None,
     expect=200)

# Players.
call("put", "/v1/users/{id}/preferences", path="/v1/users/amara/preferences",
     body={"display_name": "Amara N.", "time_zone": "Europe/London", "reminders": {"enabled": True, "time": "17:30",
                                                                                  "days": ["mon", "tue", "wed", "thu", "fri"]}},
     credential=ingest, expect=200)
call("put", "/v1/users/{id}/following/{other}", path="/v1/users/amara/following/mei", credential=ingest, expect=201)
call("get", "/v1/users/{id}/following", path="/v1/users/amara/following", credential=teacher, expect=200)
call("get", "/v1/leaderboards/{board}/{window}/friends", path="/v1/leaderboards/group:class-4b/week/friends?user=amara",
     credential=teacher, expect=200)
# The class's players on the global board (on a quiz board, "quiz:<quiz_id>", the class's best on that quiz), as ops
# read it: the teacher's key is limited to the class's board.
call("get", "/v1/leaderboards/{board}/{window}/members", path="/v1/leaderboards/global/week/members?group=class-4b", expect=200)
call("get", "/v1/users/{id}", path="/v1/users/amara", credential=teacher, expect=200)
call("get", "/v1/users/{id}/completions", path="/v1/users/amara/completions?limit=20", credential=teacher, expect=200)
call("get", "/v1/users/{id}/topics", path="/v1/users/amara/topics", credential=teacher, expect=200)
call("get", "/v1/users/{id}/medals", path="/v1/users/amara/medals", credential=teacher, expect=200)
call("get", "/v1/users/{id}/rank-history", path="/v1/users/amara/rank-history?board=group:class-4b&window=week",
     credential=teacher, expect=200)

# Contests: a Friday quiz for the class, every week.
contest = {"id": "friday-quiz", "title": "Friday quiz, class 4B", "scope": ["group:class-4b"], "cron": "0 14 * * 5",
           "duration_minutes": 45, "time_zone": "Europe/London", "entry": "join", "max_players": 40, "medals": True}
call("post", "/v1/admin/contests", body=contest, expect=201)
call("get", "/v1/contests", credential=teacher, expect=200)
call("get", "/v1/contests/{id}", path="/v1/contests/friday-quiz", credential=teacher, expect=200)
call("put", "/v1/contests/{id}/entries/{user}", path="/v1/contests/friday-quiz/entries/amara", credential=ingest, expect=201)
call("delete", "/v1/contests/{id}/entries/{user}", path="/v1/contests/friday-quiz/entries/amara", credential=ingest,
     expect=204)
call("post", "/v1/admin/contests/{id}/close", path="/v1/admin/contests/friday-quiz/close?dry_run=true", expect=200)
call("post", "/v1/admin/contests", body={"id": "spelling-bee", "title": "Spelling bee", "scope": ["topic:spelling"], "cron": "0 9 * * 1", "duration_minutes": 30},
     expect=201)
call("post", "/v1/admin/contests/{id}/cancel", path="/v1/admin/contests/spelling-bee/cancel", expect=200)
# A times-tables hour of classes 4B and 4C, under way: its run keeps each class's total, which the display shows.
started = time.gmtime(time.time() - 600)
call("post", "/v1/admin/contests", expect=201, body={
    "id": "times-tables-hour", "title": "Times tables hour", "scope": ["group:class-4b", "group:class-4c"],
    "starts_at": time.strftime("%Y-%m-%dT%H:%M:00Z", started),
    "ends_at": time.strftime("%Y-%m-%dT%H:%M:00Z", time.gmtime(time.time() + 3000))})
for (user, name), group, correct in [(players[0], "class-4b", 9), (players[2], "class-4b", 7), (("noor", "Noor B."), "class-4c", 10)]:
    call("post", "/v1/completions", credential=ingest, expect=201, body={
        **completion, "id": f"c-tables-{user}", "user_id": user, "display_name": name, "quiz_id": "times-tables-7",
        "correct": correct, "groups": [group]})
call("get", "/v1/leaderboards/{board}/{window}/groups", path="/v1/leaderboards/contest:times-tables-hour/contest/groups",
     credential=display["secret"], expect=200)
# This week against last week, for one player of the class.
this_week, last_week = (date.today().isocalendar(), (date.today() - timedelta(days=7)).isocalendar())
call("get", "/v1/comparisons", credential=teacher, expect=200,
     path=f"/v1/comparisons?a=group:class-4b/week/{last_week[0]}-W{last_week[1]:02d}"
          f"&b=group:class-4b/week/{this_week[0]}-W{this_week[1]:02d}&user_id=amara")

# Leagues: class 4B's weekly league (3 up, 2 down); three players play after its creation and take their places in bronze.
league = {"id": "weekly-4b", "name": "Class 4B weekly league", "scope": ["group:class-4b"], "time_zone": "Europe/London",
          "tiers": [{"name": "bronze", "title": "Bronze"}, {"name": "silver", "title": "Silver"}, {"name": "gold", "title": "Gold"}],
          "cohort_size": 30, "up": 3, "down": 2}
call("post", "/v1/admin/leagues", body=league, expect=201)
for (user, name), difficulty in zip(players[:3], ("hard", "easy", "medium")):
    call("post", "/v1/completions", credential=ingest, expect=201, body={
        **completion, "id": f"c-league-{user}", "user_id": user, "display_name": name, "quiz_id": "fractions-2",
        "difficulty": difficulty, "groups": ["class-4b"]})
call("get", "/v1/leagues", credential=teacher, expect=200)
call("get", "/v1/leagues/{id}", path="/v1/leagues/weekly-4b", credential=teacher, expect=200)
call("get", "/v1/users/{id}/leagues", path="/v1/users/amara/leagues", credential=teacher, expect=200)
call("post", "/v1/admin/leagues/{id}/close", path="/v1/admin/leagues/weekly-4b/close?dry_run=true", expect=200)
call("post", "/v1/admin/leagues", expect=201, body={"id": "spelling-league", "name": "Spelling league", "scope": ["topic:spelling"],
                                                   "tiers": [{"name": "bronze"}, {"name": "silver"}], "cohort_size": 20})
call("post", "/v1/admin/leagues/{id}/pause", path="/v1/admin/leagues/spelling-league/pause", expect=200)
call("post", "/v1/admin/leagues/{id}/resume", path="/v1/admin/leagues/spelling-league/resume", expect=200)
call("post", "/v1/admin/leagues/{id}/end", path="/v1/admin/leagues/spelling-league/end", expect=200)

# Goals: those the teacher sees (the class's), one of them, and a spelling goal paused, resumed and ended.
call("get", "/v1/goals", credential=teacher, expect=200)
call("get", "/v1/goals/{id}", path="/v1/goals/class-4b-40-right", credential=teacher, expect=200)
call("post", "/v1/admin/goals", expect=201, body={"id": "spelling-every-day", "title": "A spelling quiz every day",
                                                  "scope": ["topic:spelling"], "measure": "completions", "target": 1, "window": "day"})
call("post", "/v1/admin/goals/{id}/pause", path="/v1/admin/goals/spelling-every-day/pause", expect=200)
call("post", "/v1/admin/goals/{id}/resume", path="/v1/admin/goals/spelling-every-day/resume", expect=200)
call("post", "/v1/admin/goals/{id}/end", path="/v1/admin/goals/spelling-every-day/end", expect=200)

# Webhooks.
call("get", "/v1/admin/webhooks", expect=200)
call("post", "/v1/admin/webhooks/{id}/disable", path=f"/v1/admin/webhooks/{hook['id']}/disable", expect=200)
call("post", "/v1/admin/webhooks/{id}/enable", path=f"/v1/admin/webhooks/{hook['id']}/enable", expect=200)
# The receiver is not reachable from here: the test event's answer says so.
call("post", "/v1/admin/webhooks/{id}/test", path=f"/v1/admin/webhooks/{hook['id']}/test", expect=200)
# With one attempt allowed (refresh-examples.sh), a delivery to the unreachable receiver is dead once tried.
for _ in range(300):
    deliveries = call("get", "/v1/admin/webhooks/{id}/deliveries", path=f"/v1/admin/webhooks/{hook['id']}/deliveries?limit=20",
                      expect=200)["deliveries"]
    if deliveries and all(delivery["status"] == "dead" for delivery in deliveries):
        break
    answers.pop(("get", "/v1/admin/webhooks/{id}/deliveries"))
    time.sleep(0.1)
call("post", "/v1/admin/webhooks/deliveries/{delivery}/resend", path=f"/v1/admin/webhooks/deliveries/{deliveries[0]['id']}/resend",
     expect=202)

# Jobs, periods and the calendar.
call("get", "/v1/admin/jobs", expect=200)
call("post", "/v1/admin/jobs/{name}/run", path="/v1/admin/jobs/snapshot-leaderboards/run", body={"slot": "now"}, expect=202)
call("get", "/v1/admin/jobs/{name}/runs", path="/v1/admin/jobs/snapshot-leaderboards/runs?limit=5", expect=200)
call("post", "/v1/admin/jobs/{name}/pause", path="/v1/admin/jobs/prune/pause", expect=200)
call("post", "/v1/admin/jobs/{name}/resume", path="/v1/admin/jobs/prune/resume", expect=200)
call("get", "/v1/admin/periods/{board}/{window}", path="/v1/admin/periods/group:class-4b/week?limit=5", expect=200)
yesterday = (date.today() - timedelta(days=1)).isoformat()
call("post", "/v1/admin/periods/{board}/{window}/{period}/close", expect=200,
     path=f"/v1/admin/periods/group:class-4b/day/{yesterday}/close?dry_run=true")
call("put", "/v1/admin/calendar/closed-days/{day}", path="/v1/admin/calendar/closed-days/2026-12-24",
     body={"note": "School closed: winter holiday"}, expect=200)
call("get", "/v1/admin/calendar/closed-days", expect=200)
call("delete", "/v1/admin/calendar/closed-days/{day}", path="/v1/admin/calendar/closed-days/2026-12-24", expect=204)
call("post", "/v1/admin/rankings/rebuild", expect=200)
call("get", "/v1/events", path="/v1/events?limit=3", expect=200)
call("get", "/v1/admin/api-keys", expect=200)
call("get", "/v1/admin/players", path="/v1/admin/players?q=am", expect=200)
call("delete", "/v1/admin/api-keys/{id}", path=f"/v1/admin/api-keys/{spare['key']['id']}", expect=204)
call("delete", "/v1/users/{id}/following/{other}", path="/v1/users/amara/following/mei", credential=ingest, expect=204)
call("delete", "/v1/users/{id}", path="/v1/users/yusuf", expect=204)
call("delete", "/v1/admin/webhooks/{id}", path=f"/v1/admin/webhooks/{hook['id']}", expect=204)
# Every admin action above, newest first (the last three of them).
call("get", "/v1/admin/audit", path="/v1/admin/audit?limit=3", expect=200)

# Shared error answers.
error("BadRequest", "post", "/v1/completions", 400, body={**completion, "id": "c-9d2e", "correct": 12}, credential=ingest)
error("Unauthorized", "get", "/v1/users/amara", 401, credential="pdm_not_a_key")
error("Forbidden", "get", "/v1/admin/jobs", 403, credential=teacher)
error("NotFound", "get", "/v1/users/nobody-here", 404, credential=teacher)
error("MethodNotAllowed", "patch", "/v1/completions", 405, credential=ingest)
errors["ContentTooLarge"] = call("post", "/v1/completions", credential=ingest, expect=413,
                                 body={**completion, "id": "c-big", "display_name": "x" * (3 << 20)})
# A player token (refresh-examples.sh gives Podium the key) posting ten questions answered in two seconds.
errors["Implausible"] = call("post", "/v1/completions", credential=player_token("jonas"), expect=422,
                             body={**completion, "id": "c-too-fast", "user_id": "jonas", "duration_ms": 2000})
# Failed authentications from one address are limited: the first answers are 401, then 429.
for attempt in range(1000):
    request = urllib.request.Request(BASE + "/v1/users/amara", headers={"Authorization": f"Bearer pdm_wrong_{attempt}"})
    try:
        urllib.request.urlopen(request, timeout=10)
    except urllib.error.HTTPError as failure:
        if failure.code == 429:
            errors["TooManyRequests"] = json.loads(failure.read())
            break
# These three cannot be caused from outside on a healthy server: written as Podium words them (APIError), with the
# request id of one of the answers above.
request_id = errors["NotFound"]["request_id"]
for name, status, code, title, detail in [
    ("RequestTimeout", 408, "request-timeout", "Request Timeout",
     "the body did not arrive within 30 s of the headers; send the request again"),
    ("InternalError", 500, "internal-error", "Internal error", "the request failed; it has been logged"),
    ("Unavailable", 503, "unavailable", "Service unavailable",
     "the database is unavailable; retry shortly (recorded completions are safe to resend)"),
]:
    errors[name] = {"code": code, "detail": detail, "request_id": request_id, "status": status, "title": title,
                    "type": f"https://podium.dev/problems/{code}"}



def parameter_values(template, used):
    """The path and query values `used` (a path sent) gave the parameters of `template`."""
    path, _, query = used.partition("?")
    values = {}
    for pattern, value in zip(template.split("/"), path.split("/")):
        if pattern.startswith("{") and pattern.endswith("}"):
            values[pattern[1:-1]] = urllib.parse.unquote(value)
    for pair in filter(None, query.split("&")):
        name, _, value = pair.partition("=")
        values[name] = urllib.parse.unquote(value)
    return values


def resolve(node):
    """A parameter or response object, following one `$ref` into the components."""
    reference = node.get("$ref")
    if not reference:
        return node, False
    kind, name = reference.split("/")[-2:]
    return document["components"][kind][name], True


missing = []
shared_examples = set()
for template, item in document["paths"].items():
    for method in METHODS:
        operation = item.get(method)
        if operation is None:
            continue
        key = (method, template)
        if key not in answers:
            missing.append(f"{method.upper()} {template}")
            continue
        for status, (kind, body) in answers[key].items():
            response = operation["responses"].get(str(status))
            if response is None:
                sys.exit(f"{method.upper()} {template} answered {status}, which the document does not list")
            content = resolve(response)[0].get("content", {})
            if template == "/openapi.json":
                # The document itself: its beginning shows what it is.
                body = {name: body[name] for name in ("openapi", "info")}
            if kind in content and kind != "text/html":
                # The metrics page is long: its first lines show the format.
                content[kind]["example"] = "\n".join(body.splitlines()[:12]) + "\n" if kind == "text/plain" else body
        if key in request_bodies:
            operation["requestBody"]["content"]["application/json"]["example"] = request_bodies[key]
        values = parameter_values(template, used_paths[key])
        for parameter in operation.get("parameters", []) + item.get("parameters", []):
            target, shared = resolve(parameter)
            if target["in"] not in ("path", "query") or target["name"] not in values:
                continue
            # A shared parameter keeps the first value the story gave it.
            if shared and parameter["$ref"] in shared_examples:
                continue
            target["example"] = values[target["name"]]
            if shared:
                shared_examples.add(parameter["$ref"])
if missing:
    sys.exit("operations this script does not call (give each its request): " + ", ".join(missing))
for name, problem in errors.items():
    document["components"]["responses"][name]["content"]["application/problem+json"]["example"] = problem

with open(DOCUMENT, "w", encoding="utf-8") as file:
    json.dump(document, file, indent=2, ensure_ascii=False)
    file.write("\n")
print(f"{len(answers)} operations answered, {len(request_bodies)} request bodies, {len(errors)} error answers")
