import Foundation
import PodiumCore
import PodiumStore
import PodiumWire
import Postgres

/// A run this replica has claimed and now holds the lease of.
public struct JobClaim: Sendable, Equatable {
    /// Job name.
    public let job: String
    /// The slot being run.
    public let slot: Date
    /// Attempt number (1 for the first).
    public let attempt: Int
    /// Attempt number since the run was last re-run by hand (the same as `attempt` when it never was): retries back off by it.
    public let attemptOfRequest: Int
    /// The replica holding the lease.
    public let replica: String
}

/// Why a run cannot be requested.
public enum RunRequestError: Error, Equatable, CustomStringConvertible {
    /// The slot already has a run that is pending, running or succeeded (nil: it vanished while being looked up).
    case slotTaken(job: String, slot: Date, status: JobRunStatus?)
    /// The slot asked for is neither `now` nor an RFC 3339 time.
    case badSlot(String)

    /// A sentence for problem details.
    public var description: String {
        switch self {
        case .slotTaken(let job, let slot, let status): "\(job) slot \(RFC3339.format(slot)) is already \(status?.rawValue ?? "taken")"
        case .badSlot(let text): "slot must be \"now\" or an RFC 3339 time, got \(text)"
        }
    }
}

/// What a scheduler tick reads before it claims (`JobRunStore.outlook(now:)`).
public struct JobOutlook: Sendable, Equatable {
    /// Jobs that ops paused.
    public var paused: Set<String>
    /// Jobs with a run that can be claimed now.
    public var due: Set<String>
    /// The earliest later instant a pending run comes due or a running one's lease expires; nil when none will.
    public var nextDue: Date?
}

/// The scheduler's PostgreSQL side: the unique (job, slot) rows, leases, attempts, pauses.
///
/// Every transition is one conditional statement, so any number of replicas can race on the
/// same rows: inserting a slot is `ON CONFLICT DO NOTHING`, claiming is `FOR UPDATE SKIP LOCKED`,
/// and renewing or finishing only touches the row while this replica's attempt still holds it.
public struct JobRunStore: Sendable {
    let postgres: PostgresPool

    /// Creates the store.
    public init(postgres: PostgresPool) {
        self.postgres = postgres
    }

    /// The latest scheduled (not manual) slot recorded for `job`, if any.
    public func lastScheduledSlot(job: String) async throws -> Date? {
        try await postgres.run(LastScheduledSlot(job: job)).first?.slot
    }

    /// Records `missed` as missed and `due` as pending runs, leaving slots another replica already recorded untouched.
    public func recordSlots(job: String, missed: [Date], due: [Date], trigger: String, attemptLimit: Int, now: Date) async throws {
        try await postgres.withConnection { connection in
            _ = try connection.pipeline([
                RecordMissedSlots(job: job, slots: missed, now: now).query,
                RecordDueSlots(job: job, slots: due, trigger: trigger, attemptLimit: attemptLimit, now: now).query,
            ])
        }
    }

    /// What a tick needs to know at `now`, in one round trip: the paused jobs, and among `jobs` those with a run this
    /// replica could claim (pending and due, or running with an expired lease), and when their next pending run comes
    /// due or the next lease expires.
    public func outlook(of jobs: [String], now: Date) async throws -> JobOutlook {
        let results = try await postgres.withConnection { connection in
            try connection.pipeline([PausedJobs().query, DueJobs(jobs: jobs, now: now).query])
        }
        let runs = try DueJobs.rows(of: results[1])
        return JobOutlook(
            paused: Set(try PausedJobs.rows(of: results[0]).map(\.name)),
            due: Set(runs.filter(\.due).map(\.job)),
            nextDue: runs.compactMap(\.nextAt).filter { $0 > now }.min())
    }

    /// Claims the oldest due run of `job` for `replica`, or nil when there is none (or another replica got it); every
    /// replica's scheduler is told of a claim when it commits.
    ///
    /// A running run whose lease expired is taken over as its next attempt (the dead attempt is
    /// recorded as `lease-lost`), unless it has used every attempt: then it is marked failed.
    public func claimNext(job: String, replica: String, lease: TimeInterval, now: Date) async throws -> JobClaim? {
        try await postgres.withTransaction { connection in
            try connection.run(FailExhaustedRuns(job: job, now: now))
            guard let run = try connection.run(DueRun(job: job, now: now)).first else { return nil }
            if run.status == .running {
                try connection.run(LoseLease(job: job, slot: run.slot, attempt: run.attempt, now: now))
            }
            let attempt = run.attempt + 1
            let claim = JobClaim(job: job, slot: run.slot, attempt: attempt, attemptOfRequest: attempt - run.attemptsBefore, replica: replica)
            try connection.run(StartRun(claim: claim, leaseExpiresAt: now.addingTimeInterval(lease), now: now))
            try connection.run(StartAttempt(claim: claim, startedAt: now))
            // The other replicas' schedulers read the new lease, so they tick when it expires unrenewed.
            try connection.run(NotifyChange(.jobs))
            return claim
        }
    }

