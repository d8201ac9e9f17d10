"""Writes a copy of openapi.json that openapi-python-client can read whole (clients/regenerate.sh runs it).

Two spots of the document are beyond the generator (0.29.1), and nothing in them changes what a Python client sends:
- CreateKeyRequest's `oneOf` (which scopes go with which role) holds arrays without `items`; the generator drops the
  whole schema, and the create-key operation with it. The copy keeps the plain object; the server still checks roles.
- Contest's inline `entry` enum would be named ContestEntry, the name of another schema; the copy names it
  ContestEntryMode.

    python3 clients/python/prepare.py openapi.json out.json
"""

import json
import sys

source, target = sys.argv[1], sys.argv[2]
with open(source, encoding="utf-8") as file:
    document = json.load(file)
schemas = document["components"]["schemas"]
schemas["CreateKeyRequest"].pop("oneOf", None)
schemas["Contest"]["properties"]["entry"]["title"] = "ContestEntryMode"
with open(target, "w", encoding="utf-8") as file:
    json.dump(document, file, indent=2, ensure_ascii=False)
