"""The API docs at /docs: Swagger UI (served from Podium itself, see Resources/docs/VERSION.txt) rendering
/openapi.json under the pages' strict content security policy, with the access model above it.

What a browser adds to the Swift suites: that the viewer needs nothing the policy forbids (no inline script or
style, no eval, nothing from another host), that it renders the document's operations, and that "Try it out"
calls the API from the page. Session fixtures (`podium`, `browser`) are in conftest.py. Screenshots go to
.local/browser/docs*.png.
"""

import pytest

from conftest import OUT, TIMEOUT_MS, _opener

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


def test_docs_render_the_reference_and_the_access_model(docs_page):
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


def test_docs_name_the_viewer_they_bundle(podium):
    with _opener.open(f"{podium['base']}/docs/VERSION.txt", timeout=10) as response:
        text = response.read().decode()
    assert "swagger-ui" in text.lower() and "sha256" in text.lower(), text