    /// Extends the lease of `claim`; false when this attempt no longer holds the run (it expired and was taken over).
    public func renew(_ claim: JobClaim, lease: TimeInterval, now: Date) async throws -> Bool {
        try await postgres.runCounting(RenewLease(claim: claim, leaseExpiresAt: now.addingTimeInterval(lease))) == 1
    }

    /// Records a successful attempt; false when the attempt had lost its lease (its work stands, the run is another's).
    public func succeed(_ claim: JobClaim, result: [String: Int], now: Date) async throws -> Bool {
        try await finish(claim, status: .succeeded, outcome: .succeeded, error: nil, result: result, nextAttempt: nil, now: now)
    }

    /// Records a failed attempt: the run goes back to pending after `retryDelay`, or fails when no attempts are left.
    @discardableResult
    public func fail(_ claim: JobClaim, error: String, retryDelay: TimeInterval, now: Date) async throws -> Bool {
        let limit = try await postgres.run(AttemptLimit(claim: claim)).first?.attemptLimit ?? 0
        let retry = claim.attempt < limit
        return try await finish(
            claim, status: retry ? .pending : .failed, outcome: .failed, error: error, result: nil,
            nextAttempt: retry ? now.addingTimeInterval(retryDelay) : nil, now: now)
    }

    private func finish(
        _ claim: JobClaim, status: JobRunStatus, outcome: AttemptOutcome, error: String?, result: [String: Int]?, nextAttempt: Date?, now: Date
    ) async throws -> Bool {
        let resultText = try result.map { try PodiumJSON.string($0) }
        return try await postgres.withTransaction { connection in
            let updated = try connection.runCounting(FinishRun(
                claim: claim, status: status.rawValue, error: error, result: resultText, nextAttemptAt: nextAttempt, now: now)) == 1
            try connection.run(FinishAttempt(claim: claim, outcome: (updated ? outcome : .leaseLost).rawValue, error: error, now: now))
            return updated
        }
    }

    /// Asks for a run of `job` at `slot` now: a new pending run, or a failed or missed slot made pending again
    /// with a fresh set of attempts. Throws `RunRequestError.slotTaken` when the slot is pending, running or done.
    public func requestRun(job: String, slot: Date, attemptLimit: Int, now: Date) async throws -> JobRun {
        if let run = try await requestRunIfFree(job: job, slot: slot, attemptLimit: attemptLimit, now: now) { return run }
        let status = try await postgres.run(RunStatus(job: job, slot: slot)).first?.status
        throw RunRequestError.slotTaken(job: job, slot: slot, status: status)
    }

    /// Asks for a run of `job` at the first second from `slot` on that no run holds (a failed or missed one is
    /// made pending again): a manual "now" that is never refused. Tries at most `seconds` seconds.
    public func requestRunAtFirstFreeSecond(job: String, from slot: Date, seconds: Int = 1000, attemptLimit: Int, now: Date) async throws -> JobRun {
        for offset in 0..<seconds {
            let candidate = slot.addingTimeInterval(TimeInterval(offset))
            if let run = try await requestRunIfFree(job: job, slot: candidate, attemptLimit: attemptLimit, now: now) { return run }
        }
        throw RunRequestError.slotTaken(job: job, slot: slot.addingTimeInterval(TimeInterval(seconds - 1)), status: nil)
    }

    /// The run requested at `slot`, or nil when the slot is pending, running or done. Every replica's scheduler is told
    /// when it commits (`ChangeTopic.jobs`), so one claims it at once.
    private func requestRunIfFree(job: String, slot: Date, attemptLimit: Int, now: Date) async throws -> JobRun? {
        let request = RequestRun(job: job, slot: slot, attemptLimit: attemptLimit, now: now)
        let results = try await postgres.withConnection { try $0.pipeline([request.query, NotifyChange(.jobs).query]) }
        return try RequestRun.rows(of: results[0]).first
    }

    /// Runs of `job`, newest slot first, each with its attempts; only `slot`'s when given.
    public func runs(job: String, slot: Date? = nil, limit: Int) async throws -> [JobRun] {
        try await postgres.run(RunsOfJob(job: job, slot: slot, limit: limit))
    }

