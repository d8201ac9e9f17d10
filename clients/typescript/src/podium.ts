// Podium for browsers and Node: the API generated from openapi.json (../generated, typescript-fetch) and what
// generation cannot give a quiz frontend:
// - a player token supplied by the app (`token(refresh)`), asked for again once when Podium answers 401;
// - `record`: a completion sent again with the same id after a network error, a 429 or a 5xx, so it counts once;
// - `OfflineQueue`: completions kept in storage while offline, synced through the batch route;
// - `LiveBoard`: a board kept current over its Server-Sent Events stream, resumed with `Last-Event-ID` after a drop or
//   a server restart, and polled with `If-None-Match` while the stream cannot be had.
import {
  BatchItemResult,
  CompletionRequest,
  CompletionRequestFromJSON,
  CompletionRequestToJSON,
  CompletionResponse,
  CompletionsApi,
  Configuration,
  ContestsApi,
  FetchError,
  LeaderboardPage,
  LeaderboardPageFromJSON,
  LeaderboardsApi,
  LeaderboardWindow,
  RecordCompletionBatchModeEnum,
  ResponseError,
  UsersApi,
} from "../generated/index";

export * from "../generated/index";

/** How a Podium client is made. */
export interface PodiumOptions {
  /** Where Podium answers, e.g. `https://podium.example.org` (no trailing slash needed). */
  baseUrl: string;
  /** The bearer to send: a player token (or an API key). Called with `true` after a 401, to get a fresh token. */
  token: (refresh: boolean) => string | Promise<string>;
  /** The fetch to use (the global one by default). */
  fetch?: typeof fetch;
  /** Waits between retries (a test passes its own). */
  sleep?: (milliseconds: number) => Promise<void>;
}

/** Answers a retry can change: Podium did not record the completion, or may have (then the retry is a replay). */
const RETRIED = new Set([429, 500, 502, 503, 504]);

/** A Podium client: the generated APIs, sharing one token supply, plus `record` and `liveBoard`. */
export class Podium {
  readonly completions: CompletionsApi;
  readonly leaderboards: LeaderboardsApi;
  readonly users: UsersApi;
  readonly contests: ContestsApi;
  readonly baseUrl: string;
  private current: string | null = null;
  private refreshing: Promise<string> | null = null;
  private readonly options: PodiumOptions;
  readonly fetch: typeof fetch;
  readonly sleep: (milliseconds: number) => Promise<void>;

  constructor(options: PodiumOptions) {
    this.options = options;
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    const plainFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
    this.sleep = options.sleep ?? ((milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds)));
    // Every request carries the current token; a 401 asks the app for a fresh one and is sent once more.
    this.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const send = async (refresh: boolean) => {
        const headers = new Headers(init?.headers);
        headers.set("Authorization", `Bearer ${await this.token(refresh)}`);
        return plainFetch(input, { ...init, headers });
      };
      const answer = await send(false);
      return answer.status === 401 ? send(true) : answer;
    };
    const configuration = new Configuration({ basePath: this.baseUrl, fetchApi: this.fetch });
    this.completions = new CompletionsApi(configuration);
    this.leaderboards = new LeaderboardsApi(configuration);
    this.users = new UsersApi(configuration);
    this.contests = new ContestsApi(configuration);
  }

  /**
   * The token to send; a fresh one from the app when `refresh` (after a 401) or none is held yet. Requests refused at
   * the same time share one refresh.
   */
  async token(refresh: boolean): Promise<string> {
    if (!refresh && this.current !== null) return this.current;
    if (this.refreshing === null) {
      this.refreshing = Promise.resolve(this.options.token(refresh)).finally(() => { this.refreshing = null; });
    }
    this.current = await this.refreshing;
    return this.current;
  }

  /**
   * Records `completion` (give it `completedAt`, the time the quiz was finished). A network error, a 429 or a 5xx is
   * retried with the same id up to `attempts` times in all (waiting `Retry-After`, or doubling from 500 ms); Podium
   * answers a completion it already has as a replay, so it counts once. Other answers (400, 403, 409, 422) throw the
   * generated `ResponseError` at once: sending them again cannot help.
   */
  async record(completion: CompletionRequest, attempts = 4): Promise<CompletionResponse> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.completions.recordCompletion({ completionRequest: completion });
      } catch (error) {
        const status = error instanceof ResponseError ? error.response.status : null;
        const retry = error instanceof FetchError || (status !== null && RETRIED.has(status));
        if (!retry || attempt >= attempts) throw error;
        const after = error instanceof ResponseError ? Number(error.response.headers.get("Retry-After")) : NaN;
        await this.sleep(Number.isFinite(after) && after > 0 ? Math.min(60, after) * 1000 : 500 * 2 ** (attempt - 1));
      }
    }
  }

  /** A board kept current: see `LiveBoard`. */
  liveBoard(board: string, window: LeaderboardWindow, options: LiveBoardOptions): LiveBoard {
    return new LiveBoard(this, board, window, options);
  }
}

