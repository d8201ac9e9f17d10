"""Writes the copy of openapi.json a generator reads whole (clients/regenerate.sh runs it):

    python3 clients/prepare.py python|swift openapi.json out.json

Nothing dropped changes what a client sends; Podium still checks every field.
- python (openapi-python-client 0.29.1): CreateKeyRequest's `oneOf` (which scopes go with which role) holds arrays
  without `items`, and the generator drops the whole schema, the create-key operation with it: the copy keeps the
  plain object. Contest's inline `entry` enum would be named ContestEntry, another schema's name: the copy names it
  ContestEntryMode.
- swift (swift-openapi-generator 1.14.3): TimeZone's enum lists every IANA name, among them GMT+0, GMT-0 and GMT0,
  which the idiomatic naming makes one Swift case: the copy keeps TimeZone a string.
"""

import json
import sys


def for_python(schemas):
    schemas["CreateKeyRequest"].pop("oneOf", None)
    schemas["Contest"]["properties"]["entry"]["title"] = "ContestEntryMode"


def for_swift(schemas):
    schemas["TimeZone"].pop("enum")


target, source, output = sys.argv[1:4]
with open(source, encoding="utf-8") as file:
    document = json.load(file)
{"python": for_python, "swift": for_swift}[target](document["components"]["schemas"])
with open(output, "w", encoding="utf-8") as file:
    json.dump(document, file, indent=2, ensure_ascii=False)