    /// The newest run of each of `jobs` that has run at all, by job name, in one query.
    public func latestRuns(of jobs: [String]) async throws -> [String: JobRun] {
        let runs = try await postgres.run(LatestRuns(jobs: jobs))
        return Dictionary(uniqueKeysWithValues: runs.map { ($0.job, $0) })
    }

    /// Jobs that ops paused.
    public func pausedJobs() async throws -> Set<String> {
        Set(try await postgres.run(PausedJobs()).map(\.name))
    }

    /// Pauses or resumes `job`; every replica's scheduler is told when it commits.
    public func setPaused(job: String, paused: Bool, now: Date) async throws {
        let change = SetPaused(job: job, paused: paused, now: now)
        _ = try await postgres.withConnection { try $0.pipeline([change.query, NotifyChange(.jobs).query]) }
    }

    /// Deletes runs that finished before `cutoff` (with their attempts); returns how many.
    ///
    /// Each job's latest scheduled slot is kept whatever its age: planning starts from it, and without it
    /// a job whose interval is longer than the retention would run its last slot again.
    public func prune(before cutoff: Date) async throws -> Int {
        try await postgres.runCounting(PruneRuns(cutoff: cutoff))
    }
}

/// The latest scheduled (not manual) slot of one job; NULL when it has none.
private struct LastScheduledSlot: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT max(slot) AS slot FROM job_runs WHERE job = \(\.job) AND trigger <> 'manual'"
    struct Row: Decodable, Sendable { let slot: Date? }
    let job: String
}

/// Records slots of one job that passed while no replica ran it as missed catch-up runs (slots already recorded stay).
private struct RecordMissedSlots: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO job_runs (job, slot, trigger, status, created_at, finished_at, error)
        SELECT \(\.job), s, 'catch-up', 'missed', \(\.now), \(\.now), 'slot passed while no replica ran the job'
        FROM unnest(\(\.slots)::timestamptz[]) AS s ON CONFLICT DO NOTHING
        """
    typealias Row = NoRows
    let job: String
    let slots: [Date]
    let now: Date
}

/// Records slots of one job as pending runs, due at their slot (slots already recorded stay).
private struct RecordDueSlots: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO job_runs (job, slot, trigger, status, attempt_limit, next_attempt_at, created_at)
        SELECT \(\.job), s, \(\.trigger), 'pending', \(\.attemptLimit), s, \(\.now)
        FROM unnest(\(\.slots)::timestamptz[]) AS s ON CONFLICT DO NOTHING
        """
    typealias Row = NoRows
    let job: String
    let slots: [Date]
    let trigger: String
    let attemptLimit: Int
    let now: Date
}

/// The jobs ops paused.
private struct PausedJobs: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT name FROM jobs WHERE paused"
    struct Row: Decodable, Sendable { let name: String }
}

/// Per job with a pending or running run: whether one can be claimed now, and the earliest time one comes due
/// (a pending run's next attempt, a running run's lease expiry).
private struct DueJobs: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT job,
               bool_or((status = 'pending' AND next_attempt_at <= \(\.now))
                       OR (status = 'running' AND lease_expires_at < \(\.now))) AS due,
               min(CASE WHEN status = 'pending' THEN next_attempt_at ELSE lease_expires_at END) AS next_at
        FROM job_runs WHERE status IN ('pending', 'running') AND job = ANY(\(\.jobs)) GROUP BY job
        """
    struct Row: Decodable, Sendable {
        let job: String
        let due: Bool
        let nextAt: Date?
    }
    let jobs: [String]
    let now: Date
}

/// Fails the runs of one job whose lease expired on their last attempt, and records that attempt as `lease-lost`.
private struct FailExhaustedRuns: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        WITH exhausted AS (
            UPDATE job_runs SET status = 'failed', finished_at = \(\.now), lease_expires_at = NULL,
                                error = 'lease expired on attempt ' || attempt || ' and no attempts are left'
            WHERE job = \(\.job) AND status = 'running' AND lease_expires_at < \(\.now) AND attempt >= attempt_limit
            RETURNING job, slot, attempt)
        UPDATE job_attempts a SET outcome = 'lease-lost', finished_at = \(\.now)
        FROM exhausted e WHERE a.job = e.job AND a.slot = e.slot AND a.attempt = e.attempt AND a.outcome IS NULL
        """
    typealias Row = NoRows
    let job: String
    let now: Date
}

