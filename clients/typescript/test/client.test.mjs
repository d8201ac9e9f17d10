// The TypeScript client's tests in Node (node --test), run by clients/typescript/test.sh from a new project that
// installed podium-client from its tarball: the README's snippet against a real `podium serve`, then the error model
// through the fault proxy in front of it (clients/testing/fault_proxy.py): proxies' HTML 502 and 503 pages, a refused
// token, a rate limit with Retry-After, an offline period, answers lost after Podium recorded, and a live board with a
// refused token; then, against local servers of the test's own, a Podium that never answers (time limits), a stream
// gone silent, 2xx answers cut off or not JSON, odd batch answers, and a browser page's probes (simulated in Node).
// Each queue item's outcome is checked exactly, and Podium's count shows no loss and no double.
//
// Environment (clients/testing/podium.sh): PODIUM_CLIENT_TEST_URL, PODIUM_CLIENT_TEST_PROXY_URL,
// PODIUM_CLIENT_TEST_ADMIN_KEY, PODIUM_CLIENT_TEST_TOKEN_KID, PODIUM_CLIENT_TEST_TOKEN_SECRET; README_SNIPPET, the
// compiled snippet to run.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { createServer as createTcpServer } from "node:net";
import { beforeEach, test } from "node:test";
import {
  OfflineQueue, Podium, PodiumAuthenticationError, PodiumError, PodiumRefused, PodiumUnavailable,
} from "podium-client";
import { HealthApi, LeaderboardsApi } from "podium-client/api";

const PODIUM = process.env.PODIUM_CLIENT_TEST_URL;
const PROXY = process.env.PODIUM_CLIENT_TEST_PROXY_URL;
const ADMIN = process.env.PODIUM_CLIENT_TEST_ADMIN_KEY;
const GROUP = "class-4b";
/** The path of the group's week board, as the client sends it (the board's name is one encoded path segment). */
const WEEK = `/v1/leaderboards/${encodeURIComponent(`group:${GROUP}`)}/week`;

// --- helpers ------------------------------------------------------------------------------------------------------

/** An HS256 player token for `user`, as an app's backend signs it (`issuedAgo` seconds ago, valid `lifetime` s). */
function playerToken(user, { lifetime = 600, issuedAgo = 0 } = {}) {
  const encode = (value) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const now = Math.floor(Date.now() / 1000) - issuedAgo;
  const unsigned = `${encode({ alg: "HS256", typ: "JWT", kid: process.env.PODIUM_CLIENT_TEST_TOKEN_KID })}.` +
    encode({ sub: user, iat: now, exp: now + lifetime, groups: [GROUP] });
  const signature = createHmac("sha256", process.env.PODIUM_CLIENT_TEST_TOKEN_SECRET).update(unsigned).digest("base64url");
  return `${unsigned}.${signature}`;
}

/** A token that expired an hour ago. */
const expiredToken = (user) => playerToken(user, { lifetime: 60, issuedAgo: 3600 });

/** A new player's id. */
const newUser = (name) => `u-ts-${name}-${randomBytes(3).toString("hex")}`;

/** Completion `n` of `user`, finished `n` × 2 minutes before the first (plausible for a player token). */
function completion(user, n, extra = {}) {
  return {
    id: `${user}-${n}`, userId: user, quizId: `q-${n}`, topic: "math", difficulty: "easy", correct: 3, total: 4,
    durationMs: 60_000, groups: [GROUP], completedAt: new Date(Date.now() - (n + 1) * 120_000).toISOString(), ...extra,
  };
}

/** Queues faults at the proxy (see fault_proxy.py). */
async function faults(...list) {
  const answer = await fetch(`${PROXY}/__faults`, { method: "POST", body: JSON.stringify(list) });
  assert.equal(answer.status, 204);
}

/** The proxy's request log from `since` on (an index into it), without its own control requests. */
async function proxyLog(since = 0) {
  return (await (await fetch(`${PROXY}/__faults/log`)).json()).slice(since);
}

/** Where the proxy's log ends now. */
const logLength = async () => (await proxyLog()).length;

/** `user`'s number of completions, as Podium counts them (0 for an unknown player). */
async function completionsOf(user) {
  const answer = await fetch(`${PODIUM}/v1/users/${user}`, { headers: { Authorization: `Bearer ${ADMIN}` } });
  if (answer.status === 404) return 0;
  assert.equal(answer.status, 200);
  return (await answer.json()).totals.completions;
}

/**
 * A client of the proxy for `user`: `asked` records the app's answers to `token(refresh)` (by default a valid token
 * for `user`), `slept` the waits between retries (which take no time).
 */
