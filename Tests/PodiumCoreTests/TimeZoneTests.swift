import Foundation
import PodiumCore
import PodiumWire
import Testing

/// One time zone check for preferences, reminders, contests, the rules file and scheduler jobs, walked over the
/// tz database of this machine.
@Suite("Time zones of the tz database", .timeLimit(.minutes(5)))
struct TimeZoneTests {
    /// A contest of one run in `zone`, checked at a fixed instant.
    static func contestErrors(_ zone: String) -> [FieldError] {
        let request = ContestRequest(
            id: "zones", title: "Zones", scope: ["global"], startsAt: "2026-11-25T00:00:00Z", endsAt: "2026-11-26T00:00:00Z",
            timeZone: zone)
        guard case .failure(let failure) = request.validated(now: Date(timeIntervalSince1970: 1_795_600_000)) else { return [] }
        return failure.errors
    }

    /// Every problem preferences with `zone` as the player's zone and as the reminders' zone have.
    static func preferenceErrors(_ zone: String) -> [FieldError] {
        PreferencesRequest(timeZone: zone, reminders: ReminderPreferences(enabled: true, time: "18:00", days: ["mon"], timeZone: zone))
            .validationErrors()
    }

    /// The problems of a rules file's scheduler section that reads the `prune` job in `zone`.
    static func schedulerProblems(_ zone: String) throws -> [String] {
        let json = #"{"jobs": [{"name": "prune", "time_zone": "\#(zone)"}]}"#
        return try PodiumJSON.decoder().decode(SchedulerDocument.self, from: Data(json.utf8)).settings().1
    }

    /// Lines of a file of the tz database, without comments and blank lines.
    static func databaseLines(_ name: String) throws -> [[Substring]] {
        let path = NameRules.timeZoneDatabase + "/" + name
        let text = try #require(try? String(contentsOfFile: path, encoding: .utf8), "\(path) missing: install tzdata")
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }) }
            .filter { !$0.isEmpty }
    }

    @Test("every zone of zone1970.tab is accepted in preferences, reminders, contests and the rules file")
    func everyZoneIsAccepted() throws {
        let zones = try Self.databaseLines("zone1970.tab").map { String($0[2]) }
        #expect(zones.count > 300 && zones.contains("Asia/Kolkata"))
        for zone in zones {
            #expect(Self.preferenceErrors(zone) == [], "\(zone)")
            #expect(Self.contestErrors(zone) == [], "\(zone)")
            #expect(BoardCatalog(rules: [BoardRule(scope: "global", timeZone: zone)]).validationErrors() == [], "\(zone)")
            #expect(try Self.schedulerProblems(zone) == [], "\(zone)")
        }
    }

    /// `tzdata.zi`, the database in one text file, names every link as `L <zone> <alias>`: the aliases of the tz source
    /// file `backward` (which tzdata does not install) and the others. Every one is accepted: none is an `Etc/GMT±N`
    /// offset other than 0.
    @Test("every alias of the tz database is accepted")
    func everyAliasIsAccepted() throws {
        let aliases = try Self.databaseLines("tzdata.zi").filter { $0.first == "L" && $0.count == 3 }.map { String($0[2]) }
        #expect(aliases.count > 100 && aliases.contains("Asia/Calcutta") && aliases.contains("US/Eastern") && aliases.contains("GMT+0"))
        for alias in aliases {
            #expect(Self.preferenceErrors(alias) == [], "\(alias)")
            #expect(Self.contestErrors(alias) == [], "\(alias)")
        }
    }

    @Test("nonsense, offsets, abbreviations and names outside the database are refused, naming the field", arguments: [
        "GMT+5", "GMT+05:30", "UTC+1", "Etc/GMT+5", "Etc/GMT-14", "PST", "Factory",
        "Mars/Olympus", "asia/kolkata", "Asia/Kolkata ", "", "posix/Europe/Paris", "right/Europe/Paris", "posixrules",
        "localtime", "zone1970.tab", "Europe/../Europe/Paris", "Europe",
    ])
    func refused(zone: String) throws {
        let message = "must be a time zone of the tz database such as Asia/Kolkata (not an offset such as GMT+5)"
        #expect(!NameRules.isValidTimeZone(zone))
        #expect(Self.preferenceErrors(zone) == [
            FieldError(field: "time_zone", message: message), FieldError(field: "reminders.time_zone", message: message),
        ])
        #expect(Self.contestErrors(zone) == [FieldError(field: "time_zone", message: message)])
        #expect(BoardCatalog(rules: [BoardRule(scope: "global", timeZone: zone)]).validationErrors()
            == ["board global: unknown time zone \(zone)"])
        #expect(try Self.schedulerProblems(zone) == ["scheduler job prune: unknown time zone \(zone)"])
    }

    @Test("UTC and GMT are accepted, and Asia/Kolkata with its old name Asia/Calcutta, and the database's other names")
    func namedZones() {
        for zone in ["UTC", "GMT", "Etc/UTC", "Etc/GMT+0", "GMT0", "Asia/Kolkata", "Asia/Calcutta", "America/Argentina/Buenos_Aires",
                     "Japan", "EST", "EST5EDT", "CET", "UCT"] {
            #expect(NameRules.isValidTimeZone(zone), "\(zone)")
        }
        #expect(PreferencesRequest().validationErrors() == [], "no zone is UTC")
    }
}
