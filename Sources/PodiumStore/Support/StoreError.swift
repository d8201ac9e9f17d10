import Postgres
import Redis

/// What a storage failure means to a caller, whichever driver raised it.
///
/// The stores let driver errors through (their logs keep the detail); callers outside the store
/// classify them with `init?(classifying:)` instead of importing the drivers.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A storage service did not answer (unreachable, timed out, shutting down): retrying later may work.
    case unavailable(StorageService, cause: String)
    /// PostgreSQL refused a statement (a constraint, a value out of range): retrying the same will not help.
    case rejected(cause: String)
    /// The operation clashes with one in progress (a rankings rebuild).
    case conflict(String)

    /// The meaning of `error`, or nil when it is not a storage failure.
    public init?(classifying error: any Error) {
        switch error {
        case let error as StoreError:
            self = error
        case let error as PostgresError where [.connection, .timeout, .poolClosed].contains(error.kind):
            self = .unavailable(.postgreSQL, cause: "\(error)")
        case let error as PostgresError where error.kind == .query:
            self = .rejected(cause: "\(error)")
        case let error as RedisError:
            self = .unavailable(.redis, cause: "\(error)")
        case let error as RebuildInProgress:
            self = .conflict(error.description)
        default:
            return nil
        }
    }

    /// The service that did not answer, for `unavailable`; nil otherwise.
    public var unavailableService: StorageService? {
        if case .unavailable(let service, _) = self { service } else { nil }
    }

    /// A sentence for logs.
    public var description: String {
        switch self {
        case .unavailable(let service, let cause): "\(service.rawValue) unavailable: \(cause)"
        case .rejected(let cause): "refused by PostgreSQL: \(cause)"
        case .conflict(let text): text
        }
    }
}

/// The two services behind the stores.
public enum StorageService: String, Sendable {
    /// The truth: completions, players, periods, events.
    case postgreSQL = "PostgreSQL"
    /// Live rankings.
    case redis = "Redis"
}

/// Another replica or command is rebuilding the rankings right now.
public struct RebuildInProgress: Error, CustomStringConvertible {
    /// A sentence for logs and answers.
    public var description: String { "a rankings rebuild is already running" }
}