function client(user, { token = () => playerToken(user), base = PROXY, attempts, timeoutMs, fetch: fetchApi } = {}) {
  const asked = [], slept = [];
  const podium = new Podium({
    baseUrl: base,
    token: (refresh) => { asked.push(refresh); return token(refresh); },
    sleep: async (milliseconds) => { slept.push(milliseconds); },
    ...(attempts === undefined ? {} : { attempts }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(fetchApi === undefined ? {} : { fetch: fetchApi }),
  });
  return { podium, asked, slept };
}

/**
 * A local HTTP server standing in for Podium (or a proxy in front of it) that answers with `handle(request, response,
 * body)`; `requests` lists `[method, path, body]`. Close it with `close()`.
 */
async function fakePodium(handle) {
  const requests = [];
  const sockets = new Set();
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => { body += chunk; });
    request.on("end", () => { requests.push([request.method, request.url, body]); handle(request, response, body); });
  });
  server.on("connection", (socket) => { sockets.add(socket); socket.on("close", () => sockets.delete(socket)); });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${server.address().port}`,
    requests,
    close: () => { for (const socket of sockets) socket.destroy(); return new Promise((resolve) => server.close(resolve)); },
  };
}

/** A TCP server that accepts connections and never answers (a hung Podium); close it with `close()`. */
async function silentServer() {
  const sockets = new Set();
  const server = createTcpServer((socket) => { sockets.add(socket); socket.on("error", () => undefined); });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${server.address().port}`,
    connections: () => sockets.size,
    close: () => { for (const socket of sockets) socket.destroy(); return new Promise((resolve) => server.close(resolve)); },
  };
}

/**
 * A sleep that waits until the test releases it (`release()`), or until its signal aborts; `waits` lists the
 * milliseconds asked for. Nothing waits in real time.
 */
function heldSleep() {
  const waits = [], held = [];
  const sleep = (milliseconds, signal) => new Promise((resolve) => {
    waits.push(milliseconds);
    held.push(resolve);
    signal?.addEventListener("abort", () => resolve());
  });
  return { sleep, waits, release: () => held.shift()?.() };
}

/** Runs `body` as if in a browser page on `origin` (`location` and `document` defined), then restores Node's globals. */
async function asPage(origin, body) {
  const saved = { location: globalThis.location, document: globalThis.document };
  Object.defineProperty(globalThis, "location", { value: { origin }, configurable: true, writable: true });
  Object.defineProperty(globalThis, "document", { value: {}, configurable: true, writable: true });
  try {
    return await body();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete globalThis[name];
      else globalThis[name] = value;
    }
  }
}

/** A queue in memory. */
function memoryQueue(podium) {
  const stored = new Map();
  return new OfflineQueue(podium, { getItem: (key) => stored.get(key) ?? null, setItem: (key, value) => stored.set(key, value) });
}

/** The report's items as `[id, outcome, reason or problem status]`, for exact comparison. */
const outcomes = (report) => report.items.map((item) => [item.id, item.outcome, item.reason ?? item.problem?.status ?? null]);

/** Waits `seconds`. */
const pause = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/** Waits until `condition()` holds (every 50 ms, at most `seconds`). */
async function until(condition, seconds = 15) {
  const deadline = Date.now() + seconds * 1000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${seconds} s: ${condition}`);
    await pause(0.05);
  }
}

// Each test starts with no fault queued.
beforeEach(async () => {
  assert.equal((await fetch(`${PROXY}/__faults`, { method: "DELETE" })).status, 204);
});

// --- the README -------------------------------------------------------------------------------------------------

test("the README's snippet runs against podium serve", async () => {
  // The app's backend: hands out u-42's token, counting how often it is asked.
  let asks = 0;
  const backend = createServer((request, response) => {
    asks++;
    response.setHeader("Content-Type", "text/plain");
    response.end(playerToken("u-42"));
  });
  await new Promise((resolve) => backend.listen(0, "127.0.0.1", resolve));
  try {
    const env = { ...process.env, PODIUM_URL: PODIUM, APP_URL: `http://127.0.0.1:${backend.address().port}` };
    const run = spawn(process.execPath, [process.env.README_SNIPPET], { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    run.stdout.on("data", (chunk) => { output += chunk; });
    run.stderr.on("data", (chunk) => { output += chunk; });
    const timer = setTimeout(() => run.kill(), 30_000);
    const status = await new Promise((resolve) => run.on("exit", resolve));
    clearTimeout(timer);
    console.log(output.trimEnd().replace(/^/gm, "    readme | "));
    assert.equal(status, 0, output);
    assert.match(output, /^\+\d+ points: \d+ in all, level \d+$/m);
    assert.match(output, /^queued [\w-]+: recorded$/m);
    assert.match(output, /^board: live$/m);
    assert.match(output, /^1\. u-42: \d+$/m);
    assert.match(output, /^refused: 400 .+ \(https:\/\/podium\.dev\/problems\/validation-failed\)$/m);
    assert.equal(asks, 1, "one token for the whole run");
    assert.equal(await completionsOf("u-42"), 2);
  } finally {
    backend.close();
  }
});

