import Foundation
import Hummingbird
import Metrics
import PodiumCore
import PodiumStore
import PodiumWire

/// `POST /v1/completions` and `POST /v1/completions/batch`.
struct CompletionsController {
    let writer: CompletionWriter
    /// The batch rules (repeated ids, the age pre-check) over `writer`.
    let batch: CompletionBatch
    let store: CompletionStore
    let rules: GameRules
    /// What a player token's completions must respect.
    let plausibility: PlausibilityRules
    let cache: LeaderboardCache
    let now: @Sendable () -> Date
    let recorded = Counter(label: "podium_completions_recorded_total", dimensions: [("outcome", "created")])
    let replayed = Counter(label: "podium_completions_recorded_total", dimensions: [("outcome", "replayed")])
    let conflicts = Counter(label: "podium_completions_recorded_total", dimensions: [("outcome", "conflict")])

    /// Most completions one batch may carry.
    static let maximumBatch = 500

    /// Registers this controller's routes on `router`.
    func addRoutes(to router: some RouterMethods<PodiumRequestContext>) {
        router.post("/v1/completions", use: record)
        router.post("/v1/completions/batch", use: recordBatch)
    }

    /// Handles `POST /v1/completions`.
    @Sendable func record(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.requireWriter()
        let body = try await HTTPSupport.decode(CompletionRequest.self, from: request, context: context, plain: PlainCompletionJSON.read)
        let receivedAt = now()
        let item = try body.validated(now: receivedAt, rules: rules)
        try context.requirePlayerWrite(item.userID, groups: item.groups)
        try await requirePlausible([(item, "")], now: receivedAt, context: context)
        let outcome = try await writer.record(item)
        count(outcome)
        switch outcome {
        case .created(let response):
            invalidate(response, of: item)
            return HTTPSupport.json(bytes: response.jsonBytes(), status: .created)
        case .replayed(let response):
            return HTTPSupport.json(bytes: response.jsonBytes(), status: .ok)
        case .conflict:
            throw APIError.conflict("completion \(item.id) was already recorded with a different body")
        case .tooOld(let error):
            throw APIError.validation([error])
        }
    }

    /// Handles `POST /v1/completions/batch?mode=all|partial`: `CompletionBatch` applies the batch's rules; this maps
    /// its answer to HTTP.
    @Sendable func recordBatch(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.requireWriter()
        let modeText = request.uri.queryParameters.get("mode").map { String($0) } ?? BatchMode.all.rawValue
        guard let mode = BatchMode(rawValue: modeText) else {
            throw APIError.validation([FieldError(field: "mode", message: "must be all or partial")])
        }
        let body = try await HTTPSupport.decode(BatchRequest.self, from: request, context: context)
        guard let requests = body.completions else { throw APIError.validation([FieldError(field: "completions", message: "is required")]) }
        guard (1...Self.maximumBatch).contains(requests.count) else {
            throw APIError.validation([FieldError(field: "completions", message: "must hold 1 to \(Self.maximumBatch) completions")])
        }
        let receivedAt = now()
        let checked = requests.enumerated().map { index, completion in
            Result { () throws(ValidationFailure) in
                try completion.validated(now: receivedAt, rules: rules, fieldPrefix: Self.prefix(index))
            }
        }
        let answer = try await batch.run(
            checked, receivedAt: receivedAt, mode: mode, mayWrite: { try context.requirePlayerWrite($0.userID, groups: $0.groups) },
            plausibility: context.isPlayer ? plausibility : nil, prefix: Self.prefix)
        switch answer {
        case .rejected(let refusal): throw Self.problem(refusal)
        case .items(let items): return try HTTPSupport.json(response(to: requests, items))
        }
    }

