import Foundation
import JoryioCore
import JoryioStorage
import JoryioTesting
import Testing

/// SQLite-specific behaviour: WAL, quarantine of unusable files, a full database, queue isolation.
@Suite("SQLiteQueueStore")
struct SQLiteQueueStoreTests {
    private let clock = StorageTestClock()

    @Test("the database runs in WAL mode at the current schema version")
    func walMode() throws {
        try withTemporaryDirectory { directory in
            let database = try SQLiteDatabase(
                fileURL: directory.appendingPathComponent("q.sqlite"),
                clock: self.clock,
                logger: .disabled
            )
            defer { database.close() }
            #expect(try database.journalMode() == "wal")
            #expect(try database.schemaVersion() == 2)
        }
    }

    @Test("a file of random bytes is quarantined and a fresh store opens")
    func garbageFile() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("q.sqlite")
            var generator = SystemRandomNumberGenerator()
            let garbage = Data((0..<8_192).map { _ in UInt8.random(in: 0...255, using: &generator) })
            try garbage.write(to: url)
            // SQLite itself deletes a stray -wal next to a file whose header is not in WAL mode, but a
            // stray -shm stays, so it shows that the companions are moved along.
            try garbage.prefix(100).write(to: URL(fileURLWithPath: url.path + "-shm"))

            try self.expectRecovery(at: url, original: garbage, reason: "corrupt")
            let movedSHM = URL(fileURLWithPath: "\(url.path)-shm.corrupt-\(self.clock.millis)")
            #expect(try Data(contentsOf: movedSHM) == garbage.prefix(100))
        }
    }

    @Test("a truncated database is quarantined and a fresh store opens")
    func truncatedDatabase() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("q.sqlite")
            let database = try SQLiteDatabase(fileURL: url, clock: self.clock, logger: .disabled)
            try SQLiteQueueStore(database: database, queue: "events", capacity: 10_000).append(
                (0..<300).map { _ in bytes(400) }
            )
            database.close()
            let whole = try Data(contentsOf: url)
            let half = whole.prefix(whole.count / 2)
            try half.write(to: url)

            try self.expectRecovery(at: url, original: half, reason: "corrupt")
        }
    }

    @Test("a database from a newer SDK (higher user_version) is moved aside")
    func newerSchema() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("q.sqlite")
            let database = try SQLiteDatabase(fileURL: url, clock: self.clock, logger: .disabled)
            try SQLiteQueueStore(database: database, queue: "events", capacity: 10).append(payloads(2))
            database.close()
            #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
            // user_version is the big-endian 32-bit integer at offset 60 of the database header.
            var file = try Data(contentsOf: url)
            file.replaceSubrange(60..<64, with: [0, 0, 0, 99])
            try file.write(to: url)

            try self.expectRecovery(at: url, original: file, reason: "newer")
        }
    }

    @Test("SQLITE_FULL fails the append cleanly and keeps every earlier record")
    func fullDatabase() throws {
        try withTemporaryDirectory { directory in
            let database = try SQLiteDatabase(
                fileURL: directory.appendingPathComponent("q.sqlite"),
                clock: self.clock,
                logger: .disabled
            )
            defer { database.close() }
            let store = SQLiteQueueStore(database: database, queue: "events", capacity: 10_000)
            let earlier = try store.append(payloads(20)).ids
            try database.setMaxPageCount(try database.pageCount() + 1)

            let failing = (0..<50).map { _ in bytes(2_000, 0x7a) }
            #expect {
                try store.append(failing)
            } throws: { error in
                (error as? StorageError)?.code == .full
            }
            #expect(try store.count() == 20)
            let stored = try allRecords(store)
            #expect(stored.map(\.id) == earlier)
            #expect(stored.map(\.payload) == payloads(20))

            try database.setMaxPageCount(1_000_000)
            let later = try store.append(failing)
            #expect(try store.count() == 70)
            #expect(try allRecords(store).map(\.id) == earlier + later.ids)
        }
    }

    @Test("queues sharing a database never see each other's records")
    func queueIsolation() throws {
        try withTemporaryDirectory { directory in
            let database = try SQLiteDatabase(
                fileURL: directory.appendingPathComponent("q.sqlite"),
                clock: self.clock,
                logger: .disabled
            )
            defer { database.close() }
            let events = SQLiteQueueStore(database: database, queue: "events", capacity: 3)
            let writes = SQLiteQueueStore(database: database, queue: "writes", capacity: 100)
            let writeIDs = try writes.append(payloads(2, prefix: "write")).ids
            try events.append(payloads(5, prefix: "event"))

            try events.remove(ids: writeIDs)
            #expect(try writes.count() == 2)
            try events.removeAll()
            #expect(try allRecords(writes).map(\.payload) == payloads(2, prefix: "write"))
            #expect(try events.count() == 0)
        }
    }

    @Test("a path that cannot hold a database fails with cannotOpen")
    func cannotOpen() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("a-directory")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
            #expect {
                _ = try SQLiteDatabase(fileURL: url, clock: self.clock, logger: .disabled)
            } throws: { error in
                (error as? StorageError)?.code == .cannotOpen
            }
        }
    }

    @Test("a closed database refuses further calls")
    func closed() throws {
        try withTemporaryDirectory { directory in
            let database = try SQLiteDatabase(
                fileURL: directory.appendingPathComponent("q.sqlite"),
                clock: self.clock,
                logger: .disabled
            )
            let store = SQLiteQueueStore(database: database, queue: "events", capacity: 10)
            database.close()
            #expect {
                try store.count()
            } throws: { error in
                (error as? StorageError)?.code == .closed
            }
        }
    }

    /// Opens `url`, which holds an unusable file, and checks the quarantine, the log and a working store.
    private func expectRecovery(at url: URL, original: Data, reason: String) throws {
        let sink = InMemoryLogSink()
        let database = try SQLiteDatabase(fileURL: url, clock: self.clock, logger: sink.logger())
        defer { database.close() }
        let store = SQLiteQueueStore(database: database, queue: "events", capacity: 10)

        #expect(try store.count() == 0)
        try store.append(payloads(2))
        #expect(try allRecords(store).map(\.payload) == payloads(2))
        #expect(try database.schemaVersion() == 2)

        let quarantined = URL(fileURLWithPath: "\(url.path).\(reason)-\(self.clock.millis)")
        #expect(try Data(contentsOf: quarantined) == original)
        let errors = sink.records(at: .error)
        #expect(errors.count == 1)
        #expect(errors.first?.metadata["movedTo"] == quarantined.lastPathComponent)
    }
}