/// Locks the oldest run of one job that can be claimed now (pending and due, or running with an expired lease),
/// skipping runs another replica is claiming.
private struct DueRun: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT slot, attempt, attempts_before, status FROM job_runs
        WHERE job = \(\.job) AND status IN ('pending', 'running')
          AND ((status = 'pending' AND next_attempt_at <= \(\.now)) OR (status = 'running' AND lease_expires_at < \(\.now)))
        ORDER BY slot LIMIT 1 FOR UPDATE SKIP LOCKED
        """
    struct Row: Decodable, Sendable {
        let slot: Date
        /// The attempts made so far.
        let attempt: Int
        /// The attempts made before the run was last requested by hand.
        let attemptsBefore: Int
        let status: JobRunStatus
    }
    let job: String
    let now: Date
}

/// Records an unfinished attempt whose lease expired as `lease-lost`.
private struct LoseLease: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        UPDATE job_attempts SET outcome = 'lease-lost', finished_at = \(\.now)
        WHERE job = \(\.job) AND slot = \(\.slot) AND attempt = \(\.attempt) AND outcome IS NULL
        """
    typealias Row = NoRows
    let job: String
    let slot: Date
    let attempt: Int
    let now: Date
}

/// Marks a claimed run running on the claim's attempt, under its replica's lease.
private struct StartRun: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        UPDATE job_runs SET status = 'running', attempt = \(\.claim.attempt), replica = \(\.claim.replica),
                            lease_expires_at = \(\.leaseExpiresAt), next_attempt_at = NULL, started_at = COALESCE(started_at, \(\.now))
        WHERE job = \(\.claim.job) AND slot = \(\.claim.slot)
        """
    typealias Row = NoRows
    let claim: JobClaim
    let leaseExpiresAt: Date
    let now: Date
}

/// Records the start of a claim's attempt.
private struct StartAttempt: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO job_attempts (job, slot, attempt, replica, started_at)
        VALUES (\(\.claim.job), \(\.claim.slot), \(\.claim.attempt), \(\.claim.replica), \(\.startedAt))
        """
    typealias Row = NoRows
    let claim: JobClaim
    let startedAt: Date
}

/// Extends the lease of a claimed run while the claim's attempt still holds it.
private struct RenewLease: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        UPDATE job_runs SET lease_expires_at = \(\.leaseExpiresAt)
        WHERE job = \(\.claim.job) AND slot = \(\.claim.slot) AND attempt = \(\.claim.attempt) AND replica = \(\.claim.replica)
          AND status = 'running'
        """
    typealias Row = NoRows
    let claim: JobClaim
    let leaseExpiresAt: Date
}

/// How many attempts a claimed run may make.
private struct AttemptLimit: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT attempt_limit FROM job_runs WHERE job = \(\.claim.job) AND slot = \(\.claim.slot)"
    struct Row: Decodable, Sendable { let attemptLimit: Int }
    let claim: JobClaim
}

/// Ends a claim's hold on its run (done, failed, or pending again), while the claim's attempt still holds it.
private struct FinishRun: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        UPDATE job_runs SET status = \(\.status), error = \(\.error), result = \(\.result)::jsonb,
                            next_attempt_at = \(\.nextAttemptAt), lease_expires_at = NULL,
                            finished_at = CASE WHEN \(\.status) = 'pending' THEN NULL ELSE \(\.now)::timestamptz END
        WHERE job = \(\.claim.job) AND slot = \(\.claim.slot) AND attempt = \(\.claim.attempt) AND replica = \(\.claim.replica)
          AND status = 'running'
        """
    typealias Row = NoRows
    let claim: JobClaim
    /// A `JobRunStatus`.
    let status: String
    let error: String?
    /// The run's counts as a JSON object.
    let result: String?
    let nextAttemptAt: Date?
    let now: Date
}

/// Records how a claim's attempt ended.
private struct FinishAttempt: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        UPDATE job_attempts SET outcome = \(\.outcome), error = \(\.error), finished_at = \(\.now)
        WHERE job = \(\.claim.job) AND slot = \(\.claim.slot) AND attempt = \(\.claim.attempt)
        """
    typealias Row = NoRows
    let claim: JobClaim
    /// An `AttemptOutcome`.
    let outcome: String
    let error: String?
    let now: Date
}

/// Where one run stands.
private struct RunStatus: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT status FROM job_runs WHERE job = \(\.job) AND slot = \(\.slot)"
    struct Row: Decodable, Sendable { let status: JobRunStatus }
    let job: String
    let slot: Date
}

/// Records a manual run of one slot, or makes a failed or missed run of it pending again with `attemptLimit` more
/// attempts; returns the run, or nothing when the slot is pending, running or done.
private struct RequestRun: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO job_runs AS r (job, slot, trigger, status, attempt_limit, next_attempt_at, created_at)
        VALUES (\(\.job), \(\.slot), 'manual', 'pending', \(\.attemptLimit), \(\.now), \(\.now))
        ON CONFLICT (job, slot) DO UPDATE SET status = 'pending', trigger = 'manual', next_attempt_at = \(\.now), finished_at = NULL,
            error = NULL, attempt_limit = r.attempt + \(\.attemptLimit), attempts_before = r.attempt
        WHERE r.status IN ('failed', 'missed')
        RETURNING \(unescaped: RunColumns.sql)
        """
    typealias Row = JobRun
    static func decodeRow(_ row: PostgresRow) throws -> JobRun { try RunColumns.run(row) }
    let job: String
    let slot: Date
    let attemptLimit: Int
    let now: Date
}

