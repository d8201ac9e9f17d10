"""Writes a copy of openapi.json that swift-openapi-generator turns into code that compiles (clients/regenerate.sh).

TimeZone's enum lists every IANA name, among them GMT+0, GMT-0 and GMT0, which the generator's idiomatic naming
makes the same Swift case (`gmt0`, and `etcGMT0` for the Etc/ ones). The copy keeps TimeZone a string: the client
sends a zone name as text, and Podium still checks it against the list.

    python3 clients/swift/prepare.py openapi.json out.json
"""

import json
import sys

source, target = sys.argv[1], sys.argv[2]
with open(source, encoding="utf-8") as file:
    document = json.load(file)
document["components"]["schemas"]["TimeZone"].pop("enum")
with open(target, "w", encoding="utf-8") as file:
    json.dump(document, file, indent=2, ensure_ascii=False)
