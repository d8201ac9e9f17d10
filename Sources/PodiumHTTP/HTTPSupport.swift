import Foundation
import Hummingbird
import PodiumCore
import PodiumStore
import PodiumWire

/// Body and query helpers shared by the controllers.
enum HTTPSupport {
    /// Reads (within the replica's `BodyBudget`) and decodes a JSON body; malformed JSON, a key repeated in one object (proxies and Podium
    /// could read different values from it) or a wrongly typed field is a 400 naming the field.
    ///
    /// `plain`, when given, reads the body's common shape first (for example `PlainCompletionJSON.read`); when it
    /// returns nil the body goes the full way, which also words every error.
    static func decode<T: Decodable>(
        _ type: T.Type, from request: Request, context: PodiumRequestContext, plain: ((UnsafeRawBufferPointer) -> T?)? = nil
    ) async throws -> T {
        let data = try await BodyBudget.shared.withBody(of: request, limit: context.maxUploadSize) { Data(buffer: $0) }
        guard !data.isEmpty else { throw APIError.malformedBody("the body is empty; send a JSON object") }
        if let plain, let value = data.withUnsafeBytes(plain) { return value }
        if let key = DuplicateKeys.firstDuplicate(in: data) {
            let message = "repeats a key of its object (compared unescaped, ignoring case and underscores)"
            throw APIError.validation([FieldError(field: key, message: message)])
        }
        do {
            return try PodiumJSON.decoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw decodingProblem(error)
        }
    }

