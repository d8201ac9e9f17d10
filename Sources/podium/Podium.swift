import ArgumentParser
import PodiumHTTP

/// The `podium` command: every way to run and operate Podium.
@main
struct Podium: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "podium",
        abstract: "Gamification and leaderboards for quiz apps.",
        version: "podium \(BuildInfo.version) (commit \(BuildInfo.commit))",
        subcommands: [
            ServeCommand.self, MigrateCommand.self, KeysCommand.self, RankingsCommand.self, UsersCommand.self, JobsCommand.self,
            PeriodsCommand.self, RulesCommand.self, ConfigCommand.self, BenchCommand.self, JSONWriterBench.self,
        ])
}
