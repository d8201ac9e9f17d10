import Foundation

/// A field-level validation problem, rendered in problem+json (`errors: [{field, message}]`).
///
/// `field` is the request's own spelling (e.g. `correct`, `user_id`) so clients can attach the
/// message to the right input.
public struct FieldError: Sendable, Hashable, Codable {
    /// The request field at fault, as spelled in the request.
    public let field: String
    /// What is wrong with it, in plain English.
    public let message: String

    /// Creates a problem for one field.
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }
}

/// Input that failed validation: every problem found, by field.
public struct ValidationFailure: Error, Sendable, Equatable {
    /// The problems.
    public let errors: [FieldError]

    /// Creates a failure.
    public init(errors: [FieldError]) {
        self.errors = errors
    }
}

/// RFC 9457 problem details, with Podium's stable `code` and field errors.
public struct Problem: Codable, Sendable, Equatable {
    /// URI naming the kind of problem.
    public var type: String
    /// Short summary.
    public var title: String
    /// HTTP status.
    public var status: Int
    /// What went wrong.
    public var detail: String
    /// Stable code (last part of `type`).
    public var code: String
    /// Field-level problems.
    public var errors: [FieldError]?
    /// The request's id (as in its `X-Request-Id` answer header), to find its log lines; absent on a batch item's problem.
    public var requestId: String?

    /// Creates a value from its fields.
    public init(
        type: String, title: String, status: Int, detail: String, code: String, errors: [FieldError]? = nil,
        requestId: String? = nil
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.code = code
        self.errors = errors
        self.requestId = requestId
    }
}