// --- answers from a proxy -----------------------------------------------------------------------------------------

test("a proxy's HTML 502 and 503 pages are retried with the same id, then recorded once", async () => {
  const user = newUser("html");
  const { podium, slept } = client(user);
  const since = await logLength();
  await faults({ status: 502, path: "/v1/completions" }, { status: 503, path: "/v1/completions" });
  const answer = await podium.record(completion(user, 0));
  assert.equal(answer.completion.id, `${user}-0`);
  assert.deepEqual(slept, [500, 1000]);
  assert.deepEqual((await proxyLog(since)).map((entry) => entry.answer), [502, 503, 201]);
  assert.equal(await completionsOf(user), 1);
});

test("HTML 502 pages until the attempts run out: PodiumUnavailable 'unavailable', readable, no SyntaxError", async () => {
  const user = newUser("exhausted");
  const { podium, slept } = client(user);
  await faults({ status: 502, path: "/v1/completions", times: 4 });
  const error = await podium.record(completion(user, 0)).then(() => null, (error) => error);
  assert.ok(error instanceof PodiumUnavailable, String(error));
  assert.ok(error instanceof PodiumError);
  assert.equal(error.reason, "unavailable");
  assert.equal(error.status, 502);
  assert.equal(error.problem, null);
  assert.equal(error.attempts, 4);
  assert.equal(error.message, `502 from ${PROXY}: text/html "502 Bad Gateway": not Podium's answer, likely a proxy in ` +
    "front of it; try again later (gave up after 4 attempts)");
  assert.deepEqual(slept, [500, 1000, 2000]);
  assert.equal(await completionsOf(user), 0);
  // A 503 page when the app reads: the same error, once (reads are not retried).
  await faults({ status: 503, path: "/v1/users/" });
  const read = await podium.users.fetchUserProfile({ id: user }).then(() => null, (error) => error);
  assert.ok(read instanceof PodiumUnavailable && read.reason === "unavailable" && read.status === 503, String(read));
  assert.match(read.message, /^503 from .*: text\/html "503 Service Temporarily Unavailable"/);
});

test("Podium's problems are typed errors: PodiumRefused with type, title, status and detail", async () => {
  const user = newUser("problem");
  const { podium, slept } = client(user);
  const invalid = await podium.record(completion(user, 0, { correct: 5 })).then(() => null, (error) => error);
  assert.ok(invalid instanceof PodiumRefused, String(invalid));
  assert.equal(invalid.status, 400);
  assert.equal(invalid.problem.type, "https://podium.dev/problems/validation-failed");
  assert.equal(invalid.problem.code, "validation-failed");
  assert.ok(invalid.problem.errors.some((field) => field.field === "correct"), JSON.stringify(invalid.problem.errors));
  assert.equal(invalid.message, `400 ${invalid.problem.title}: ${invalid.problem.detail} (${invalid.problem.type})`);
  await podium.record(completion(user, 1));
  const conflict = await podium.record(completion(user, 1, { correct: 2 })).then(() => null, (error) => error);
  assert.ok(conflict instanceof PodiumRefused && conflict.status === 409, String(conflict));
  assert.match(conflict.message, /^409 Conflict: .+ \(https:\/\/podium\.dev\/problems\/conflict\)$/);
  const other = await podium.users.fetchUserProfile({ id: "u-ts-somebody-else" }).then(() => null, (error) => error);
  assert.ok(other instanceof PodiumRefused && other.status === 403, String(other));
  assert.deepEqual(slept, [], "refusals are not retried");
});

// --- a refused token ----------------------------------------------------------------------------------------------

test("a refused token is refreshed once; refused again, a PodiumAuthenticationError (not offline)", async () => {
  const user = newUser("expired");
  let valid = false;
  const { podium, asked, slept } = client(user, { token: () => (valid ? playerToken(user) : expiredToken(user)) });
  const since = await logLength();
  const error = await podium.record(completion(user, 0)).then(() => null, (error) => error);
  assert.ok(error instanceof PodiumAuthenticationError, String(error));
  assert.equal(error.status, 401);
  assert.equal(error.problem.code, "unauthorized");
  assert.deepEqual(asked, [false, true], "the held token, then one fresh one");
  assert.deepEqual(slept, []);
  assert.deepEqual((await proxyLog(since)).map((entry) => entry.answer), [401, 401]);
  // The next request asks for a fresh token first (once), and goes through once the backend signs a valid one.
  valid = true;
  await podium.record(completion(user, 0));
  assert.deepEqual(asked, [false, true, true]);
  assert.equal(await completionsOf(user), 1);
});