/** Where an `OfflineQueue` keeps its completions: `localStorage` in a browser, anything with these two methods elsewhere. */
export interface QueueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** What one `OfflineQueue.sync` did. */
export interface SyncReport {
  /** Ids recorded now (201). */
  recorded: string[];
  /** Ids Podium already had (200): sent before, their answer lost. */
  replayed: string[];
  /** Items dropped because a resend cannot help (400, 403, 409, 422), with Podium's answer. */
  refused: BatchItemResult[];
  /** Still queued: Podium could not be reached, or refused an item for now (500). */
  left: number;
}

/**
 * Completions kept in storage until Podium takes them, then sent through the batch route (`mode=partial`, at most 500
 * a batch). Recorded and replayed completions leave the queue; refused ones leave it and are reported; the rest stay
 * for the next sync, as does a completion added while a sync runs. Every completion keeps its id, so a batch sent
 * twice (its answer lost) counts once.
 */
export class OfflineQueue {
  constructor(private readonly podium: Podium, private readonly storage: QueueStorage, private readonly key = "podium.queue") {}

  /** Queues `completion` at once in storage. */
  add(completion: CompletionRequest): void {
    this.save([...this.pending(), completion]);
  }

  /** The queued completions, oldest first. */
  pending(): CompletionRequest[] {
    const text = this.storage.getItem(this.key);
    return text ? (JSON.parse(text) as unknown[]).map((item) => CompletionRequestFromJSON(item)) : [];
  }

  private save(completions: CompletionRequest[]): void {
    this.storage.setItem(this.key, JSON.stringify(completions.map((c) => CompletionRequestToJSON(c))));
  }

  /** Sends what is queued. */
  async sync(): Promise<SyncReport> {
    const queued = this.pending();
    const report: SyncReport = { recorded: [], replayed: [], refused: [], left: 0 };
    const settled = new Set<string>();
    for (let first = 0; first < queued.length; first += 500) {
      const chunk = queued.slice(first, first + 500);
      let results: BatchItemResult[];
      try {
        const answer = await this.podium.completions.recordCompletionBatch({
          batchRequest: { completions: chunk }, mode: RecordCompletionBatchModeEnum.Partial,
        });
        results = answer.results;
      } catch (error) {
        if (!(error instanceof FetchError) && !(error instanceof ResponseError)) throw error;
        break;
      }
      chunk.forEach((item, index) => {
        const result = results[index];
        if (result.status === 500) return;  // refused for now: it stays
        if (result.status === 201) report.recorded.push(item.id);
        else if (result.status === 200) report.replayed.push(item.id);
        else report.refused.push(result);
        settled.add(item.id);
      });
    }
    // Read again: what was added while the batches were sent stays, with everything not settled.
    const left = this.pending().filter((item) => !settled.has(item.id));
    this.save(left);
    report.left = left.length;
    return report;
  }
}

/** What a `LiveBoard` shows and tells. */
export interface LiveBoardOptions {
  /** Rows of the page (1-100). */
  limit?: number;
  /** Called with each new page. */
  onPage: (page: LeaderboardPage) => void;
  /** Called when the board switches between its live stream (`"live"`) and polling (`"polling"`). */
  onMode?: (mode: "live" | "polling") => void;
  /** Seconds between polls while the stream cannot be had (2 by default). */
  pollSeconds?: number;
}

