import Foundation
import Hummingbird
import HummingbirdTesting
import PodiumCore
import Testing

/// Events feed, jobs admin, period close, closed pages with medals, snapshots, medals and rank history over HTTP.
@Suite("Scheduler and events routes", .timeLimit(.minutes(5)))
struct SchedulerRoutesTests {
    @Test func eventsFeedPagesInOrderAndValidatesItsQuery() async throws {
        let harness = try await HTTPHarness()
        try await harness.run { client in
            let user = unique("u")
            let ids = [unique("c"), unique("c")]
            for id in ids {
                let body = completionBody(id: id, user: user, topic: "feed", difficulty: "hard", correct: 10)
                #expect(try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: body).status == .created)
            }
            // Walk the whole feed with a small page size; this player's events come in order, each once.
            // The feed shows a transaction only once every older one has ended, and other tests share the
            // database, so the walk polls on at its cursor (as a consumer would) until its events show.
            let expected = [
                "completion.recorded/\(ids[0])", "achievement.unlocked/first-quiz", "achievement.unlocked/perfect-score",
                "completion.recorded/\(ids[1])", "level.reached/\(ids[1])",
            ]
            var cursor: String?
            var seen: [String] = []
            // Read until every event is seen, however slow the machine: the feed holds every suite's events, and
            // pages of them may come slowly under load. Gives up after 400 empty pages at its end (20 s of polls).
            var emptyPolls = 0
            while seen.count < expected.count, emptyPolls < 400 {
                let path = "/v1/events?limit=50" + (cursor.map { "&after=\($0)" } ?? "")
                let page = try await client.send(.get, path, key: harness.readKey)
                #expect(page.status == .ok)
                let events = page.json["events"] as? [[String: Any]] ?? []
                for event in events where (event["data"] as? [String: Any])?["user_id"] as? String == user {
                    let data = event["data"] as? [String: Any] ?? [:]
                    let subject = data["achievement"] as? String ?? data["completion_id"] as? String ?? "-"
                    seen.append("\(event["type"] as? String ?? "")/\(subject)")
                }
                cursor = page.json["next_cursor"] as? String
                if events.isEmpty {
                    emptyPolls += 1
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
            #expect(seen == expected)

            let typed = try await client.send(.get, "/v1/events?type=level.reached&limit=1000", key: harness.readKey)
            let types = Set((typed.json["events"] as? [[String: Any]] ?? []).compactMap { $0["type"] as? String })
            #expect(types == ["level.reached"])
            let bad = try await client.send(.get, "/v1/events?after=nope&type=x&limit=0", key: harness.readKey)
            #expect(bad.status == .badRequest)
            #expect(Set(bad.errorFields) == ["after", "type", "limit"])
            #expect(try await client.send(.get, "/v1/events", key: harness.ingestKey).status == .forbidden)
        }
    }

    @Test func jobsAreListedRunNowPausedAndResumed() async throws {
        let harness = try await HTTPHarness()
        try await harness.run { client in
            let list = try await client.send(.get, "/v1/admin/jobs", key: HTTPHarness.adminKey)
            #expect(list.status == .ok)
            let jobs = list.json["jobs"] as? [[String: Any]] ?? []
            #expect(jobs.compactMap { $0["name"] as? String } == ["close-periods", "emit-reminders", "prune", "reconcile-rankings", "snapshot-leaderboards"])
            #expect(jobs.first?["cron"] as? String == "* * * * *")
            #expect(Set(jobs.compactMap { $0["time_zone"] as? String }) == ["UTC"], "UTC as configured, not Foundation's GMT")
            #expect(jobs.first?["next_slot"] as? String == "2026-11-25T12:01:00.000Z")
            #expect(jobs.first?["next_slots"] as? [String] == ["2026-11-25T12:01:00.000Z", "2026-11-25T12:02:00.000Z", "2026-11-25T12:03:00.000Z"])
            #expect(jobs.first?["schedule_words"] as? String == "every minute")
            #expect(jobs.first { $0["name"] as? String == "prune" }?["schedule_words"] as? String == "every day at 03:30")
            #expect(try await client.send(.get, "/v1/admin/jobs", key: harness.readKey).status == .forbidden)

            // A slot of its own (the clock is fixed and other tests share the database).
            let slot = RFC3339.format(Date(timeIntervalSince1970: Double(Int.random(in: 1_000_000_000...1_700_000_000))))
            let requested = try await client.send(.post, "/v1/admin/jobs/prune/run", key: HTTPHarness.adminKey, json: ["slot": slot])
            #expect(requested.status == .accepted)
            #expect(requested.json["status"] as? String == "pending")
            #expect(requested.json["trigger"] as? String == "manual")
            let twice = try await client.send(.post, "/v1/admin/jobs/prune/run", key: HTTPHarness.adminKey, json: ["slot": slot])
            #expect(twice.status == .conflict)
            let badSlot = try await client.send(.post, "/v1/admin/jobs/prune/run", key: HTTPHarness.adminKey, json: ["slot": "soon"])
            #expect(badSlot.status == .badRequest)
            #expect(badSlot.errorFields == ["slot"])
            let noJob: [String: String] = [:]
            #expect(try await client.send(.post, "/v1/admin/jobs/nope/run", key: HTTPHarness.adminKey, json: noJob).status == .notFound)

            let runs = try await client.send(.get, "/v1/admin/jobs/prune/runs?limit=500", key: HTTPHarness.adminKey)
            #expect((runs.json["runs"] as? [[String: Any]] ?? []).contains { $0["slot"] as? String == slot })

            let paused = try await client.send(.post, "/v1/admin/jobs/snapshot-leaderboards/pause", key: HTTPHarness.adminKey)
            #expect(paused.json["paused"] as? Bool == true)
            let listed = try await client.send(.get, "/v1/admin/jobs", key: HTTPHarness.adminKey)
            let snapshotJob = (listed.json["jobs"] as? [[String: Any]] ?? []).first { $0["name"] as? String == "snapshot-leaderboards" }
            #expect(snapshotJob?["paused"] as? Bool == true)
            let resumed = try await client.send(.post, "/v1/admin/jobs/snapshot-leaderboards/resume", key: HTTPHarness.adminKey)
            #expect(resumed.json["paused"] as? Bool == false)
        }
    }

    @Test func closingAPeriodShowsMedalsOnItsPageAndProfilesAndLaterCompletionsMissIt() async throws {
        // Five minutes into grace after week 2026-W47: completions for last week still count.
        let harness = try await HTTPHarness(now: instant("2026-11-23T00:05:00Z"))
        try await harness.run { client in
            let topic = unique("medal")
            let (winner, second) = ("\(topic)-w", "\(topic)-s")
            for (user, difficulty) in [(winner, "hard"), (second, "easy")] {
                let body = completionBody(id: unique("c"), user: user, topic: topic, difficulty: difficulty, completedAt: "2026-11-22T20:00:00Z")
                #expect(try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: body).status == .created)
            }
            // Read (and cached for the harness's 60 s) before the close: the close must drop it.
            let live = try await client.send(.get, "/v1/leaderboards/topic:\(topic)/week?period=2026-W47", key: harness.readKey)
            #expect(live.json["status"] as? String == "open", "in grace: still open")
            let path = "/v1/admin/periods/topic:\(topic)/week/2026-W47/close"
            let preview = try await client.send(.post, path + "?dry_run=true", key: HTTPHarness.adminKey)
            #expect(preview.status == .ok)
            #expect(preview.json["outcome"] as? String == "dry-run")
            let closed = try await client.send(.post, path, key: HTTPHarness.adminKey)
            #expect(closed.json["outcome"] as? String == "closed")
            let medals = (closed.json["medals"] as? [[String: Any]] ?? []).map { "\($0["user_id"] as? String ?? ""):\($0["medal"] as? String ?? "")" }
            #expect(medals == ["\(winner):gold", "\(second):silver"])
            #expect(try await client.send(.post, path, key: HTTPHarness.adminKey).json["outcome"] as? String == "already-closed")
            let previewAfter = try await client.send(.post, path + "?dry_run=true", key: HTTPHarness.adminKey)
            #expect(previewAfter.json["outcome"] as? String == "already-closed", "a dry run says what closing did, not a fresh preview")
            #expect((previewAfter.json["medals"] as? [[String: Any]] ?? []).count == 2)

            let page = try await client.send(.get, "/v1/leaderboards/topic:\(topic)/week?period=2026-W47", key: harness.readKey)
            #expect(page.json["status"] as? String == "closed")
            let entries = page.json["entries"] as? [[String: Any]] ?? []
            #expect(entries.map { $0["medal"] as? String } == ["gold", "silver"])

            let late = completionBody(id: unique("c"), user: second, topic: topic, difficulty: "hard", completedAt: "2026-11-22T21:00:00Z")
            let answer = try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: late)
            // Only the week: the day 2026-11-22 is due at 00:15, which the close-periods job of a test running in
            // parallel (its clock later) may already have passed, in the database the tests share.
            let missed = (answer.json["missed_periods"] as? [[String: Any]] ?? [])
                .filter { $0["board"] as? String == "topic:\(topic)" && $0["window"] as? String == "week" }
            #expect(missed.map { $0["period"] as? String } == ["2026-W47"])
            #expect(missed.first?["closed_at"] as? String == "2026-11-23T00:05:00.000Z", "closed early by ops, at 00:05")
            let after = try await client.send(.get, "/v1/leaderboards/topic:\(topic)/week?period=2026-W47", key: harness.readKey)
            #expect((after.json["entries"] as? [[String: Any]] ?? []).map { $0["score"] as? Int } == [5, 2], "the closed board did not change")

            let profile = try await client.send(.get, "/v1/users/\(winner)", key: harness.readKey)
            func topicMedals(_ answer: TestResponse) -> [String] {
                (answer.json["medals"] as? [[String: Any]] ?? []).filter { $0["board"] as? String == "topic:\(topic)" }
                    .map { "\($0["window"] as? String ?? "")/\($0["period"] as? String ?? "")/\($0["medal"] as? String ?? "")" }
            }
            #expect(topicMedals(profile) == ["week/2026-W47/gold"], "the week's gold; days award none, the month is open")
            let list = try await client.send(.get, "/v1/users/\(winner)/medals", key: harness.readKey)
            #expect(topicMedals(list) == ["week/2026-W47/gold"])

            let open = try await client.send(.post, "/v1/admin/periods/topic:\(topic)/month/2026-11/close", key: HTTPHarness.adminKey)
            #expect(open.status == .conflict, "November has not ended")
            let allTime = try await client.send(.post, "/v1/admin/periods/topic:\(topic)/all/all/close", key: HTTPHarness.adminKey)
            #expect(allTime.errorFields == ["window"])
            let badName = try await client.send(.post, "/v1/admin/periods/topic:\(topic)/week/W48/close", key: HTTPHarness.adminKey)
            #expect(badName.errorFields == ["period"])
            let noSuchWeek = try await client.send(.post, "/v1/admin/periods/topic:\(topic)/week/2026-11/close", key: HTTPHarness.adminKey)
            #expect(noSuchWeek.status == .notFound)
        }
    }

    @Test("the period list shows open, due and closed periods with players and medals, newest first")
    func periodListShowsEachPeriodsState() async throws {
        // Scores land while the week is in its grace time (until 00:15); the list is read once the grace has passed.
        let topic = unique("periods")
        let (winner, second) = ("\(topic)-w", "\(topic)-s")
        let during = try await HTTPHarness(now: instant("2026-11-23T00:10:00Z"))
        try await during.run { client in
            for (user, difficulty, at) in [(winner, "hard", "2026-11-22T20:00:00Z"), (second, "easy", "2026-11-22T21:00:00Z"),
                                           (winner, "easy", "2026-11-23T00:05:00Z")] {
                let body = completionBody(id: unique("c"), user: user, topic: topic, difficulty: difficulty, completedAt: at)
                let answer = try await client.send(.post, "/v1/completions", key: during.ingestKey, json: body)
                #expect(answer.status == .created)
            }
        }
        let harness = try await HTTPHarness(now: instant("2026-11-23T00:20:00Z"))
        try await harness.run { client in
            func states(_ answer: TestResponse) -> [String] {
                (answer.json["periods"] as? [[String: Any]] ?? []).map {
                    "\($0["period"] as? String ?? ""):\($0["status"] as? String ?? ""):\($0["players"] as? Int ?? -1)"
                }
            }
            let path = "/v1/admin/periods/topic:\(topic)/week"
            let before = try await client.send(.get, path, key: HTTPHarness.adminKey)
            #expect(before.status == .ok)
            #expect(before.json["time_zone"] as? String == "UTC")
            #expect(states(before) == ["2026-W48:open:1", "2026-W47:due:2"])
            let due = (before.json["periods"] as? [[String: Any]] ?? []).last ?? [:]
            #expect(due["starts_at"] as? String == "2026-11-16T00:00:00.000Z")
            #expect(due["ends_at"] as? String == "2026-11-23T00:00:00.000Z")
            #expect(due["closes_at"] as? String == "2026-11-23T00:15:00.000Z")
            #expect(due["closed_at"] == nil)

            #expect(try await client.send(.post, path + "/2026-W47/close", key: HTTPHarness.adminKey).json["outcome"] as? String == "closed")
            let after = try await client.send(.get, path, key: HTTPHarness.adminKey)
            #expect(states(after) == ["2026-W48:open:1", "2026-W47:closed:2"])
            let closed = (after.json["periods"] as? [[String: Any]] ?? []).last ?? [:]
            #expect(closed["closed_at"] as? String == "2026-11-23T00:20:00.000Z")
            let medals = (closed["medals"] as? [[String: Any]] ?? []).map {
                "\($0["user_id"] as? String ?? ""):\($0["medal"] as? String ?? ""):\($0["awarded_at"] as? String ?? "")"
            }
            #expect(medals == ["\(winner):gold:2026-11-23T00:20:00.000Z", "\(second):silver:2026-11-23T00:20:00.000Z"])
            #expect(states(try await client.send(.get, path + "?limit=1", key: HTTPHarness.adminKey)) == ["2026-W48:open:1"])

            let empty = try await client.send(.get, "/v1/admin/periods/topic:\(unique("quiet"))/day", key: HTTPHarness.adminKey)
            #expect(states(empty) == ["2026-11-23:open:0"], "the current period is listed before its first score")
            #expect(try await client.send(.get, path + "?limit=0", key: HTTPHarness.adminKey).errorFields == ["limit"])
            #expect(try await client.send(.get, path + "?limit=101", key: HTTPHarness.adminKey).errorFields == ["limit"])
            #expect(try await client.send(.get, "/v1/admin/periods/topic:\(topic)/all", key: HTTPHarness.adminKey).errorFields == ["window"])
            #expect(try await client.send(.get, "/v1/admin/periods/nowhere/week", key: HTTPHarness.adminKey).errorFields == ["board"])
            #expect(try await client.send(.get, path, key: harness.readKey).status == .forbidden)
        }
    }

    @Test func snapshotsAndRankHistoryAnswerAndValidate() async throws {
        let harness = try await HTTPHarness()
        try await harness.run { client in
            let user = unique("u")
            let body = completionBody(id: unique("c"), user: user, topic: "snaps")
            #expect(try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: body).status == .created)
            let group = unique("g")
            let list = try await client.send(.get, "/v1/leaderboards/group:\(group)/week/snapshots", key: harness.readKey)
            #expect(list.status == .ok)
            #expect(list.json["period"] as? String == "2026-W48")
            #expect((list.json["snapshots"] as? [Any])?.isEmpty == true)
            let bad = try await client.send(.get, "/v1/leaderboards/global/week/snapshots?top=0&limit=999", key: harness.readKey)
            #expect(Set(bad.errorFields) == ["top", "limit"])

            let history = try await client.send(.get, "/v1/users/\(user)/rank-history?board=global&window=week", key: harness.readKey)
            #expect(history.status == .ok)
            #expect(history.json["user_id"] as? String == user)
            let badHistory = try await client.send(.get, "/v1/users/\(user)/rank-history?board=nope&window=year", key: harness.readKey)
            #expect(Set(badHistory.errorFields) == ["board", "window"])
            #expect(try await client.send(.get, "/v1/users/\(unique("nobody"))/medals", key: harness.readKey).status == .notFound)
            #expect(try await client.send(.get, "/v1/users/\(unique("nobody"))/rank-history", key: harness.readKey).status == .notFound)
        }
    }

    @Test func remindersAreSetWithPreferencesAndOpsKeepACalendar() async throws {
        let harness = try await HTTPHarness()
        try await harness.run { client in
            let user = unique("u")
            let reminders: [String: any Sendable] = ["enabled": true, "time": "18:00", "days": ["wed", "thu"]]
            let body: [String: any Sendable] = ["time_zone": "Europe/Paris", "reminders": reminders]
            let set = try await client.send(.put, "/v1/users/\(user)/preferences", key: harness.ingestKey, json: body)
            #expect(set.status == .ok)
            // Wednesday 2026-11-25 12:00 UTC: 18:00 in Paris is 17:00 UTC the same day.
            #expect(set.json["next_reminder_at"] as? String == "2026-11-25T17:00:00.000Z")
            let badReminders: [String: any Sendable] = ["enabled": true, "time": "25:00", "days": ["someday"], "time_zone": "Nowhere"]
            let bad: [String: any Sendable] = ["reminders": badReminders]
            let refused = try await client.send(.put, "/v1/users/\(user)/preferences", key: harness.ingestKey, json: bad)
            #expect(refused.status == .badRequest)
            #expect(Set(refused.errorFields) == ["reminders.time", "reminders.days", "reminders.time_zone"])

            let day = "2031-\(String(format: "%02d", Int.random(in: 1...12)))-\(String(format: "%02d", Int.random(in: 1...28)))"
            let note: [String: any Sendable] = ["note": "School holiday"]
            let closed = try await client.send(.put, "/v1/admin/calendar/closed-days/\(day)", key: HTTPHarness.adminKey, json: note)
            #expect(closed.status == .ok)
            #expect(closed.json["day"] as? String == day)
            let list = try await client.send(.get, "/v1/admin/calendar/closed-days", key: HTTPHarness.adminKey)
            #expect((list.json["closed_days"] as? [[String: Any]] ?? []).contains { $0["day"] as? String == day })
            #expect(try await client.send(.delete, "/v1/admin/calendar/closed-days/\(day)", key: HTTPHarness.adminKey).status == .noContent)
            #expect(try await client.send(.delete, "/v1/admin/calendar/closed-days/\(day)", key: HTTPHarness.adminKey).status == .notFound)
            // The whole note is checked, not only its first 64 characters.
            let lateControl: [String: any Sendable] = ["note": String(repeating: "a", count: 80) + "\u{7}"]
            let refusedNote = try await client.send(.put, "/v1/admin/calendar/closed-days/\(day)", key: HTTPHarness.adminKey, json: lateControl)
            #expect(refusedNote.status == .badRequest)
            #expect(refusedNote.errorFields == ["note"])
            let tooLong: [String: any Sendable] = ["note": String(repeating: "a", count: 101)]
            #expect(try await client.send(.put, "/v1/admin/calendar/closed-days/\(day)", key: HTTPHarness.adminKey, json: tooLong).errorFields
                == ["note"])
            let notADate = try await client.send(.put, "/v1/admin/calendar/closed-days/2031-02-30", key: HTTPHarness.adminKey, json: note)
            #expect(notADate.errorFields == ["day"])
            #expect(try await client.send(.get, "/v1/admin/calendar/closed-days", key: harness.readKey).status == .forbidden)
        }
    }

