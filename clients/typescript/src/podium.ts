// The client: the generated APIs (../generated, typescript-fetch) sharing one token supply and one error model, and
// `record`, a completion sent again with the same id until Podium has it.
import {
  CompletionResponse,
  CompletionsApi,
  Configuration,
  ContestsApi,
  LeaderboardWindow,
  LeaderboardsApi,
  UsersApi,
} from "../generated/index.js";
import { Completion, completionRequest } from "./completion.js";
import {
  PodiumUnavailable, errorForAnswer, errorForNoAnswer, errorForUnreadable, isAbort, isJson,
} from "./errors.js";
import { LiveBoard, LiveBoardOptions } from "./live.js";

/** How a Podium client is made. */
export interface PodiumOptions {
  /** Where Podium answers, e.g. `https://podium.example.org` (a trailing slash is fine). */
  baseUrl: string;
  /**
   * The player token to send, from the app's backend (which signs it with a key Podium knows). Called with `false` for
   * the token the app holds, and with `true` when Podium refused the last one: fetch a fresh one then. It is asked
   * once per refusal; a fresh token refused again is a `PodiumAuthenticationError`. (A backend may give an API key.)
   */
  token: (refresh: boolean) => string | Promise<string>;
  /** The fetch to use (the global one by default). */
  fetch?: typeof fetch;
  /** Waits between retries (a test passes its own); it may end early when `signal` aborts. */
  sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
  /** How many attempts `record` makes in all before it gives up (4 by default). */
  attempts?: number;
  /**
   * Milliseconds a request may take, its answer read whole (10 000 by default); a live board's stream, only until its
   * headers came. A request that takes longer is aborted: a `PodiumUnavailable` with reason `offline` (`record`
   * retries it, a queue leaves its items).
   */
  timeoutMs?: number;
}

/** A token as `Podium` holds it: the string, and whether the app was asked for a fresh one to get it. */
interface HeldToken {
  token: string;
  fresh: boolean;
}

/** Waits `milliseconds`, or until `signal` aborts (then the timer is cleared, so Node can exit). */
function sleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, milliseconds);
    signal?.addEventListener("abort", done);
  });
}

/** Lets Node exit while `timer` runs (browsers have no such thing). */
function unref(timer: unknown): void {
  (timer as { unref?: () => void }).unref?.();
}

/**
 * A Podium client for a quiz app (browser or Node 18+). Every request carries the app's player token; a refused token
 * is refreshed once (`token(true)`). Failures are thrown as `PodiumError`s: `PodiumRefused`,
 * `PodiumAuthenticationError` or `PodiumUnavailable`.
 */
export class Podium {
  /** Where Podium answers, without a trailing slash. */
  readonly baseUrl: string;
  /** The generated completions API (`podium-client/api` has its types). */
  readonly completions: CompletionsApi;
  /** The generated leaderboards API: pages, a player's ranks, snapshots. */
  readonly leaderboards: LeaderboardsApi;
  /** The generated users API: profiles, history, preferences. */
  readonly users: UsersApi;
  /** The generated contests API. */
  readonly contests: ContestsApi;
  /**
   * The configuration every generated API shares (token, errors): give it to any other API class of
   * `podium-client/api`, e.g. `new GoalsApi(podium.configuration)`.
   */
  readonly configuration: Configuration;
  /** The waits between retries (`PodiumOptions.sleep`). */
  readonly sleep: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
  private readonly options: PodiumOptions;
  private readonly plainFetch: typeof fetch;
  private readonly origin: string;
  private readonly timeoutMs: number;
  private held: string | null = null;
  private heldRefused = false;
  private asking: { refresh: boolean; token: Promise<string> } | null = null;

