/// A small JSON writer for the hottest answers, byte for byte what `PodiumJSON.encoder()` writes.
///
/// Foundation's encoder spends most of a leaderboard read (a third of the CPU in a profile of
/// around-me pages) on reflection-like work; these answers are flat and fixed, so they are
/// written directly. Tests compare the output with the encoder's for the same values.
struct JSONText {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends literal JSON text (punctuation, a key with its colon).
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends a JSON string, escaped as Foundation escapes it (quote, backslash, control characters; `/` as is, or as
    /// `\/` with `escapingSlashes`, as a `JSONEncoder` without `.withoutEscapingSlashes` writes it).
    mutating func string(_ text: String, escapingSlashes: Bool = false) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "/") where escapingSlashes: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "/")])
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends an integer.
    mutating func integer(_ value: some BinaryInteger) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Appends `true` or `false`.
    mutating func boolean(_ value: Bool) {
        value ? raw("true") : raw("false")
    }

    /// Appends `items` as a JSON array, each written by `element`.
    mutating func array<Item>(_ items: [Item], _ element: (inout JSONText, Item) -> Void) {
        raw("[")
        for (index, item) in items.enumerated() {
            if index > 0 { raw(",") }
            element(&self, item)
        }
        raw("]")
    }
}

extension LeaderboardPage {
    /// The page as JSON, identical to `PodiumJSON.encoder().encode(self)` (sorted keys, nil fields left out).
    public func jsonBytes() -> [UInt8] {
        var json = JSONText(capacity: 256 + entries.count * 96)
        json.raw("{\"aggregate\":")
        json.string(aggregate.rawValue)
        json.raw(",\"board\":")
        json.string(board)
        if let cancelledAt {
            json.raw(",\"cancelled_at\":")
            json.string(cancelledAt)
        }
        if let closesAt {
            json.raw(",\"closes_at\":")
            json.string(closesAt)
        }
        if let endsAt {
            json.raw(",\"ends_at\":")
            json.string(endsAt)
        }
        json.raw(",\"entries\":")
        json.array(entries) { json, entry in
            json.raw("{")
            if let name = entry.displayName {
                json.raw("\"display_name\":")
                json.string(name)
                json.raw(",")
            }
            if let medal = entry.medal {
                json.raw("\"medal\":")
                json.string(medal.rawValue)
                json.raw(",")
            }
            json.raw("\"rank\":")
            json.integer(entry.rank)
            json.raw(",\"score\":")
            json.integer(entry.score)
            json.raw(",\"user_id\":")
            json.string(entry.userId)
            json.raw("}")
        }
        if let league {
            json.raw(",\"league\":{\"cohort\":")
            json.integer(league.cohort)
            json.raw(",\"league\":")
            json.string(league.league)
            json.raw(",\"name\":")
            json.string(league.name)
            json.raw(",\"promotion\":")
            json.integer(league.promotion)
            json.raw(",\"relegation\":")
            json.integer(league.relegation)
            json.raw(",\"tier\":")
            json.string(league.tier)
            json.raw(",\"tier_title\":")
            json.string(league.tierTitle)
            json.raw("}")
        }
        json.raw(",\"live\":")
        json.boolean(live)
        json.raw(",\"metric\":")
        json.string(metric.rawValue)
        if let nextStartsAt {
            json.raw(",\"next_starts_at\":")
            json.string(nextStartsAt)
        }
        json.raw(",\"offset\":")
        json.integer(offset)
        json.raw(",\"period\":")
        json.string(period)
        json.raw(",\"players\":")
        json.integer(players)
        if let startsAt {
            json.raw(",\"starts_at\":")
            json.string(startsAt)
        }
        json.raw(",\"status\":")
        json.string(status.rawValue)
        json.raw(",\"time_zone\":")
        json.string(timeZone)
        if let title {
            json.raw(",\"title\":")
            json.string(title)
        }
        json.raw(",\"window\":")
        json.string(window.rawValue)
        json.raw("}")
        return json.bytes
    }
}

extension JSONText {
    /// Appends a number as Foundation writes a `Double`: integral values without a fraction.
    mutating func number(_ value: Double) {
        if value.isFinite, value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            integer(Int64(value))
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
    }
}