/**
 * A board period kept current. It reads `GET …/live` (Server-Sent Events, read with fetch so the token travels in a
 * header); when the stream ends, fails or says it is not live, it polls the page with `If-None-Match` (a 304 costs
 * nothing) and connects again, sending the last page's ETag as `Last-Event-ID`, so Podium skips a page the board
 * already shows. It survives drops and server restarts; `close()` ends it.
 */
export class LiveBoard {
  /** The last page's ETag. */
  lastEventId: string | null = null;
  private closed = false;
  private polling: ReturnType<typeof setInterval> | null = null;
  private readonly abort = new AbortController();
  private readonly url: URL;

  constructor(private readonly podium: Podium, board: string, window: LeaderboardWindow, private readonly options: LiveBoardOptions) {
    this.url = new URL(`${podium.baseUrl}/v1/leaderboards/${encodeURIComponent(board)}/${window}`);
    this.url.searchParams.set("limit", String(options.limit ?? 10));
    void this.listen();
  }

  /** Stops the stream and the polls. */
  close(): void {
    this.closed = true;
    this.abort.abort();
    this.stopPolling();
  }

  private show(page: LeaderboardPage, etag: string | null): void {
    if (etag) this.lastEventId = etag;
    this.options.onPage(page);
  }

  private async poll(): Promise<void> {
    try {
      const headers: Record<string, string> = { Accept: "application/json" };
      if (this.lastEventId) headers["If-None-Match"] = this.lastEventId;
      const answer = await this.podium.fetch(this.url, { headers, cache: "no-store", signal: this.abort.signal });
      if (answer.status === 200) this.show(LeaderboardPageFromJSON(await answer.json()), answer.headers.get("ETag"));
    } catch {
      // Unreachable for now: the next poll, or the stream, tries again.
    }
  }

  private startPolling(): void {
    if (this.polling !== null || this.closed) return;
    this.options.onMode?.("polling");
    void this.poll();
    this.polling = setInterval(() => void this.poll(), (this.options.pollSeconds ?? 2) * 1000);
  }

  private stopPolling(): void {
    if (this.polling !== null) clearInterval(this.polling);
    this.polling = null;
  }

  // One event: `page` (a page, its ETag as id) or `status` (`{"live": bool}`); comments are heartbeats.
  private handle(text: string): void {
    if (text.startsWith(":")) return;
    const fields: Record<string, string> = { event: "message", data: "" };
    for (const line of text.split("\n")) {
      const colon = line.indexOf(":");
      if (colon <= 0) continue;
      const name = line.slice(0, colon), value = line.slice(colon + 1).replace(/^ /, "");
      fields[name] = name === "data" ? fields.data + value : value;
    }
    if (fields.event === "page") {
      this.show(LeaderboardPageFromJSON(JSON.parse(fields.data)), fields.id ?? null);
    } else if (fields.event === "status") {
      if ((JSON.parse(fields.data) as { live: boolean }).live) {
        this.stopPolling();
        this.options.onMode?.("live");
      } else {
        this.startPolling();
      }
    }
  }

  private async listen(): Promise<void> {
    while (!this.closed) {
      try {
        const live = new URL(this.url.toString().replace(/\?/, "/live?"));
        const headers: Record<string, string> = { Accept: "text/event-stream" };
        if (this.lastEventId) headers["Last-Event-ID"] = this.lastEventId;
        const answer = await this.podium.fetch(live, { headers, cache: "no-store", signal: this.abort.signal });
        if (answer.status !== 200 || !answer.body) throw new Error(`live stream answered ${answer.status}`);
        this.stopPolling();
        this.options.onMode?.("live");
        const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            this.handle(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
          }
        }
      } catch {
        // A drop, a refused connection or a restart: poll meanwhile.
      }
      if (this.closed) return;
      this.startPolling();
      await this.podium.sleep(2000);
    }
  }
}