  /** A client of the Podium at `options.baseUrl`. */
  constructor(options: PodiumOptions) {
    this.options = options;
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.origin = new URL(this.baseUrl).origin;
    this.plainFetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.sleep = options.sleep ?? sleep;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.configuration = new Configuration({
      basePath: this.baseUrl,
      fetchApi: (input, init) => this.send(input instanceof Request ? input.url : input, init),
      middleware: [{
        // A failure of `send` is already a PodiumError (or an abort): thrown as it is, not wrapped.
        onError: async ({ error }) => { throw error; },
        // Non-2xx answers are errors (Podium's problems, or a proxy's page: not Podium's). A 2xx JSON answer is read
        // whole here, so that one cut off or not JSON is a PodiumUnavailable, never a SyntaxError; other 2xx answers
        // (`/metrics`' text, `/display/…`'s page, an event stream) are the operation's to read.
        post: async ({ response, init }) => {
          if (!response.ok) throw await errorForAnswer(response, this.origin);
          if (response.status === 204 || !isJson(response.headers.get("Content-Type"))) return response;
          return await this.readJson(response, init.signal ?? null);
        },
      }],
    });
    this.completions = new CompletionsApi(this.configuration);
    this.leaderboards = new LeaderboardsApi(this.configuration);
    this.users = new UsersApi(this.configuration);
    this.contests = new ContestsApi(this.configuration);
  }