test("an offline queue with a refused token leaves each item 'authentication', asking once more", async () => {
  const user = newUser("queue-auth");
  const { podium, asked } = client(user, { token: () => expiredToken(user) });
  const queue = memoryQueue(podium);
  queue.add(completion(user, 0));
  queue.add(completion(user, 1));
  const since = await logLength();
  const report = await queue.sync();
  assert.deepEqual(outcomes(report), [[`${user}-0`, "left", "authentication"], [`${user}-1`, "left", "authentication"]]);
  assert.deepEqual(report.left.map((item) => item.id), [`${user}-0`, `${user}-1`]);
  assert.deepEqual(asked, [false, true]);
  assert.deepEqual((await proxyLog(since)).map((entry) => entry.answer), [401, 401]);
  assert.equal(queue.pending().length, 2);
  assert.equal(await completionsOf(user), 0);
});

// --- a rate limit -------------------------------------------------------------------------------------------------

test("a 429 with Retry-After: record waits the seconds; the queue leaves items 'rate_limited', then syncs", async () => {
  const user = newUser("limited");
  const { podium, slept } = client(user);
  await faults({ status: 429, retry_after: 7, path: "/v1/completions" }, { status: 429, retry_after: 3, problem: true, path: "/v1/completions" });
  await podium.record(completion(user, 0));
  assert.deepEqual(slept, [7000, 3000]);

  const queue = memoryQueue(podium);
  queue.add(completion(user, 1));
  queue.add(completion(user, 2));
  await faults({ status: 429, retry_after: 5, path: "/v1/completions/batch" });
  const limited = await queue.sync();
  assert.deepEqual(outcomes(limited), [[`${user}-1`, "left", "rate_limited"], [`${user}-2`, "left", "rate_limited"]]);
  assert.equal(limited.retryAfter, 5);
  const after = await queue.sync();
  assert.deepEqual(outcomes(after), [[`${user}-1`, "recorded", null], [`${user}-2`, "recorded", null]]);
  assert.deepEqual(queue.pending(), []);
  assert.equal(await completionsOf(user), 3);
});

// --- offline ------------------------------------------------------------------------------------------------------

test("offline: items are left 'offline', recorded at the next sync, replayed when resent; Podium counts each once", async () => {
  const user = newUser("offline");
  const { podium, slept } = client(user);
  const queue = memoryQueue(podium);
  const played = [0, 1, 2].map((n) => completion(user, n));
  played.forEach((item) => queue.add(item));
  queue.add(completion(user, 3, { correct: 9 }));  // Podium refuses it: it leaves the queue, reported
  await faults({ drop: true, path: "/v1/completions/batch" });
  const offline = await queue.sync();
  assert.deepEqual(outcomes(offline), [0, 1, 2, 3].map((n) => [`${user}-${n}`, "left", "offline"]));
  assert.equal(queue.pending().length, 4);

  const back = await queue.sync();
  assert.deepEqual(outcomes(back), [...[0, 1, 2].map((n) => [`${user}-${n}`, "recorded", null]), [`${user}-3`, "refused", 400]]);
  assert.deepEqual(back.recorded, [0, 1, 2].map((n) => `${user}-${n}`));
  assert.equal(back.refused[0].problem.code, "validation-failed");
  assert.deepEqual(queue.pending(), []);

  // The same completions queued again (a sync whose answer was lost): replays, never doubles.
  played.forEach((item) => queue.add(item));
  const again = await queue.sync();
  assert.deepEqual(outcomes(again), [0, 1, 2].map((n) => [`${user}-${n}`, "replayed", null]));
  assert.equal(await completionsOf(user), 3);

  // A dropped connection under record: sent again with the same id, counted once.
  await faults({ drop: true, path: "/v1/completions" });
  await podium.record(completion(user, 4));
  assert.deepEqual(slept, [500]);
  assert.equal(await completionsOf(user), 4);

  // Nothing listening at all: PodiumUnavailable 'offline' once the attempts ran out.
  const nowhere = client(user, { base: "http://127.0.0.1:9" }).podium;
  const error = await nowhere.record(completion(user, 5)).then(() => null, (error) => error);
  assert.ok(error instanceof PodiumUnavailable && error.reason === "offline" && error.status === null, String(error));
  assert.match(error.message, /^Podium at http:\/\/127\.0\.0\.1:9 could not be reached: the network is offline or Podium is down/);
});

