"""The API docs at /docs: Swagger UI (served from Podium itself, see Resources/docs/VERSION.txt) rendering
/openapi.json under the pages' strict content security policy, with the access model above it.

What a browser adds to the Swift suites: that the viewer needs nothing the policy forbids (no inline script or
style, no eval, nothing from another host), that it renders the document's operations, and that "Try it out"
calls the API from the page. Session fixtures (`podium`, `browser`) are in conftest.py. Screenshots go to
.local/browser/docs*.png.
"""

import json

import pytest

from conftest import OUT, TIMEOUT_MS, _opener, new_admin_key, own_storage, start_podium, stop

# Set before any of the page's scripts run: every CSP violation the page causes, as the browser reports it.
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
    window.__cspViolations.push(`${event.violatedDirective} blocked ${event.blockedURI || "inline"}`
        + ` (${event.sourceFile || ""}:${event.lineNumber || ""})`);
});
"""

OPERATIONS = [
    ("post", "/v1/completions"),
    ("post", "/v1/completions/batch"),
    ("get", "/v1/leaderboards/{board}/{window}"),
    ("get", "/v1/users/{id}"),
    ("post", "/v1/admin/api-keys"),
    ("get", "/healthz"),
]


def operation(page, method, path):
    return page.locator(f'.opblock-{method} .opblock-summary-path[data-path="{path}"]')


@pytest.fixture
def docs_page(browser, podium):
    """/docs opened in a fresh page, recording console errors, page errors, failed requests and CSP violations."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(TIMEOUT_MS)
    problems = []
    page.add_init_script(RECORD_VIOLATIONS)
    page.on("console", lambda message: problems.append(f"console {message.type}: {message.text}")
            if message.type in ("error", "warning") else None)
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on("requestfailed", lambda request: problems.append(f"failed: {request.url} ({request.failure})"))
    page.on("response", lambda response: problems.append(f"HTTP {response.status}: {response.url}")
            if response.status >= 400 else None)
    response = page.goto(f"{podium['base']}/docs")
    assert response.status == 200
    policy = response.headers.get("content-security-policy", "")
    assert "script-src 'self'" in policy and "style-src 'self'" in policy and "unsafe" not in policy
    page.locator(".swagger-ui .info .title").wait_for(state="visible")
    operation(page, "post", "/v1/completions").wait_for(state="visible")
    try:
        yield page, problems
    finally:
        page.close()


def assert_no_problems(page, problems):
    violations = page.evaluate("window.__cspViolations")
    assert violations == [], f"CSP violations: {violations}"
    assert problems == [], "\n".join(problems)


def test_docs_render_the_reference_and_the_access_model(docs_page, podium):
    page, problems = docs_page
    assert page.title() == "Podium API"
    assert page.locator(".swagger-ui .info .title").inner_text().startswith("Podium")
    # The document's own description (from info.description) is rendered as Markdown.
    assert "snake_case" in page.locator(".swagger-ui .info .description").inner_text()
    for method, path in OPERATIONS:
        assert operation(page, method, path).is_visible(), f"{method.upper()} {path} is not shown"
    # Every path of the document is listed (no tag left closed, nothing dropped).
    paths = set(page.locator(".opblock-summary-path").evaluate_all("nodes => nodes.map(n => n.dataset.path)"))
    assert {"/v1/leaderboards/{board}/{window}/live", "/v1/admin/webhooks", "/metrics"} <= paths, sorted(paths)

    # The access model, above the reference.
    access = page.locator("#access")
    assert access.is_visible()
    text = access.inner_text()
    for words in ("Access model", "ingest", "read", "display", "admin", "Scopes", "player token", "401", "403"):
        assert words in text, f"the access model does not mention {words!r}"
    assert access.bounding_box()["y"] < page.locator("#swagger-ui").bounding_box()["y"]
    # The details are one click away, served by this Podium.
    link = access.locator('a[href="/docs/ACCESS.txt"]')
    assert link.inner_text() == "the access documentation"
    with _opener.open(f"{podium['base']}/docs/ACCESS.txt", timeout=10) as response:
        assert response.status == 200 and response.headers["Content-Type"] == "text/plain; charset=utf-8"
        assert response.read().decode().startswith("# ")

    # Swagger UI's stylesheet applies (a POST block is green, not unstyled).
    background = page.locator(".opblock-post").first.evaluate("node => getComputedStyle(node).backgroundColor")
    assert background not in ("rgba(0, 0, 0, 0)", "transparent"), background

    page.screenshot(path=str(OUT / "docs.png"))  # the top: the access model and the document's description

    # An operation opens with its parameters and responses.
    operation(page, "get", "/v1/leaderboards/{board}/{window}").click()
    block = page.locator(".opblock.is-open").first
    block.locator(".parameters").wait_for(state="visible")
    parameters = block.locator(".parameters .parameter__name").all_inner_texts()
    assert any(name.startswith("board") for name in parameters), parameters
    assert any(name.startswith("window") for name in parameters), parameters
    block.locator(".responses-table").first.wait_for(state="visible")

    block.screenshot(path=str(OUT / "docs-operation.png"))
    page.screenshot(path=str(OUT / "docs-full.png"), full_page=True)
    assert_no_problems(page, problems)