  /**
   * Records a finished quiz and answers with the points it earned, the player's totals, level and ranks. A failed
   * connection, a 429 (waiting `Retry-After`), a 5xx or an answer that is not Podium's is retried with the same id, up
   * to `attempts` attempts in all; Podium answers a completion it already has as a replay, so it counts once.
   * A completion without `completedAt` is stamped with the time `record` was called, once, so every attempt sends the
   * same body. Throws `PodiumRefused` at once when a retry cannot help (400, 403, 409, 422),
   * `PodiumAuthenticationError` when even a fresh token is refused, `PodiumUnavailable` when the attempts ran out (its
   * `completion` is the one sent: `queue.add(error.completion)`), and a TypeError naming the field when `completion`
   * is malformed.
   */
  async record(completion: Completion): Promise<CompletionResponse> {
    completionRequest(completion);  // a TypeError naming the field at fault, before anything else
    const sent: Completion = { ...completion, completedAt: completion.completedAt ?? new Date() };
    const request = completionRequest(sent);
    const attempts = this.options.attempts ?? 4;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.completions.recordCompletion({ completionRequest: request });
      } catch (thrown) {
        const error = errorForUnreadable(thrown, this.origin);
        if (!(error instanceof PodiumUnavailable)) throw error;
        if (error.reason === "origin_not_allowed") {
          throw new PodiumUnavailable(error.message, error.reason, {
            status: error.status, problem: error.problem, retryAfter: error.retryAfter, cause: error.cause, completion: sent,
          });
        }
        if (attempt >= attempts) throw error.afterAttempts(attempt, sent);
        const seconds = error.retryAfter === null ? 0.5 * 2 ** (attempt - 1) : Math.min(60, error.retryAfter);
        await this.sleep(seconds * 1000);
      }
    }
  }

  /** A board kept current while the app shows it: see `LiveBoard`. */
  liveBoard(board: string, window: LeaderboardWindow, options: LiveBoardOptions): LiveBoard {
    return new LiveBoard(this, board, window, options);
  }

  /**
   * Sends a request to Podium with the token in `Authorization`, and once more with a fresh token after a 401. Answers
   * with Podium's answer whatever its status (a 401 then means the fresh token was refused too); throws a
   * `PodiumUnavailable` when no answer came (reason `offline`, or `origin_not_allowed` in a browser).
   */
  async send(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const first = await this.token(false, null);
    const answer = await this.transmit(url, init, first.token);
    if (answer.status !== 401) return answer;
    if (first.fresh) {
      this.refused(first.token);
      return answer;
    }
    const second = await this.token(true, first.token);
    const again = await this.transmit(url, init, second.token);
    if (again.status === 401) this.refused(second.token);
    return again;
  }

  /**
   * One request, aborted after `timeoutMs` (its answer read whole; an event stream, only its headers) or when the
   * caller's signal aborts (with `AbortSignal.any` where there is one; Node 18 has none: combined by hand there).
   */
  private async transmit(url: string | URL, init: RequestInit, token: string): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set("Authorization", `Bearer ${token}`);
    const caller = init.signal ?? null;
    const limit = this.timeoutMs;
    const timeout = new AbortController();
    let signal = timeout.signal;
    let forward: (() => void) | null = null;
    const any = (AbortSignal as { any?: (signals: AbortSignal[]) => AbortSignal }).any;
    if (caller !== null && typeof any === "function") {
      signal = any.call(AbortSignal, [caller, timeout.signal]);
    } else if (caller !== null) {
      const relay = () => timeout.abort(caller.reason);
      forward = relay;
      if (caller.aborted) relay();
      else caller.addEventListener("abort", relay);
    }
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = !caller?.aborted;
      if (forward !== null) caller?.removeEventListener("abort", forward);
      timeout.abort(new DOMException(`no answer within ${limit} ms`, "TimeoutError"));
    }, limit);
    unref(timer);
    try {
      const answer = await this.plainFetch(url, { ...init, headers, signal });
      // A stream stays open: the time limit was for its headers (a live board watches its silence instead).
      if ((answer.headers.get("Content-Type") ?? "").startsWith("text/event-stream")) clearTimeout(timer);
      return answer;
    } catch (error) {
      clearTimeout(timer);
      if (caller?.aborted) throw error;
      if (timedOut) {
        throw new PodiumUnavailable(`Podium at ${this.origin} did not answer within ${limit} ms: the network or Podium is ` +
          "too slow, or the connection hangs", "offline", { cause: error });
      }
      if (isAbort(error)) throw error;
      throw await errorForNoAnswer(error, this.origin, this.plainFetch);
    }
  }

  /** A 2xx JSON answer read whole and checked: a PodiumUnavailable when it was cut off or is not JSON. */
  private async readJson(answer: Response, caller: AbortSignal | null): Promise<Response> {
    let text: string;
    try {
      text = await answer.text();
    } catch (error) {
      if (caller?.aborted) throw error;
      const why = error instanceof Error ? `: ${error.message}` : "";
      throw new PodiumUnavailable(`${answer.status} from ${this.origin}: the answer was cut off before its end${why}`,
        "offline", { status: answer.status, cause: error });
    }
    try {
      JSON.parse(text);
    } catch (error) {
      throw new PodiumUnavailable(`${answer.status} from ${this.origin}: an answer that claims to be JSON but is not ` +
        `(${text.length} characters), likely cut off or from a proxy in front of Podium; try again later`,
        "unavailable", { status: answer.status, cause: error });
    }
    return new Response(text, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
  }

  /**
   * The token to send. Without `refresh`, the one held (the app is asked with `false` when none is held yet, and with
   * `true` when the held one was refused). With `refresh` (Podium refused `rejected`), a fresh one: another request's
   * refresh if one came since, else the app's. Requests refused together share one refresh.
   */
  private async token(refresh: boolean, rejected: string | null): Promise<HeldToken> {
    if (!refresh && !this.heldRefused && this.held !== null) return { token: this.held, fresh: false };
    if (refresh && !this.heldRefused && this.held !== null && this.held !== rejected) return { token: this.held, fresh: true };
    const fresh = refresh || this.heldRefused;
    let asking = this.asking;
    if (asking === null || (fresh && !asking.refresh)) {
      const started = { refresh: fresh, token: Promise.resolve().then(() => this.options.token(fresh)) };
      void started.token.catch(() => undefined).finally(() => { if (this.asking === started) this.asking = null; });
      this.asking = asking = started;
    }
    const token = await asking.token;
    this.held = token;
    this.heldRefused = false;
    return { token, fresh: asking.refresh };
  }

  /** Notes that `token` was refused although fresh: the next request asks the app for a fresh one first. */
  private refused(token: string): void {
    if (this.held === token) this.heldRefused = true;
  }
}
