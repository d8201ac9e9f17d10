// podium-client: Podium's client for quiz apps in browsers and Node 18+. This entry is the hand-written layer and the
// few API types it takes and gives; everything else the API has (every request and answer type, every API class) is
// at `podium-client/api`, generated from Podium's OpenAPI document.
export { Podium } from "./podium.js";
export type { PodiumOptions } from "./podium.js";
export type { Completion } from "./completion.js";
export { OfflineQueue } from "./queue.js";
export type { LeftReason, QueueStorage, SyncItem, SyncOutcome, SyncReport } from "./queue.js";
export { LiveBoard } from "./live.js";
export type { LiveBoardMode, LiveBoardOptions } from "./live.js";
export { PodiumAuthenticationError, PodiumError, PodiumRefused, PodiumUnavailable } from "./errors.js";
export type { Problem, UnavailableReason } from "./errors.js";
export { Difficulty, LeaderboardWindow } from "../generated/index.js";
export type {
  BoardRank, CompletionRecord, CompletionResponse, FieldError, LeaderboardEntry, LeaderboardPage, PlayerTotals,
} from "../generated/index.js";
