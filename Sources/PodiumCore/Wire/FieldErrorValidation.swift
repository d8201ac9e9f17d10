/// Input that failed validation: every problem found, by field.
public struct ValidationFailure: Error, Sendable, Equatable {
    /// The problems.
    public let errors: [FieldError]

    /// Creates a failure.
    public init(errors: [FieldError]) {
        self.errors = errors
    }
}