def test_docs_try_it_out_calls_the_api_with_the_key_entered(docs_page, podium):
    page, problems = docs_page
    page.locator("button.authorize").first.click()
    dialog = page.locator(".dialog-ux .modal-ux")
    dialog.locator("input").first.fill(podium["admin_key"])
    dialog.locator("button.authorize").click()
    dialog.locator("button.close-modal").click()

    operation(page, "get", "/v1/leaderboards").click()
    block = page.locator(".opblock.is-open").first
    block.locator("button.try-out__btn").click()
    block.locator("button.execute").click()
    status = block.locator(".live-responses-table tr.response .response-col_status").first
    status.wait_for(state="visible")
    assert status.inner_text().strip() == "200"
    # The curl line shows the key went as a bearer credential, to this server.
    curl = block.locator(".curl-command").inner_text()
    assert f"Bearer {podium['admin_key']}" in curl and podium["base"] in curl, curl
    assert_no_problems(page, problems)


@pytest.fixture
def fresh_podium():
    """A Podium of its own on a new database and an emptied Redis db 13: the examples must work on a fresh server."""
    admin_key = new_admin_key()
    with own_storage("podium_browser_docs", 13) as (database, redis):
        process, base, log = start_podium(database, redis, admin_key, "podium-docs.log")
        try:
            yield {"base": base, "admin_key": admin_key}
        finally:
            stop(process)
            log.close()


def test_try_it_out_with_every_example_body_on_a_fresh_server(browser, fresh_podium):
    """Presses Execute on every POST and PUT of the document, with the example Swagger UI fills in, as an admin: each
    answers 2xx or a 4xx its operation documents; the first completion is recorded (201) and pressing again replays it
    (200)."""
    base = fresh_podium["base"]
    with _opener.open(f"{base}/openapi.json", timeout=10) as response:
        document = json.load(response)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(TIMEOUT_MS)
    problems = []
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    try:
        page.goto(f"{base}/docs")
        operation(page, "post", "/v1/completions").wait_for(state="visible")
        page.locator("button.authorize").first.click()
        dialog = page.locator(".dialog-ux .modal-ux")
        dialog.locator("input").first.fill(fresh_podium["admin_key"])
        dialog.locator("button.authorize").click()
        dialog.locator("button.close-modal").click()

        answered = {}
        for path, item in document["paths"].items():
            for method in ("post", "put"):
                if method not in item:
                    continue
                summary = operation(page, method, path)
                block = page.locator(f".opblock-{method}").filter(
                    has=page.locator(f'.opblock-summary-path[data-path="{path}"]'))
                summary.click()
                block.locator("button.try-out__btn").click()
                statuses = []
                for _ in range(2 if path == "/v1/completions" else 1):
                    block.locator("button.execute").click()
                    status = block.locator(".live-responses-table tr.response .response-col_status").first
                    status.wait_for(state="visible")
                    statuses.append(status.inner_text().strip())
                    block.locator("button.btn-clear").click()
                answered[f"{method.upper()} {path}"] = statuses
                documented = set(item[method]["responses"])
                for code in statuses:
                    assert code.startswith("2") or (code.startswith("4") and code in documented), \
                        f"{method.upper()} {path} answered {code}; documented: {sorted(documented)}"
                summary.click()
        assert answered["POST /v1/completions"] == ["201", "200"], answered
        assert answered["POST /v1/admin/api-keys"] == ["201"], answered
        assert answered["POST /v1/admin/contests"] == ["201"], answered
        assert len(answered) >= 20, sorted(answered)
        (OUT / "docs-try-every-example.json").write_text(json.dumps(answered, indent=2))
        assert problems == [], "\n".join(problems)
    finally:
        page.close()


def test_docs_name_the_viewer_they_bundle(podium):
    with _opener.open(f"{podium['base']}/docs/VERSION.txt", timeout=10) as response:
        text = response.read().decode()
    assert "swagger-ui" in text.lower() and "sha256" in text.lower(), text