    /// A 400 that says which field did not decode and why; the field is `body` when the body as a whole
    /// is the wrong type (`[]` where an object belongs).
    static func decodingProblem(_ error: DecodingError) -> APIError {
        func path(_ codingPath: [any CodingKey]) -> String {
            guard !codingPath.isEmpty else { return "body" }
            return codingPath.reduce("") { text, key in
                if let index = key.intValue { return "\(text)[\(index)]" }
                let name = snakeCase(key.stringValue)
                return text.isEmpty ? name : "\(text).\(name)"
            }
        }
        switch error {
        case .typeMismatch(let type, let context):
            return .validation([FieldError(field: path(context.codingPath), message: "must be \(jsonTypeName(type))")])
        case .valueNotFound(let type, let context):
            return .validation([FieldError(field: path(context.codingPath), message: "must be \(jsonTypeName(type)), not null")])
        case .keyNotFound(let key, let context):
            return .validation([FieldError(field: path(context.codingPath + [key]), message: "is required")])
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return .malformedBody("the body is not valid JSON") }
            return .validation([FieldError(field: path(context.codingPath), message: "is not a valid value")])
        @unknown default:
            return .malformedBody("the body could not be read")
        }
    }

    private static func jsonTypeName(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type, is Int64.Type: "an integer"
        case is Double.Type: "a number"
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        default: String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }

    private static func snakeCase(_ name: String) -> String {
        name.reduce(into: "") { text, character in
            if character.isUppercase { text += "_" + character.lowercased() } else { text.append(character) }
        }
    }

    /// A JSON answer.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        json(bytes: Array(try PodiumJSON.encoder().encode(value)), status: status)
    }

    /// A JSON answer already encoded.
    static func json(bytes: [UInt8], status: HTTPResponse.Status) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The board scope `id` names; a field error on `field` (and nil) when it names none.
    static func boardScope(_ id: String, field: String = "board", errors: inout [FieldError]) -> BoardScope? {
        guard let scope = BoardScope(id: id) else {
            errors.append(FieldError(field: field, message: "must be global, topic:<name>, group:<name>, contest:<id> or league:<id>:<tier>:<cohort>"))
            return nil
        }
        return scope
    }

    /// The query parameter `name` as `true` or `false`, `fallback` when absent; anything else is added to `errors`.
    static func boolean(_ name: String, in request: Request, fallback: Bool, errors: inout [FieldError]) -> Bool {
        guard let text = request.uri.queryParameters.get(name) else { return fallback }
        guard text == "true" || text == "false" else {
            errors.append(FieldError(field: name, message: "must be true or false"))
            return fallback
        }
        return text == "true"
    }

    /// Closes board period `key` (a contest run under way too when `early`), then drops this replica's cached pages of
    /// it once it is closed; a period that cannot close is 409.
    static func close(
        _ key: BoardPeriodKey, with closing: PeriodClosing, cache: LeaderboardCache, now: Date, dryRun: Bool, early: Bool = false
    ) async throws -> PeriodCloseReport {
        do {
            let report = try await closing.close(key, now: now, dryRun: dryRun, early: early)
            if report.outcome == .closed { cache.invalidate(keys: [key]) }
            return report
        } catch let error as PeriodCloseError {
            throw APIError.conflict(error.description)
        }
    }

    /// `report` as an admin reads it: the medallists' display names as they are now. A close has committed by then,
    /// so names that cannot be read are left out rather than answer an error for a change that was made.
    static func named(_ report: PeriodCloseReport, users: UserStore) async -> PeriodCloseReport {
        var report = report
        let names = (try? await users.displayNames(of: report.medals.map(\.userId))) ?? [:]
        for index in report.medals.indices { report.medals[index].displayName = names[report.medals[index].userId] }
        return report
    }

    /// `report` with the display names of the players it lists.
    static func named(_ report: LeagueWeekReport, users: UserStore) async -> LeagueWeekReport {
        var report = report
        let names = (try? await users.displayNames(of: report.cohortResults.flatMap { $0.results.map(\.userId) })) ?? [:]
        for cohort in report.cohortResults.indices {
            for index in report.cohortResults[cohort].results.indices {
                report.cohortResults[cohort].results[index].displayName = names[report.cohortResults[cohort].results[index].userId]
            }
        }
        return report
    }

    /// An integer query parameter of `query` (a request's `uri.queryParameters`, parsed once) within `range`, `fallback`
    /// when absent; a field error otherwise.
    static func integer(
        _ name: String, in query: Parameters, range: ClosedRange<Int>, fallback: Int, errors: inout [FieldError]
    ) -> Int {
        guard let text = query.get(name) else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            errors.append(FieldError(field: name, message: "must be an integer from \(range.lowerBound) to \(range.upperBound)"))
            return fallback
        }
        return value
    }

    /// Path parameter `name`, percent-decoded (clients encode `:` and `@` in path segments), "" when absent;
    /// text that does not decode is returned as sent, for the caller's validation to refuse.
    static func pathParameter(_ name: String, in context: PodiumRequestContext) -> String {
        guard let raw = context.parameters.get(name) else { return "" }
        return raw.removingPercentEncoding ?? raw
    }

    /// The `id` path parameter of a contest or league route (`kind`), a scope name; 400 otherwise.
    static func definitionID(_ kind: String, in context: PodiumRequestContext) throws -> String {
        let id = pathParameter("id", in: context)
        guard NameRules.isValidScopeName(id) else {
            throw APIError.validation([FieldError(field: "id", message: "must be a \(kind) id: 1-\(NameRules.maximumScopeNameLength) of a-z 0-9 . _ -")])
        }
        return id
    }

    /// A path parameter that must be a valid identifier (user ids) and not only dots (`%2E%2E` decodes
    /// to `..`, and `PUT /v1/users/%2E%2E/preferences` would create a player no plain URL reaches); 400 otherwise.
    static func identifier(_ name: String, in context: PodiumRequestContext) throws -> String {
        let value = pathParameter(name, in: context)
        guard NameRules.isValidIdentifier(value) else {
            throw APIError.validation([FieldError(field: name, message: "must be 1-128 characters of A-Z a-z 0-9 . _ : @ -")])
        }
        guard NameRules.isValidUserID(value) else {
            throw APIError.validation([FieldError(field: name, message: "must not be only dots, which cannot be a URL path segment")])
        }
        return value
    }
}