test("add and record reject a shapeless completion, naming the field; completedAt may be a Date or an ISO string", async () => {
  const user = newUser("shape");
  const { podium } = client(user);
  const queue = memoryQueue(podium);
  const { userId, ...noUser } = completion(user, 0);
  assert.throws(() => queue.add({ ...noUser, user_id: userId }), /completion\.user_id: the client takes the API's fields in camelCase, userId/);
  assert.throws(() => queue.add(noUser), /completion\.userId must be a non-empty string \(got nothing\)/);
  assert.throws(() => queue.add(completion(user, 0, { completedAt: "yesterday" })), /completion\.completedAt must be a Date or an ISO 8601 time/);
  assert.throws(() => queue.add(completion(user, 0, { total: "4" })), /completion\.total must be a whole number/);
  assert.throws(() => queue.add(completion(user, 0, { difficulty: "tricky" })), /completion\.difficulty must be one of "easy", "medium", "hard"/);
  await assert.rejects(podium.record(null), /completion must be an object/);
  assert.deepEqual(queue.pending(), []);
  const date = completion(user, 1, { completedAt: new Date(Date.now() - 60_000) });
  const iso = completion(user, 2);
  assert.equal((await podium.record(date)).completion.completedAt.getTime(), date.completedAt.getTime());
  assert.equal((await podium.record(iso)).completion.completedAt.toISOString(), iso.completedAt);
});

// --- a live board -------------------------------------------------------------------------------------------------

test("a live board with a refused token stops, tells the app once, and asks for one fresh token a try, waiting 30 s, 60 s …", async () => {
  const user = newUser("board-auth");
  const asked = [], errors = [], modes = [];
  const { sleep, waits, release } = heldSleep();
  const podium = new Podium({ baseUrl: PROXY, token: (refresh) => { asked.push(refresh); return expiredToken(user); }, sleep });
  const since = await logLength();
  const board = podium.liveBoard(`group:${GROUP}`, "week", {
    onPage: () => assert.fail("no page with a refused token"),
    onMode: (mode) => modes.push(mode),
    onError: (error) => errors.push(error),
  });
  try {
    // The held token, then one fresh one: both refused, the board stops and asks to wait 30 s (held by the test).
    await until(() => waits.length === 1);
    assert.deepEqual(asked, [false, true]);
    assert.deepEqual(waits, [30_000]);
    // Each try after a wait asks for one fresh token, and the next wait is twice as long.
    release();
    await until(() => waits.length === 2);
    assert.deepEqual(asked, [false, true, true]);
    assert.deepEqual(waits, [30_000, 60_000]);
    release();
    await until(() => waits.length === 3);
    assert.deepEqual(asked, [false, true, true, true]);
    assert.deepEqual(waits, [30_000, 60_000, 120_000]);
  } finally {
    board.close();
  }
  assert.deepEqual(modes, ["stopped"]);
  assert.equal(errors.length, 1, "told once while refused");
  assert.ok(errors[0] instanceof PodiumAuthenticationError, String(errors[0]));
  const requests = await proxyLog(since);
  assert.deepEqual(requests.map((entry) => [entry.path.split("?")[0], entry.answer]), [1, 2, 3, 4].map(() => [`${WEEK}/live`, 401]));
});

test("a stopped board tries again later, doubling the wait, one fresh token a try, and is live once one is taken", async () => {
  const user = newUser("board-back");
  let refusals = 3;
  const asked = [], waits = [], modes = [], errors = [], pages = [];
  const podium = new Podium({
    baseUrl: PROXY,
    token: (refresh) => { asked.push(refresh); return refresh && refusals-- <= 0 ? playerToken(user) : expiredToken(user); },
    // Waits take 20 ms: the board's 30 s, 60 s, 120 s … are what it asked for.
    sleep: (milliseconds) => { waits.push(milliseconds); return pause(0.02); },
  });
  const board = podium.liveBoard(`group:${GROUP}`, "week", {
    onPage: (page) => pages.push(page),
    onMode: (mode) => modes.push(mode),
    onError: (error) => errors.push(error),
  });
  try {
    await until(() => pages.length > 0);
  } finally {
    board.close();
  }
  assert.deepEqual(waits.slice(0, 3), [30_000, 60_000, 120_000]);
  assert.deepEqual(asked, [false, true, true, true, true], "the held token, then one fresh token a try");
  assert.deepEqual(modes, ["stopped", "live"]);
  assert.equal(errors.length, 1, "told once while refused");
  assert.ok(errors[0] instanceof PodiumAuthenticationError);
});

test("a live board through a proxy's 502 pages tells the app once, polls, and is live again", async () => {
  const user = newUser("board-502");
  const podium = new Podium({ baseUrl: PROXY, token: () => playerToken(user) });
  const modes = [], errors = [], pages = [];
  await faults({ status: 502, path: WEEK, times: 3 });
  const board = podium.liveBoard(`group:${GROUP}`, "week", {
    pollSeconds: 0.2,
    onPage: (page) => pages.push(page.entries.map((entry) => entry.userId)),
    onMode: (mode) => modes.push(mode),
    onError: (error) => errors.push(error),
  });
  try {
    await until(() => modes.at(-1) === "live" && pages.length > 0);
    await podium.record(completion(user, 0));
    await until(() => pages.at(-1).includes(user));
  } finally {
    board.close();
  }
  assert.deepEqual(modes.slice(0, 1), ["polling"]);
  assert.equal(modes.at(-1), "live");
  assert.equal(errors.length, 1, errors.map(String).join("; "));
  assert.ok(errors[0] instanceof PodiumUnavailable && errors[0].reason === "unavailable" && errors[0].status === 502);
});

// --- a lost answer ------------------------------------------------------------------------------------------------

test("an answer lost after Podium recorded the completion: record retries and gets the replay; counted once", async () => {
  const user = newUser("lost");
  const { podium, slept } = client(user);
  const since = await logLength();
  await faults({ lose_answer: true, path: "/v1/completions" });
  const answer = await podium.record(completion(user, 0));
  assert.equal(answer.completion.id, `${user}-0`);
  assert.deepEqual(slept, [500]);
  assert.deepEqual((await proxyLog(since)).map((entry) => entry.answer), [0, 200], "lost, then the replay");
  assert.equal(await completionsOf(user), 1);
});

test("a batch's answer lost: items left 'offline', then 'replayed' at the next sync; counted once", async () => {
  const user = newUser("lost-batch");
  const { podium } = client(user);
  const queue = memoryQueue(podium);
  [0, 1].forEach((n) => queue.add(completion(user, n)));
  await faults({ lose_answer: true, path: "/v1/completions/batch" });
  const lost = await queue.sync();
  assert.deepEqual(outcomes(lost), [0, 1].map((n) => [`${user}-${n}`, "left", "offline"]));
  assert.equal(await completionsOf(user), 2, "Podium recorded them");
  const again = await queue.sync();
  assert.deepEqual(outcomes(again), [0, 1].map((n) => [`${user}-${n}`, "replayed", null]));
  assert.deepEqual(queue.pending(), []);
  assert.equal(await completionsOf(user), 2);
});

// --- in a browser: why no answer came ------------------------------------------------------------------------------

test("in a page on another origin, a dropped connection to a Podium that allows it is 'offline' and retried", async () => {
  const user = newUser("page-drop");
  const probes = [];
  let dropped = 0;
  // The browser's fetch: the first request fails as a dropped connection does (a TypeError); /healthz answers a cors
  // probe (Podium allows the page's origin), so the failure was the network's.
  const pageFetch = (input, init = {}) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.endsWith("/healthz")) {
      probes.push(init.mode);
      return Promise.resolve(new Response("ok", { status: 200 }));
    }
    if (dropped++ === 0) return Promise.reject(new TypeError("Failed to fetch"));
    return fetch(input, init);
  };
  const { podium, slept } = client(user, { fetch: pageFetch });
  const answer = await asPage("http://quiz.example", () => podium.record(completion(user, 0)));
  assert.equal(answer.completion.id, `${user}-0`);
  assert.deepEqual(probes, ["cors"]);
  assert.deepEqual(slept, [500]);
  assert.equal(await completionsOf(user), 1);
});

