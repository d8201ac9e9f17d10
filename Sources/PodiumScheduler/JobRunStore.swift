import Foundation
import PodiumCore
import PodiumStore
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

/// One attempt of a run, as ops see it.
public struct JobAttempt: Sendable, Codable, Equatable {
    /// Attempt number.
    public var attempt: Int
    /// Replica that ran it.
    public var replica: String
    /// RFC 3339 start.
    public var startedAt: String
    /// RFC 3339 end, nil while running.
    public var finishedAt: String?
    /// How it ended; nil while running.
    public var outcome: AttemptOutcome?
    /// Error text of a failed attempt.
    public var error: String?
}

/// Where a (job, slot) run stands.
public enum JobRunStatus: String, Sendable, Codable {
    /// Waiting for its time or its next attempt.
    case pending
    /// A replica holds its lease and runs it.
    case running
    /// Done.
    case succeeded
    /// Out of attempts.
    case failed
    /// Its slot passed while nothing ran and the misfire policy skipped it.
    case missed
}

/// One (job, slot) run with its attempts.
public struct JobRun: Sendable, Codable, Equatable {
    /// Job name.
    public var job: String
    /// RFC 3339 slot.
    public var slot: String
    /// `schedule`, `catch-up` or `manual`.
    public var trigger: String
    /// Where the run stands.
    public var status: JobRunStatus
    /// Attempts made so far.
    public var attempt: Int
    /// Replica of the latest attempt.
    public var replica: String?
    /// RFC 3339 first start.
    public var startedAt: String?
    /// RFC 3339 end.
    public var finishedAt: String?
    /// RFC 3339 time of the next attempt of a pending run.
    public var nextAttemptAt: String?
    /// Last error.
    public var error: String?
    /// What the run did (counts), when it succeeded.
    public var result: [String: Int]?
    /// Every attempt, first to last.
    public var attempts: [JobAttempt]
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
        try await postgres.query(
            "SELECT max(slot) AS slot FROM job_runs WHERE job = $1 AND trigger <> 'manual'", [job]).rows.first?.optionalDate("slot")
    }

    /// Records `missed` as missed and `due` as pending runs, leaving slots another replica already recorded untouched.
    public func recordSlots(job: String, missed: [Date], due: [Date], trigger: String, attemptLimit: Int, now: Date) async throws {
        try await postgres.withConnection { connection in
            _ = try connection.pipeline([
                ("""
                 INSERT INTO job_runs (job, slot, trigger, status, created_at, finished_at, error)
                 SELECT $1, s, 'catch-up', 'missed', $3, $3, 'slot passed while no replica ran the job'
                 FROM unnest($2::timestamptz[]) AS s ON CONFLICT DO NOTHING
                 """, [job, missed, now]),
                ("""
                 INSERT INTO job_runs (job, slot, trigger, status, attempt_limit, next_attempt_at, created_at)
                 SELECT $1, s, $3, 'pending', $4, s, $5 FROM unnest($2::timestamptz[]) AS s ON CONFLICT DO NOTHING
                 """, [job, due, trigger, attemptLimit, now]),
            ])
        }
    }

    /// What a tick needs to know at `now`, in one round trip: the paused jobs, and among `jobs` those with a run this
    /// replica could claim (pending and due, or running with an expired lease), and when their next pending run comes
    /// due or the next lease expires.
    public func outlook(of jobs: [String], now: Date) async throws -> JobOutlook {
        let results = try await postgres.withConnection { connection in
            try connection.pipeline([
                "SELECT name FROM jobs WHERE paused",
                """
                SELECT job,
                       bool_or((status = 'pending' AND next_attempt_at <= \(bind: now))
                               OR (status = 'running' AND lease_expires_at < \(bind: now))) AS due,
                       min(CASE WHEN status = 'pending' THEN next_attempt_at ELSE lease_expires_at END) AS next_at
                FROM job_runs WHERE status IN ('pending', 'running') AND job = ANY(\(bind: jobs)) GROUP BY job
                """,
            ])
        }
        let runs = results[1].rows
        return JobOutlook(
            paused: Set(try results[0].rows.map { try $0.string("name") }),
            due: Set(try runs.filter { try $0.bool("due") }.map { try $0.string("job") }),
            nextDue: try runs.compactMap { try $0.optionalDate("next_at") }.filter { $0 > now }.min())
    }

    /// Claims the oldest due run of `job` for `replica`, or nil when there is none (or another replica got it); every
    /// replica's scheduler is told of a claim when it commits.
    ///
    /// A running run whose lease expired is taken over as its next attempt (the dead attempt is
    /// recorded as `lease-lost`), unless it has used every attempt: then it is marked failed.
    public func claimNext(job: String, replica: String, lease: TimeInterval, now: Date) async throws -> JobClaim? {
        try await postgres.withTransaction { connection in
            try connection.query("""
                WITH exhausted AS (
                    UPDATE job_runs SET status = 'failed', finished_at = $2, lease_expires_at = NULL,
                                        error = 'lease expired on attempt ' || attempt || ' and no attempts are left'
                    WHERE job = $1 AND status = 'running' AND lease_expires_at < $2 AND attempt >= attempt_limit
                    RETURNING job, slot, attempt)
                UPDATE job_attempts a SET outcome = 'lease-lost', finished_at = $2
                FROM exhausted e WHERE a.job = e.job AND a.slot = e.slot AND a.attempt = e.attempt AND a.outcome IS NULL
                """, [job, now])
            let rows = try connection.query("""
                SELECT slot, attempt, attempts_before, status FROM job_runs
                WHERE job = $1 AND status IN ('pending', 'running')
                  AND ((status = 'pending' AND next_attempt_at <= $2) OR (status = 'running' AND lease_expires_at < $2))
                ORDER BY slot LIMIT 1 FOR UPDATE SKIP LOCKED
                """, [job, now]).rows
            guard let row = rows.first else { return nil }
            let slot = try row.date("slot")
            let previous = try row.int("attempt")
            if try row.value("status", as: JobRunStatus.self) == .running {
                try connection.query("""
                    UPDATE job_attempts SET outcome = 'lease-lost', finished_at = $4
                    WHERE job = $1 AND slot = $2 AND attempt = $3 AND outcome IS NULL
                    """, [job, slot, previous, now])
            }
            try connection.query("""
                UPDATE job_runs SET status = 'running', attempt = $3, replica = $4, lease_expires_at = $5, next_attempt_at = NULL,
                                    started_at = COALESCE(started_at, $6)
                WHERE job = $1 AND slot = $2
                """, [job, slot, previous + 1, replica, now.addingTimeInterval(lease), now])
            try connection.query("""
                INSERT INTO job_attempts (job, slot, attempt, replica, started_at) VALUES ($1, $2, $3, $4, $5)
                """, [job, slot, previous + 1, replica, now])
            // The other replicas' schedulers read the new lease, so they tick when it expires unrenewed.
            try connection.query(ChangeNotices.notify(.jobs))
            return JobClaim(job: job, slot: slot, attempt: previous + 1, attemptOfRequest: previous + 1 - (try row.int("attempts_before")),
                            replica: replica)
        }
    }

    /// Extends the lease of `claim`; false when this attempt no longer holds the run (it expired and was taken over).
    public func renew(_ claim: JobClaim, lease: TimeInterval, now: Date) async throws -> Bool {
        try await postgres.query("""
            UPDATE job_runs SET lease_expires_at = $5
            WHERE job = $1 AND slot = $2 AND attempt = $3 AND replica = $4 AND status = 'running'
            """, [claim.job, claim.slot, claim.attempt, claim.replica, now.addingTimeInterval(lease)]).affectedRows == 1
    }

    /// Records a successful attempt; false when the attempt had lost its lease (its work stands, the run is another's).
    public func succeed(_ claim: JobClaim, result: [String: Int], now: Date) async throws -> Bool {
        try await finish(claim, status: .succeeded, outcome: .succeeded, error: nil, result: result, nextAttempt: nil, now: now)
    }

    /// Records a failed attempt: the run goes back to pending after `retryDelay`, or fails when no attempts are left.
    @discardableResult
    public func fail(_ claim: JobClaim, error: String, retryDelay: TimeInterval, now: Date) async throws -> Bool {
        let limit = try await postgres.query(
            "SELECT attempt_limit FROM job_runs WHERE job = $1 AND slot = $2", [claim.job, claim.slot]).rows.first?.int("attempt_limit") ?? 0
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
            let updated = try connection.query("""
                UPDATE job_runs SET status = $5, error = $6, result = $7::jsonb, next_attempt_at = $8, lease_expires_at = NULL,
                                    finished_at = CASE WHEN $5 = 'pending' THEN NULL ELSE $9::timestamptz END
                WHERE job = $1 AND slot = $2 AND attempt = $3 AND replica = $4 AND status = 'running'
                """, [claim.job, claim.slot, claim.attempt, claim.replica, status.rawValue, error, resultText, nextAttempt, now]).affectedRows == 1
            try connection.query("""
                UPDATE job_attempts SET outcome = $4, error = $5, finished_at = $6 WHERE job = $1 AND slot = $2 AND attempt = $3
                """, [claim.job, claim.slot, claim.attempt, (updated ? outcome : .leaseLost).rawValue, error, now])
            return updated
        }
    }

    /// Asks for a run of `job` at `slot` now: a new pending run, or a failed or missed slot made pending again
    /// with a fresh set of attempts. Throws `RunRequestError.slotTaken` when the slot is pending, running or done.
    public func requestRun(job: String, slot: Date, attemptLimit: Int, now: Date) async throws -> JobRun {
        if let run = try await requestRunIfFree(job: job, slot: slot, attemptLimit: attemptLimit, now: now) { return run }
        let status = try await postgres.query(
            "SELECT status FROM job_runs WHERE job = $1 AND slot = $2", [job, slot]).rows.first?.value("status", as: JobRunStatus.self)
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
        let request = PostgresQuery(sql: """
            INSERT INTO job_runs AS r (job, slot, trigger, status, attempt_limit, next_attempt_at, created_at)
            VALUES ($1, $2, 'manual', 'pending', $3, $4, $4)
            ON CONFLICT (job, slot) DO UPDATE SET status = 'pending', trigger = 'manual', next_attempt_at = $4, finished_at = NULL,
                error = NULL, attempt_limit = r.attempt + $3, attempts_before = r.attempt
            WHERE r.status IN ('failed', 'missed')
            RETURNING \(Self.runColumns)
            """, parameters: [job, slot, attemptLimit, now])
        return try Self.decode(try await postgres.withConnection { try $0.pipeline([request, ChangeNotices.notify(.jobs)]) }[0].rows).first
    }

    /// Runs of `job`, newest slot first, each with its attempts; only `slot`'s when given.
    public func runs(job: String, slot: Date? = nil, limit: Int) async throws -> [JobRun] {
        try Self.decode(try await postgres.query("""
            SELECT \(Self.runColumns) FROM job_runs r WHERE r.job = $1 AND ($2::timestamptz IS NULL OR r.slot = $2)
            ORDER BY r.slot DESC LIMIT $3
            """, [job, slot, limit]).rows)
    }

    /// The newest run of each of `jobs` that has run at all, by job name, in one query.
    public func latestRuns(of jobs: [String]) async throws -> [String: JobRun] {
        let runs = try Self.decode(try await postgres.query("""
            SELECT DISTINCT ON (r.job) \(Self.runColumns) FROM job_runs r WHERE r.job = ANY($1) ORDER BY r.job, r.slot DESC
            """, [jobs]).rows)
        return Dictionary(uniqueKeysWithValues: runs.map { ($0.job, $0) })
    }

    /// The columns `decode` reads from `job_runs r`, with the run's attempts as a JSON array.
    private static let runColumns = """
        r.job, r.slot, r.trigger, r.status, r.attempt, r.replica, r.started_at, r.finished_at, r.next_attempt_at, r.error,
        r.result::text AS result,
        COALESCE((SELECT json_agg(json_build_object('attempt', a.attempt, 'replica', a.replica,
                      'started_at', \(SQLText.rfc3339("a.started_at")), 'finished_at', \(SQLText.rfc3339("a.finished_at")),
                      'outcome', a.outcome, 'error', a.error) ORDER BY a.attempt)
                  FROM job_attempts a WHERE a.job = r.job AND a.slot = r.slot), '[]')::text AS attempts
        """

    private static func decode(_ rows: [PostgresRow]) throws -> [JobRun] {
        let decoder = PodiumJSON.decoder()
        return try rows.map { row in
            let attempts = try decoder.decode([JobAttempt].self, from: Data(try row.string("attempts").utf8))
            return JobRun(
                job: try row.string("job"), slot: RFC3339.format(try row.date("slot")), trigger: try row.string("trigger"),
                status: try row.value("status"), attempt: try row.int("attempt"), replica: row["replica"],
                startedAt: try row.optionalDate("started_at").map(RFC3339.format),
                finishedAt: try row.optionalDate("finished_at").map(RFC3339.format),
                nextAttemptAt: try row.optionalDate("next_attempt_at").map(RFC3339.format), error: row["error"],
                result: try row["result"].map { try decoder.decode([String: Int].self, from: Data($0.utf8)) },
                attempts: attempts)
        }
    }

    /// Jobs that ops paused.
    public func pausedJobs() async throws -> Set<String> {
        Set(try await postgres.query("SELECT name FROM jobs WHERE paused").rows.map { try $0.string("name") })
    }

    /// Pauses or resumes `job`; every replica's scheduler is told when it commits.
    public func setPaused(job: String, paused: Bool, now: Date) async throws {
        let change = PostgresQuery(sql: """
            INSERT INTO jobs (name, paused, updated_at) VALUES ($1, $2, $3)
            ON CONFLICT (name) DO UPDATE SET paused = EXCLUDED.paused, updated_at = EXCLUDED.updated_at
            """, parameters: [job, paused, now])
        _ = try await postgres.withConnection { try $0.pipeline([change, ChangeNotices.notify(.jobs)]) }
    }

    /// Deletes runs that finished before `cutoff` (with their attempts); returns how many.
    ///
    /// Each job's latest scheduled slot is kept whatever its age: planning starts from it, and without it
    /// a job whose interval is longer than the retention would run its last slot again.
    public func prune(before cutoff: Date) async throws -> Int {
        try await postgres.query("""
            DELETE FROM job_runs r WHERE status IN ('succeeded', 'failed', 'missed') AND finished_at < $1
              AND (trigger = 'manual' OR slot < (SELECT max(slot) FROM job_runs x WHERE x.job = r.job AND x.trigger <> 'manual'))
            """, [cutoff]).affectedRows
    }
}
