// A finished quiz as the app gives it (`Completion`: the API's fields in camelCase, `completedAt` a Date or an ISO
// string), checked and turned into the generated `CompletionRequest` before anything is sent or queued.
import { CompletionRequest, Difficulty } from "../generated/index.js";

/**
 * One finished quiz: the API's fields (`POST /v1/completions`) in camelCase. `completedAt` (when the quiz was
 * finished; send it, it is what lets a late retry count in the right period) is a `Date` or an ISO 8601 time such as
 * `"2024-05-01T12:00:00Z"`.
 */
export interface Completion {
  /** The idempotency key: sending the same id and body again replays the first answer (e.g. `crypto.randomUUID()`). */
  id: string;
  /** The player (a player token may write only its own). */
  userId: string;
  /** The quiz played. */
  quizId: string;
  /** The quiz's topic (board `topic:<topic>`). */
  topic: string;
  /** `"easy"`, `"medium"` or `"hard"`. */
  difficulty: Difficulty;
  /** Correct answers, at most `total`. */
  correct: number;
  /** Questions asked. */
  total: number;
  /** Time taken, in milliseconds. */
  durationMs?: number | null;
  /** When the quiz was finished: a Date or an ISO 8601 time; the time of receipt when left out. */
  completedAt?: Date | string | null;
  /** Classes, schools or teams the player ranks in (boards `group:<name>`). */
  groups?: string[] | null;
  /** The name shown on boards; kept until changed. */
  displayName?: string | null;
}

/** The API's snake_case names an app may send by mistake, with the camelCase names the client takes. */
const CAMEL_CASE: Record<string, string> = {
  user_id: "userId", quiz_id: "quizId", duration_ms: "durationMs", completed_at: "completedAt", display_name: "displayName",
};

/** The fields a Completion has. */
const FIELDS = ["id", "userId", "quizId", "topic", "difficulty", "correct", "total", "durationMs", "completedAt", "groups", "displayName"];

/** An RFC 3339 time with a date, a time and an offset (`Z` or `±hh:mm`). */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})$/;

/** A TypeError naming `where.field`: what the client needs instead. */
function wrong(where: string, field: string, needed: string, value: unknown): TypeError {
  const shown = value === undefined ? "nothing" : typeof value === "string" ? JSON.stringify(value) : String(value);
  return new TypeError(`podium: ${where}.${field} must be ${needed} (got ${shown})`);
}

/**
 * `value` as the generated request, or a TypeError naming the first field at fault (`where` prefixes its name:
 * `completion.userId`). A key a Completion does not have (a snake_case name, a typo such as `completedAT`) is refused
 * too: left out silently, it would lose what the app meant to send.
 */
export function completionRequest(value: unknown, where = "completion"): CompletionRequest {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new TypeError(`podium: ${where} must be an object with id, userId, quizId, topic, difficulty, correct and total`);
  }
  const fields = value as Record<string, unknown>;
  for (const [snake, camel] of Object.entries(CAMEL_CASE)) {
    if (snake in fields && !(camel in fields)) {
      throw new TypeError(`podium: ${where}.${snake}: the client takes the API's fields in camelCase, ${camel}`);
    }
  }
  for (const key of Object.keys(fields)) {
    if (!FIELDS.includes(key)) {
      const like = FIELDS.find((field) => field.toLowerCase() === key.toLowerCase().replace(/_/g, ""));
      throw new TypeError(`podium: ${where}.${key} is not a field of a completion` +
        (like ? ` (did you mean ${like}?)` : ` (its fields: ${FIELDS.join(", ")})`));
    }
  }
  const text = (field: string, optional = false): string | undefined => {
    const given = fields[field];
    if (optional && given == null) return undefined;
    if (typeof given !== "string" || given === "") throw wrong(where, field, "a non-empty string", given);
    return given;
  };
  const count = (field: string, optional = false): number | undefined => {
    const given = fields[field];
    if (optional && given == null) return undefined;
    if (typeof given !== "number" || !Number.isInteger(given) || given < 0) throw wrong(where, field, "a whole number, 0 or more", given);
    return given;
  };
  const difficulty = fields.difficulty;
  if (!Object.values(Difficulty).includes(difficulty as Difficulty)) {
    throw wrong(where, "difficulty", `one of ${Object.values(Difficulty).map((name) => `"${name}"`).join(", ")}`, difficulty);
  }
  const groups = fields.groups;
  if (groups != null && !(Array.isArray(groups) && groups.every((group) => typeof group === "string"))) {
    throw wrong(where, "groups", "an array of strings", groups);
  }
  const request: CompletionRequest = {
    id: text("id") as string,
    userId: text("userId") as string,
    quizId: text("quizId") as string,
    topic: text("topic") as string,
    difficulty: difficulty as Difficulty,
    correct: count("correct") as number,
    total: count("total") as number,
  };
  const durationMs = count("durationMs", true);
  if (durationMs !== undefined) request.durationMs = durationMs;
  const completedAt = instant(fields.completedAt, where);
  if (completedAt !== undefined) request.completedAt = completedAt;
  if (groups != null) request.groups = groups as string[];
  const displayName = text("displayName", true);
  if (displayName !== undefined) request.displayName = displayName;
  return request;
}

/** `value` (a Date or an ISO 8601 string) as a Date; undefined when absent. */
function instant(value: unknown, where: string): Date | undefined {
  if (value == null) return undefined;
  const needed = 'a Date or an ISO 8601 time such as "2024-05-01T12:00:00Z"';
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw wrong(where, "completedAt", needed, "an invalid Date");
    return value;
  }
  if (typeof value !== "string" || !ISO_TIME.test(value.trim())) throw wrong(where, "completedAt", needed, value);
  const parsed = new Date(value.trim());
  if (Number.isNaN(parsed.getTime())) throw wrong(where, "completedAt", needed, value);
  return parsed;
}
