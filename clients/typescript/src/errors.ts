// The client's error model, the same in the Python and Swift clients: Podium's problem documents become typed errors,
// answers that are not Podium's (a proxy's HTML page) and failed connections mean "unavailable, retry", and a refused
// credential is an authentication error, never "offline".
import type { FieldError } from "../generated/index.js";
import type { Completion } from "./completion.js";

/** Why Podium could not be had for now: a later try may succeed. */
export type UnavailableReason =
  /** No answer at all: the network is down, or Podium is. */
  | "offline"
  /** 429: too many requests; `retryAfter` says when to try again. */
  | "rate_limited"
  /** A 5xx or 408, or an answer that was not Podium's (an HTML page from a proxy in front of it). */
  | "unavailable"
  /** In a browser: Podium answered, but the browser withheld the answer because the page's origin is not in
   * Podium's `PODIUM_CORS_ORIGINS`. */
  | "origin_not_allowed";

/** An RFC 9457 problem document as Podium sends it (`application/problem+json`), with camelCase keys. */
export interface Problem {
  /** URI naming the kind of problem: `https://podium.dev/problems/<code>`. */
  type: string;
  /** Short summary of the kind of problem. */
  title: string;
  /** HTTP status. */
  status: number;
  /** What went wrong this time. */
  detail: string;
  /** Podium's stable code to switch on (`validation-failed`, `conflict`, `unauthorized`, …). */
  code: string;
  /** Seconds to wait before trying again (the answer's `Retry-After`), or null. */
  retryAfter: number | null;
  /** The fields at fault on a validation failure (as spelled on the wire: `user_id`), else empty. */
  errors: FieldError[];
  /** The request's id (`X-Request-Id`): quote it when asking Podium's operators about it. */
  requestId?: string;
}

/** What the fields of a `PodiumError` are made from. */
interface PodiumErrorFields {
  status?: number | null;
  problem?: Problem | null;
  retryAfter?: number | null;
  cause?: unknown;
}

/**
 * Anything Podium refused or could not answer. `message` reads like `409 Conflict: <detail> (<type>)`; `problem` is
 * Podium's problem document when the answer was one. Catch the subclasses to tell what to do.
 */
export class PodiumError extends Error {
  /** The class's name (kept through minifiers). */
  override name = "PodiumError";
  /** The HTTP status, or null when no answer came. */
  readonly status: number | null;
  /** Podium's problem document, or null (no answer, or an answer that was not Podium's). */
  readonly problem: Problem | null;
  /** Seconds to wait before trying again, when the answer said (`Retry-After`), else null. */
  readonly retryAfter: number | null;
  /** The error underneath (a failed fetch's TypeError), if any. */
  readonly cause?: unknown;

  /** An error with `message` and the answer's details. */
  constructor(message: string, fields: PodiumErrorFields = {}) {
    super(message);
    this.status = fields.status ?? null;
    this.problem = fields.problem ?? null;
    this.retryAfter = fields.retryAfter ?? fields.problem?.retryAfter ?? null;
    if (fields.cause !== undefined) this.cause = fields.cause;
  }
}

/** Podium refused the request, and sending it again cannot change that (400, 403, 404, 409, 413, 422, …). */
export class PodiumRefused extends PodiumError {
  override name = "PodiumRefused";
  declare readonly status: number;
  declare readonly problem: Problem;
}

/** Podium refused the credential (401) even after the app was asked once for a fresh token (`token(true)`). */
export class PodiumAuthenticationError extends PodiumError {
  override name = "PodiumAuthenticationError";
}

/**
 * Podium could not be had for now (`reason`): no answer, a rate limit, a 5xx or an answer that was not Podium's. Where
 * the client retries (`record`), it is thrown once the attempts ran out (`attempts`).
 */
export class PodiumUnavailable extends PodiumError {
  override name = "PodiumUnavailable";
  /** Why: `offline`, `rate_limited`, `unavailable` or `origin_not_allowed`. */
  readonly reason: UnavailableReason;
  /** How many attempts were made before giving up (1 where the client does not retry). */
  readonly attempts: number;
  /**
   * From `record`: the completion exactly as it was sent (with the `completedAt` it stamped when it had none), for
   * `queue.add(error.completion)`, so that a later sync sends the same body under the same id.
   */
  readonly completion?: Completion;