/// One job's runs, newest slot first; only one slot's when `slot` is given.
private struct RunsOfJob: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT \(unescaped: RunColumns.sql) FROM job_runs r
        WHERE r.job = \(\.job) AND (\(\.slot)::timestamptz IS NULL OR r.slot = \(\.slot))
        ORDER BY r.slot DESC LIMIT \(\.limit)
        """
    typealias Row = JobRun
    static func decodeRow(_ row: PostgresRow) throws -> JobRun { try RunColumns.run(row) }
    let job: String
    let slot: Date?
    let limit: Int
}

/// The newest run of each of some jobs (those that have one).
private struct LatestRuns: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT DISTINCT ON (r.job) \(unescaped: RunColumns.sql) FROM job_runs r WHERE r.job = ANY(\(\.jobs)) ORDER BY r.job, r.slot DESC
        """
    typealias Row = JobRun
    static func decodeRow(_ row: PostgresRow) throws -> JobRun { try RunColumns.run(row) }
    let jobs: [String]
}

/// The columns of a run read from `job_runs r`, with its attempts as a JSON array, as the run statements select them.
private struct RunColumns: Decodable {
    /// The select list.
    static let sql = """
        r.job, r.slot, r.trigger, r.status, r.attempt, r.replica, r.started_at, r.finished_at, r.next_attempt_at, r.error,
        r.result::text AS result,
        COALESCE((SELECT json_agg(json_build_object('attempt', a.attempt, 'replica', a.replica,
                      'started_at', \(SQLText.rfc3339("a.started_at")), 'finished_at', \(SQLText.rfc3339("a.finished_at")),
                      'outcome', a.outcome, 'error', a.error) ORDER BY a.attempt)
                  FROM job_attempts a WHERE a.job = r.job AND a.slot = r.slot), '[]')::text AS attempts
        """

    let job: String
    let slot: Date
    let trigger: String
    let status: JobRunStatus
    let attempt: Int
    let replica: String?
    let startedAt: Date?
    let finishedAt: Date?
    let nextAttemptAt: Date?
    let error: String?
    /// The run's counts as a JSON object.
    let result: String?
    /// The attempts as a JSON array.
    let attempts: String

    /// The run in `row`.
    static func run(_ row: PostgresRow) throws -> JobRun {
        let columns = try RunColumns(from: PostgresRowDecoder(row: row))
        let decoder = PodiumJSON.decoder()
        return JobRun(
            job: columns.job, slot: RFC3339.format(columns.slot), trigger: columns.trigger, status: columns.status,
            attempt: columns.attempt, replica: columns.replica, startedAt: columns.startedAt.map(RFC3339.format),
            finishedAt: columns.finishedAt.map(RFC3339.format), nextAttemptAt: columns.nextAttemptAt.map(RFC3339.format),
            error: columns.error, result: try columns.result.map { try decoder.decode([String: Int].self, from: Data($0.utf8)) },
            attempts: try decoder.decode([JobAttempt].self, from: Data(columns.attempts.utf8)))
    }
}

/// Pauses or resumes one job.
private struct SetPaused: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO jobs (name, paused, updated_at) VALUES (\(\.job), \(\.paused), \(\.now))
        ON CONFLICT (name) DO UPDATE SET paused = EXCLUDED.paused, updated_at = EXCLUDED.updated_at
        """
    typealias Row = NoRows
    let job: String
    let paused: Bool
    let now: Date
}

/// Deletes runs (their attempts cascade) that finished before `cutoff`, except each job's latest scheduled slot.
private struct PruneRuns: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        DELETE FROM job_runs r WHERE status IN ('succeeded', 'failed', 'missed') AND finished_at < \(\.cutoff)
          AND (trigger = 'manual' OR slot < (SELECT max(slot) FROM job_runs x WHERE x.job = r.job AND x.trigger <> 'manual'))
        """
    typealias Row = NoRows
    let cutoff: Date
}
