"""Schemathesis hooks for Podium: keep generated times inside the server's window.

A completion's `completed_at` must lie within the server's age and future limits,
which are relative to the server's clock; a run's `slot` is any RFC 3339 time; a key's `expires_at` must
be in the future; and a
completion's `correct` may not exceed its `total`, which ties two fields; and a player
cannot follow themselves, which ties two path parameters; a contest's schedule and a league's
moves tie their fields, and a comparison takes exactly one of two query parameters. The server refuses a
body whose object repeats a key ignoring case and underscores (the document's
`x-podium-distinct-keys`), which a JSON Schema cannot say: such repeats are taken out of
generated bodies, keeping the document's own property.
OpenAPI cannot say "within 30 days of now", so a generated value of the document's
date-time pattern (schema-valid, though perhaps not a real date, like month 47) is
replaced by one an hour ago. Values of another shape are left as they are: they are
what negative cases test.
"""
import json
import re
import unicodedata
from datetime import datetime, timedelta, timezone
from pathlib import Path

import schemathesis

# The document's pattern for these times (format date-time is only an annotation in OpenAPI 3.1).
RFC3339 = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$")


def _is_rfc3339(value):
    """Of the document's pattern and a real date-time: what a positive case sends (negative cases may send month 47)."""
    if not isinstance(value, str) or len(value) > 64 or RFC3339.match(value) is None:
        return False
    try:
        datetime.fromisoformat(value.upper().replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def _is_integer_in(value, low, high):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == int(value) and low <= value <= high


def _recent():
    return (datetime.now(timezone.utc) - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def _ahead():
    """A time a month from now: a key's `expires_at` must be in the future."""
    return (datetime.now(timezone.utc) + timedelta(days=30)).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def _within_window(item):
    if not isinstance(item, dict):
        return
    if _is_rfc3339(item.get("completed_at")):
        item["completed_at"] = _recent()
    # `correct` at most `total` ties two fields, which a schema cannot; a valid pair of values is made consistent.
    correct, total = item.get("correct"), item.get("total")
    if _is_integer_in(total, 1, 10_000) and _is_integer_in(correct, 0, 10_000) and correct > total:
        item["correct"] = total


DOCUMENT = json.loads((Path(__file__).resolve().parents[2] / "Sources/PodiumHTTP/Resources/openapi.json").read_text())


def _resolved(schema):
    """`schema` with its `$ref`s (`#/components/schemas/...`) followed."""
    while isinstance(schema, dict) and "$ref" in schema:
        schema = DOCUMENT["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return schema if isinstance(schema, dict) else {}


def _options(schema):
    """`schema` and the schemas of its `anyOf`, `oneOf` and `allOf`, resolved."""
    schema = _resolved(schema)
    found = [schema]
    for keyword in ("anyOf", "oneOf", "allOf"):
        for option in schema.get(keyword, []):
            found += _options(option)
    return found


def _body_schema(case):
    """The JSON schema of the request body of `case`'s operation, or {}."""
    operation = DOCUMENT["paths"].get(case.operation.path, {}).get(case.operation.method.lower(), {})
    return operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})


def _folded(key):
    """A key as the server compares keys: Unicode-normalised, lower-cased, without underscores."""
    return unicodedata.normalize("NFC", key).lower().replace("_", "")


def _distinct_keys(value, schema):
    """Takes out of `value`, at every depth, each key equal to an earlier one ignoring case and underscores (the server
    refuses such bodies); a property the document names is kept over a key it does not."""
    if isinstance(value, dict):
        options = _options(schema)
        declared = {name for option in options for name in option.get("properties", {})}
        kept = set()
        for key in sorted(value, key=lambda key: key not in declared):
            if _folded(key) in kept:
                del value[key]
            else:
                kept.add(_folded(key))
        for key, item in value.items():
            inner = [option["properties"][key] for option in options if key in option.get("properties", {})]
            _distinct_keys(item, inner[0] if inner else {})
    elif isinstance(value, list):
        inner = [option["items"] for option in _options(schema) if "items" in option]
        for item in value:
            _distinct_keys(item, inner[0] if inner else {})


def _negative(case, location):
    """Whether schemathesis made `location` (body, query, …) of `case` violate the document on purpose."""
    components = getattr(getattr(case, "meta", None), "components", None) or {}
    for key, info in components.items():
        if getattr(key, "value", key) == location:
            return getattr(getattr(info, "mode", None), "value", None) == "negative"
    return False


@schemathesis.hook
def map_case(context, case):
    body = case.body
    path = case.operation.path
    if isinstance(body, (dict, list)) and not _negative(case, "body"):
        _distinct_keys(body, _body_schema(case))
    if path == "/v1/completions":
        _within_window(body)
    elif path == "/v1/completions/batch":
        if isinstance(body, dict) and isinstance(body.get("completions"), list):
            for item in body["completions"]:
                _within_window(item)
        # `mode=partial` answers invalid items one by one (200, a problem per item) by design, so a body the
        # document calls invalid is sent in the all-or-nothing mode, which must refuse it; the per-item answers
        # are checked by the Swift suite.
        if case.query and case.query.get("mode") == "partial" and _negative(case, "body"):
            case.query["mode"] = "all"
    elif path == "/v1/admin/jobs/{name}/run" and isinstance(body, dict) and _is_rfc3339(body.get("slot")):
        body["slot"] = _recent()
    elif path == "/v1/admin/api-keys" and isinstance(body, dict) and not _negative(case, "body"):
        # A key's expiry must be a real time in the future, which a schema cannot say.
        expiry = body.get("expires_at")
        if isinstance(expiry, str) and RFC3339.match(expiry):
            body["expires_at"] = _ahead()
    elif path == "/v1/admin/contests" and isinstance(body, dict) and not _negative(case, "body"):
        _valid_contest(body)
    elif path == "/v1/admin/leagues" and isinstance(body, dict) and not _negative(case, "body"):
        _valid_league(body)
    elif path == "/v1/comparisons" and case.query is not None and not _negative(case, "query"):
        _valid_comparison(case.query)
    elif path == "/v1/users/{id}/following/{other}" and case.path_parameters:
        # Following yourself is refused (400), which two equal path parameters cannot say in a schema.
        parameters = case.path_parameters
        if parameters.get("id") == parameters.get("other"):
            parameters["other"] = "x" if parameters.get("id") != "x" else "y"
    return case


def _minute(delta):
    """A whole minute `delta` from now, as the contests' times must be."""
    moment = datetime.now(timezone.utc).replace(second=0, microsecond=0) + delta
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _valid_contest(body):
    """Ties a contest's fields the way the server does and a schema cannot: one run needs `starts_at` before `ends_at`
    with a run still to come, a recurring one a cron the scheduler reads and `duration_minutes`; `max_players` is for
    `join` contests. Any generated cron text is replaced by a real expression."""
    if "cron" in body or "duration_minutes" in body:
        body["cron"] = "*/30 * * * *"
        if not _is_integer_in(body.get("duration_minutes"), 1, 527_040):
            body["duration_minutes"] = 20
        body.pop("starts_at", None)
        body.pop("ends_at", None)
    else:
        body["starts_at"] = _minute(timedelta(hours=-1))
        body["ends_at"] = _minute(timedelta(days=1))
    if body.get("entry") != "join":
        body.pop("max_players", None)


def _valid_league(body):
    """Ties a league's moves to its cohort size and tiers the way the server does and a schema cannot: no tier moves more
    players than a cohort holds, none moves up from the top tier or down from the bottom one, and tier names differ."""
    size = body.get("cohort_size") if _is_integer_in(body.get("cohort_size"), 2, 1000) else 30
    for key in ("up", "down"):
        if key in body and _is_integer_in(body[key], 0, 1000):
            body[key] = min(body[key], size // 2)
    tiers = body.get("tiers")
    if not isinstance(tiers, list):
        return
    names = set()
    for index, tier in enumerate(tiers):
        if not isinstance(tier, dict):
            continue
        name = tier.get("name")
        if isinstance(name, str) and name in names:
            tier["name"] = f"t{index}"
        names.add(tier.get("name"))
        for key in ("up", "down"):
            if key in tier and _is_integer_in(tier[key], 0, 1000):
                tier[key] = min(tier[key], size // 2)
        if index == len(tiers) - 1:
            tier.pop("up", None)
        if index == 0:
            tier.pop("down", None)
    # The defaults (7 up, 5 down) must fit too.
    if size < 12:
        body.setdefault("up", size // 2)
        body.setdefault("down", size // 2)


def _valid_comparison(query):
    """Exactly one of `user_id` and `group`, and a group compared on its own board where a side is not a contest."""
    if "user_id" in query and "group" in query:
        del query["group"]
    elif "user_id" not in query and "group" not in query:
        query["user_id"] = "u1"
    group = query.get("group")
    if isinstance(group, str):
        for side in ("a", "b"):
            parts = str(query.get(side, "")).split("/")
            if len(parts) >= 2 and parts[1] != "contest":
                parts[0] = f"group:{group}"
                query[side] = "/".join(parts)