extension CompletionResponse {
    /// The answer as JSON, identical to `PodiumJSON.encoder().encode(self)` (sorted keys, nil fields left out).
    public func jsonBytes() -> [UInt8] {
        var json = JSONText(capacity: 700 + ranks.count * 110)
        json.raw("{\"achievements_unlocked\":")
        json.array(achievementsUnlocked) { json, achievement in
            json.raw("{\"id\":")
            json.string(achievement.id)
            json.raw(",\"name\":")
            json.string(achievement.name)
            json.raw(",\"unlocked_at\":")
            json.string(achievement.unlockedAt)
            json.raw("}")
        }
        json.raw(",\"completion\":{\"completed_at\":")
        json.string(completion.completedAt)
        json.raw(",\"correct\":")
        json.integer(completion.correct)
        json.raw(",\"difficulty\":")
        json.string(completion.difficulty.rawValue)
        if let duration = completion.durationMs {
            json.raw(",\"duration_ms\":")
            json.integer(duration)
        }
        json.raw(",\"groups\":")
        json.array(completion.groups) { json, group in
            json.string(group)
        }
        json.raw(",\"id\":")
        json.string(completion.id)
        json.raw(",\"points\":")
        json.integer(completion.points)
        json.raw(",\"quiz_id\":")
        json.string(completion.quizId)
        json.raw(",\"recorded_at\":")
        json.string(completion.recordedAt)
        json.raw(",\"topic\":")
        json.string(completion.topic)
        json.raw(",\"total\":")
        json.integer(completion.total)
        json.raw(",\"user_id\":")
        json.string(completion.userId)
        json.raw("},\"goals\":")
        json.array(goals) { json, goal in
            json.raw("{\"completed\":")
            json.boolean(goal.completed)
            json.raw(",\"goal\":")
            json.string(goal.goal)
            if let group = goal.group {
                json.raw(",\"group\":")
                json.string(group)
            }
            json.raw(",\"period\":")
            json.string(goal.period)
            json.raw(",\"progress\":")
            json.integer(goal.progress)
            json.raw(",\"target\":")
            json.integer(goal.target)
            json.raw(",\"title\":")
            json.string(goal.title)
            json.raw("}")
        }
        json.raw(",\"level\":{\"level\":")
        json.integer(level.level)
        json.raw(",\"level_starts_at\":")
        json.integer(level.levelStartsAt)
        if let next = level.nextLevelAt {
            json.raw(",\"next_level_at\":")
            json.integer(next)
        }
        if let remaining = level.pointsToNextLevel {
            json.raw(",\"points_to_next_level\":")
            json.integer(remaining)
        }
        json.raw("}")
        if let levelReached {
            json.raw(",\"level_reached\":")
            json.integer(levelReached)
        }
        json.raw(",\"missed_periods\":")
        json.array(missedPeriods) { json, missed in
            json.raw("{\"board\":")
            json.string(missed.board)
            json.raw(",\"closed_at\":")
            json.string(missed.closedAt)
            json.raw(",\"period\":")
            json.string(missed.period)
            json.raw(",\"window\":")
            json.string(missed.window.rawValue)
            json.raw("}")
        }
        json.raw(",\"points_awarded\":")
        json.integer(pointsAwarded)
        json.raw(",\"rankings_live\":")
        json.boolean(rankingsLive)
        json.raw(",\"ranks\":")
        json.array(ranks) { json, rank in
            json.raw("{\"board\":")
            json.string(rank.board)
            json.raw(",\"period\":")
            json.string(rank.period)
            json.raw(",\"players\":")
            json.integer(rank.players)
            json.raw(",\"rank\":")
            json.integer(rank.rank)
            json.raw(",\"score\":")
            json.integer(rank.score)
            json.raw(",\"window\":")
            json.string(rank.window.rawValue)
            json.raw("}")
        }
        json.raw(",\"streak\":{\"current\":")
        json.integer(streak.current)
        json.raw(",\"longest\":")
        json.integer(streak.longest)
        json.raw("},\"totals\":{\"completions\":")
        json.integer(totals.completions)
        json.raw(",\"correct_answers\":")
        json.integer(totals.correctAnswers)
        json.raw(",\"correct_percent\":")
        json.number(totals.correctPercent)
        json.raw(",\"incorrect_percent\":")
        json.number(totals.incorrectPercent)
        json.raw(",\"points\":")
        json.integer(totals.points)
        json.raw(",\"total_answers\":")
        json.integer(totals.totalAnswers)
        json.raw("}}")
        return json.bytes
    }

    /// `jsonBytes()` as a string (for storing the answer).
    public func jsonString() -> String {
        String(decoding: jsonBytes(), as: UTF8.self)
    }
}

extension CompletionRecordedEvent {
    /// The payload as JSON, identical to `PodiumJSON.encoder().encode(self)`: one is written for every completion.
    public func jsonString() -> String {
        var json = JSONText(capacity: 256)
        json.raw("{\"completed_at\":")
        json.string(completedAt)
        json.raw(",\"completion_id\":")
        json.string(completionId)
        json.raw(",\"correct\":")
        json.integer(correct)
        json.raw(",\"difficulty\":")
        json.string(difficulty.rawValue)
        json.raw(",\"points\":")
        json.integer(points)
        json.raw(",\"quiz_id\":")
        json.string(quizId)
        json.raw(",\"topic\":")
        json.string(topic)
        json.raw(",\"total\":")
        json.integer(total)
        json.raw(",\"user_id\":")
        json.string(userId)
        json.raw("}")
        return String(decoding: json.bytes, as: UTF8.self)
    }
}

extension CompletionRequest {
    /// `parts` as a JSON array, byte for byte as `JSONEncoder()` writes a `[String?]` (slashes escaped): stored request
    /// hashes are hashes of that text, so it may never change. Written by hand, since every completion needs one.
    public static func fingerprint(of parts: [String?]) -> String {
        var json = JSONText(capacity: 256)
        json.array(parts) { json, part in
            if let part { json.string(part, escapingSlashes: true) } else { json.raw("null") }
        }
        return String(decoding: json.bytes, as: UTF8.self)
    }
}
