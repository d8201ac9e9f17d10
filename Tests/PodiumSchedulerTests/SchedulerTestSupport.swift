import Foundation
import Logging
import PodiumCore
import PodiumScheduler
import PodiumStore
import PodiumTestSupport
import Postgres
import Redis
import Synchronization
import Testing

/// The test PostgreSQL (started by ops/test.sh); tests fail, never skip, without it.
enum SchedulerTestEnvironment {
    static let databaseURL = ProcessInfo.processInfo.environment["PODIUM_TEST_DATABASE_URL"]
        ?? "host=127.0.0.1 port=5432 user=postgres dbname=podium_test"
    static let redisURL = TestRedisDatabase.sharedURL
    static let logger = Logger(label: "podium-scheduler-tests")

    /// A migrated pool on the test database.
    static func postgres() async throws -> PostgresPool {
        let pool = PostgresPool(configuration: PostgresConfiguration(connectionString: databaseURL, poolSize: 6), logger: logger)
        try await Migrator(pool: pool, logger: logger).migrate(try Migration.bundled())
        return pool
    }

    /// A job name no other test uses: every test owns its rows in `job_runs`.
    static func uniqueJob(_ prefix: String) -> String {
        "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
    }
}

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date) {
        current = Mutex(start)
    }

    /// The current instant.
    var now: Date { current.withLock { $0 } }

    /// Sets the clock.
    func set(_ date: Date) {
        current.withLock { $0 = date }
    }

    /// Moves the clock forward.
    func advance(_ seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

/// A job that records the slots it ran and fails its first `failures` attempts.
final class RecordingJob: ScheduledJob {
    let name: String
    private let state: Mutex<(slots: [Date], failuresLeft: Int)>

    init(name: String, failures: Int = 0) {
        self.name = name
        state = Mutex(([], failures))
    }

    /// Slots run successfully, in order.
    var slots: [Date] { state.withLock { $0.slots } }

    func run(_ context: JobContext) async throws -> [String: Int] {
        try state.withLock { state in
            if state.failuresLeft > 0 {
                state.failuresLeft -= 1
                throw TestJobFailure()
            }
            state.slots.append(context.slot)
        }
        return ["ran": 1]
    }
}

/// The error a failing `RecordingJob` throws.
struct TestJobFailure: Error, CustomStringConvertible {
    var description: String { "planned test failure" }
}

/// A scheduler running `job` on `cron` (UTC) as replica `replica`.
func makeScheduler(
    _ job: any ScheduledJob, cron: String, misfire: MisfirePolicy = .runLatest, retryLimit: Int = 3, lease: TimeInterval = 60,
    backoff: TimeInterval = 10, store: JobRunStore, clock: TestClock, replica: String
) throws -> Scheduler {
    let schedule = CronSchedule(expression: try CronExpression(cron), timeZone: try #require(TimeZone(identifier: "UTC")))
    let settings = SchedulerSettings(jobs: [
        JobSettings(name: job.name, schedule: schedule, misfire: misfire, retryLimit: retryLimit, lease: lease, backoff: backoff),
    ])
    return Scheduler(store: store, settings: settings, jobs: [job], replica: replica, now: { clock.now }, logger: SchedulerTestEnvironment.logger)
}

/// A fixed instant from an RFC 3339 string.
func instant(_ text: String) -> Date {
    guard let date = RFC3339.parse(text) else { fatalError("bad test time \(text)") }
    return date
}

/// Run statuses of `job` by slot, oldest first.
func statuses(_ store: JobRunStore, _ job: String) async throws -> [String: String] {
    Dictionary(uniqueKeysWithValues: try await store.runs(job: job, limit: 1000).map { ($0.slot, $0.status.rawValue) })
}

