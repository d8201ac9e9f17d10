import Foundation
@testable import PodiumStore
import Postgres
import PodiumTestSupport
import Testing

/// Reads that may be slightly behind: the standby's lag from WAL positions, and where the reads go.
@Suite("Reads from a standby, and back to the primary", .timeLimit(.minutes(5)))
struct ReadReplicaTests {
    @Test("WAL positions read as PostgreSQL writes them, and nothing else")
    func walPositions() {
        #expect(WALPosition("16/B374D848")?.value == 0x16_B374_D848)
        #expect(WALPosition("0/0")?.value == 0)
        #expect(WALPosition("FFFFFFFF/FFFFFFFF")?.value == UInt64.max)
        for text in ["", "16", "16/", "/1", "g/1", "1/2/3", "100000000/0", "-1/0"] {
            #expect(WALPosition(text) == nil, "\(text)")
        }
        #expect(WALPosition("1/0")! > WALPosition("0/FFFFFFFF")!)
    }

    @Test("a standby is as fresh as the newest primary position it has replayed past")
    func freshnessFromSamples() {
        let start = ContinuousClock.now
        var lag = ReplicationLag()
        for (second, position) in [(0, 100), (1, 200), (2, 300), (3, 300)] {
            lag.record(WALPosition(value: UInt64(position)), at: start + .seconds(second), keepingFor: .seconds(10))
        }
        #expect(lag.freshAsOf(replayed: WALPosition(value: 300)) == start + .seconds(3))  // the newest at 300
        #expect(lag.freshAsOf(replayed: WALPosition(value: 250)) == start + .seconds(1))  // replayed past 200 only
        #expect(lag.freshAsOf(replayed: WALPosition(value: 100)) == start)
        #expect(lag.freshAsOf(replayed: WALPosition(value: 99)) == nil)  // behind every sample kept
        // Samples older than the window are forgotten.
        lag.record(WALPosition(value: 400), at: start + .seconds(13), keepingFor: .seconds(10))
        #expect(lag.samples.map(\.position.value) == [300, 400])
        #expect(lag.freshAsOf(replayed: WALPosition(value: 250)) == nil)
    }

    @Test("without a standby every read goes to the primary and nothing is measured")
    func primaryOnly() async throws {
        let primary = try await StoreTestEnvironment.postgres(poolSize: 2)
        let replica = ReadReplica.primaryOnly(primary)
        await replica.measure()
        #expect(replica.pool === primary)
        #expect(replica.figures.lagSeconds == nil)
        #expect(replica.figures.usingStandby == false)
        await primary.close()
    }

    @Test("a standby in time takes the reads; one that stops answering hands them back to the primary at once")
    func standbyAndFallback() async throws {
        let primary = try await StoreTestEnvironment.postgres(poolSize: 2)
        // The "standby" is the same server reached through a proxy that can be killed: not in recovery, so it is
        // behind nothing, and its connections break when the proxy dies.
        let proxy = try await StallingProxy(to: Self.testDatabasePort)
        defer { proxy.stop() }
        let standbyURL = StoreTestEnvironment.databaseURL.replacingOccurrences(of: "port=\(Self.testDatabasePort)", with: "port=\(proxy.port)")
        let standby = PostgresPool(
            configuration: PostgresConfiguration(connectionString: standbyURL, poolSize: 2, connectTimeout: .seconds(2)),
            logger: StoreTestEnvironment.logger)
        let replica = ReadReplica(primary: primary, standby: standby, maxLag: .seconds(60), logger: StoreTestEnvironment.logger)
        let outcome: Result<Void, any Error>
        do {
            #expect(replica.pool === primary, "before the first measurement the standby's lag is unknown")
            await replica.measure()
            let measured = ContinuousClock.now
            #expect(replica.pool === standby)
            #expect(replica.figures.lagSeconds != nil, "a server not in recovery is as fresh as its answer")
            #expect(replica.figures.usingStandby)
            // Without another measurement the standby ages out once the bound has passed since it answered.
            #expect(replica.pool(at: measured + .seconds(61)) === primary)
            let port = try await replica.withConnection { try $0.query("SELECT inet_server_port() AS port") }.rows.first?.int("port")
            #expect(port == Self.testDatabasePort)

            proxy.stop()
            // The read meets a broken connection, is answered by the primary, and the reads stay there.
            let answer = try await replica.withConnection { try $0.query("SELECT 41 + 1 AS n") }.rows.first?.int("n")
            #expect(answer == 42)
            #expect(replica.pool === primary)
            await replica.measure()
            #expect(replica.pool === primary)
            #expect(replica.figures.usingStandby == false)
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        await standby.close()
        await primary.close()
        try outcome.get()
    }

    /// The test database's port, from its URL (`port=…`), 5432 when it names none.
    static let testDatabasePort: Int = {
        let url = StoreTestEnvironment.databaseURL
        guard let range = url.range(of: #"port=\d+"#, options: .regularExpression) else { return 5432 }
        return Int(url[range].dropFirst("port=".count)) ?? 5432
    }()
}

extension WALPosition {
    /// A position from its number (tests).
    init(value: UInt64) {
        self.init("\(String(value >> 32, radix: 16))/\(String(value & 0xFFFF_FFFF, radix: 16))")!
    }
}
