import ArgumentParser
import Foundation
import PodiumCore
import PodiumSettings
import PodiumWire

/// `podium rules check FILE`: validates a rules file and prints the rules in force with it.
struct RulesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules", abstract: "Work with the game rules file.", subcommands: [Check.self])

    /// `podium rules check FILE`.
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a rules file; print every problem, or the effective rules (defaults included) as JSON.")
        @Argument(help: "The rules file (JSON), as PODIUM_RULES_FILE would name it.") var file: String

        func run() async throws {
            let rules = try Settings.rules(fromFile: file, setting: nil)
            let encoder = PodiumJSON.encoder()
            encoder.outputFormatting.insert(.prettyPrinted)
            let data = try encoder.encode(RulesDocument(effective: rules))
            print(String(decoding: data, as: UTF8.self))
        }
    }
}

/// `podium config`: the configuration `serve` would run with, secrets masked.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Print the effective configuration (from the environment, defaults filled in; secrets masked).")

    /// Print the table of settings with their defaults instead (the README's configuration table).
    @Flag(help: "Print every setting with its default and meaning as a Markdown table (the README's) instead.") var markdown = false

    func run() async throws {
        if markdown {
            print(SettingsTable.markdown)
            return
        }
        let settings = try Settings()
        _ = try settings.rules()
        let summary = settings.summary()
        let width = summary.map(\.name.count).max() ?? 0
        for (name, value) in summary {
            print(name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + value)
        }
    }
}
