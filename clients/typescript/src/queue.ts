// Completions kept in storage while Podium cannot be had, sent through the batch route when the app syncs.
import {
  BatchItemResult,
  CompletionRequest,
  CompletionRequestFromJSON,
  CompletionRequestToJSON,
  RecordCompletionBatchModeEnum,
} from "../generated/index.js";
import { Completion, completionRequest } from "./completion.js";
import {
  PodiumAuthenticationError, PodiumRefused, PodiumUnavailable, Problem, UnavailableReason, errorForUnreadable,
} from "./errors.js";
import type { Podium } from "./podium.js";

/** Where an `OfflineQueue` keeps its completions: `localStorage` in a browser, anything with these two methods elsewhere. */
export interface QueueStorage {
  /** The text stored under `key`, or null. */
  getItem(key: string): string | null;
  /** Stores `value` under `key`. */
  setItem(key: string, value: string): void;
}

/** What became of one queued completion in a sync. */
export type SyncOutcome =
  /** Recorded now (201): it left the queue. */
  | "recorded"
  /** Podium already had it (200; sent before, its answer lost): it left the queue. */
  | "replayed"
  /** Refused for good (400, 403, 409, 422; see `problem`): it left the queue. */
  | "refused"
  /** Still queued, for the next sync (see `reason`). */
  | "left";

/** Why a completion was left in the queue: Podium could not be had, or the credential was refused. */
export type LeftReason = UnavailableReason | "authentication";

/** One queued completion's outcome in a sync. */
export interface SyncItem {
  /** The completion's id. */
  id: string;
  /** What became of it. */
  outcome: SyncOutcome;
  /** Podium's problem: why it was refused, or left (a rate limit, or an item Podium refused for now). */
  problem?: Problem;
  /** Why it was left: `offline`, `authentication`, `rate_limited`, `unavailable` or `origin_not_allowed`. */
  reason?: LeftReason;
}

/** What one `OfflineQueue.sync` did, item by item (`items`, in queue order) and by outcome. */
export interface SyncReport {
  /** Every completion the sync sent or meant to send, in queue order. */
  items: SyncItem[];
  /** Ids recorded now. */
  recorded: string[];
  /** Ids Podium already had. */
  replayed: string[];
  /** Completions refused for good, with Podium's problem; they left the queue. */
  refused: SyncItem[];
  /** Completions still queued, each with its reason. */
  left: SyncItem[];
  /** Seconds Podium asked to wait before the next sync (a rate limit's `Retry-After`), or null. */
  retryAfter: number | null;
}

/** At most this many completions a batch (the batch route's limit). */
const BATCH = 500;

/**
 * Completions kept in storage until Podium takes them, then sent through the batch route (`mode=partial`, 500 a
 * batch). `sync` makes one attempt: recorded and replayed completions leave the queue, refused ones leave it and are
 * reported, and the rest stay, each with its reason (the app syncs again later: when back online, or after
 * `retryAfter`). A completion keeps its id, so one sent twice (its answer lost) counts once; one added while a sync
 * runs stays for the next.
 */
export class OfflineQueue {
  /** A queue sending through `podium`, kept in `storage` under `key`. */
  constructor(private readonly podium: Podium, private readonly storage: QueueStorage, private readonly key = "podium.queue") {}

  /**
   * Checks `completion` (a TypeError names a field at fault) and queues it at once in storage. One without
   * `completedAt` is stamped with the current time, so that it counts when it was played, not when it is synced.
   */
  add(completion: Completion): void {
    const request = completionRequest(completion);
    if (request.completedAt === undefined) request.completedAt = new Date();
    this.save([...this.pending(), request]);
  }

  /** The queued completions, oldest first. */
  pending(): CompletionRequest[] {
    const text = this.storage.getItem(this.key);
    return text ? (JSON.parse(text) as unknown[]).map((item) => CompletionRequestFromJSON(item)) : [];
  }

  private save(completions: CompletionRequest[]): void {
    this.storage.setItem(this.key, JSON.stringify(completions.map((completion) => CompletionRequestToJSON(completion))));
  }

  /**
   * Sends what is queued, each batch once, and reports each completion's outcome; Podium's answers are in the report,
   * never thrown (a whole batch refused leaves its items: `authentication` for a 403, else `unavailable`).
   */
  async sync(): Promise<SyncReport> {
    const queued = this.pending();
    const items: SyncItem[] = [];
    let retryAfter: number | null = null;
    let stopped: { reason: LeftReason; problem?: Problem } | null = null;
    try {
      for (let first = 0; first < queued.length; first += BATCH) {
        const chunk = queued.slice(first, first + BATCH);
        if (stopped === null) {
          try {
            const answer = await this.podium.completions.recordCompletionBatch({
              batchRequest: { completions: chunk }, mode: RecordCompletionBatchModeEnum.Partial,
            });
            const results: (BatchItemResult | undefined)[] = Array.isArray(answer.results) ? answer.results : [];
            chunk.forEach((completion, index) => items.push(outcome(completion.id, results[index])));
            continue;
          } catch (thrown) {
            const error = errorForUnreadable(thrown, this.podium.baseUrl);
            if (error instanceof PodiumAuthenticationError) stopped = { reason: "authentication" };
            else if (error instanceof PodiumUnavailable) stopped = { reason: error.reason };
            // A whole batch refused: the credential may not post these (403), or the batch itself was refused;
            // nothing is dropped for what may be the app's configuration.
            else if (error instanceof PodiumRefused) stopped = { reason: error.status === 403 ? "authentication" : "unavailable" };
            else throw error;
            if (error.problem !== null) stopped.problem = error.problem;
            retryAfter = error.retryAfter;
          }
        }
        for (const completion of chunk) items.push({ id: completion.id, outcome: "left", ...stopped });
      }
    } finally {
      // Read again: what was added meanwhile stays, with everything not settled.
      const settled = new Set(items.filter((item) => item.outcome !== "left").map((item) => item.id));
      this.save(this.pending().filter((completion) => !settled.has(completion.id)));
    }
    return {
      items,
      recorded: items.filter((item) => item.outcome === "recorded").map((item) => item.id),
      replayed: items.filter((item) => item.outcome === "replayed").map((item) => item.id),
      refused: items.filter((item) => item.outcome === "refused"),
      left: items.filter((item) => item.outcome === "left"),
      retryAfter,
    };
  }
}

/** The outcome of completion `id` from its batch result (none: an answer without it, left `unavailable`). */
function outcome(id: string, result: BatchItemResult | undefined): SyncItem {
  if (result === undefined || result === null || typeof result.status !== "number") {
    return { id, outcome: "left", reason: "unavailable" };
  }
  if (result.status === 201) return { id, outcome: "recorded" };
  if (result.status === 200) return { id, outcome: "replayed" };
  const problem: Problem = result.problem
    ? { ...result.problem, errors: result.problem.errors ?? [], retryAfter: null }
    : { type: "about:blank", title: "Unknown", status: result.status, detail: "", code: "", retryAfter: null, errors: [] };
  // 5xx: refused for now (the database, on its own); the rest are final.
  if (result.status >= 500) return { id, outcome: "left", reason: "unavailable", problem };
  return { id, outcome: "refused", problem };
}
