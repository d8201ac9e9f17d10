import Foundation
import Hummingbird
import Metrics
import PodiumCore
import PodiumStore

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
        let body = try await HTTPSupport.decode(CompletionRequest.self, from: request, context: context)
        let item = try body.validated(now: now(), rules: rules)
        try context.requirePlayerWrite(item.userID, groups: item.groups)
        try await requirePlausible([(item, "")], context: context)
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

    /// How a batch treats its invalid items (`?mode=`).
    enum BatchMode: String {
        /// One invalid item rejects the whole batch, and nothing is recorded (the default).
        case all
        /// Every valid item is recorded; each invalid one gets its own problem in its result.
        case partial
    }

    /// Handles `POST /v1/completions/batch?mode=all|partial`.
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
        let valid = checked.enumerated().compactMap { index, result in (try? result.get()).map { (index: index, item: $0) } }
        var ageErrors = try await batch.ageErrors(valid.map(\.item)).makeIterator()
        // Each refused item's problem, by its position in the request.
        var refused: [Int: APIError] = [:]
        for (index, result) in checked.enumerated() {
            switch result {
            case .failure(let failure): refused[index] = .validation(failure.errors)
            case .success: if let error = ageErrors.next() ?? nil { refused[index] = .validation([error]) }
            }
        }
        // All or nothing on validation unless the caller asked for partial: a batch with a bad item changes nothing.
        if mode == .all, !refused.isEmpty {
            throw APIError.validation(refused.sorted { $0.key < $1.key }.flatMap { $0.value.errors })
        }
        // A player token syncs its own player's completions only, plausible ones.
        for (index, item) in valid where refused[index] == nil {
            do {
                try context.requirePlayerWrite(item.userID, groups: item.groups)
            } catch let error as APIError where mode == .partial {
                refused[index] = error
            }
        }
        let violations = try await implausible(valid.filter { refused[$0.index] == nil }.map { ($0.item, Self.prefix($0.index)) }, context: context)
        if mode == .all, !violations.isEmpty { throw Self.implausibleProblem(violations) }
        for (index, _) in valid where refused[index] == nil {
            let own = violations.filter { $0.error.field.hasPrefix(Self.prefix(index)) }
            if !own.isEmpty { refused[index] = Self.implausibleProblem(own) }
        }
        let accepted = valid.filter { refused[$0.index] == nil }
        var recorded: [Int: (item: ValidCompletion, outcome: BatchItemOutcome)] = [:]
        for (entry, outcome) in zip(accepted, try await batch.record(accepted.map(\.item))) { recorded[entry.index] = (entry.item, outcome) }
        var answer = BatchResponse(results: [], created: 0, replayed: 0, conflicts: 0, invalid: refused.count)
        for (index, sent) in requests.enumerated() {
            if let problem = refused[index] {
                answer.results.append(BatchItemResult(id: sent.id ?? "", status: Int(problem.status.code), result: nil, problem: problem.problem))
                continue
            }
            guard let (item, itemOutcome) = recorded[index], case .recorded(let outcome) = itemOutcome else {
                answer.results.append(BatchItemResult(id: sent.id ?? "", status: 500, result: nil, problem: APIError.internalError.problem))
                continue
            }
            count(outcome)
            switch outcome {
            case .created(let response):
                invalidate(response, of: item)
                answer.created += 1
                answer.results.append(BatchItemResult(id: item.id, status: 201, result: response, problem: nil))
            case .replayed(let response):
                answer.replayed += 1
                answer.results.append(BatchItemResult(id: item.id, status: 200, result: response, problem: nil))
            case .conflict:
                answer.conflicts += 1
                let problem = APIError.conflict("completion \(item.id) was already recorded with a different body").problem
                answer.results.append(BatchItemResult(id: item.id, status: 409, result: nil, problem: problem))
            case .tooOld(let error):
                // Erased between the check above and the write: refused alone, the rest stands.
                answer.results.append(BatchItemResult(id: item.id, status: 400, result: nil, problem: APIError.validation([error]).problem))
            }
        }
        return try HTTPSupport.json(answer)
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

    /// Throws 422 `implausible-completion` when a player token posts completions no pupil could have made.
    private func requirePlausible(_ items: [(ValidCompletion, String)], context: PodiumRequestContext) async throws {
        let violations = try await implausible(items, context: context)
        if !violations.isEmpty { throw Self.implausibleProblem(violations) }
    }

    /// The plausibility rules a player token's completions break (none for keys, trusted backends); replays of
    /// recorded ids pass. Each item is named by its field prefix.
    private func implausible(_ items: [(ValidCompletion, String)], context: PodiumRequestContext) async throws -> [PlausibilityRules.Violation] {
        guard context.isPlayer, let player = items.first?.0.userID else { return [] }
        let recorded = try await store.recordedIDs(among: items.map(\.0.id))
        // A repeated id in one batch is answered as a replay of its first occurrence: judge that one only.
        var seen = Set<String>()
        let fresh = items.filter { !recorded.contains($0.0.id) && seen.insert($0.0.id).inserted }
        let times = fresh.map(\.0.completedAt)
        guard let first = times.min(), let last = times.max() else { return [] }
        let stored = try await store.entries(
            userID: player, from: first.addingTimeInterval(-plausibility.lookaround), to: last.addingTimeInterval(plausibility.lookaround))
        return plausibility.violations(fresh.map { item, prefix in
            (PlausibilityRules.Entry(id: item.id, quizID: item.quizID, completedAt: item.completedAt), item.durationMS, item.total, prefix)
        }, stored: stored)
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
            let periods = rules.boardPeriods(topic: item.topic, groups: item.groups, completedAt: item.completedAt, now: now()).open
            cache.invalidate(keys: periods.map(BoardPeriodKey.init))
        }
    }
}

/// The body of `POST /v1/completions/batch`.
struct BatchRequest: Codable, Sendable {
    /// Up to 500 completions.
    var completions: [CompletionRequest]?
}

/// One completion's result in a batch answer.
struct BatchItemResult: Codable, Sendable {
    /// The completion id, as sent (empty when an invalid item had none).
    var id: String
    /// 201 created, 200 replay, 409 conflict; with `mode=partial` also 400, 403 or 422 for a refused item.
    var status: Int
    /// The answer, as `POST /v1/completions` would give it.
    var result: CompletionResponse?
    /// The problem, for a conflict.
    var problem: Problem?
}

/// The answer to `POST /v1/completions/batch`.
struct BatchResponse: Codable, Sendable {
    /// One result per completion, in the order sent.
    var results: [BatchItemResult]
    /// How many were new.
    var created: Int
    /// How many were replays.
    var replayed: Int
    /// How many conflicted.
    var conflicts: Int
    /// How many were refused as invalid, each with its own problem (only with `mode=partial`; 0 otherwise).
    var invalid: Int
}