    /// The batch answer: each item's result in the order sent, and the counts.
    private func response(to requests: [CompletionRequest], _ items: [BatchItemAnswer]) -> BatchResponse {
        var answer = BatchResponse(results: [], created: 0, replayed: 0, conflicts: 0, invalid: 0)
        for (sent, item) in zip(requests, items) {
            switch item {
            case .refused(let refusal):
                let problem = Self.problem(refusal)
                answer.invalid += 1
                answer.results.append(BatchItemResult(id: sent.id ?? "", status: Int(problem.status.code), result: nil, problem: problem.problem))
            case .written(_, .refused):
                answer.results.append(BatchItemResult(id: sent.id ?? "", status: 500, result: nil, problem: APIError.internalError.problem))
            case .written(let completion, .recorded(let outcome)):
                count(outcome)
                switch outcome {
                case .created(let response):
                    invalidate(response, of: completion)
                    answer.created += 1
                    answer.results.append(BatchItemResult(id: completion.id, status: 201, result: response, problem: nil))
                case .replayed(let response):
                    answer.replayed += 1
                    answer.results.append(BatchItemResult(id: completion.id, status: 200, result: response, problem: nil))
                case .conflict:
                    answer.conflicts += 1
                    let problem = APIError.conflict("completion \(completion.id) was already recorded with a different body").problem
                    answer.results.append(BatchItemResult(id: completion.id, status: 409, result: nil, problem: problem))
                case .tooOld(let error):
                    // Erased between the check and the write: refused alone, the rest stands.
                    answer.results.append(BatchItemResult(id: completion.id, status: 400, result: nil, problem: APIError.validation([error]).problem))
                }
            }
        }
        return answer
    }

    /// The problem of a refusal: 400 for invalid fields, the caller's own 401/403, 422 for implausible completions.
    private static func problem(_ refusal: BatchRefusal) -> APIError {
        switch refusal {
        case .invalid(let errors): .validation(errors)
        case .notAllowed(let error): error as? APIError ?? .internalError
        case .implausible(let violations): implausibleProblem(violations)
        }
    }

    /// How a batch names its item at `index` in field paths.
    private static func prefix(_ index: Int) -> String { "completions[\(index)]." }

    private func count(_ outcome: RecordOutcome) {
        switch outcome {
        case .created: recorded.increment()
        case .replayed: replayed.increment()
        case .conflict: conflicts.increment()
        case .tooOld: break
        }
    }

    /// Throws 422 `implausible-completion` when a player token posts completions no pupil could have made (keys,
    /// trusted backends, are not judged).
    private func requirePlausible(_ items: [(ValidCompletion, String)], now: Date, context: PodiumRequestContext) async throws {
        guard context.isPlayer else { return }
        let violations = try await CompletionBatch.violations(items, now: now, rules: plausibility, store: store)
        if !violations.isEmpty { throw Self.implausibleProblem(violations) }
    }

    /// 422 `implausible-completion`, naming each rule broken; counted per rule.
    private static func implausibleProblem(_ violations: [PlausibilityRules.Violation]) -> APIError {
        let rulesBroken = Array(Set(violations.map(\.rule))).sorted()
        for rule in rulesBroken { Counter(label: "podium_implausible_completions_total", dimensions: [("rule", rule)]).increment() }
        return APIError(
            .unprocessableContent, code: "implausible-completion", title: "Implausible completion",
            detail: "refused by \(rulesBroken.joined(separator: ", ")); nothing was recorded", errors: violations.map(\.error))
    }

    /// Drops this replica's cached pages of the board periods a new completion counted in: those it was
    /// ranked on, or, when Redis was unreachable (no ranks, pages served from PostgreSQL), those it scored in.
    private func invalidate(_ response: CompletionResponse, of item: ValidCompletion) {
        if response.rankingsLive {
            cache.invalidate(keys: response.ranks.map { BoardPeriodKey(board: $0.board, window: $0.window, period: $0.period) })
        } else {
            let periods = rules.boardPeriods(quizID: item.quizID, topic: item.topic, groups: item.groups, completedAt: item.completedAt, now: now()).open
            cache.invalidate(keys: periods.map(BoardPeriodKey.init))
        }
    }
}