test("in a page on another origin, only a no-cors answer means 'origin_not_allowed' (not retried, completion carried)", async () => {
  const user = newUser("page-origin");
  const probes = [];
  const pageFetch = (input, init = {}) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.endsWith("/healthz")) {
      probes.push(init.mode);
      // The browser withholds a cors answer from an origin Podium does not allow; a no-cors one is opaque.
      return init.mode === "cors" ? Promise.reject(new TypeError("Failed to fetch")) : Promise.resolve(new Response(null, { status: 200 }));
    }
    return Promise.reject(new TypeError("Failed to fetch"));
  };
  const { podium, slept } = client(user, { fetch: pageFetch });
  const sent = completion(user, 0);
  const error = await asPage("http://quiz.example", () => podium.record(sent)).then(() => null, (error) => error);
  assert.ok(error instanceof PodiumUnavailable && error.reason === "origin_not_allowed", String(error));
  assert.equal(error.attempts, 1);
  assert.match(error.message, /the page's origin http:\/\/quiz\.example is likely not allowed/);
  assert.deepEqual(error.completion, sent);
  assert.deepEqual(probes, ["cors", "no-cors"]);
  assert.deepEqual(slept, []);
});

// --- time limits --------------------------------------------------------------------------------------------------

test("a Podium that never answers: 'offline' after timeoutMs, retried by record, left by the queue; a board is told", async () => {
  const user = newUser("hung");
  const hung = await silentServer();
  try {
    const { podium, slept } = client(user, { base: hung.base, timeoutMs: 300, attempts: 2 });
    const started = Date.now();
    const error = await podium.record(completion(user, 0)).then(() => null, (error) => error);
    assert.ok(error instanceof PodiumUnavailable && error.reason === "offline", String(error));
    assert.equal(error.attempts, 2);
    assert.match(error.message, /^Podium at http:\/\/127\.0\.0\.1:\d+ did not answer within 300 ms/);
    assert.deepEqual(slept, [500]);
    assert.ok(Date.now() - started < 3000, `gave up after ${Date.now() - started} ms`);

    const queue = memoryQueue(podium);
    queue.add(completion(user, 1));
    assert.deepEqual(outcomes(await queue.sync()), [[`${user}-1`, "left", "offline"]]);
    assert.equal(queue.pending().length, 1);

    // A live board's stream that never answers: the time limit covers its headers; the board is told, and polls.
    const errors = [], modes = [];
    const board = podium.liveBoard(`group:${GROUP}`, "week", { onPage: () => undefined, onMode: (mode) => modes.push(mode), onError: (e) => errors.push(e) });
    try {
      await until(() => errors.length > 0, 5);
    } finally {
      board.close();
    }
    assert.ok(errors[0] instanceof PodiumUnavailable && errors[0].reason === "offline", String(errors[0]));
    assert.equal(modes[0], "polling");
  } finally {
    await hung.close();
  }
});

