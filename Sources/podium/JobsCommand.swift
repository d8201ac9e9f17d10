import ArgumentParser
import Foundation
import PodiumCore
import PodiumScheduler
import PodiumStore
import PodiumWire

/// `podium jobs list|runs|run|pause|resume`: the scheduler from the command line.
struct JobsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs", abstract: "Watch and steer the job scheduler.",
        subcommands: [List.self, Runs.self, Run.self, Pause.self, Resume.self])

    /// `podium jobs list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List jobs with schedule, pause state, next slot and last run.")

        func run() async throws {
            try await Runtime.with { runtime in
                for job in try await runtime.scheduler().summaries(now: Date()) {
                    print([
                        job.name, job.cron, job.timeZone, job.paused ? "paused" : "active", "next \(job.nextSlot ?? "never")",
                        job.lastRun.map { "last \($0.slot) \($0.status)" } ?? "never ran",
                    ].joined(separator: "\t"))
                }
            }
        }
    }

    /// `podium jobs runs NAME`.
    struct Runs: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a job's run history with every attempt.")
        @Argument(help: "The job name.") var name: String
        @Option(help: "How many runs.") var limit = 20

        func run() async throws {
            try await Runtime.with { runtime in
                try requireJob(name, runtime)
                for run in try await runtime.runs.runs(job: name, limit: limit) {
                    print([run.slot, run.status.rawValue, run.trigger, "attempt \(run.attempt)", run.replica ?? "-", run.error ?? "",
                           run.result.map { $0.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") } ?? ""].joined(separator: "\t"))
                    for attempt in run.attempts {
                        print("\t#\(attempt.attempt) \(attempt.replica) \(attempt.startedAt) → \(attempt.finishedAt ?? "running") "
                            + "\(attempt.outcome?.rawValue ?? "") \(attempt.error ?? "")")
                    }
                }
            }
        }
    }

    /// `podium jobs run NAME [--slot now|TIME]`: requests a run and works it here unless a serving replica claims it first.
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Run a job now (or re-run a failed or missed slot).")
        @Argument(help: "The job name.") var name: String
        @Option(help: "\"now\" or an RFC 3339 slot.") var slot = "now"

        func run() async throws {
            try await Runtime.with { runtime in
                try requireJob(name, runtime)
                let scheduler = runtime.scheduler()
                let requested: JobRun
                do {
                    requested = try await scheduler.requestRun(name, slot: slot)
                } catch let error as RunRequestError {
                    throw CommandFailure(error.description)
                }
                // A paused job's run waits for resume, as one requested over HTTP does.
                if try await runtime.runs.pausedJobs().contains(name) {
                    print("queued \(name) at \(requested.slot); the job is paused, so it runs after `podium jobs resume \(name)`")
                    return
                }
                guard let lease = scheduler.settings(of: name)?.lease,
                      let claim = try await runtime.runs.claimNext(job: name, replica: scheduler.replica, lease: lease, now: Date())
                else {
                    print("queued \(name) at \(requested.slot); a serving replica has claimed it")
                    return
                }
                let outcome = await scheduler.execute(claim)
                print("\(name) slot \(RFC3339.format(claim.slot)): \(outcome.outcome) \(outcome.error ?? "")")
                if outcome.outcome != .succeeded { throw ExitCode.failure }
            }
        }
    }

    /// `podium jobs pause NAME`.
    struct Pause: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Pause a job on every replica.")
        @Argument(help: "The job name.") var name: String

        func run() async throws {
            try await setPaused(name, true)
            print("paused \(name)")
        }
    }

    /// `podium jobs resume NAME`.
    struct Resume: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Resume a paused job; missed slots follow its misfire policy.")
        @Argument(help: "The job name.") var name: String

        func run() async throws {
            try await setPaused(name, false)
            print("resumed \(name)")
        }
    }
}

/// `podium periods close BOARD WINDOW PERIOD [--dry-run]`: closes an ended period now, with its medals.
struct PeriodsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "periods", abstract: "Close leaderboard periods by hand.", subcommands: [Close.self])

    /// `podium periods close`.
    struct Close: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Close an ended period now (final snapshot, medals, events).")
        @Argument(help: "Board id, e.g. global.") var board: String
        @Argument(help: "day, week or month.") var window: String
        @Argument(help: "Period name, e.g. 2026-W47.") var period: String
        @Flag(help: "Show who would get which medal; write nothing.") var dryRun = false

        func run() async throws {
            guard let window = LeaderboardWindow(rawValue: window) else { throw ValidationError("window must be day, week or month") }
            let report = try await Runtime.with { runtime in
                do {
                    return try await runtime.storage.closing.close(
                        BoardPeriodKey(board: board, window: window, period: period), now: Date(), dryRun: dryRun)
                } catch let error as PeriodCloseError {
                    throw CommandFailure(error.description)
                }
            }
            print("\(report.board) \(report.window.rawValue) \(report.period): \(report.outcome), \(report.players) players")
            for medal in report.medals { print("\t\(medal.medal.rawValue)\trank \(medal.rank)\t\(medal.userId)\t\(medal.score)") }
        }
    }
}

/// Fails unless `name` is a scheduled job.
private func requireJob(_ name: String, _ runtime: Runtime) throws {
    guard runtime.storage.rules.scheduler.job(named: name) != nil else {
        throw ValidationError("no job \(name); jobs: \(runtime.storage.rules.scheduler.jobs.map(\.name).joined(separator: ", "))")
    }
}

/// Pauses or resumes the job `name` on every replica.
private func setPaused(_ name: String, _ paused: Bool) async throws {
    try await Runtime.with { runtime in
        try requireJob(name, runtime)
        try await runtime.runs.setPaused(job: name, paused: paused, now: Date())
    }
}
