#!/usr/bin/env python3
"""Checks that openapi.json's list of problem codes (the `Problem.code` description) is every code the server
answers with: each `code: "<name>"` written in Sources/PodiumHTTP, and the codes APIError.swift gives the router's own
errors. A code added to the server but not to the list, or listed but never answered, fails ops/test.sh.

    python3 ops/test/problem-codes-check.py [ROOT]
"""

import json
import re
import sys
from pathlib import Path

root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[2])
sources = root / "Sources" / "PodiumHTTP"
answered = set()
for path in sources.rglob("*.swift"):
    answered.update(re.findall(r'\bcode: "([a-z]+(?:-[a-z]+)*)"', path.read_text(encoding="utf-8")))
# The router's own errors: `let code: String = switch status { case .notFound: "not-found" … default: … "bad-request" … }`.
api_error = (sources / "APIError.swift").read_text(encoding="utf-8")
mapping = re.search(r"let code: String = switch status \{(.*?)\n\s*\}", api_error, re.S)
if not mapping:
    sys.exit("problem-codes-check: APIError.swift no longer maps statuses to codes with `let code: String = switch status`")
answered.update(re.findall(r'"([a-z]+(?:-[a-z]+)*)"', mapping.group(1)))

document = json.loads((sources / "Resources" / "openapi.json").read_text(encoding="utf-8"))
description = document["components"]["schemas"]["Problem"]["properties"]["code"]["description"]
listed = set(re.findall(r"`([a-z]+(?:-[a-z]+)*)`", description))

missing, unused = sorted(answered - listed), sorted(listed - answered)
if missing or unused:
    if missing:
        print(f"problem-codes-check: answered but not listed in openapi.json's Problem.code: {', '.join(missing)}")
    if unused:
        print(f"problem-codes-check: listed in openapi.json's Problem.code but never answered: {', '.join(unused)}")
    sys.exit(1)
print(f"problem codes: the {len(listed)} codes openapi.json lists are the ones the server answers with")