    @Test func webhooksAreRegisteredListedDisabledAndDeleted() async throws {
        let harness = try await HTTPHarness()
        try await harness.run { client in
            let types: [String] = ["medal.awarded", "reminder.due"]
            let body: [String: any Sendable] = ["url": "http://127.0.0.1:9/hook", "event_types": types, "secret": "whsec_0123456789abcdef"]
            let created = try await client.send(.post, "/v1/admin/webhooks", key: HTTPHarness.adminKey, json: body)
            #expect(created.status == .created)
            let id = try #require(created.json["id"] as? String)
            #expect(created.json["secret"] == nil, "the secret is never shown")
            #expect(created.json["event_types"] as? [String] == types)

            let listed = try await client.send(.get, "/v1/admin/webhooks", key: HTTPHarness.adminKey)
            #expect((listed.json["webhooks"] as? [[String: Any]] ?? []).contains { $0["id"] as? String == id })
            let disabled = try await client.send(.post, "/v1/admin/webhooks/\(id)/disable", key: HTTPHarness.adminKey)
            #expect(disabled.json["enabled"] as? Bool == false)
            let enabled = try await client.send(.post, "/v1/admin/webhooks/\(id)/enable", key: HTTPHarness.adminKey)
            #expect(enabled.json["enabled"] as? Bool == true)
            let deliveries = try await client.send(.get, "/v1/admin/webhooks/\(id)/deliveries", key: HTTPHarness.adminKey)
            #expect(deliveries.status == .ok)
            #expect(try await client.send(.delete, "/v1/admin/webhooks/\(id)", key: HTTPHarness.adminKey).status == .noContent)
            #expect(try await client.send(.delete, "/v1/admin/webhooks/\(id)", key: HTTPHarness.adminKey).status == .notFound)
            #expect(try await client.send(.get, "/v1/admin/webhooks/\(id)/deliveries", key: HTTPHarness.adminKey).status == .notFound)

            let badTypes: [String] = ["nothing.happened"]
            let bad: [String: any Sendable] = ["url": "ftp://host/x", "event_types": badTypes, "secret": "short"]
            let refused = try await client.send(.post, "/v1/admin/webhooks", key: HTTPHarness.adminKey, json: bad)
            #expect(refused.status == .badRequest)
            #expect(Set(refused.errorFields) == ["url", "event_types", "secret"])
            for url in ["https://x.test/a\u{0}b", "https://x.test/a b", "https://x.test/\r\nHost: y", "https://x.test*", "https://x..test/",
                        "https://x.test:0/", "https://x.test:65536/", "https://user@x.test/", "https://x.test?a", "https://x.test/a\n", "https://x.test\r\n"] {
                let controlled: [String: any Sendable] = ["url": url, "event_types": types, "secret": "whsec_0123456789abcdef"]
                #expect(try await client.send(.post, "/v1/admin/webhooks", key: HTTPHarness.adminKey, json: controlled).errorFields == ["url"])
            }
            let resend = try await client.send(.post, "/v1/admin/webhooks/deliveries/999999999/resend", key: HTTPHarness.adminKey)
            #expect(resend.status == .conflict)
            #expect(try await client.send(.get, "/v1/admin/webhooks", key: harness.readKey).status == .forbidden)
        }
    }
}
