// A board period kept current over its Server-Sent Events stream, polled while the stream cannot be had, stopped (and
// tried again later) while the credential is refused.
import { LeaderboardPage, LeaderboardPageFromJSON, LeaderboardWindow } from "../generated/index.js";
import { PodiumAuthenticationError, PodiumError, PodiumUnavailable, errorForAnswer, isAbort, isJson } from "./errors.js";
import type { Podium } from "./podium.js";

/** How a `LiveBoard` is kept current: its stream, polls, or neither while its credential is refused. */
export type LiveBoardMode = "live" | "polling" | "stopped";

/** What a `LiveBoard` shows and tells. */
export interface LiveBoardOptions {
  /** Rows of the page (1-100; 10 by default). */
  limit?: number;
  /** Called with each new page. */
  onPage: (page: LeaderboardPage) => void;
  /**
   * Called when the board changes how it is kept current: `"live"` (its stream), `"polling"` (the stream cannot be
   * had) or `"stopped"` (the credential was refused; it tries again later).
   */
  onMode?: (mode: LiveBoardMode) => void;
  /**
   * Called when the board cannot be kept current, once per change of cause: a `PodiumAuthenticationError` when even a
   * fresh token was refused (the board stops, and tries again after 30 s, then after twice as long each time, up to 10
   * minutes, asking the app for a fresh token once a try), a `PodiumUnavailable` while Podium cannot be had, or
   * another `PodiumError`.
   */
  onError?: (error: Error) => void;
  /** Seconds between polls while the stream cannot be had (2 by default). */
  pollSeconds?: number;
  /**
   * Seconds without a byte on the stream after which the board takes it for dead (a connection that hangs without
   * closing), polls and connects again: 45 by default, three times Podium's heartbeat (a comment after 15 s of
   * silence).
   */
  silenceSeconds?: number;
}

/** Milliseconds between attempts to connect the stream again. */
const RECONNECT_MILLISECONDS = 2000;
/** Seconds without a byte on the stream before it is taken for dead: three times Podium's 15 s heartbeat. */
const SILENCE_SECONDS = 45;
/** Seconds before the first try after a refused credential, and the most between two tries. */
const FIRST_RETRY_SECONDS = 30;
const LAST_RETRY_SECONDS = 600;

/**
 * A board period kept current. It reads `GET …/live` (Server-Sent Events, read with fetch so the token travels in a
 * header); when the stream ends, fails or says it is not live, it polls the page with `If-None-Match` (a 304 costs
 * nothing) and connects again, sending the last page's ETag as `Last-Event-ID`, so Podium skips a page the board
 * already shows. It survives drops and server restarts. When even a fresh token is refused it stops (`onError`,
 * mode `"stopped"`) and tries again later; `close()` ends it.
 */
export class LiveBoard {
  /** The last page's ETag. */
  lastEventId: string | null = null;
  private closed = false;
  private readonly closing = new AbortController();
  private connection: AbortController | null = null;
  private polling = false;
  private pollRound = 0;
  private pollTimer: ReturnType<typeof setTimeout> | null = null;
  private pollsWork = false;
  private refusal: PodiumAuthenticationError | null = null;
  private retrySeconds = FIRST_RETRY_SECONDS;
  private mode: LiveBoardMode | null = null;
  private reported: string | null = null;
  private readonly origin: string;
  private readonly pageUrl: URL;
  private readonly streamUrl: URL;

  /** Starts keeping `board`'s current `window` period (use `Podium.liveBoard`). */
  constructor(private readonly podium: Podium, board: string, window: LeaderboardWindow, private readonly options: LiveBoardOptions) {
    this.origin = new URL(podium.baseUrl).origin;
    this.pageUrl = new URL(`${podium.baseUrl}/v1/leaderboards/${encodeURIComponent(board)}/${window}`);
    this.pageUrl.searchParams.set("limit", String(options.limit ?? 10));
    this.streamUrl = new URL(this.pageUrl.toString());
    this.streamUrl.pathname += "/live";
    void this.run();
  }