  /** An error for `reason`, after `attempts` attempts. */
  constructor(message: string, reason: UnavailableReason,
              fields: PodiumErrorFields & { attempts?: number; completion?: Completion } = {}) {
    super(message, fields);
    this.reason = reason;
    this.attempts = fields.attempts ?? 1;
    if (fields.completion !== undefined) this.completion = fields.completion;
  }

  /** The same error, saying that `attempts` attempts were made (and carrying `completion`, the one sent). */
  afterAttempts(attempts: number, completion?: Completion): PodiumUnavailable {
    return new PodiumUnavailable(`${this.message} (gave up after ${attempts} attempts)`, this.reason, {
      status: this.status, problem: this.problem, retryAfter: this.retryAfter, cause: this.cause, attempts,
      completion: completion ?? this.completion,
    });
  }
}

/** Seconds from a `Retry-After` header (seconds or an HTTP date), or null. */
export function parseRetryAfter(header: string | null): number | null {
  if (header === null || header.trim() === "") return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** True when `contentType` names JSON (`application/json`, `application/problem+json`). */
export function isJson(contentType: string | null): boolean {
  return contentType !== null && /^application\/([\w.-]+\+)?json\s*(;|$)/i.test(contentType);
}

/** The problem document in `text`, or null when it is not one (HTML, plain text, truncated JSON). */
function parseProblem(text: string, retryAfter: number | null): Problem | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const fields = value as Record<string, unknown>;
  if (typeof fields.title !== "string" || typeof fields.status !== "number") return null;
  const errors = Array.isArray(fields.errors) ? fields.errors as FieldError[] : [];
  return {
    type: typeof fields.type === "string" ? fields.type : "about:blank",
    title: fields.title,
    status: fields.status,
    detail: typeof fields.detail === "string" ? fields.detail : "",
    code: typeof fields.code === "string" ? fields.code : "",
    retryAfter,
    errors,
    ...(typeof fields.request_id === "string" ? { requestId: fields.request_id } : {}),
  };
}

/** `problem` as a message: `409 Conflict: <detail> (<type>)`. */
function problemMessage(problem: Problem): string {
  return `${problem.status} ${problem.title}: ${problem.detail || "no detail"} (${problem.type})`;
}

/** A short description of an answer that is not Podium's: its type and an HTML page's title or the text's start. */
function describeForeign(text: string, contentType: string | null): string {
  const title = /<title>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
  const shown = title || text.replace(/\s+/g, " ").trim().slice(0, 60);
  return `${contentType ?? "no content type"}${shown ? ` "${shown}"` : ""}`;
}

/** A problem as the error of its status: a credential refused, a rate limit, unavailability, or a refusal. */
export function errorForProblem(problem: Problem): PodiumError {
  const message = problemMessage(problem);
  const fields = { status: problem.status, problem };
  if (problem.status === 401) return new PodiumAuthenticationError(message, fields);
  if (problem.status === 429) return new PodiumUnavailable(message, "rate_limited", fields);
  if (problem.status >= 500 || problem.status === 408) return new PodiumUnavailable(message, "unavailable", fields);
  return new PodiumRefused(message, fields);
}

/**
 * The error an answer means: a non-2xx answer, or a 2xx one that is not what Podium sends (`expected` names what was
 * expected). Reads the body; never throws on an unreadable or non-JSON one.
 */