test("a live stream that falls silent (no heartbeat) is aborted after silenceSeconds: the board polls and connects again", async () => {
  const user = newUser("silent-stream");
  // A stream that sends its headers and then nothing; pages are not to be had (503), so the board keeps trying.
  const server = await fakePodium((request, response) => {
    if (request.url.split("?")[0].endsWith("/live")) {
      response.writeHead(200, { "Content-Type": "text/event-stream" });
      response.flushHeaders();
    } else {
      response.writeHead(503, { "Content-Type": "text/html" });
      response.end("<html><title>503 Service Temporarily Unavailable</title></html>");
    }
  });
  const modes = [], errors = [];
  const podium = new Podium({ baseUrl: server.base, token: () => playerToken(user), timeoutMs: 300, sleep: () => pause(0.02) });
  const board = podium.liveBoard(`group:${GROUP}`, "week", {
    silenceSeconds: 0.5, pollSeconds: 0.1, onPage: () => undefined, onMode: (mode) => modes.push(mode), onError: (error) => errors.push(error),
  });
  const streams = () => server.requests.filter(([, path]) => path.split("?")[0].endsWith("/live")).length;
  try {
    await until(() => streams() >= 2, 5);
  } finally {
    board.close();
    await server.close();
  }
  assert.deepEqual(modes.slice(0, 3), ["live", "polling", "live"]);
  // Only the polls' 503s were told: the open stream outlived the 300 ms time limit (its headers had come).
  assert.deepEqual(errors.map((error) => `${error.name}:${error.reason}:${error.status}`), ["PodiumUnavailable:unavailable:503"]);
});

// --- answers the client cannot read -------------------------------------------------------------------------------

