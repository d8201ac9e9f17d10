// Podium's ops console (GET /console): boards and their periods, contests, leagues, goals, snapshots and rank history,
// jobs, the calendar of closed days, API keys, webhooks and players, over the admin API of the server that serves this file.
//
// Rules kept throughout:
// - Every text from the API reaches the page through textContent or text nodes (el() below), never innerHTML, so a
//   display name holding markup shows as that markup's text.
// - The admin key comes from the address's fragment (#key=…, removed from the address bar at once) or the sign-in
//   form, travels only in the Authorization header, and is kept in sessionStorage (this tab) until "Sign out".
// - An API error shows its problem `detail` in the message area at the top.
"use strict";
(() => {
  const KEY_STORE = "podium.console.key";
  const SCREENS = ["boards", "contests", "leagues", "goals", "snapshots", "jobs", "calendar", "keys", "webhooks", "players", "audit"];
  const EVENT_TYPES = ["completion.recorded", "level.reached", "achievement.unlocked", "period.closed", "medal.awarded", "reminder.due",
    "league.promoted", "league.relegated", "league.stayed", "goal.completed"];
  const WINDOWS = ["all", "day", "week", "month", "contest"];
  const ROLES = ["read", "ingest", "admin", "display"];
  const TIE_BREAKS = [["shared", "shared"], ["earliest", "earliest"], ["fastest", "fastest"]];
  const $ = (id) => document.getElementById(id);
  let key = null;

  // --- DOM helpers --------------------------------------------------------------------------------------------

  // el("td", { class: "num", title: "…" }, "text", node, …): strings become text nodes, never markup.
  // Properties: class, text, on<Event> (a listener), hidden/disabled/checked/value/… (set as properties when the
  // element has them), anything else as an attribute.
  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(props || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name === "class") node.className = value;
      else if (name === "text") node.textContent = String(value);
      else if (name.startsWith("on") && typeof value === "function") node.addEventListener(name.slice(2), value);
      else if (name === "dataset") Object.assign(node.dataset, value);
      else if (ATTRIBUTES.has(name)) node.setAttribute(name, String(value));
      else if (name in node && typeof node[name] !== "object") node[name] = value;
      else node.setAttribute(name, value === true ? "" : String(value));
    }
    append(node, children);
    return node;
  }
  function append(node, children) {
    for (const child of children.flat(Infinity)) {
      if (child === undefined || child === null || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }
  // Set as attributes whatever the element's properties (spellcheck="false" as a property would mean true).
  const ATTRIBUTES = new Set(["spellcheck", "autocomplete", "role", "colspan", "aria-label", "aria-expanded"]);
  const SVG = "http://www.w3.org/2000/svg";
  function svg(tag, attributes, ...children) {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, String(value));
    for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    return node;
  }
  // headers: "Text" or ["Text", "num"] (a class for the column's header). Each cell gets its column's name as
  // data-label, which tables of class "stack" show beside the value when stacked on a phone.
  function table(headers, rows, className) {
    const names = headers.map((h) => (Array.isArray(h) ? h[0] : h));
    const thead = el("thead", {}, el("tr", {}, headers.map((h) =>
      Array.isArray(h) ? el("th", { scope: "col", class: h[1] }, h[0]) : el("th", { scope: "col" }, h))));
    const tbody = el("tbody", {}, rows);
    for (const tr of tbody.children) {
      if (tr.children.length !== names.length) continue;
      [...tr.children].forEach((cell, i) => { if (names[i]) cell.dataset.label = names[i]; });
    }
    return el("div", { class: "table-wrap" }, el("table", { class: className || "" }, thead, tbody));
  }
  const num = (text) => [text, "num"];
  function empty(text) { return el("p", { class: "empty" }, text); }
  function badge(text, kind) { return el("span", { class: `badge ${kind || ""}`.trim() }, text); }
  // `hint`: words under the control, or an element (a hint the screen changes).
  function field(label, control, hint) {
    return el("label", { class: "field" }, el("span", { class: "label" }, label), control,
      hint instanceof Node ? hint : hint ? el("span", { class: "hint" }, hint) : null);
  }
  function button(text, onclick, className) {
    return el("button", { type: "button", class: className || "", onclick }, text);
  }
  // Tickets for requests that replace what a screen shows: only the newest one's answer is drawn.
  //   const ticket = tickets(); … const isNewest = ticket(); await …; if (!isNewest()) return;
  function tickets() {
    let newest = 0;
    return () => { const mine = ++newest; return () => mine === newest; };
  }
  function section(title, ...children) {
    return el("section", { class: "card" }, title ? el("h2", {}, title) : null, children);
  }

  // Asks in `box` before an action that changes something: what it does, a button naming it, and "Go back" (the one
  // wording for leaving a question unanswered). Only the named button acts. The question is added to `box` (replacing
  // an earlier one there) and is all that leaves it, so the button that asked stays where it was.
  function confirmIn(box, question, label, action, kind) {
    const panel = el("div", { class: "confirm-panel", role: "group", "aria-label": label });
    const yes = button(label, () => attempt(async () => {
      yes.disabled = true;
      try {
        await action();
        panel.remove();
      } finally {
        yes.disabled = false;
      }
    }), `${kind || "danger"} confirm-yes`);
    panel.append(el("p", {}, question), el("div", { class: "row" }, yes, button("Go back", () => panel.remove(), "quiet confirm-no")));
    for (const earlier of box.querySelectorAll(":scope > .confirm-panel")) earlier.remove();
    box.append(panel);
    yes.focus();
  }

  // A list's page row: a back button, where the list stands, a forward button. `show(text, canGoBack, canGoOn)` sets
  // it. The buttons are Previous and Next unless `back` and `on` name others ([text, class]).
  function pager(goBack, goOn, back, on) {
    const status = el("span", { class: "pager-status", role: "status" });
    const [backText, backClass] = back || ["Previous", "pager-previous"];
    const [onText, onClass] = on || ["Next", "pager-next"];
    const previous = button(backText, goBack, `quiet small ${backClass}`);
    const next = button(onText, goOn, `quiet small ${onClass}`);
    return {
      node: el("div", { class: "row pager" }, previous, status, next), next,
      show(text, canGoBack, canGoOn) { status.textContent = text; previous.disabled = !canGoBack; next.disabled = !canGoOn; },
    };
  }

  // A list's search, filters and pages, over items already read (keys, webhooks, deliveries, runs): `match(item, text)`
  // for the search, `filters` ({ name, label, options: [[value, text]], test(item, value) }, the first option the
  // default), `draw(items)` for a page. Drawn again with `list.set(items)` when the items change.
  function listView({ id, placeholder, match, filters, draw, pageSize, emptyText }) {
    const size = pageSize || 20;
    let items = [];
    let page = 0;
    const search = el("input", { type: "search", name: "q", placeholder, spellcheck: "false", "aria-label": "Search" });
    const selects = (filters || []).map((f) => el("select", { name: f.name, "aria-label": f.label },
      f.options.map(([value, text]) => el("option", { value }, text))));
    const body = el("div", { class: "list-body" });
    const pages = pager(() => { page -= 1; show(); }, () => { page += 1; show(); });
    const again = () => { page = 0; show(); };
    search.addEventListener("input", again);
    selects.forEach((select) => select.addEventListener("change", again));
    const node = el("div", { class: "list-view", id },
      el("div", { class: "toolbar list-tools" }, field("Search", search), (filters || []).map((f, i) => field(f.label, selects[i]))),
      body, pages.node);
    function show() {
      const text = search.value.trim().toLowerCase();
      const shown = items.filter((item) => (!text || match(item, text))
        && (filters || []).every((f, i) => f.test(item, selects[i].value)));
      const last = Math.max(1, Math.ceil(shown.length / size)) - 1;
      page = Math.min(Math.max(0, page), last);
      const slice = shown.slice(page * size, (page + 1) * size);
      body.replaceChildren(slice.length ? draw(slice) : empty(items.length ? "Nothing matches." : emptyText));
      pages.show(shown.length ? `${page * size + 1}–${page * size + slice.length} of ${shown.length}` : "", page > 0, page < last);
    }
    return { node, set(list) { items = list; show(); } };
  }

  // --- messages -----------------------------------------------------------------------------------------------

  // One banner, under the header that stays at the top of the window, so it is in view however far the page is
  // scrolled: a new message replaces the last. A notice stays until dismissed, replaced or the screen changes; an
  // error also goes when the next action starts.
  function showMessage(text, kind) {
    $("message-text").textContent = text;
    $("message").className = `message ${kind}`;
    $("message").hidden = false;
  }
  const showError = (text) => showMessage(text, "error");
  const showNotice = (text) => showMessage(text, "notice");
  function clearMessage() { $("message").hidden = true; $("message-text").textContent = ""; }

  // --- the API ------------------------------------------------------------------------------------------------

  class ApiError extends Error {
    constructor(status, detail, problem) {
      super(detail);
      this.status = status;
      this.problem = problem;
    }
  }

  // A path segment: board ids keep their colon (`group:class-4b`), anything else is escaped.
  const seg = (value) => encodeURIComponent(value).replace(/%3A/gi, ":").replace(/%40/g, "@");

  async function api(method, path, body, credential) {
    const headers = { Authorization: `Bearer ${credential || key}`, Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let response;
    try {
      response = await fetch(path, { method, headers, cache: "no-store",
        body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (error) {
      throw new ApiError(0, `Podium did not answer (${error.message})`, null);
    }
    const text = await response.text();
    let data = null;
    if (text) { try { data = JSON.parse(text); } catch { data = null; } }
    if (!response.ok) {
      const detail = data && typeof data.detail === "string" ? data.detail : `${response.status} ${response.statusText}`;
      throw new ApiError(response.status, detail, data);
    }
    return data;
  }
  const get = (path) => api("GET", path);
  function query(params) {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== "") search.set(name, String(value));
    // Spaces as %20: the server reads a + as a plus sign (a + in a value is already %2B).
    const text = search.toString().replace(/\+/g, "%20");
    return text ? `?${text}` : "";
  }

  // Runs an action; an API error shows its detail (a refused key signs out). An error still shown from an earlier
  // action goes first: it no longer describes what is on the screen.
  async function attempt(action) {
    if (!$("message").hidden && $("message").classList.contains("error")) clearMessage();
    try {
      return await action();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        signOut(`The key was refused: ${error.message}`);
      } else {
        showError(error instanceof ApiError ? error.message : `Something went wrong: ${error.message}`);
      }
      return undefined;
    }
  }

  // --- formatting ---------------------------------------------------------------------------------------------

  const formatters = new Map();
  function formatter(zone, options) {
    const id = `${zone || ""}|${JSON.stringify(options)}`;
    if (!formatters.has(id)) {
      let made;
      try { made = new Intl.DateTimeFormat("en-GB", Object.assign({ timeZone: zone || undefined }, options)); }
      catch { made = new Intl.DateTimeFormat("en-GB", Object.assign({ timeZone: "UTC" }, options)); }
      formatters.set(id, made);
    }
    return formatters.get(id);
  }
  const DATE_TIME = { weekday: "short", day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" };
  const DATE_TIME_SECONDS = Object.assign({}, DATE_TIME, { second: "2-digit" });
  const DATE_ONLY = { weekday: "short", day: "numeric", month: "short", year: "numeric" };
  const EXPIRY = { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" };
  const RUN_TIME = { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", second: "2-digit" };
  // "Tue 25 Nov 2025, 00:15 CET" in `zone` (the browser's own when absent).
  function when(iso, zone, options) {
    if (!iso) return "—";
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return iso;
    return formatter(zone, options || DATE_TIME).format(date);
  }
  // The days a period covers (its end is exclusive): "Mon, 23 Nov 2026 – Sun, 29 Nov 2026", or one day.
  function dateRange(startIso, endIso, zone) {
    if (!startIso) return "all time";
    const first = when(startIso, zone, DATE_ONLY);
    if (!endIso) return `from ${first}`;
    const last = when(new Date(new Date(endIso).getTime() - 1).toISOString(), zone, DATE_ONLY);
    return first === last ? first : `${first} – ${last}`;
  }
  function duration(startIso, endIso) {
    if (!startIso || !endIso) return "—";
    const ms = new Date(endIso).getTime() - new Date(startIso).getTime();
    if (!Number.isFinite(ms) || ms < 0) return "—";
    if (ms < 1000) return `${ms} ms`;
    if (ms < 60000) return `${(ms / 1000).toFixed(1)} s`;
    const minutes = Math.floor(ms / 60000);
    return `${minutes} min ${Math.round((ms % 60000) / 1000)} s`;
  }
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many || `${one}s`}`;
  const MEDAL_ORDER = { gold: 1, silver: 2, bronze: 3 };

  function medalList(medals, className) {
    if (!medals || medals.length === 0) return empty("No medals.");
    return el("ol", { class: `medals ${className || ""}`.trim() }, medals.map((medal) =>
      el("li", { class: "medal-item", dataset: { medal: medal.medal, user: medal.user_id } },
        badge(medal.medal, `medal ${medal.medal}`),
        el("span", { class: "medal-name" }, medal.display_name || el("span", { class: "muted" }, "no display name")),
        el("span", { class: "medal-user mono" }, medal.user_id),
        el("span", { class: "medal-rank" }, `rank ${medal.rank}`),
        el("span", { class: "medal-score" }, `score ${medal.score}`))));
  }

  // --- key, sign-in, navigation -------------------------------------------------------------------------------

  // "#key=<key>&leagues/weekly": the key goes; the screen and item (or screen=<screen>) stay as written.
  function takeKeyFromAddress() {
    if (!location.hash.includes("key=")) return;
    const parts = location.hash.slice(1).split("&");
    const fromAddress = new URLSearchParams(parts.find((part) => part.startsWith("key=")) || "").get("key");
    const rest = (parts.find((part) => part && !part.startsWith("key=")) || "").replace(/^screen=/, "");
    // Out of the address bar and the history at once; the screen stays in the fragment.
    history.replaceState(null, "", `${location.pathname}${location.search}${rest ? `#${rest}` : ""}`);
    if (fromAddress && fromAddress.trim()) sessionStorage.setItem(KEY_STORE, fromAddress.trim());
  }

  function signOut(reason) {
    sessionStorage.removeItem(KEY_STORE);
    key = null;
    showLogin();
    if (reason) showError(reason); else showNotice("Signed out.");
  }

  function showLogin() {
    $("nav").hidden = true;
    $("sign-out").hidden = true;
    $("view").replaceChildren();
    $("login").hidden = false;
    $("key-input").value = "";
    $("key-input").focus();
  }

  async function signIn(event) {
    event.preventDefault();
    const candidate = $("key-input").value.trim();
    if (!candidate) return;
    try {
      // Any admin-only read proves the key is an admin key.
      await api("GET", "/v1/admin/calendar/closed-days", undefined, candidate);
    } catch (error) {
      showError(`Not signed in: ${error.message}`);
      return;
    }
    sessionStorage.setItem(KEY_STORE, candidate);
    clearMessage();
    start();
  }

  // Where the address points: "#leagues" is a screen, "#leagues/<id>" one item of it (a contest, league, player, key
  // or job), its own address for an operator to send; back and forward move between them.
  function currentRoute() {
    const [name, ...rest] = location.hash.slice(1).split("/");
    if (!SCREENS.includes(name)) return { screen: "boards", item: null };
    const raw = rest.join("/");
    try {
      return { screen: name, item: raw ? decodeURIComponent(raw) : null };
    } catch {
      return { screen: name, item: raw };
    }
  }
  const itemAddress = (screen, id) => `#${screen}/${encodeURIComponent(id)}`;
  // A link to one item's own address, showing `children` (its id when none).
  function itemLink(screen, id, ...children) {
    return el("a", { href: itemAddress(screen, id), class: "item-link" }, children.length ? children : id);
  }
  // Shows one item: at its address, so the address bar holds its link (drawn again when the address is that already).
  function openItem(screen, id) {
    const address = itemAddress(screen, id);
    if (location.hash === address) route(); else location.hash = address;
  }
  // Above one item: the way back to its screen's list.
  function backTo(screen, text) {
    return el("p", { class: "back" }, el("a", { href: `#${screen}`, class: "back-link" }, `← ${text}`));
  }

  // One item at its own address, read from `path` and drawn by `draw(item, reload)` in the list `listId`, under a link
  // back to the whole list of `screen`.
  function renderOne(container, { heading, screen, back, listId, path, draw }) {
    const list = el("div", { id: listId });
    container.append(el("h1", {}, heading), backTo(screen, back), section(null, list));
    const ticket = tickets();
    async function load() {
      const isNewest = ticket();
      const found = await get(path);
      if (isNewest()) list.replaceChildren(draw(found, load));
    }
    attempt(load);
  }

  function route() {
    if (!key) return;
    const { screen, item } = currentRoute();
    for (const link of document.querySelectorAll("#nav a")) {
      if (link.dataset.screen === screen) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
    clearMessage();
    const container = el("div", { class: `screen screen-${screen}`, id: `screen-${screen}` });
    $("view").replaceChildren(container);
    document.title = `${item ? `${item} · ` : ""}${screen.charAt(0).toUpperCase()}${screen.slice(1)} · Podium console`;
    RENDER[screen](container, item);
  }

  function start() {
    key = sessionStorage.getItem(KEY_STORE);
    if (!key) { showLogin(); return; }
    $("login").hidden = true;
    $("nav").hidden = false;
    $("sign-out").hidden = false;
    route();
  }

  // --- a. boards and periods ----------------------------------------------------------------------------------

  // The board kinds, as GET /v1/leaderboards filters by them.
  const BOARD_KINDS = ["global", "topic", "group", "quiz", "team", "contest", "league"];

  function renderBoards(container) {
    const kind = el("select", { name: "kind" }, el("option", { value: "" }, "every kind"),
      BOARD_KINDS.map((k) => el("option", { value: k }, k)));
    const prefix = el("input", { name: "prefix", type: "search", placeholder: "group:school-12-", spellcheck: "false" });
    const list = el("div", { class: "boards", id: "board-list" });
    const more = button("More boards", () => attempt(() => load(more.dataset.cursor)), "quiet");
    more.hidden = true;
    const form = el("form", { class: "toolbar", onsubmit: (event) => { event.preventDefault(); attempt(() => load()); } },
      field("Kind", kind), field("Board id starts with", prefix), el("button", { type: "submit" }, "Show"));
    container.append(el("h1", {}, "Boards"), form, list, more);

    const ticket = tickets();
    let isNewest = ticket();
    async function load(cursor) {
      // A new filter starts a new list; "More boards" adds to the newest one.
      if (!cursor) { isNewest = ticket(); list.replaceChildren(); }
      const mine = isNewest;
      more.hidden = true;
      const page = await get(`/v1/leaderboards${query({ kind: kind.value, prefix: prefix.value.trim(), cursor, limit: 25 })}`);
      if (!mine()) return;
      if (!cursor && page.boards.length === 0) list.append(empty("No boards match."));
      for (const board of page.boards) list.append(boardCard(board));
      if (page.next_cursor) { more.dataset.cursor = page.next_cursor; more.hidden = false; }
    }
    attempt(() => load());
  }

  // Whether a board ranks teams (groups) rather than players.
  const isTeams = (board) => board.board.startsWith("team:");

  // What a board ranks by, in words: "ranks by points", "ranks by best run's points", "ranks teams by their groups'
  // scores".
  function rankedBy(board) {
    if (isTeams(board)) return "ranks teams by their groups' scores";
    const single = board.aggregate === "best" || board.aggregate === "latest";
    return `ranks by ${single ? `${board.aggregate} run's ${board.metric}` : board.metric}`;
  }

  function boardCard(board) {
    const zone = board.time_zone;
    const players = el("span", { class: "players" }, "…");
    const card = el("article", { class: "card board", dataset: { board: board.board } },
      el("header", { class: "card-head" }, el("h2", {}, board.board),
        el("span", { class: "meta" }, `${rankedBy(board)} · ${zone} · `, players)));
    const rows = [];
    for (const win of board.windows) {
      const periodsRow = el("tr", { class: "periods-row", hidden: true },
        el("td", { colspan: 6 }, el("div", { class: "periods", dataset: { window: win.window } })));
      const toggle = win.window === "all" ? null : button("Periods", () => {
        periodsRow.hidden = !periodsRow.hidden;
        toggle.setAttribute("aria-expanded", String(!periodsRow.hidden));
        if (!periodsRow.hidden) attempt(() => loadPeriods(board, win.window, periodsRow.querySelector(".periods")));
      }, "quiet small");
      if (toggle) toggle.setAttribute("aria-expanded", "false");
      rows.push(el("tr", { dataset: { window: win.window } },
        el("th", { scope: "row" }, win.window),
        el("td", { class: "period" }, win.period),
        el("td", {}, dateRange(win.starts_at, win.ends_at, zone)),
        el("td", { class: "closes" }, win.closes_at ? when(win.closes_at, zone) : "never"),
        el("td", {}, win.medals ? badge("medals", "ok") : "—"),
        el("td", { class: "actions" }, toggle)));
      rows.push(periodsRow);
    }
    card.append(table(["Window", "Current period", "Dates", `Closes (${zone})`, "Medals", ""], rows, "windows stack"));
    // Players: the all-time board's (or the first window's current period), one small read per board.
    const first = board.windows.find((w) => w.window === "all") || board.windows[0];
    if (first) {
      get(`/v1/leaderboards/${seg(board.board)}/${first.window}?limit=1`).then((page) => {
        players.textContent = `${plural(page.players, isTeams(board) ? "team" : "player")}${first.window === "all" ? " all time" : ` this ${first.window}`}`;
      }, (error) => { players.textContent = "players unknown"; players.title = error.message; });
    } else {
      players.textContent = "no windows";
    }
    return card;
  }

  async function loadPeriods(board, win, box) {
    box.replaceChildren(el("p", { class: "empty" }, "Loading periods…"));
    let list;
    try {
      list = await get(`/v1/admin/periods/${seg(board.board)}/${win}?limit=20`);
    } catch (error) {
      box.replaceChildren(el("p", { class: "inline-error" }, error.message));
      throw error;
    }
    const zone = list.time_zone || board.time_zone;
    const rows = list.periods.map((period) => {
      const actions = el("td", { class: "actions" });
      const detail = el("div", { class: "close-box" });
      // Due, or ended and still inside its grace: both can be closed now, after a dry run.
      if (period.status === "due" || (period.status === "open" && period.ends_at && new Date(period.ends_at) <= new Date())) {
        actions.append(button("Close…", () => attempt(() => dryRun(board, win, period.period, detail, () => loadPeriods(board, win, box))), "small close"));
      }
      return [
        el("tr", { dataset: { period: period.period, status: period.status } },
          el("th", { scope: "row" }, period.period),
          el("td", {}, badge(period.status, `status ${period.status}`)),
          el("td", { class: "num" }, String(period.players)),
          el("td", {}, dateRange(period.starts_at, period.ends_at, zone)),
          el("td", {}, period.status === "closed" ? `closed ${when(period.closed_at, zone)}`
            : `${period.status === "due" ? "due since" : "closes"} ${when(period.closes_at, zone)}`),
          el("td", { class: "period-medals" }, period.status === "closed" ? medalList(period.medals) : "—"),
          actions),
        el("tr", { class: "close-row" }, el("td", { colspan: 7 }, detail)),
      ];
    });
    box.replaceChildren(rows.length ? table(["Period", "Status", num("Players"), "Dates", `Close (${zone})`, "Medals", ""], rows, "periods-table stack") : empty("No periods."));
  }

  // Dry run first: the medals closing would award, then a confirm button that closes for real.
  async function dryRun(board, win, period, box, reload) {
    await previewThenClose({
      path: `/v1/admin/periods/${seg(board.board)}/${win}/${seg(period)}/close`, box, reload,
      name: `${board.board} ${win} ${period}`,
      row: () => document.querySelector(`.board[data-board="${CSS.escape(board.board)}"] .periods[data-window="${win}"] tr[data-period="${CSS.escape(period)}"]`),
    });
  }

  // A close with `path`: its dry run's medals, then a button that closes for real and shows what it awarded in the
  // close box below `row()` once `reload` has drawn the table again (or in `box`). With `pin`, the confirmation
  // names the previewed period (a contest's run), so it closes that one even if another has started meanwhile.
  async function previewThenClose({ path, box, reload, name, row, pin }) {
    const report = await api("POST", `${path}?dry_run=true`);
    const label = report.period;
    const confirm = button(`Close ${label} and award these medals`, () => attempt(async () => {
      confirm.disabled = true;
      const done = await api("POST", pin ? `${path}?period=${encodeURIComponent(report.period)}` : path);
      await reload();
      showNotice(`${name || `${report.board} ${report.period}`}: ${done.outcome}, ${plural(done.medals.length, "medal")} awarded.`);
      const fresh = row();
      const target = fresh && fresh.nextElementSibling ? fresh.nextElementSibling.querySelector(".close-box") : box;
      target.replaceChildren(el("div", { class: "close-result" },
        el("h3", {}, `${done.outcome === "closed" ? "Closed" : "Already closed"}: ${plural(done.players, "player")}; awarded`), medalList(done.medals, "awarded")));
    }), "danger");
    box.replaceChildren(el("div", { class: "close-preview" },
      el("h3", {}, `Dry run: ${plural(report.players, "player")}; closing would award`),
      medalList(report.medals, "preview"),
      el("div", { class: "row" }, confirm, button("Go back", () => box.replaceChildren(), "quiet confirm-no"))));
  }

  // --- definition forms (contests, leagues) ----------------------------------------------------------------------

  const input = (name, props) => el("input", Object.assign({ name, spellcheck: "false" }, props));
  const choice = (name, values) => el("select", { name }, values.map(([value, text]) => el("option", { value }, text)));

  // --- contests -----------------------------------------------------------------------------------------------

  function renderContests(container, item) {
    if (item) {
      renderOne(container, { heading: "Contests", screen: "contests", back: "All contests", listId: "contest-list",
        path: `/v1/contests/${seg(item)}`, draw: (contest, reload) => contestsTable([contest], reload) });
      return;
    }
    const list = el("div", { id: "contest-list" });
    const f = {
      id: input("id", { required: true, maxLength: 64, placeholder: "friday-quiz" }),
      title: input("title", { required: true, maxLength: 80, placeholder: "Friday quiz hour" }),
      scope: input("scope", { required: true, placeholder: "group:class-4b, group:class-4c" }),
      schedule: choice("schedule", [["once", "one run"], ["recurring", "recurring (cron)"]]),
      starts: input("starts_at", { type: "datetime-local" }),
      ends: input("ends_at", { type: "datetime-local" }),
      cron: input("cron", { placeholder: "0 14 * * 5" }),
      duration: input("duration_minutes", { type: "number", min: 1, placeholder: "60" }),
      zone: input("time_zone", { value: "UTC" }),
      entry: choice("entry", [["open", "open to all in scope"], ["join", "players join"]]),
      max: input("max_players", { type: "number", min: 1 }),
      tie: choice("tie_break", TIE_BREAKS),
      medals: input("medals", { type: "checkbox", checked: true }),
    };
    const recurringOnly = [field("Cron", f.cron, "when runs start, in the zone"), field("Minutes per run", f.duration)];
    const showSchedule = () => { for (const node of recurringOnly) node.hidden = f.schedule.value !== "recurring"; };
    f.schedule.addEventListener("change", showSchedule);
    showSchedule();
    // datetime-local values are this browser's local time; the API takes instants.
    const instant = (value) => (value ? new Date(value).toISOString() : undefined);
    const form = el("form", { class: "toolbar", id: "contest-form", onsubmit: (event) => {
      event.preventDefault();
      attempt(async () => {
        const body = { id: f.id.value, title: f.title.value, scope: f.scope.value.split(/[\s,]+/).filter(Boolean),
          time_zone: f.zone.value || "UTC", entry: f.entry.value, tie_break: f.tie.value, medals: f.medals.checked,
          starts_at: instant(f.starts.value), ends_at: instant(f.ends.value) };
        if (f.schedule.value === "recurring") { body.cron = f.cron.value; body.duration_minutes = Number(f.duration.value); }
        if (f.entry.value === "join" && f.max.value) body.max_players = Number(f.max.value);
        const created = await api("POST", "/v1/admin/contests", body);
        showNotice(`Contest “${created.title}” created: board ${created.board}, ${created.status}.`);
        f.id.value = ""; f.title.value = "";
        await load();
      });
    } }, field("Id", f.id), field("Title", f.title), field("Scope", f.scope, "global, one topic:…, or group:… ids"),
    field("Schedule", f.schedule), field("Starts", f.starts, "this browser's time; for cron, optional"),
    field("Ends", f.ends), recurringOnly, field("Time zone", f.zone), field("Entry", f.entry), field("Most players", f.max, "join only"),
    field("Ties", f.tie), field("Medals", f.medals), el("button", { type: "submit" }, "Create contest"));
    // The list: most relevant first, cut into pages by the server; cancelled contests only when asked for.
    const PAGE = 25;
    let offset = 0;
    const search = el("input", { type: "search", name: "q", placeholder: "id or title", spellcheck: "false" });
    const status = choice("status", [["running,between-runs,scheduled,ended", "all but cancelled"], ["running", "running"],
      ["between-runs,scheduled", "coming up"], ["ended", "ended"], ["cancelled", "cancelled"],
      ["running,between-runs,scheduled,ended,cancelled", "every contest"]]);
    const pages = pager(() => { offset = Math.max(0, offset - PAGE); attempt(load); }, () => { offset += PAGE; attempt(load); });
    const filters = el("form", { class: "toolbar list-tools", id: "contest-filters", onsubmit: (event) => {
      event.preventDefault(); offset = 0; attempt(load);
    } }, field("Search", search), field("Status", status), el("button", { type: "submit" }, "Show"));
    status.addEventListener("change", () => { offset = 0; attempt(load); });
    const ticket = tickets();
    container.append(el("h1", {}, "Contests"), section("Create a contest", form),
      section("Contests", filters, list, pages.node));

    async function load() {
      const isNewest = ticket();
      const answer = await get(`/v1/contests${query({ status: status.value, q: search.value.trim(), limit: PAGE, cursor: offset || undefined })}`);
      if (!isNewest()) return;
      pages.show(answer.total ? `${offset + 1}–${offset + answer.contests.length} of ${answer.total}` : "", offset > 0,
        Boolean(answer.next_cursor));
      list.replaceChildren(answer.contests.length ? contestsTable(answer.contests, load)
        : empty(search.value.trim() || offset ? "No contest matches." : "No contests."));
    }
    attempt(load);
  }

  // Contests with their actions; `reload` draws them again after one.
  function contestsTable(contests, reload) {
    const rows = contests.map((contest) => {
      const zone = contest.time_zone;
      const actions = el("td", { class: "actions" });
      const detail = el("div", { class: "close-box" });
      const run = contest.current_run;
      const started = run && new Date(run.starts_at) <= new Date();
      if (contest.status !== "cancelled" && started && !run.closed_at) {
        // The run under way (or the latest), closed early: dry run first.
        actions.append(button("Close run…", () => attempt(() => previewThenClose({
          path: `/v1/admin/contests/${seg(contest.id)}/close`, box: detail, reload, pin: true,
          row: () => document.querySelector(`#contest-list tr[data-contest="${CSS.escape(contest.id)}"]`),
        })), "small close"));
      }
      if (contest.status !== "cancelled") {
        actions.append(button("Cancel contest…", () => confirmIn(detail,
          `Cancel the contest “${contest.title}”? Nothing counts from now on, the run under way closes without medals, and no run awards any.`,
          "Cancel the contest", async () => {
            await api("POST", `/v1/admin/contests/${seg(contest.id)}/cancel`);
            showNotice(`Contest “${contest.title}” is cancelled.`);
            await reload();
          }), "quiet small cancel-contest"));
      }
      const times = (start, end) => `${when(start, zone)} – ${when(end, zone)}`;
      const schedule = contest.schedule === "once" ? times(contest.starts_at, contest.ends_at)
        : `${contest.schedule_words || contest.cron}, ${plural(contest.duration_minutes, "minute")} each`;
      return [
        el("tr", { dataset: { contest: contest.id, status: contest.status } },
          el("th", { scope: "row" }, itemLink("contests", contest.id, contest.title), el("div", { class: "muted mono" }, contest.board)),
          el("td", {}, contest.scope.join(", ")),
          el("td", {}, schedule),
          el("td", {}, badge(contest.status, `status ${contest.status}`)),
          el("td", {}, run ? [el("span", { class: "mono" }, run.period), " ", times(run.starts_at, run.ends_at),
            run.closed_at ? [" ", badge(`closed ${when(run.closed_at, zone)}`, "status closed")] : null] : "—"),
          el("td", {}, contest.entry === "join" ? `${contest.players_joined} joined${contest.max_players ? ` of ${contest.max_players}` : ""}` : "open"),
          actions),
        el("tr", { class: "close-row" }, el("td", { colspan: 7 }, detail)),
      ];
    });
    return table(["Contest", "Scope", "Schedule", "Status", "Current run", "Entry", ""], rows, "contests-table stack");
  }

  // --- leagues ------------------------------------------------------------------------------------------------

  function renderLeagues(container, item) {
    if (item) {
      renderOne(container, { heading: "Leagues", screen: "leagues", back: "All leagues", listId: "league-list",
        path: `/v1/leagues/${seg(item)}`, draw: (league, reload) => leaguesTable([league], reload) });
      return;
    }
    const list = el("div", { id: "league-list" });
    const f = {
      id: input("id", { required: true, maxLength: 64, placeholder: "weekly" }),
      name: input("name", { required: true, maxLength: 80, placeholder: "Weekly league" }),
      scope: input("scope", { required: true, value: "global", placeholder: "global, topic:math, or group:… ids" }),
      zone: input("time_zone", { value: "UTC" }),
      tiers: input("tiers", { required: true, value: "Bronze, Silver, Gold", placeholder: "Bronze, Silver, Gold" }),
      size: input("cohort_size", { type: "number", min: 2, max: 1000, value: 30 }),
      up: input("up", { type: "number", min: 0, value: 7 }),
      down: input("down", { type: "number", min: 0, value: 5 }),
      tie: choice("tie_break", TIE_BREAKS),
      medals: input("medals", { type: "checkbox", checked: true }),
    };
    // "Bronze, Silver, Gold": each title, lowest first, named in board ids by its lower-case letters and digits.
    const tiers = () => f.tiers.value.split(",").map((title) => title.trim()).filter(Boolean)
      .map((title) => ({ name: title.toLowerCase().replace(/[^a-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "tier", title }));
    const form = el("form", { class: "toolbar", id: "league-form", onsubmit: (event) => {
      event.preventDefault();
      attempt(async () => {
        const created = await api("POST", "/v1/admin/leagues", {
          id: f.id.value, name: f.name.value, scope: f.scope.value.split(/[\s,]+/).filter(Boolean), time_zone: f.zone.value || "UTC",
          tiers: tiers(), cohort_size: Number(f.size.value), up: Number(f.up.value), down: Number(f.down.value),
          tie_break: f.tie.value, medals: f.medals.checked });
        showNotice(`League “${created.name}” created: ${plural(created.tiers.length, "tier")}, week ${created.week.period}.`);
        f.id.value = ""; f.name.value = "";
        await load();
      });
    } }, field("Id", f.id), field("Name", f.name), field("Scope", f.scope, "global, one topic:…, or group:… ids"),
    field("Time zone", f.zone, "its weeks are ISO weeks here"), field("Tiers", f.tiers, "lowest first, comma-separated"),
    field("Cohort size", f.size), field("Move up", f.up, "per cohort"), field("Move down", f.down, "per cohort"),
    field("Ties", f.tie), field("Medals", f.medals), el("button", { type: "submit" }, "Create league"));
    // Leagues that still count (active or paused) first, then ended ones, each by id; searched, filtered and paged here.
    const leagues = listView({ id: "league-view", placeholder: "id or name", pageSize: 25, emptyText: "No leagues.",
      match: (league, text) => [league.id, league.name].some((v) => v.toLowerCase().includes(text)),
      filters: [{ name: "status", label: "Status", options: [["", "every league"], ["active", "active"], ["paused", "paused"], ["ended", "ended"]],
        test: (league, value) => !value || league.status === value }],
      draw: (page) => leaguesTable(page, load) });
    list.append(leagues.node);
    const ticket = tickets();
    container.append(el("h1", {}, "Leagues"), section("Create a league", form), section("Leagues", list));

    async function load() {
      const isNewest = ticket();
      const answer = await get("/v1/leagues");
      if (!isNewest()) return;
      const ended = (league) => (league.status === "ended" ? 1 : 0);
      leagues.set(answer.leagues.slice().sort((a, b) => ended(a) - ended(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
    }
    attempt(load);
  }

  // Leagues with their actions, each asking first; `reload` draws them again after one.
  function leaguesTable(leagues, reload) {
    const rows = leagues.map((league) => {
      const detail = el("div", { class: "close-box" });
      const actions = el("td", { class: "actions" },
        button("Week…", () => attempt(() => showWeek(league, league.week.period, detail)), "small week"));
      if (league.status === "active") {
        actions.append(button("Pause…", () => confirmIn(detail,
          `Pause the league “${league.name}”? No completion counts until it is resumed; its weeks still close at their end.`,
          "Pause the league", async () => {
            await api("POST", `/v1/admin/leagues/${seg(league.id)}/pause`);
            showNotice(`League “${league.name}” is paused: no completion counts until it is resumed.`);
            await reload();
          }, "primary"), "quiet small pause-league"));
      } else if (league.status === "paused") {
        actions.append(button("Resume…", () => confirmIn(detail,
          `Resume the league “${league.name}”? Completions count again from now on.`,
          "Resume the league", async () => {
            await api("POST", `/v1/admin/leagues/${seg(league.id)}/resume`);
            showNotice(`League “${league.name}” counts completions again.`);
            await reload();
          }, "primary"), "quiet small resume-league"));
      }
      if (league.status !== "ended") {
        actions.append(button("End league…", () => confirmIn(detail,
          `End the league “${league.name}”? Nothing played from now on counts; week ${league.week.period} still closes at its end.`,
          "End the league", async () => {
            await api("POST", `/v1/admin/leagues/${seg(league.id)}/end`);
            showNotice(`League “${league.name}” has ended.`);
            await reload();
          }), "quiet small end-league"));
      }
      const tierText = league.tiers.map((tier) => `${tier.title}${tier.up ? ` ↑${tier.up}` : ""}${tier.down ? ` ↓${tier.down}` : ""}`).join(" · ");
      return [
        el("tr", { dataset: { league: league.id, status: league.status } },
          el("th", { scope: "row" }, itemLink("leagues", league.id, league.name), el("div", { class: "muted mono" }, league.id)),
          el("td", {}, league.scope.join(", ")),
          el("td", {}, tierText, el("div", { class: "muted" }, `cohorts of ${league.cohort_size}, ties ${league.tie_break}`)),
          el("td", {}, badge(league.status, `status ${league.status}`)),
          el("td", {}, el("span", { class: "mono" }, league.week.period), " ", dateRange(league.week.starts_at, league.week.ends_at, league.time_zone)),
          actions),
        el("tr", { class: "close-row" }, el("td", { colspan: 6 }, detail)),
      ];
    });
    return table(["League", "Scope", "Tiers", "Status", "This week", ""], rows, "leagues-table stack");
  }

  // A league's week in `box`: its dry run (moves and medals by tier, then the players of the cohorts shown), a week
  // and tier to look at, and, once the week has ended and its close grace passed, a button that closes every cohort
  // still open.
  async function showWeek(league, period, box, tier) {
    const report = await api("POST", `/v1/admin/leagues/${seg(league.id)}/close${query({ dry_run: "true", period, tier: tier || undefined, limit: 20 })}`);
    const weekInput = el("input", { name: "period", value: report.period, pattern: "[0-9]{4}-W[0-9]{2}", size: 9, spellcheck: "false" });
    const tierSelect = el("select", { name: "tier" }, el("option", { value: "" }, "every tier"),
      league.tiers.map((t) => el("option", { value: t.name, selected: t.name === tier }, t.title)));
    const look = el("form", { class: "toolbar week-tools", onsubmit: (event) => {
      event.preventDefault();
      attempt(() => showWeek(league, weekInput.value.trim(), box, tierSelect.value));
    } }, field("Week", weekInput, "e.g. 2026-W48"), field("Cohorts of", tierSelect), el("button", { type: "submit" }, "Show"));
    const summary = table(["Tier", "Cohorts", "Players", "Move up", "Move down", "Stay", "Medals"], report.tiers.map((t) =>
      el("tr", { dataset: { tier: t.tier } }, el("th", { scope: "row" }, t.title), el("td", { class: "num" }, String(t.cohorts)),
        el("td", { class: "num" }, String(t.players)), el("td", { class: "num" }, String(t.promoted)),
        el("td", { class: "num" }, String(t.relegated)), el("td", { class: "num" }, String(t.stayed)), el("td", { class: "num" }, String(t.medals)))),
    "league-summary");
    const titleOf = (name) => (league.tiers.find((t) => t.name === name) || { title: name }).title;
    const cohorts = report.cohort_results.map(({ cohort, results }) => el("details", { class: "cohort", dataset: { board: cohort.board } },
      el("summary", {}, `${titleOf(cohort.tier)} · cohort ${cohort.cohort} · ${plural(cohort.players, "player")}`, " ",
        cohort.closed ? badge("closed", "status closed") : badge("open", "status running")),
      table(["#", "Player", "Score", "Move", "Next tier", "Medal"], results.map((r) =>
        el("tr", { dataset: { user: r.user_id, move: r.move } }, el("td", { class: "num" }, String(r.rank)),
          el("td", {}, r.display_name || r.user_id), el("td", { class: "num" }, String(r.score)),
          el("td", {}, badge(r.move === "promoted" ? "↑ up" : r.move === "relegated" ? "↓ down" : "stays", `move ${r.move}`)),
          el("td", {}, titleOf(r.next_tier)), el("td", {}, r.medal || ""))), "cohort-table")));
    const ended = new Date() >= new Date(report.closes_at);
    const open = report.cohorts - report.closed_cohorts;
    const close = ended && open > 0 ? button(`Close week ${report.period}: ${plural(open, "cohort")}…`, () => confirmIn(box,
      `Close week ${report.period} of “${league.name}”? ${plural(open, "open cohort")} close now with their medals; ` +
      report.tiers.map((t) => `${t.title}: ${t.promoted} up, ${t.relegated} down`).join("; ") + ".",
      `Close week ${report.period}`, async () => {
        const done = await api("POST", `/v1/admin/leagues/${seg(league.id)}/close${query({ period: report.period })}`);
        showNotice(`Week ${done.period} of “${league.name}”: ${done.closed_cohorts} of ${plural(done.cohorts, "cohort")} closed.`);
        await showWeek(league, done.period, box, tier);
      }), "danger close-week") : null;
    const state = report.cohorts === 0 ? "No one has played this week yet."
      : `${plural(report.players, "player")} in ${plural(report.cohorts, "cohort")}, ${report.closed_cohorts} closed` +
        (open > 0 ? (ended ? ": the week has ended." : ": shown as if the week closed now.") : ".");
    box.replaceChildren(el("div", { class: "week-view" }, el("h3", {}, `${league.name}, week ${report.period}`), look,
      el("p", { class: "week-state" }, state), summary, cohorts, close,
      el("div", { class: "row" }, button("Go back", () => box.replaceChildren(), "quiet confirm-no"))));
  }

  // --- goals --------------------------------------------------------------------------------------------------

  // What a goal counts, in words for `n` of it: "40 correct answers", "1 completion".
  const MEASURES = {
    completions: (n) => plural(n, "completion"), points: (n) => plural(n, "point"),
    correct: (n) => plural(n, "correct answer"), perfect: (n) => plural(n, "perfect completion"),
  };
  // "40 correct answers a week".
  const goalTarget = (goal) => `${MEASURES[goal.measure](goal.target)} ${goal.window === "day" ? "a day" : "a week"}`;

  function renderGoals(container, item) {
    if (item) {
      renderOne(container, { heading: "Goals", screen: "goals", back: "All goals", listId: "goal-list",
        path: `/v1/goals/${seg(item)}`, draw: (goal, reload) => goalsTable([goal], reload) });
      return;
    }
    const list = el("div", { id: "goal-list" });
    const f = {
      id: input("id", { required: true, maxLength: 64, placeholder: "class-500-right" }),
      title: input("title", { required: true, maxLength: 80, placeholder: "500 right answers this week" }),
      kind: choice("kind", [["personal", "personal: each player's own"], ["class", "class: each group's together"]]),
      scope: input("scope", { required: true, value: "global", placeholder: "global, topic:math, or group:… ids" }),
      measure: choice("measure", [["completions", "completions"], ["points", "points"], ["correct", "correct answers"],
        ["perfect", "perfect completions"]]),
      target: input("target", { type: "number", required: true, min: 1, max: 1000000000, value: 3 }),
      window: choice("window", [["day", "a day"], ["week", "a week"]]),
      zone: input("time_zone", { value: "UTC" }),
    };
    const form = el("form", { class: "toolbar", id: "goal-form", onsubmit: (event) => {
      event.preventDefault();
      attempt(async () => {
        const created = await api("POST", "/v1/admin/goals", {
          id: f.id.value, title: f.title.value, kind: f.kind.value, scope: f.scope.value.split(/[\s,]+/).filter(Boolean),
          measure: f.measure.value, target: Number(f.target.value), window: f.window.value, time_zone: f.zone.value || "UTC" });
        showNotice(`Goal “${created.title}” created: ${goalTarget(created)}, ${created.kind}, period ${created.period}.`);
        f.id.value = ""; f.title.value = "";
        await load();
      });
    } }, field("Id", f.id), field("Title", f.title), field("Kind", f.kind),
    field("Scope", f.scope, "global, one topic:…, or group:… ids; a class goal lists groups"), field("Counts", f.measure),
    field("Target", f.target, "how much reaches it"), field("Every", f.window, "it starts again each day or week"),
    field("Time zone", f.zone, "its days and weeks are cut here"), el("button", { type: "submit" }, "Create goal"));
    // Goals that still count (active or paused) first, then ended ones, each by id; searched, filtered and paged here.
    const goals = listView({ id: "goal-view", placeholder: "id or title", pageSize: 25, emptyText: "No goals.",
      match: (goal, text) => [goal.id, goal.title].some((v) => v.toLowerCase().includes(text)),
      filters: [
        { name: "status", label: "Status", options: [["", "every goal"], ["active", "active"], ["paused", "paused"], ["ended", "ended"]],
          test: (goal, value) => !value || goal.status === value },
        { name: "kind", label: "Kind", options: [["", "every kind"], ["personal", "personal"], ["class", "class"]],
          test: (goal, value) => !value || goal.kind === value },
      ],
      draw: (page) => goalsTable(page, load) });
    list.append(goals.node);
    const ticket = tickets();
    container.append(el("h1", {}, "Goals"), section("Create a goal", form), section("Goals", list));

    async function load() {
      const isNewest = ticket();
      const answer = await get("/v1/goals");
      if (!isNewest()) return;
      const ended = (goal) => (goal.status === "ended" ? 1 : 0);
      goals.set(answer.goals.slice().sort((a, b) => ended(a) - ended(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
    }
    attempt(load);
  }

  // Goals with their actions, each asking first; `reload` draws them again after one.
  function goalsTable(goals, reload) {
    const rows = goals.map((goal) => {
      const detail = el("div", { class: "close-box" });
      const actions = el("td", { class: "actions" });
      if (goal.status === "active") {
        actions.append(button("Pause…", () => confirmIn(detail,
          `Pause the goal “${goal.title}”? No completion counts toward it until it is resumed; progress made so far stays.`,
          "Pause the goal", async () => {
            await api("POST", `/v1/admin/goals/${seg(goal.id)}/pause`);
            showNotice(`Goal “${goal.title}” is paused: no completion counts toward it until it is resumed.`);
            await reload();
          }, "primary"), "quiet small pause-goal"));
      } else if (goal.status === "paused") {
        actions.append(button("Resume…", () => confirmIn(detail,
          `Resume the goal “${goal.title}”? Completions count toward it again from now on.`,
          "Resume the goal", async () => {
            await api("POST", `/v1/admin/goals/${seg(goal.id)}/resume`);
            showNotice(`Goal “${goal.title}” counts completions again.`);
            await reload();
          }, "primary"), "quiet small resume-goal"));
      }
      if (goal.status !== "ended") {
        actions.append(button("End goal…", () => confirmIn(detail,
          `End the goal “${goal.title}”? Nothing played from now on counts toward it, and it leaves profiles and displays.`,
          "End the goal", async () => {
            await api("POST", `/v1/admin/goals/${seg(goal.id)}/end`);
            showNotice(`Goal “${goal.title}” has ended.`);
            await reload();
          }), "quiet small end-goal"));
      }
      return [
        el("tr", { dataset: { goal: goal.id, status: goal.status } },
          el("th", { scope: "row" }, itemLink("goals", goal.id, goal.title), el("div", { class: "muted mono" }, goal.id)),
          el("td", { class: "goal-kind" }, goal.kind === "class" ? "class: each group's" : "personal"),
          el("td", {}, goal.scope.join(", ")),
          el("td", { class: "goal-target" }, goalTarget(goal), el("div", { class: "muted" }, `${goal.measure} · ${goal.window} · ${goal.time_zone}`)),
          el("td", {}, badge(goal.status, `status ${goal.status}`)),
          el("td", { class: "goal-period" }, el("span", { class: "mono" }, goal.period), " ", `until ${when(goal.ends_at, goal.time_zone)}`),
          actions),
        el("tr", { class: "close-row" }, el("td", { colspan: 7 }, detail)),
      ];
    });
    return table(["Goal", "Kind", "Scope", "Target", "Status", "This period", ""], rows, "goals-table stack");
  }

  // --- b. snapshots and rank history --------------------------------------------------------------------------

  function windowSelect(name, withAny) {
    return el("select", { name }, withAny ? el("option", { value: "" }, "any window") : null,
      WINDOWS.map((w) => el("option", { value: w, selected: w === "week" && !withAny }, w)));
  }

  function renderSnapshots(container) {
    const board = el("input", { name: "board", value: "global", required: true, spellcheck: "false" });
    const win = windowSelect("window");
    const period = el("input", { name: "period", placeholder: "current", spellcheck: "false" });
    const top = el("input", { name: "top", type: "number", min: 1, max: 1000, value: 10 });
    const results = el("div", { id: "snapshot-results" });
    const snapshotTicket = tickets();
    const historyTicket = tickets();
    const snapshotForm = el("form", { class: "toolbar", id: "snapshot-form", onsubmit: (event) => {
      event.preventDefault();
      const isNewest = snapshotTicket();
      attempt(async () => {
        results.replaceChildren(el("p", { class: "empty" }, "Loading…"));
        const list = await get(`/v1/leaderboards/${seg(board.value.trim())}/${win.value}/snapshots${query({ period: period.value.trim(), top: top.value })}`);
        if (!isNewest()) return;
        results.replaceChildren(el("p", { class: "meta" }, `${list.board} · ${list.window} · ${list.period}: ${plural(list.snapshots.length, "snapshot")}, newest first`),
          ...(list.snapshots.length ? list.snapshots.map(snapshotCard) : [empty("No snapshot of this period yet.")]));
      }).then(() => { if (results.textContent === "Loading…") results.replaceChildren(); });
    } }, field("Board", board), field("Window", win), field("Period", period), field("Top", top),
    el("button", { type: "submit" }, "Show snapshots"));

    const user = el("input", { name: "user", required: true, spellcheck: "false", placeholder: "u-42" });
    const historyBoard = el("input", { name: "board", spellcheck: "false", placeholder: "any board" });
    const historyWindow = windowSelect("window", true);
    const chart = el("div", { id: "rank-history" });
    const historyForm = el("form", { class: "toolbar", id: "history-form", onsubmit: (event) => {
      event.preventDefault();
      const isNewest = historyTicket();
      attempt(async () => {
        const history = await get(`/v1/users/${seg(user.value.trim())}/rank-history${query({ board: historyBoard.value.trim(), window: historyWindow.value, limit: 100 })}`);
        if (isNewest()) chart.replaceChildren(rankHistory(history));
      });
    } }, field("Player id", user), field("Board", historyBoard), field("Window", historyWindow),
    el("button", { type: "submit" }, "Show rank history"));

    container.append(el("h1", {}, "Snapshots"),
      section("Snapshots of a board period", snapshotForm, results),
      section("A player's rank over time", historyForm, chart));
  }

  function entryRows(entries) {
    return entries.map((entry) => el("tr", {},
      el("td", { class: "num" }, String(entry.rank)),
      el("td", {}, entry.medal ? badge(entry.medal, `medal ${entry.medal}`) : ""),
      el("td", { class: "name" }, entry.display_name || el("span", { class: "muted" }, "no display name")),
      el("td", { class: "mono" }, entry.user_id),
      el("td", { class: "num" }, String(entry.score))));
  }

  function snapshotCard(snapshot) {
    return el("article", { class: `snapshot ${snapshot.kind}` },
      el("h3", {}, badge(snapshot.kind, snapshot.kind === "final" ? "ok" : ""), ` ${when(snapshot.taken_at, undefined, DATE_TIME_SECONDS)} · ${plural(snapshot.players, "player")}`),
      snapshot.entries.length ? table([num("Rank"), "Medal", "Name", "Player", num("Score")], entryRows(snapshot.entries), "entries") : empty("No entries."));
  }

  // A small line chart of rank against time (rank 1 on top), one line per board and window.
  function rankHistory(history) {
    const points = history.points.slice().sort((a, b) => new Date(a.taken_at) - new Date(b.taken_at));
    if (points.length === 0) return empty(`No snapshot lists ${history.user_id} yet.`);
    const series = new Map();
    for (const point of points) {
      const name = `${point.board} ${point.window}`;
      if (!series.has(name)) series.set(name, []);
      series.get(name).push(point);
    }
    const width = 640, height = 260, left = 44, right = 16, top = 16, bottom = 40;
    const times = points.map((p) => new Date(p.taken_at).getTime());
    const [t0, t1] = [Math.min(...times), Math.max(...times)];
    const worst = Math.max(2, ...points.map((p) => p.rank));
    const x = (t) => left + (t1 === t0 ? (width - left - right) / 2 : ((t - t0) / (t1 - t0)) * (width - left - right));
    const y = (rank) => top + ((rank - 1) / (worst - 1)) * (height - top - bottom);
    const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img",
      "aria-label": `Rank history of ${history.user_id}` });
    chart.append(svg("title", {}, `Rank history of ${history.user_id}`));
    // Grid and axes: rank 1 and the worst rank, the first and last times.
    for (const rank of [...new Set([1, Math.ceil(worst / 2), worst])]) {
      chart.append(svg("line", { x1: left, x2: width - right, y1: y(rank), y2: y(rank), class: "grid" }),
        svg("text", { x: left - 8, y: y(rank) + 4, class: "axis", "text-anchor": "end" }, `#${rank}`));
    }
    const tick = t1 - t0 < 3600000 ? RUN_TIME : { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" };
    chart.append(svg("text", { x: left, y: height - 12, class: "axis", "text-anchor": "start" }, when(new Date(t0).toISOString(), undefined, tick)));
    if (t1 !== t0) chart.append(svg("text", { x: width - right, y: height - 12, class: "axis", "text-anchor": "end" }, when(new Date(t1).toISOString(), undefined, tick)));
    const legend = el("ul", { class: "legend" });
    [...series.entries()].forEach(([name, list], index) => {
      const colour = `series-${index % 6}`;
      const coordinates = list.map((p) => `${x(new Date(p.taken_at).getTime()).toFixed(1)},${y(p.rank).toFixed(1)}`);
      if (list.length > 1) chart.append(svg("polyline", { points: coordinates.join(" "), class: `line ${colour}` }));
      for (const p of list) {
        const dot = svg("circle", { cx: x(new Date(p.taken_at).getTime()).toFixed(1), cy: y(p.rank).toFixed(1), r: 4, class: `dot ${colour}` });
        dot.append(svg("title", {}, `${name} ${p.period}: rank ${p.rank} of ${p.players}, score ${p.score} (${p.kind}, ${when(p.taken_at)})`));
        chart.append(dot);
      }
      legend.append(el("li", {}, el("span", { class: `swatch ${colour}` }), `${name} (${plural(list.length, "point")})`));
    });
    const rows = history.points.map((p) => el("tr", {},
      el("td", {}, when(p.taken_at, undefined, DATE_TIME_SECONDS)), el("td", {}, `${p.board} ${p.window} ${p.period}`), el("td", {}, p.kind),
      el("td", { class: "num" }, String(p.rank)), el("td", { class: "num" }, String(p.players)), el("td", { class: "num" }, String(p.score))));
    return el("div", { class: "history" }, el("div", { class: "chart-box" }, chart), legend,
      table(["Taken", "Board period", "Kind", num("Rank"), num("Players"), num("Score")], rows, "history-table stack"));
  }

  // --- c. jobs ------------------------------------------------------------------------------------------------

  // Every job, or one at its own address (#jobs/<name>) with its runs shown.
  function renderJobs(container, item) {
    const list = el("div", { class: "jobs", id: "job-list" });
    const replica = el("p", { class: "meta" });
    container.append(el("h1", {}, "Jobs"), item ? backTo("jobs", "All jobs") : null, replica, list);
    attempt(async () => {
      const answer = await get("/v1/admin/jobs");
      replica.textContent = `Answered by replica ${answer.replica}. Times are in each job's zone.`;
      if (!item) { list.replaceChildren(...answer.jobs.map(jobCard)); return; }
      const job = answer.jobs.find((j) => j.name === item);
      if (!job) { list.replaceChildren(empty(`No job is named ${item}.`)); return; }
      const card = jobCard(job);
      list.replaceChildren(card);
      await loadRuns(job, card.querySelector(".runs"), card.querySelector(".last-run"));
    });
  }

  function runSummary(run, zone) {
    if (!run) return "never ran";
    return `${run.status} · ${run.trigger} · slot ${when(run.slot, zone, RUN_TIME)} · ${duration(run.started_at, run.finished_at)}`;
  }

  function jobCard(job) {
    const zone = job.time_zone;
    // The server says the schedule in words and its next slots: the console parses no cron.
    const words = job.schedule_words;
    const slots = job.next_slots || [];
    const state = badge(job.paused ? "paused" : "active", job.paused ? "warn" : "ok");
    const runs = el("div", { class: "runs" });
    const last = el("dd", { class: "last-run" }, runSummary(job.last_run, zone));
    const card = el("article", { class: "card job", dataset: { job: job.name } });
    const ask = el("div", { class: "confirm-box" });
    const what = JOB_EFFECTS[job.name] || "it does its work";
    const pause = button(job.paused ? "Resume…" : "Pause…", () => confirmIn(ask, job.paused
      ? `Resume ${job.name}? It runs on its schedule again (${what}).`
      : `Pause ${job.name}? Its scheduled runs stop on every replica until it is resumed (${what}).`,
    job.paused ? `Resume ${job.name}` : `Pause ${job.name}`, async () => {
      const answer = await api("POST", `/v1/admin/jobs/${seg(job.name)}/${job.paused ? "resume" : "pause"}`);
      job.paused = answer.paused;
      card.replaceWith(jobCard(job));
      showNotice(`${job.name} is ${answer.paused ? "paused" : "running on schedule again"}.`);
    }, "primary"), "quiet pause");
    const runNow = button("Run now…", () => confirmIn(ask, `Run ${job.name} now, outside its schedule? ${what[0].toUpperCase()}${what.slice(1)}.`,
      `Run ${job.name} now`, async () => {
        const run = await api("POST", `/v1/admin/jobs/${seg(job.name)}/run`, { slot: "now" });
        showNotice(`${job.name}: a manual run for ${when(run.slot, zone, DATE_TIME_SECONDS)} is ${run.status}.`);
        await followRuns(job, runs, last, run.slot);
      }, "primary"), "run-now");
    const history = button("History", () => attempt(() => loadRuns(job, runs, last)), "quiet");
    card.append(
      el("header", { class: "card-head" }, el("h2", {}, itemLink("jobs", job.name)), state),
      el("dl", { class: "facts" },
        el("dt", {}, "Schedule"), el("dd", {}, el("span", { class: "words" }, words === job.cron ? "" : `${words} `),
          el("code", {}, job.cron), ` (${zone})`),
        el("dt", {}, "Next slots"), el("dd", { class: "next-slots" }, job.paused ? "none while paused" :
          slots.length ? el("ul", { class: "plain" }, slots.map((s) => el("li", {}, when(s, zone)))) : "none"),
        el("dt", {}, "Last run"), last,
        el("dt", {}, "Policy"), el("dd", {}, `misfire ${job.misfire} · ${plural(job.retry_limit, "retry", "retries")} · lease ${job.lease_seconds} s`)),
      el("div", { class: "row" }, runNow, pause, history),
      ask, runs);
    return card;
  }

  // What each built-in job does when it runs, for its confirmations.
  const JOB_EFFECTS = {
    "close-periods": "it closes every period past its close time and awards their medals",
    "snapshot-leaderboards": "it takes a snapshot of every open board's top entries",
    "emit-reminders": "it writes the reminder events that are due",
    "reconcile-rankings": "it compares the Redis rankings with PostgreSQL and repairs what differs",
    prune: "it deletes events and snapshots older than the retention settings (completions too when completion_days is set) and makes the coming months' partitions",
  };

  // A job's runs, newest first (the last 200), searched, filtered by outcome and trigger, ten to a page.
  async function loadRuns(job, box, last) {
    const answer = await get(`/v1/admin/jobs/${seg(job.name)}/runs?limit=200`);
    const zone = job.time_zone;
    if (answer.runs[0]) last.textContent = runSummary(answer.runs[0], zone);
    if (!box.listView) {
      const outcomes = ["succeeded", "failed", "missed", "running", "pending"];
      box.listView = listView({ id: `runs-${job.name}`, placeholder: "error or result text", pageSize: 10, emptyText: "No runs yet.",
        match: (run, text) => JSON.stringify([run.error, run.result, run.attempts.map((a) => a.error)]).toLowerCase().includes(text),
        filters: [
          { name: "outcome", label: "Outcome", options: [["", "any outcome"], ...outcomes.map((o) => [o, o])], test: (run, value) => !value || run.status === value },
          { name: "trigger", label: "Trigger", options: [["", "any trigger"], ["schedule", "schedule"], ["catch-up", "catch-up"], ["manual", "manual"]],
            test: (run, value) => !value || run.trigger === value },
        ],
        draw: (runs) => runsTable(runs, zone) });
      box.replaceChildren(box.listView.node);
    }
    const card = box.closest(".job");
    if (card) card.classList.add("open");
    box.listView.set(answer.runs);
    return answer.runs;
  }

  function runsTable(runs, zone) {
    const rows = runs.map((run) => el("tr", { dataset: { slot: run.slot, status: run.status, trigger: run.trigger } },
      el("td", { class: "slot" }, when(run.slot, zone, RUN_TIME)),
      el("td", { class: "trigger" }, run.trigger),
      el("td", { class: "run-status" }, badge(run.status, `status ${run.status}`)),
      el("td", { class: "attempts" }, String(run.attempt),
        run.attempts.length ? el("ul", { class: "plain small" }, run.attempts.map((a) =>
          el("li", {}, `#${a.attempt} ${a.outcome || "running"} · ${duration(a.started_at, a.finished_at)} · ${a.replica}${a.error ? ` · ${a.error}` : ""}`))) : null),
      el("td", { class: "duration" }, duration(run.started_at, run.finished_at)),
      el("td", {}, run.error ? el("span", { class: "inline-error" }, run.error)
        : run.result ? Object.entries(run.result).map(([k, v]) => `${k} ${v}`).join(", ") : "")));
    return table([`Slot (${zone})`, "Trigger", "Outcome", "Attempts", "Duration", "Result"], rows, "runs-table stack");
  }

  // After "Run now": the history, again every second until that run has finished (at most 30 s).
  async function followRuns(job, box, last, slot) {
    for (let i = 0; i < 30; i++) {
      const runs = await loadRuns(job, box, last);
      const run = runs.find((r) => new Date(r.slot).getTime() === new Date(slot).getTime());
      if (!box.isConnected || (run && !["pending", "running"].includes(run.status))) return;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }

  // --- d. closed-day calendar ---------------------------------------------------------------------------------

  function renderCalendar(container) {
    const list = el("div", { id: "closed-days" });
    const day = el("input", { type: "date", name: "day", required: true });
    const note = el("input", { name: "note", maxLength: 100, placeholder: "Holiday" });
    const form = el("form", { class: "toolbar", id: "closed-day-form", onsubmit: (event) => {
      event.preventDefault();
      attempt(async () => {
        const closed = await api("PUT", `/v1/admin/calendar/closed-days/${seg(day.value)}`, { note: note.value.trim() || null });
        showNotice(`${closed.day} is closed: no reminders that day.`);
        day.value = ""; note.value = "";
        await load();
      });
    } }, field("Day", day), field("Note", note), el("button", { type: "submit" }, "Close this day"));
    container.append(el("h1", {}, "Closed days"),
      el("p", { class: "meta" }, "No reminders are sent on a closed day, in every player's own zone."),
      section("Close a day", form), section("Closed days", list));

    async function load() {
      const answer = await get("/v1/admin/calendar/closed-days");
      const rows = answer.closed_days.map((closed) => {
        const actions = el("td", { class: "actions" });
        actions.append(button("Remove…", () => confirmIn(actions, `Open ${closed.day} again? Reminders are sent that day.`,
          `Open ${closed.day}`, async () => {
            await api("DELETE", `/v1/admin/calendar/closed-days/${seg(closed.day)}`);
            showNotice(`${closed.day} is open again.`);
            await load();
          }), "quiet small"));
        return el("tr", { dataset: { day: closed.day } },
          el("th", { scope: "row" }, closed.day),
          el("td", {}, when(`${closed.day}T12:00:00Z`, "UTC", { weekday: "long" })),
          el("td", {}, closed.note || el("span", { class: "muted" }, "no note")),
          actions);
      });
      list.replaceChildren(rows.length ? table(["Day", "Weekday", "Note", ""], rows, "days-table") : empty("No closed days."));
    }
    attempt(load);
  }

  // --- e. keys ------------------------------------------------------------------------------------------------

  function renderKeys(container, item) {
    const list = el("div", { id: "key-list" });
    const secretBox = el("div", { id: "secret-box" });
    const name = el("input", { name: "name", required: true, maxLength: 100, placeholder: "quiz backend" });
    const role = el("select", { name: "role" }, ROLES.map((r) => el("option", { value: r }, r)));
    const scopes = el("input", { name: "scopes", spellcheck: "false", placeholder: "group:class-4b, topic:*" });
    // The last day the key works, in the operator's zone; empty for a key that never expires.
    const expiry = el("input", { name: "expires", type: "date" });
    const expiryHint = el("span", { class: "hint", id: "key-expiry-hint" });
    const showExpiry = () => {
      const at = endOfDay(expiry.value);
      expiryHint.textContent = at ? `Stops working after ${when(at)}.` : "No expiry: works until revoked.";
    };
    expiry.addEventListener("input", showExpiry);
    showExpiry();
    const form = el("form", { class: "toolbar", id: "key-form", onsubmit: (event) => {
      event.preventDefault();
      attempt(async () => {
        const scopeList = scopes.value.split(/[\s,]+/).filter(Boolean);
        const created = await api("POST", "/v1/admin/api-keys", { name: name.value, role: role.value, scopes: scopeList.length ? scopeList : null,
          expires_at: endOfDay(expiry.value) || undefined });
        name.value = ""; scopes.value = ""; expiry.value = ""; showExpiry();
        showSecret(secretBox, created);
        await load();
      });
    } }, field("Name", name), field("Role", role), field("Scopes", scopes, "display: 1 to 20; read: up to 20; ingest and admin: none"),
    field("Last day (optional)", expiry, expiryHint),
    el("button", { type: "submit" }, "Create key"));
    // Newest first; revoked and expired keys only when asked for.
    const keys = listView({ id: "key-view", placeholder: "name, prefix or scope", emptyText: "No keys (the bootstrap key is not listed).",
      match: (k, text) => [k.name, k.prefix, k.id, ...k.scopes].some((v) => v.toLowerCase().includes(text)),
      filters: [
        { name: "state", label: "State", options: [["valid", "valid"], ["expired", "expired"], ["revoked", "revoked"], ["", "every state"]],
          test: (k, value) => !value || keyState(k) === value },
        { name: "role", label: "Role", options: [["", "any role"], ...ROLES.map((r) => [r, r])], test: (k, value) => !value || k.role === value },
      ],
      draw: (page) => keysTable(page) });
    const keysTable = (page) => table(["Name", "Role", "Scopes", "Prefix", "Created", "Expires", "State", ""], page.map(keyRow), "keys-table stack");
    // One key at its own address (#keys/<id>), whatever its state; otherwise the list.
    if (item) {
      container.append(el("h1", {}, "API keys"), backTo("keys", "All keys"), section(null, list));
    } else {
      list.append(keys.node);
      container.append(el("h1", {}, "API keys"), section("Create a key", form, secretBox), section("Keys", list));
    }

    async function load() {
      const all = (await get("/v1/admin/api-keys")).keys;
      if (!item) { keys.set(all); return; }
      const found = all.filter((k) => k.id === item);
      list.replaceChildren(found.length ? keysTable(found) : empty(`No key has the id ${item}.`));
    }
    function keyRow(k) {
      const actions = el("td", { class: "actions" });
      if (!k.revoked_at) {
        actions.append(button("Revoke…", () => confirmIn(actions, `Revoke “${k.name}” (${k.prefix}…)? Clients using it stop working at once.`,
          "Revoke the key", async () => {
            await api("DELETE", `/v1/admin/api-keys/${seg(k.id)}`);
            showNotice(`Key “${k.name}” (${k.prefix}…) is revoked.`);
            await load();
          }), "quiet small"));
      }
      const state = keyState(k);
      return el("tr", { dataset: { key: k.id }, class: state === "valid" ? "" : state },
        el("th", { scope: "row" }, itemLink("keys", k.id, k.name)),
        el("td", {}, k.role),
        el("td", {}, k.scopes.length ? k.scopes.join(", ") : el("span", { class: "muted" }, "every board")),
        el("td", { class: "mono" }, `${k.prefix}…`),
        el("td", {}, when(k.created_at)),
        el("td", { class: "expires" }, k.expires_at ? when(k.expires_at, undefined, EXPIRY) : el("span", { class: "muted" }, "never")),
        el("td", { class: "state" }, state === "revoked" ? badge(`revoked ${when(k.revoked_at)}`, "bad")
          : state === "expired" ? badge("expired", "bad") : badge("valid", "ok")),
        actions);
    }
    attempt(load);
  }

  // "revoked" (whether or not it has expired too), "expired" (its expires_at has passed, by this browser's clock) or "valid".
  function keyState(k) {
    if (k.revoked_at) return "revoked";
    return k.expires_at && new Date(k.expires_at).getTime() <= Date.now() ? "expired" : "valid";
  }
  // The end (23:59:59) of the day "2027-03-31" in the browser's zone, as RFC 3339; null for no day.
  function endOfDay(day) {
    const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day || "");
    return parts ? new Date(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3]), 23, 59, 59).toISOString() : null;
  }

  // A button that copies `code`'s text, or selects it when the clipboard is not available (plain http).
  function copyButton(code, label) {
    const status = el("span", { class: "copy-status", role: "status" });
    const copy = button(label, async () => {
      try {
        await navigator.clipboard.writeText(code.textContent);
        status.textContent = "Copied.";
      } catch {
        const range = document.createRange();
        range.selectNodeContents(code);
        getSelection().removeAllRanges();
        getSelection().addRange(range);
        status.textContent = "Selected: press Ctrl+C (⌘C) to copy.";
      }
    }, "copy");
    return [copy, status];
  }

  // The secret, this once, with a copy button; for a display key also its display link, as text and as a QR code to
  // open it on the classroom screen. Gone when dismissed or when leaving the screen.
  function showSecret(box, created) {
    const code = el("code", { class: "secret", id: "new-secret" }, created.secret);
    const link = created.display_url ? el("code", { class: "secret", id: "display-link" }, created.display_url) : null;
    const qr = link ? qrCode(created.display_url, 240, "QR code of the display link") : null;
    if (qr) qr.id = "display-qr";
    box.replaceChildren(el("div", { class: "secret-panel" },
      el("p", {}, el("strong", {}, `Secret of “${created.key.name}” (${created.key.role})`),
        ": copy it now. It is shown only this once and cannot be read again."),
      created.key.expires_at && el("p", { id: "secret-expiry" }, `It stops working after ${when(created.key.expires_at)}.`),
      el("div", { class: "row" }, code, copyButton(code, "Copy")),
      link && el("p", {}, el("strong", {}, "Display link"),
        ": open it on the classroom screen, or scan the code with the screen's camera. It holds the key, so share it only with that screen."),
      link && el("div", { class: "row" }, link, copyButton(link, "Copy display link")),
      qr,
      created.key.role === "display" && !link && el("p", { class: "muted" },
        "No display link: the key's scopes name no single board. Write the link as /display/<board>/<window>#key=<secret>."),
      button("Done", () => box.replaceChildren(), "quiet small")));
  }

  // `text` as a QR code: an SVG `pixels` wide with a four-module quiet zone, labelled for screen readers; byte mode in
  // UTF-8, error correction level M (15% of the code may be lost), the smallest version that holds the text; null when
  // none does. The modules are qrcode-generator's (qrcode.js, Debian's node-qrcode-generator, loaded before this file).
  function qrCode(text, pixels, label) {
    qrcode.stringToBytes = qrcode.stringToBytesFuncs["UTF-8"];  // its default keeps each UTF-16 unit's low byte
    const code = qrcode(0, "M");
    code.addData(text, "Byte");
    try {
      code.make();
    } catch {
      return null;  // more than version 40 holds
    }
    const count = code.getModuleCount(), side = count + 8;
    let path = "";
    for (let row = 0; row < count; row++) {
      for (let column = 0; column < count; column++) if (code.isDark(row, column)) path += `M${column + 4},${row + 4}h1v1h-1z`;
    }
    return svg("svg", { viewBox: `0 0 ${side} ${side}`, width: pixels, height: pixels, role: "img", "aria-label": label,
      "shape-rendering": "crispEdges" }, svg("rect", { width: side, height: side, fill: "#fff" }), svg("path", { d: path, fill: "#000" }));
  }

  // --- f. webhooks --------------------------------------------------------------------------------------------

  function renderWebhooks(container) {
    const url = el("input", { name: "url", type: "url", required: true, maxLength: 2000, spellcheck: "false", placeholder: "https://quiz.example.org/hooks/podium" });
    const types = EVENT_TYPES.map((type) => el("label", { class: "check" }, el("input", { type: "checkbox", name: "event_types", value: type }), type));
    const secret = el("input", { name: "secret", required: true, minLength: 16, maxLength: 200, spellcheck: "false", autocomplete: "off",
      placeholder: "16 or more characters" });
    const form = el("form", { class: "toolbar", id: "webhook-form", onsubmit: (event) => {
      event.preventDefault();
      attempt(async () => {
        const chosen = types.map((label) => label.querySelector("input")).filter((box) => box.checked).map((box) => box.value);
        const made = await api("POST", "/v1/admin/webhooks", { url: url.value.trim(), event_types: chosen, secret: secret.value });
        showNotice(`Webhook ${made.id} to ${made.url} is created; send it a test event to check the receiver.`);
        url.value = ""; secret.value = "";
        await load();
      });
    } }, field("Receiver URL", url), field("Secret", secret, "the receiver checks Podium-Signature with it"),
    el("fieldset", { class: "field" }, el("legend", { class: "label" }, "Events"), el("div", { class: "checks" }, types)),
    el("button", { type: "submit" }, "Create webhook"));
    const hooks = listView({ id: "webhook-view", placeholder: "URL, id or event type", emptyText: "No webhooks.", pageSize: 10,
      match: (hook, text) => [hook.url, hook.id, ...hook.event_types].some((v) => v.toLowerCase().includes(text)),
      filters: [{ name: "state", label: "State", options: [["", "enabled and disabled"], ["enabled", "enabled"], ["disabled", "disabled"]],
        test: (hook, value) => !value || (value === "enabled") === hook.enabled }],
      draw: (page) => el("div", {}, page.map(webhookCard)) });
    container.append(el("h1", {}, "Webhooks"), section("Create a webhook", form), section("Webhooks", el("div", { id: "webhook-list" }, hooks.node)));

    async function load() {
      hooks.set((await get("/v1/admin/webhooks")).webhooks);
    }
    function webhookCard(hook) {
      const deliveries = el("div", { class: "deliveries" });
      const ask = el("div", { class: "confirm-box" });
      const tested = el("p", { class: "test-result", role: "status" });
      const toggle = button(hook.enabled ? "Disable…" : "Enable…", () => confirmIn(ask, hook.enabled
        ? `Disable the webhook to ${hook.url}? No new deliveries are made for it; those already made are still sent.`
        : `Enable the webhook to ${hook.url}? New events of its types are delivered again.`,
      hook.enabled ? "Disable the webhook" : "Enable the webhook", async () => {
        await api("POST", `/v1/admin/webhooks/${seg(hook.id)}/${hook.enabled ? "disable" : "enable"}`);
        showNotice(`${hook.url} is ${hook.enabled ? "disabled" : "enabled"}.`);
        await load();
      }, hook.enabled ? "danger" : "primary"), "quiet toggle");
      const test = button("Send test event", () => attempt(async () => {
        tested.className = "test-result";
        tested.textContent = "Sending…";
        // A refused test (the webhook was deleted meanwhile, no sender) shows in the banner; this line is cleared.
        const result = await api("POST", `/v1/admin/webhooks/${seg(hook.id)}/test`).catch((error) => {
          tested.textContent = "";
          throw error;
        });
        tested.className = `test-result ${result.delivered ? "ok" : "bad"}`;
        tested.textContent = result.delivered
          ? `Delivered: the receiver answered ${result.status_code} in ${result.duration_ms} ms (${result.event_id}).`
          : `Not delivered: ${result.error} (${result.duration_ms} ms, ${result.event_id}).`;
      }), "test-webhook");
      const remove = button("Delete…", () => confirmIn(ask,
        `Delete the webhook to ${hook.url}? Its deliveries, sent and pending, are deleted with it, and nothing more is sent.`,
        "Delete the webhook", async () => {
          await api("DELETE", `/v1/admin/webhooks/${seg(hook.id)}`);
          showNotice(`The webhook to ${hook.url} is deleted.`);
          await load();
        }), "quiet delete-webhook");
      return el("article", { class: "card webhook", dataset: { webhook: hook.id } },
        el("header", { class: "card-head" }, el("h2", { class: "mono" }, hook.url), badge(hook.enabled ? "enabled" : "disabled", hook.enabled ? "ok" : "warn")),
        el("p", { class: "meta" }, `${hook.id} · created ${when(hook.created_at)} · ${hook.event_types.join(", ")}`),
        el("div", { class: "row" }, button("Deliveries", () => attempt(() => loadDeliveries(hook, deliveries)), "show-deliveries"), test, toggle, remove),
        tested, ask, deliveries);
    }
    attempt(load);
  }

  // A webhook's deliveries, newest first (the last 500), by status and event type, twenty to a page.
  async function loadDeliveries(hook, box) {
    const answer = await get(`/v1/admin/webhooks/${seg(hook.id)}/deliveries?limit=500`);
    if (!box.listView) {
      box.listView = listView({ id: `deliveries-${hook.id}`, placeholder: "event id, type or error", emptyText: "No deliveries yet.",
        match: (d, text) => [d.event_id, d.event_type, d.last_error || "", String(d.id)].some((v) => v.toLowerCase().includes(text)),
        filters: [{ name: "status", label: "Status", options: [["", "any status"], ["pending", "pending"], ["sending", "sending"],
          ["delivered", "delivered"], ["dead", "dead"]], test: (d, value) => !value || d.status === value }],
        draw: (page) => deliveriesTable(hook, box, page) });
      box.replaceChildren(box.listView.node);
    }
    box.listView.set(answer.deliveries);
  }

  function deliveriesTable(hook, box, deliveries) {
    const rows = deliveries.map((d) => {
      const actions = el("td", { class: "actions" });
      if (d.status === "dead") {
        actions.append(button("Resend…", () => confirmIn(actions, `Send delivery ${d.id} (${d.event_type}) again, with a fresh set of attempts?`,
          "Resend it", async () => {
            await api("POST", `/v1/admin/webhooks/deliveries/${d.id}/resend`);
            showNotice(`Delivery ${d.id} is queued again.`);
            await loadDeliveries(hook, box);
          }, "primary"), "small resend"));
      }
      return el("tr", { dataset: { delivery: String(d.id), status: d.status } },
        el("td", { class: "num" }, String(d.id)),
        el("td", {}, d.event_type),
        el("td", { class: "mono" }, d.event_id),
        el("td", {}, badge(d.status, `status ${d.status}`)),
        el("td", { class: "num" }, String(d.attempts)),
        el("td", {}, [d.last_status_code ? `HTTP ${d.last_status_code}` : null, d.last_error].filter(Boolean).join(" · ") || "—"),
        el("td", {}, d.delivered_at ? `delivered ${when(d.delivered_at)}` : d.next_attempt_at ? `next ${when(d.next_attempt_at)}`
          : d.history.length ? `last tried ${when(d.history[d.history.length - 1].started_at)}` : "—"),
        actions);
    });
    return table([num("Id"), "Event", "Event id", "Status", num("Attempts"), "Last answer", "When", ""], rows, "deliveries-table stack");
  }

  // --- g. players ---------------------------------------------------------------------------------------------

  // Players found by the start of their id or part of their name; one of them shown whole, at its own address
  // (#players/<id>, `item`).
  function renderPlayers(container, item) {
    const user = el("input", { name: "user", required: true, spellcheck: "false", placeholder: "u-42, or Amara" });
    const matches = el("div", { id: "player-matches" });
    const result = el("div", { id: "player" });
    const ticket = tickets();
    const form = el("form", { class: "toolbar", id: "player-form", onsubmit: (event) => {
      event.preventDefault();
      result.replaceChildren();
      const text = user.value.trim();
      const isNewest = ticket();
      attempt(async () => {
        const found = (await get(`/v1/admin/players${query({ q: text, limit: 20 })}`)).players;
        if (!isNewest()) return;
        // The one player found, or the one whose id is exactly the text, is shown at once.
        const exact = found.find((p) => p.user_id === text) || (found.length === 1 ? found[0] : null);
        if (exact) { openItem("players", exact.user_id); return; }
        matches.replaceChildren(found.length ? table(["Player", "Name", num("Points"), "First seen", ""], found.map((p) =>
          el("tr", { dataset: { user: p.user_id } },
            el("th", { scope: "row", class: "mono" }, itemLink("players", p.user_id)),
            el("td", {}, p.display_name || el("span", { class: "muted" }, "no display name")),
            el("td", { class: "num" }, String(p.points)),
            el("td", {}, when(p.created_at)),
            el("td", { class: "actions" }, button("Show", () => openItem("players", p.user_id), "small show-player")))), "matches-table stack")
          : empty(`No player's id starts with “${text}”, and no display name holds it.`));
      });
    } }, field("Player id or name", user, "the start of an id, or part of a display name"), el("button", { type: "submit" }, "Find"));
    container.append(el("h1", {}, "Players"), form, matches, result);
    if (item) {
      user.value = item;
      attempt(() => loadPlayer(item, result, ticket()));
    }
  }

  async function loadPlayer(id, box, isNewest) {
    const [profile, medals] = await Promise.all([get(`/v1/users/${seg(id)}`), get(`/v1/users/${seg(id)}/medals`)]);
    if (!isNewest()) return;
    const t = profile.totals;
    const level = profile.level;
    const ranks = profile.ranks.map((r) => el("tr", {}, el("td", {}, r.board), el("td", {}, r.window === "all" ? "all time" : `${r.window} ${r.period}`),
      el("td", { class: "num" }, `${r.rank} of ${r.players}`), el("td", { class: "num" }, String(r.score))));
    const medalRows = medals.medals.map((m) => el("tr", {}, el("td", {}, badge(m.medal, `medal ${m.medal}`)),
      el("td", {}, `${m.board} ${m.window} ${m.period}`), el("td", { class: "num" }, String(m.rank)), el("td", { class: "num" }, String(m.score)),
      el("td", {}, when(m.awarded_at))));
    // The id to type is shown as it is (no capitals added by a label's style), and typed as shown it matches.
    const confirmInput = el("input", { name: "confirm", spellcheck: "false", autocomplete: "off", autocapitalize: "off", placeholder: profile.user_id });
    const erase = el("button", { type: "submit", class: "danger", disabled: true }, "Erase this player");
    confirmInput.addEventListener("input", () => { erase.disabled = confirmInput.value !== profile.user_id; });
    const eraseForm = el("form", { class: "toolbar", id: "erase-form", onsubmit: (event) => {
      event.preventDefault();
      if (confirmInput.value !== profile.user_id) return;
      attempt(async () => {
        erase.disabled = true;
        await api("DELETE", `/v1/users/${seg(profile.user_id)}`);
        box.replaceChildren(el("p", { class: "erased" }, `${profile.user_id} was erased everywhere.`));
        showNotice(`${profile.user_id} was erased: completions, totals, scores, snapshot entries, medals and events.`);
      });
    } }, el("label", { class: "field" }, el("span", { class: "plain-label" }, "Type ", el("code", { class: "confirm-id" }, profile.user_id),
      " to confirm"), confirmInput), erase);

    box.replaceChildren(
      el("article", { class: "card profile" },
        el("header", { class: "card-head" },
          el("h2", { class: "display-name" }, profile.display_name || el("span", { class: "muted" }, "no display name")),
          el("span", { class: "mono user-id" }, profile.user_id)),
        el("dl", { class: "facts" },
          el("dt", {}, "Time zone"), el("dd", {}, profile.time_zone),
          el("dt", {}, "First seen"), el("dd", {}, when(profile.created_at)),
          el("dt", {}, "Points"), el("dd", { class: "points" }, String(t.points)),
          el("dt", {}, "Completions"), el("dd", {}, `${t.completions} · ${t.correct_answers} of ${t.total_answers} answers correct (${t.correct_percent} %)`),
          el("dt", {}, "Level"), el("dd", {}, `${level.level}${level.points_to_next_level ? ` · ${level.points_to_next_level} points to level ${level.level + 1}` : " · the last level"}`),
          el("dt", {}, "Streak"), el("dd", {}, `${plural(profile.streak.current, "day")} now · longest ${plural(profile.streak.longest, "day")}`),
          el("dt", {}, "Achievements"), el("dd", {}, profile.achievements.length ? profile.achievements.map((a) => a.name || a.id).join(", ") : "none"),
          el("dt", {}, "Rankings"), el("dd", {}, profile.rankings_live ? "live" : "read from PostgreSQL (Redis unavailable)")),
        el("h3", {}, "Current ranks"),
        ranks.length ? table(["Board", "Period", num("Rank"), num("Score")], ranks, "ranks-table") : empty("On no board.")),
      section("Medals", medalRows.length ? table(["Medal", "Board period", num("Rank"), num("Score"), "Awarded"], medalRows, "player-medals") : empty("No medals.")),
      el("section", { class: "card danger-zone" }, el("h2", {}, "Erase"),
        el("p", {}, "Erases the player everywhere: completions, totals, preferences, scores, snapshot entries, medals, events and rankings. This cannot be undone."),
        eraseForm));
  }

  // --- h. the audit trail ------------------------------------------------------------------------------------------

  // Who did what admin action when, newest first, a page at a time (the server cuts pages by entry id).
  function renderAudit(container) {
    const search = el("input", { type: "search", name: "q", placeholder: "pause, contests, wh_…", spellcheck: "false" });
    const actor = el("select", { name: "actor" }, el("option", { value: "" }, "every key"), el("option", { value: "bootstrap" }, "the bootstrap key"));
    const list = el("div", { id: "audit-list" });
    const pages = pager(() => { cursors = []; attempt(() => load()); }, () => { cursors.push(pages.next.dataset.cursor); attempt(() => load()); },
      ["Newest", "pager-first"], ["Older", "pager-next"]);
    let cursors = [];
    const ticket = tickets();
    const form = el("form", { class: "toolbar list-tools", id: "audit-form", onsubmit: (event) => {
      event.preventDefault(); cursors = []; attempt(() => load());
    } }, field("Search", search, "route or path"), field("Key", actor), el("button", { type: "submit" }, "Show"));
    actor.addEventListener("change", () => { cursors = []; attempt(() => load()); });
    container.append(el("h1", {}, "Audit trail"),
      el("p", { class: "meta" }, "Every admin change (not reads, dry runs or refusals), with the key that made it. An erased player's id is kept only as a hash."),
      form, list, pages.node);

    async function load() {
      const isNewest = ticket();
      const answer = await get(`/v1/admin/audit${query({ q: search.value.trim(), actor: actor.value, limit: 25, cursor: cursors[cursors.length - 1] })}`);
      if (!isNewest()) return;
      const rows = answer.entries.map((entry) => el("tr", { dataset: { entry: String(entry.id) } },
        el("td", {}, when(entry.at, undefined, DATE_TIME_SECONDS)),
        el("td", {}, entry.actor_name || (entry.actor === "bootstrap" ? "bootstrap key" : el("span", { class: "muted" }, "deleted key")),
          el("div", { class: "muted mono" }, entry.actor)),
        el("td", { class: "mono" }, entry.action),
        el("td", { class: "mono target" }, entry.target, entry.detail ? el("div", { class: "audit-detail" }, entry.detail) : null),
        el("td", { class: "num" }, String(entry.status)),
        el("td", { class: "mono" }, entry.request_id)));
      list.replaceChildren(rows.length ? table(["When", "Key", "Action", "Target", num("Status"), "Request"], rows, "audit-table stack")
        : empty("No admin action matches."));
      pages.show(rows.length ? `${cursors.length ? "older entries" : "newest entries"}: ${rows.length}` : "", cursors.length > 0,
        Boolean(answer.next_cursor));
      if (answer.next_cursor) pages.next.dataset.cursor = answer.next_cursor;
    }
    // The key list names the keys to choose from (revoked ones too: their actions stay in the trail).
    attempt(async () => {
      for (const k of (await get("/v1/admin/api-keys")).keys.filter((k) => k.role === "admin")) {
        actor.append(el("option", { value: k.id }, `${k.name} (${k.prefix}…)${keyState(k) === "valid" ? "" : `, ${keyState(k)}`}`));
      }
      await load();
    });
  }

  const RENDER = { boards: renderBoards, contests: renderContests, leagues: renderLeagues, goals: renderGoals, snapshots: renderSnapshots, jobs: renderJobs, calendar: renderCalendar,
    keys: renderKeys, webhooks: renderWebhooks, players: renderPlayers, audit: renderAudit };

  // --- start --------------------------------------------------------------------------------------------------

  takeKeyFromAddress();
  $("login-form").addEventListener("submit", signIn);
  $("sign-out").addEventListener("click", () => signOut());
  $("message-close").addEventListener("click", clearMessage);
  window.addEventListener("hashchange", () => {
    if (location.hash.includes("key=")) { takeKeyFromAddress(); start(); } else route();
  });
  start();
})();