export async function errorForAnswer(answer: Response, origin: string, expected = "JSON"): Promise<PodiumError> {
  const text = await answer.text().catch(() => "");
  const contentType = answer.headers.get("Content-Type");
  const retryAfter = parseRetryAfter(answer.headers.get("Retry-After"));
  const problem = isJson(contentType) || text.trimStart().startsWith("{") ? parseProblem(text, retryAfter) : null;
  if (problem !== null && problem.status === answer.status && !answer.ok) return errorForProblem(problem);
  const fields = { status: answer.status, retryAfter };
  const foreign = `${answer.status} from ${origin}: ${describeForeign(text, contentType)}`;
  if (answer.status === 401) {
    return new PodiumAuthenticationError(`${foreign}: the credential was refused`, fields);
  }
  if (answer.status === 429) {
    const wait = retryAfter === null ? "" : `, retry after ${retryAfter} s`;
    return new PodiumUnavailable(`${foreign}: too many requests${wait}`, "rate_limited", fields);
  }
  if (answer.ok) {
    return new PodiumUnavailable(`${foreign}: not the ${expected} Podium answers with, likely a proxy in front of it; try again later`,
      "unavailable", fields);
  }
  return new PodiumUnavailable(`${foreign}: not Podium's answer, likely a proxy in front of it; try again later`,
    "unavailable", fields);
}

/**
 * `error` as a PodiumError when it is not one already: a 2xx answer the client could not read as the operation's
 * (not JSON, or JSON without the fields it needs) is a PodiumUnavailable `unavailable`, never a raw SyntaxError or
 * TypeError. Aborts stay as they are.
 */
export function errorForUnreadable(error: unknown, origin: string): unknown {
  if (error instanceof PodiumError || isAbort(error)) return error;
  const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new PodiumUnavailable(`${origin} answered with what is not Podium's answer to this request (${why}), likely a ` +
    "proxy in front of it; try again later", "unavailable", { cause: error });
}

/** True when `error` is the abort of a request (`AbortController.abort()`), which is no failure. */
export function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === "AbortError";
}

/**
 * The error of a fetch that got no answer (`cause`, a TypeError). In a browser page on another origin than Podium's,
 * two probes of `/healthz` tell the likely cause apart: if a `cors` request is answered, the page's origin is allowed
 * (Podium's CORS headers are on every answer) and the connection failed (`offline`: a dropped connection, retried);
 * if only a `no-cors` request is answered, the page's origin is not allowed (`PODIUM_CORS_ORIGINS`); if neither, the
 * network is offline or Podium is down.
 */
export async function errorForNoAnswer(cause: unknown, origin: string, plainFetch: typeof fetch): Promise<PodiumUnavailable> {
  const page = typeof location !== "undefined" && typeof document !== "undefined" ? location.origin : null;
  const why = describeCause(cause);
  if (page === null || page === origin) {
    return new PodiumUnavailable(`Podium at ${origin} could not be reached: the network is offline or Podium is down${why}`,
      "offline", { cause });
  }
  if (await answersAtAll(origin, plainFetch, "cors")) {
    return new PodiumUnavailable(`Podium at ${origin} could not be reached: the connection failed, though Podium answers ` +
      `and allows the page's origin ${page}${why}`, "offline", { cause });
  }
  if (await answersAtAll(origin, plainFetch, "no-cors")) {
    return new PodiumUnavailable(`Podium at ${origin} answered, but the browser withheld the answer: the page's origin ${page} ` +
      "is likely not allowed (add it to Podium's PODIUM_CORS_ORIGINS)", "origin_not_allowed", { cause });
  }
  return new PodiumUnavailable(`Podium at ${origin} could not be reached: the network is offline or Podium is down ` +
    `(or the page's origin ${page} is not allowed: PODIUM_CORS_ORIGINS)${why}`, "offline", { cause });
}

/** `cause` for a message: `: fetch failed (ECONNREFUSED)` (Node gives the system's code in the TypeError's cause). */
function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return "";
  const inner = (cause as { cause?: { code?: unknown } }).cause;
  return `: ${cause.message}${inner !== undefined && typeof inner.code === "string" ? ` (${inner.code})` : ""}`;
}

/**
 * True when `origin` answers `GET /healthz` in `mode` within 5 seconds: with `cors`, only when the browser lets the
 * page read the answer (the origin is allowed); with `no-cors`, any answer (it is opaque).
 */
async function answersAtAll(origin: string, plainFetch: typeof fetch, mode: RequestMode): Promise<boolean> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 5000);
  try {
    await plainFetch(`${origin}/healthz`, { mode, cache: "no-store", signal: abort.signal });
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