test("a 2xx cut off, not JSON, or an HTML page: PodiumUnavailable, retried, never a SyntaxError; text operations work", async () => {
  const user = newUser("unreadable");
  const answers = [
    (response) => { response.writeHead(201, { "Content-Type": "application/json", "Content-Length": "400" }); response.write('{"completion": {"id"'); setTimeout(() => response.socket.destroy(), 20); },
    (response) => { response.writeHead(201, { "Content-Type": "application/json" }); response.end("<html>not json</html>"); },
    (response) => { response.writeHead(200, { "Content-Type": "text/html" }); response.end("<html><title>Sign in to the Wi-Fi</title></html>"); },
    (response) => { response.writeHead(201, { "Content-Type": "application/json" }); response.end('{"unexpected": true}'); },
  ];
  const server = await fakePodium((request, response) => answers[(server.requests.length - 1) % answers.length](response));
  try {
    const reasons = [];
    for (let n = 0; n < answers.length; n++) {
      const { podium } = client(user, { base: server.base, attempts: 1 });
      const error = await podium.record(completion(user, n)).then(() => null, (error) => error);
      assert.ok(error instanceof PodiumUnavailable, `answer ${n}: ${error}`);
      reasons.push(error.reason);
    }
    assert.deepEqual(reasons, ["offline", "unavailable", "unavailable", "unavailable"]);
    // record retries them all: four attempts, the same body each time.
    const { podium, slept } = client(user, { base: server.base });
    const since = server.requests.length;
    const error = await podium.record(completion(user, 9)).then(() => null, (error) => error);
    assert.ok(error instanceof PodiumUnavailable && error.attempts === 4, String(error));
    assert.deepEqual(slept, [500, 1000, 2000]);
    assert.equal(new Set(server.requests.slice(since).map(([, , body]) => body)).size, 1);
  } finally {
    await server.close();
  }
  // Operations whose answer is text are no proxy's page: /metrics and a display page, through Podium's client.
  const { podium } = client(user);
  assert.match(await new HealthApi(podium.configuration).fetchMetrics(), /^# (HELP|TYPE) /m);
  assert.match(await new LeaderboardsApi(podium.configuration).fetchLeaderboardDisplay({ board: "global", window: "week" }), /<html/i);
});

test("a batch answer without results, or with 5xx items: those items are left 'unavailable'", async () => {
  const user = newUser("batch-odd");
  const answers = [
    (response) => { response.writeHead(200, { "Content-Type": "application/json" }); response.end('{"ok": true}'); },
    (response) => { response.writeHead(200, { "Content-Type": "application/json" }); response.end('{"results": []}'); },
    (response, ids) => {
      const problem = (status) => ({ type: "about:blank", title: "Unavailable", status, detail: "later", code: "unavailable" });
      response.writeHead(200, { "Content-Type": "application/json" });
      response.end(JSON.stringify({ results: [
        { id: ids[0], status: 503, problem: problem(503) }, { id: ids[1], status: 500, problem: problem(500) },
      ] }));
    },
  ];
  const server = await fakePodium((request, response, body) => {
    answers[server.requests.length - 1](response, JSON.parse(body).completions.map((item) => item.id));
  });
  try {
    const { podium } = client(user, { base: server.base });
    const queue = memoryQueue(podium);
    [0, 1].forEach((n) => queue.add(completion(user, n)));
    for (let n = 0; n < answers.length; n++) {
      const report = await queue.sync();
      assert.deepEqual(outcomes(report), [0, 1].map((i) => [`${user}-${i}`, "left", "unavailable"]), `answer ${n}`);
      assert.equal(queue.pending().length, 2);
    }
  } finally {
    await server.close();
  }
});

// --- completedAt and the completion carried -----------------------------------------------------------------------

test("completedAt is stamped once: add stamps it, record sends the same body each attempt and hands it back", async () => {
  const user = newUser("stamp");
  const bodies = [];
  const { podium, slept } = client(user, { fetch: (input, init) => { bodies.push(init.body); return fetch(input, init); } });
  const { completedAt, ...unstamped } = completion(user, 0);
  await faults({ status: 502, path: "/v1/completions", times: 4 });
  const before = Date.now();
  const error = await podium.record(unstamped).then(() => null, (error) => error);
  assert.ok(error instanceof PodiumUnavailable && error.attempts === 4, String(error));
  assert.deepEqual(slept, [500, 1000, 2000]);
  assert.equal(bodies.length, 4);
  assert.equal(new Set(bodies).size, 1, "the same body each attempt");
  const sent = JSON.parse(bodies[0]);
  assert.ok(Date.parse(sent.completed_at) >= before - 1000 && Date.parse(sent.completed_at) <= Date.now());
  assert.equal(error.completion.completedAt.toISOString(), sent.completed_at);
  assert.equal(unstamped.completedAt, undefined, "the app's object is left as it was");
  // Queued from the error and synced: the same id and body, recorded once.
  const queue = memoryQueue(podium);
  queue.add(error.completion);
  assert.deepEqual(outcomes(await queue.sync()), [[`${user}-0`, "recorded", null]]);
  assert.equal(await completionsOf(user), 1);

  // add stamps a completion without completedAt with the time it was added.
  queue.add({ ...unstamped, id: `${user}-1` });
  const queued = queue.pending()[0].completedAt;
  assert.ok(queued instanceof Date && Math.abs(queued.getTime() - Date.now()) < 5000, String(queued));
  // A key a completion does not have is refused, naming it.
  assert.throws(() => queue.add({ ...completion(user, 2), completedAT: new Date() }),
    /^TypeError: podium: completion\.completedAT is not a field of a completion \(did you mean completedAt\?\)$/);
  assert.throws(() => queue.add({ ...completion(user, 2), score: 3 }), /completion\.score is not a field of a completion/);
  assert.equal(queue.pending().length, 1);
});
