import Foundation
import Logging
import PodiumStore

extension KeyDirectory {
    /// The directory of `storage`'s API keys, read again as soon as this replica hears that any replica created or
    /// revoked a key (`ChangeTopic.keys`), and in any case once its copy is older than the default freshness;
    /// `clock` measures the copy's age (tests hold it still).
    static func following(
        _ storage: PodiumStorage, logger: Logger, clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) -> KeyDirectory {
        let keys = storage.apiKeys
        let directory = KeyDirectory(logger: logger, clock: clock) { try await keys.validGrants() }
        storage.changes.signal(.keys).observe { directory.expire() }
        return directory
    }
}
