// The TypeScript client's tests in Node (node --test), run by clients/typescript/test.sh from a new project that
// installed podium-client from its tarball: the README's snippet against a real `podium serve`, then the error model
// through the fault proxy in front of it (clients/testing/fault_proxy.py): proxies' HTML 502 and 503 pages, a refused
// token, a rate limit with Retry-After, an offline period, and a live board with a refused token. Each queue item's
// outcome is checked exactly, and Podium's count shows no loss and no double.
//
// Environment (clients/testing/podium.sh): PODIUM_CLIENT_TEST_URL, PODIUM_CLIENT_TEST_PROXY_URL,
// PODIUM_CLIENT_TEST_ADMIN_KEY, PODIUM_CLIENT_TEST_TOKEN_KID, PODIUM_CLIENT_TEST_TOKEN_SECRET; README_SNIPPET, the
// compiled snippet to run.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { beforeEach, test } from "node:test";
import {
  OfflineQueue, Podium, PodiumAuthenticationError, PodiumError, PodiumRefused, PodiumUnavailable,
} from "podium-client";

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
function client(user, { token = () => playerToken(user), base = PROXY, attempts } = {}) {
  const asked = [], slept = [];
  const podium = new Podium({
    baseUrl: base,
    token: (refresh) => { asked.push(refresh); return token(refresh); },
    sleep: async (milliseconds) => { slept.push(milliseconds); },
    ...(attempts === undefined ? {} : { attempts }),
  });
  return { podium, asked, slept };
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

test("a live board with a refused token stops, tells the app once, and asks for a token twice in 10 s", async () => {
  const user = newUser("board-auth");
  const asked = [], errors = [], modes = [];
  const podium = new Podium({ baseUrl: PROXY, token: (refresh) => { asked.push(refresh); return expiredToken(user); } });
  const since = await logLength();
  const board = podium.liveBoard(`group:${GROUP}`, "week", {
    onPage: () => assert.fail("no page with a refused token"),
    onMode: (mode) => modes.push(mode),
    onError: (error) => errors.push(error),
  });
  try {
    await pause(10);
  } finally {
    board.close();
  }
  assert.deepEqual(asked, [false, true]);
  assert.deepEqual(modes, ["stopped"]);
  assert.equal(errors.length, 1);
  assert.ok(errors[0] instanceof PodiumAuthenticationError, String(errors[0]));
  const requests = await proxyLog(since);
  assert.deepEqual(requests.map((entry) => [entry.path.split("?")[0], entry.answer]),
    [[`${WEEK}/live`, 401], [`${WEEK}/live`, 401]]);
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
