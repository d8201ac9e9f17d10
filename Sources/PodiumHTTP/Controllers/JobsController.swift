import Foundation
import Hummingbird
import PodiumCore
import PodiumScheduler
import PodiumStore
import PodiumWire

/// `/v1/admin/jobs…` and `/v1/admin/periods…`: watch and steer the scheduler, close a period now.
struct JobsController {
    let scheduler: Scheduler
    let runs: JobRunStore
    let periods: PeriodStore
    let closing: PeriodClosing
    /// Names the medallists of close reports.
    let users: UserStore
    let rules: GameRules
    let cache: LeaderboardCache
    let now: @Sendable () -> Date

    /// Registers this controller's routes on `router`.
    func addRoutes(to router: some RouterMethods<PodiumRequestContext>) {
        router.get("/v1/admin/jobs", use: list)
        router.get("/v1/admin/jobs/:name/runs", use: listRuns)
        router.post("/v1/admin/jobs/:name/run", use: runNow)
        router.post("/v1/admin/jobs/:name/pause", use: pause)
        router.post("/v1/admin/jobs/:name/resume", use: resume)
        router.get("/v1/admin/periods/:board/:window", use: listPeriods)
        router.post("/v1/admin/periods/:board/:window/:period/close", use: closePeriod)
    }

    /// Handles `GET /v1/admin/jobs`: every job with its schedule, pause state, next slot and latest run.
    @Sendable func list(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        return try HTTPSupport.json(JobList(replica: scheduler.replica, jobs: try await scheduler.summaries(now: now())))
    }

    /// Handles `GET /v1/admin/jobs/:name/runs?limit=`: run history, newest slot first, with every attempt.
    @Sendable func listRuns(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        let name = try jobName(context)
        var errors: [FieldError] = []
        let limit = HTTPSupport.integer("limit", in: request.uri.queryParameters, range: 1...500, fallback: 50, errors: &errors)
        guard errors.isEmpty else { throw APIError.validation(errors) }
        return try HTTPSupport.json(JobRunList(job: name, runs: try await runs.runs(job: name, limit: limit)))
    }

    /// Handles `POST /v1/admin/jobs/:name/run` with `{"slot": "now" | RFC 3339}`: a pending run every replica may claim (202).
    @Sendable func runNow(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        let name = try jobName(context)
        let body = try await HTTPSupport.decode(RunJobRequest.self, from: request, context: context)
        do {
            return try HTTPSupport.json(try await scheduler.requestRun(name, slot: body.slot ?? "now"), status: .accepted)
        } catch RunRequestError.badSlot {
            throw APIError.validation([FieldError(field: "slot", message: "must be \"now\" or an RFC 3339 time")])
        } catch let error as RunRequestError {
            throw APIError.conflict(error.description)
        }
    }

    /// Handles `POST /v1/admin/jobs/:name/pause`.
    @Sendable func pause(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try await setPaused(true, context: context)
    }

    /// Handles `POST /v1/admin/jobs/:name/resume`; slots missed while paused follow the misfire policy.
    @Sendable func resume(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try await setPaused(false, context: context)
    }

    /// Handles `GET /v1/admin/periods/:board/:window?limit=20`: a board window's newest periods, open, due or closed.
    @Sendable func listPeriods(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        var errors: [FieldError] = []
        let (scope, window) = Self.timedBoardWindow(in: context, errors: &errors)
        let limit = HTTPSupport.integer("limit", in: request.uri.queryParameters, range: 1...100, fallback: 20, errors: &errors)
        guard errors.isEmpty, let scope, let window else { throw APIError.validation(errors) }
        let board = try board(scope, keeping: window)
        let periods = try await periods.periods(of: board, window: window, limit: limit, now: now())
        return try HTTPSupport.json(PeriodList(board: board.id, window: window, timeZone: board.timeZone.configuredName, periods: periods))
    }

    /// Handles `POST /v1/admin/periods/:board/:window/:period/close?dry_run=true`: close an ended period now.
    @Sendable func closePeriod(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        var errors: [FieldError] = []
        let (scope, window) = Self.timedBoardWindow(in: context, errors: &errors)
        let dryRun = HTTPSupport.boolean("dry_run", in: request, fallback: false, errors: &errors)
        guard errors.isEmpty, let scope, let window else { throw APIError.validation(errors) }
        let periodName = HTTPSupport.pathParameter("period", in: context)
        let board = try board(scope, keeping: window)
        guard Period.isPeriodShaped(periodName) else {
            throw APIError.validation([FieldError(field: "period", message: "is not a \(window.rawValue) period name")])
        }
        guard board.period(of: window, named: periodName) != nil else {
            throw APIError.notFound("board \(board.id) has no \(window.rawValue) period \(periodName)")
        }
        let key = BoardPeriodKey(board: board.id, window: window, period: periodName)
        let report = try await HTTPSupport.close(key, with: closing, cache: cache, now: now(), dryRun: dryRun)
        return try HTTPSupport.json(await HTTPSupport.named(report, users: users))
    }

    /// The path's board and timed window (day, week, month or contest: `all` never closes), their problems added to `errors`.
    private static func timedBoardWindow(
        in context: PodiumRequestContext, errors: inout [FieldError]
    ) -> (BoardScope?, LeaderboardWindow?) {
        let scope = HTTPSupport.boardScope(HTTPSupport.pathParameter("board", in: context), errors: &errors)
        let window = LeaderboardWindow(rawValue: HTTPSupport.pathParameter("window", in: context)).flatMap { $0 == .all ? nil : $0 }
        if window == nil { errors.append(FieldError(field: "window", message: "must be one of day, week, month, contest")) }
        return (scope, window)
    }

    /// The board of `scope`; 404 when it does not keep `window`.
    private func board(_ scope: BoardScope, keeping window: LeaderboardWindow) throws -> BoardDefinition {
        let board = rules.boards.definition(for: scope)
        guard board.windows.contains(window) else { throw APIError.notFound("board \(board.id) has no \(window.rawValue) window") }
        return board
    }

    private func setPaused(_ paused: Bool, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        let name = try jobName(context)
        try await runs.setPaused(job: name, paused: paused, now: now())
        return try HTTPSupport.json(JobPauseState(job: name, paused: paused))
    }

    private func jobName(_ context: PodiumRequestContext) throws -> String {
        let name = HTTPSupport.pathParameter("name", in: context)
        guard scheduler.settings(of: name) != nil else { throw APIError.notFound("no job \(name)") }
        return name
    }
}
