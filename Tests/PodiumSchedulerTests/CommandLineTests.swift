import Foundation
import Testing

@Suite("The podium command")
struct CommandLineTests {
    /// Runs the built `podium` with `arguments` and extra environment; returns its exit status and what it wrote (both streams).
    static func run(_ arguments: [String], environment extra: [String: String]) async throws -> (status: Int32, error: String) {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let binary = ProcessInfo.processInfo.environment["PODIUM_BINARY"] ?? root.appendingPathComponent(".build/debug/podium").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = errors
        let status = try await withCheckedThrowingContinuation { (done: CheckedContinuation<Int32, any Error>) in
            process.terminationHandler = { done.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { done.resume(throwing: error) }
        }
        return (status, String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    @Test("a rules file that is missing or wrong is named with the setting and the path, not a raw Foundation error")
    func rulesFileErrorsNameTheSetting() async throws {
        let missing = try await Self.run(["migrate"], environment: ["PODIUM_RULES_FILE": "/nonexistent/podium-rules.json"])
        #expect(missing.status != 0)
        #expect(missing.error.contains("PODIUM_RULES_FILE names /nonexistent/podium-rules.json, which does not exist"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("podium-bad-rules-\(UUID().uuidString).json")
        try Data(#"{"points": 5}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let wrong = try await Self.run(["migrate"], environment: ["PODIUM_RULES_FILE": file.path])
        #expect(wrong.status != 0)
        #expect(wrong.error.contains("PODIUM_RULES_FILE \(file.path): not a valid rules file"))
    }

    @Test("serve waits for PostgreSQL with backoff, logging each try, and gives up after PODIUM_STARTUP_WAIT_SECONDS")
    func serveWaitsForPostgreSQL() async throws {
        let started = ContinuousClock.now
        let result = try await Self.run(["serve"], environment: [
            "PODIUM_DATABASE_URL": "host=127.0.0.1 port=1 user=postgres dbname=nowhere connect_timeout=1",
            "PODIUM_STARTUP_WAIT_SECONDS": "3", "PODIUM_PORT": "1", "PODIUM_LOG_LEVEL": "info",
        ])
        let waited = ContinuousClock.now - started
        #expect(result.status != 0)
        #expect(result.error.components(separatedBy: "PostgreSQL does not answer yet; trying again").count - 1 >= 2, "\(result.error)")
        #expect(result.error.contains("attempt=1") && result.error.contains("attempt=2"))
        #expect(waited >= .seconds(1) && waited < .seconds(30), "bounded by the setting, not at once: \(waited)")
    }
}