  /** Stops the stream, the polls and the tries. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stopPolling();
    this.closing.abort();
  }

  private async run(): Promise<void> {
    while (!this.closed) {
      if (this.refusal !== null) {
        await this.wait(this.retrySeconds * 1000);
        this.retrySeconds = Math.min(this.retrySeconds * 2, LAST_RETRY_SECONDS);
        this.refusal = null;
        if (this.closed) return;
      }
      try {
        await this.stream();
      } catch (error) {
        this.fail(error, "stream");
      }
      if (this.closed) return;
      if (this.refusal === null) {
        this.startPolling();
        await this.wait(RECONNECT_MILLISECONDS);
      }
    }
  }

  /** Reads the stream until it ends (resolves) or cannot be had (throws). */
  private async stream(): Promise<void> {
    const connection = new AbortController();
    const abort = () => connection.abort();
    this.closing.signal.addEventListener("abort", abort);
    this.connection = connection;
    try {
      const headers: Record<string, string> = { Accept: "text/event-stream" };
      if (this.lastEventId) headers["Last-Event-ID"] = this.lastEventId;
      const answer = await this.podium.send(this.streamUrl, { headers, cache: "no-store", signal: connection.signal });
      if (answer.status !== 200 || answer.body === null || !(answer.headers.get("Content-Type") ?? "").startsWith("text/event-stream")) {
        throw await errorForAnswer(answer, this.origin, "event stream");
      }
      this.reported = null;
      this.retrySeconds = FIRST_RETRY_SECONDS;
      this.stopPolling();
      this.setMode("live");
      const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      // The watchdog: no byte for `silenceSeconds` (Podium's heartbeats stopped coming) aborts the stream.
      let stalled = false;
      let watchdog: ReturnType<typeof setTimeout> | null = null;
      const silence = (this.options.silenceSeconds ?? SILENCE_SECONDS) * 1000;
      const arm = () => {
        if (watchdog !== null) clearTimeout(watchdog);
        watchdog = setTimeout(() => { stalled = true; connection.abort(); }, silence);
      };
      arm();
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          arm();
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            this.handle(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
          }
        }
      } catch (error) {
        // Silent too long, or a drop: connect again (polling meanwhile). Closed, or stopped by a refusal: run() knows.
        if (stalled && !this.closed) return;
        if (connection.signal.aborted || !(error instanceof TypeError)) throw error;
      } finally {
        if (watchdog !== null) clearTimeout(watchdog);
      }
    } finally {
      this.closing.signal.removeEventListener("abort", abort);
      if (this.connection === connection) this.connection = null;
    }
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
        this.setMode("live");
      } else {
        this.startPolling();
      }
    }
  }

  private show(page: LeaderboardPage, etag: string | null): void {
    if (etag) this.lastEventId = etag;
    this.options.onPage(page);
  }

  private startPolling(): void {
    if (this.polling || this.closed || this.refusal !== null) return;
    this.polling = true;
    this.setMode("polling");
    void this.pollWhile(++this.pollRound);
  }

  private stopPolling(): void {
    if (!this.polling) return;
    this.polling = false;
    this.pollsWork = false;
    this.pollRound++;
    if (this.pollTimer !== null) clearTimeout(this.pollTimer);
    this.pollTimer = null;
  }

  /** Polls every `pollSeconds` until polling stops (`round` is over). */
  private async pollWhile(round: number): Promise<void> {
    while (round === this.pollRound) {
      await this.poll();
      if (round !== this.pollRound) return;
      await new Promise<void>((resolve) => { this.pollTimer = setTimeout(resolve, (this.options.pollSeconds ?? 2) * 1000); });
    }
  }

  private async poll(): Promise<void> {
    try {
      const headers: Record<string, string> = { Accept: "application/json" };
      if (this.lastEventId) headers["If-None-Match"] = this.lastEventId;
      const answer = await this.podium.send(this.pageUrl, { headers, cache: "no-store", signal: this.closing.signal });
      if (answer.status !== 304 && (answer.status !== 200 || !isJson(answer.headers.get("Content-Type")))) {
        throw await errorForAnswer(answer, this.origin);
      }
      this.pollsWork = true;
      this.reported = null;
      this.retrySeconds = FIRST_RETRY_SECONDS;
      if (answer.status === 200) this.show(LeaderboardPageFromJSON(await answer.json()), answer.headers.get("ETag"));
    } catch (error) {
      this.pollsWork = false;
      this.fail(error, "poll");
    }
  }

  /**
   * A request failed. A refused credential stops the board until the next try; other failures are told (once per
   * change of cause), except the stream's while polls work: the board is current then.
   */
  private fail(error: unknown, source: "stream" | "poll"): void {
    if (this.closed || isAbort(error)) return;
    if (error instanceof PodiumAuthenticationError) {
      if (this.refusal !== null) return;
      this.refusal = error;
      this.stopPolling();
      this.connection?.abort();
      this.setMode("stopped");
    } else if (source === "stream" && this.pollsWork) {
      return;
    }
    const failure = error instanceof Error ? error : new Error(String(error));
    const cause = failure instanceof PodiumUnavailable ? `${failure.name}:${failure.reason}`
      : failure instanceof PodiumError ? `${failure.name}:${failure.status}` : `${failure.name}:${failure.message}`;
    if (cause === this.reported) return;
    this.reported = cause;
    this.options.onError?.(failure);
  }

  private setMode(mode: LiveBoardMode): void {
    if (mode === this.mode) return;
    this.mode = mode;
    this.options.onMode?.(mode);
  }

  /** Waits `milliseconds` (Podium's sleep), or until the board is closed. */
  private wait(milliseconds: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed) return resolve();
      const done = () => {
        this.closing.signal.removeEventListener("abort", done);
        resolve();
      };
      this.closing.signal.addEventListener("abort", done);
      this.podium.sleep(milliseconds, this.closing.signal).then(done, done);
    });
  }
}
