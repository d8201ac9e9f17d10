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
