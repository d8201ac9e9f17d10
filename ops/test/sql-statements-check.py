#!/usr/bin/env python3
"""Fails when SQL is written outside the Postgres target's statement types (issue 35, "typed statements").

    python3 ops/test/sql-statements-check.py [CHECKOUT]

Every statement outside Sources/Postgres is a `PostgresStatement` whose text binds its fields by key path
(`\\(\\.userID)`), so no Swift string literal there may hold a positional placeholder (`$1`), and no code may bind
by position (`\\(bind:`), build a `PostgresQuery` or call `query(`: statements run with `run`, `runCounting`
or in a `pipeline` of their `query` values. The scan reads Swift string
literals (one-line and multi-line, raw or not), not comments. Prints each finding as `path:line: what` and
exits 1 when there is any, 0 (with a count of the files read) when there is none.
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
placeholder = re.compile(r"\$[0-9]")
sql_words = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE|FROM|WHERE|VALUES|RETURNING)\b")
interpolation = re.compile(r"\\#*\(")
bind = re.compile(r"\\#*\(bind:")
code_rules = [
    (re.compile(r"\bPostgresQuery\b"), "a PostgresQuery outside the Postgres target; write a PostgresStatement"),
    (re.compile(r"\.query\("), "query() outside the Postgres target; run a PostgresStatement (run, runCounting, pipeline)"),
]


def skip_interpolation(text, j):
    """The index after the parenthesis that closes an interpolation whose text starts at `j` (strings inside skipped)."""
    depth = 1
    while j < len(text) and depth:
        if text[j] == '"':
            j += 1
            while j < len(text) and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
        elif text[j] == "(":
            depth += 1
        elif text[j] == ")":
            depth -= 1
        j += 1
    return j


def without_interpolations(content):
    """`content` with each interpolation's code replaced by nothing (`\\()`), its line breaks kept."""
    out, i = [], 0
    while True:
        match = interpolation.search(content, i)
        if not match:
            return "".join(out) + content[i:]
        end = skip_interpolation(content, match.end())
        out.append(content[i:match.end()] + "\n" * content.count("\n", match.end(), end) + ")")
        i = end


def literals_and_code(text):
    """Yields (kind, line, content) for each string literal ("literal") and each run of code ("code")."""
    i, line, n = 0, 1, len(text)
    code_start, code_line = 0, 1
    while i < n:
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            yield "code", code_line, text[code_start:i]
            i, code_start, code_line = end, end, line
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            yield "code", code_line, text[code_start:i]
            line += text.count("\n", i, end)
            i, code_start, code_line = end, end, line
            continue
        match = re.compile(r'(#*)("""|")').match(text, i)
        if match and (match.group(1) or text[i] == '"'):
            hashes, quote = match.group(1), match.group(2)
            yield "code", code_line, text[code_start:i]
            start_line = line
            j = match.end()
            closing = quote + hashes
            escape = "\\" + hashes
            while j < n:
                if text.startswith(escape + "(", j):
                    j = skip_interpolation(text, j + len(escape) + 1)
                    continue
                if not hashes and text[j] == "\\":
                    j += 2
                    continue
                if text.startswith(closing, j):
                    break
                j += 1
            content = text[match.end():j]
            yield "literal", start_line, content
            line += text.count("\n", i, j + len(closing))
            i = j + len(closing)
            code_start, code_line = i, line
            continue
        if text[i] == "\n":
            line += 1
        i += 1
    yield "code", code_line, text[code_start:]


findings = []
files = sorted(p for p in (root / "Sources").rglob("*.swift") if "Postgres" not in p.relative_to(root / "Sources").parts[:1])
for path in files:
    text = path.read_text(encoding="utf-8")
    relative = path.relative_to(root)
    for kind, line, content in literals_and_code(text):
        if kind == "literal":
            plain = without_interpolations(content)
            is_sql = bool(sql_words.search(plain))
            for offset, (raw_line, plain_line) in enumerate(zip(content.split("\n"), plain.split("\n"))):
                if bind.search(raw_line):
                    findings.append(f"{relative}:{line + offset}: a positional bind (\\(bind:)); bind a statement's field by key path")
                if is_sql and placeholder.search(plain_line):
                    findings.append(f"{relative}:{line + offset}: a positional placeholder in SQL text: {plain_line.strip()[:100]}")
        else:
            for rule, what in code_rules:
                for match in rule.finditer(content):
                    findings.append(f"{relative}:{line + content.count(chr(10), 0, match.start())}: {what}")

for finding in findings:
    print(finding)
if findings:
    print(f"sql-statements-check: {len(findings)} finding(s): SQL outside the Postgres target's statement types", file=sys.stderr)
    sys.exit(1)
print(f"sql-statements-check: no SQL outside statement types in {len(files)} files")
