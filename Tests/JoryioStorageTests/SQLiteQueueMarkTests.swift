import CJoryioSQLite
import Foundation
import JoryioCore
import JoryioStorage
import JoryioTesting
import Testing

/// ``SQLiteQueueStore/append(_:mark:)`` and ``SQLiteQueueStore/mark(named:)``: a mark is stored in
/// the same transaction as the rows, survives a reopen, and a version-1 file gains the marks table.
@Suite("SQLiteQueueStore marks")
struct SQLiteQueueMarkTests {
    private let clock = StorageTestClock()

    @Test("an append with a mark stores both, and the mark reads back after a reopen")
    func appendWithMark() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("q.sqlite")
            do {
                let database = try self.open(url)
                defer { database.close() }
                let store = SQLiteQueueStore(database: database, queue: "events", capacity: 100)
                #expect(try store.mark(named: "journal") == nil)
                let result = try store.append(payloads(3), mark: QueueMark(name: "journal", value: "96/4"))
                #expect(result.ids.count == 3)
                #expect(try store.mark(named: "journal") == "96/4")
                #expect(try store.mark(named: "other") == nil)
                // A later value replaces the earlier one.
                try store.append(payloads(2, from: 3), mark: QueueMark(name: "journal", value: "160/6"))
                #expect(try store.mark(named: "journal") == "160/6")
            }
            let database = try self.open(url)
            defer { database.close() }
            let store = SQLiteQueueStore(database: database, queue: "events", capacity: 100)
            #expect(try store.mark(named: "journal") == "160/6")
            #expect(try allRecords(store).map(\.payload) == payloads(5))
        }
    }

    @Test("a mark-only append stores the mark and no row")
    func markOnly() throws {
        try withTemporaryDirectory { directory in
            let database = try self.open(directory.appendingPathComponent("q.sqlite"))
            defer { database.close() }
            let store = SQLiteQueueStore(database: database, queue: "events", capacity: 100)
            let result = try store.append([], mark: QueueMark(name: "journal", value: "0/1"))
            #expect(result.ids.isEmpty)
            #expect(result.evicted == 0)
            #expect(try store.count() == 0)
            #expect(try store.mark(named: "journal") == "0/1")
        }
    }

    @Test("marks are shared by the queues of one file; eviction does not touch them")
    func sharedMarks() throws {
        try withTemporaryDirectory { directory in
            let database = try self.open(directory.appendingPathComponent("q.sqlite"))
            defer { database.close() }
            let events = SQLiteQueueStore(database: database, queue: "events", capacity: 2)
            let writes = SQLiteQueueStore(database: database, queue: "writes", capacity: 100)
            let result = try events.append(payloads(5), mark: QueueMark(name: "journal", value: "8/2"))
            #expect(result.evicted == 3)
            #expect(try allRecords(events).map(\.payload) == payloads(2, from: 3))
            #expect(try writes.mark(named: "journal") == "8/2")
            #expect(try writes.count() == 0)
        }
    }

    @Test("an append that fails stores neither the rows nor the mark")
    func failedAppend() throws {
        try withTemporaryDirectory { directory in
            let database = try self.open(directory.appendingPathComponent("q.sqlite"))
            defer { database.close() }
            let store = SQLiteQueueStore(database: database, queue: "events", capacity: 10_000)
            try store.append(payloads(2), mark: QueueMark(name: "journal", value: "48/3"))
            try database.setMaxPageCount(try database.pageCount() + 1)

            let failing = (0..<50).map { _ in bytes(2_000, 0x7a) }
            #expect {
                try store.append(failing, mark: QueueMark(name: "journal", value: "4096/53"))
            } throws: { error in
                (error as? StorageError)?.code == .full
            }
            #expect(try store.mark(named: "journal") == "48/3")
            #expect(try allRecords(store).map(\.payload) == payloads(2))

            try database.setMaxPageCount(1_000_000)
            try store.append(failing, mark: QueueMark(name: "journal", value: "4096/53"))
            #expect(try store.mark(named: "journal") == "4096/53")
            #expect(try store.count() == 52)
        }
    }

    @Test("a closed database refuses marks and stores nothing")
    func closedDatabase() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("q.sqlite")
            let database = try self.open(url)
            let store = SQLiteQueueStore(database: database, queue: "events", capacity: 100)
            database.close()
            #expect {
                try store.append(payloads(1), mark: QueueMark(name: "journal", value: "32/2"))
            } throws: { error in
                (error as? StorageError)?.code == .closed
            }
            #expect {
                try store.mark(named: "journal")
            } throws: { error in
                (error as? StorageError)?.code == .closed
            }
            let reopened = try self.open(url)
            defer { reopened.close() }
            let again = SQLiteQueueStore(database: reopened, queue: "events", capacity: 100)
            #expect(try again.mark(named: "journal") == nil)
            #expect(try again.count() == 0)
        }
    }

    @Test("a version-1 database keeps its rows and gains the marks table")
    func migrationFromVersion1() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("q.sqlite")
            try Self.writeVersion1Database(at: url, payloads: ["old-0", "old-1"])

            let sink = InMemoryLogSink()
            let database = try SQLiteDatabase(fileURL: url, clock: self.clock, logger: sink.logger())
            defer { database.close() }
            #expect(try database.schemaVersion() == 2)
            #expect(sink.records(at: .error).isEmpty)
            let store = SQLiteQueueStore(database: database, queue: "events", capacity: 100)
            #expect(try store.mark(named: "journal") == nil)
            #expect(try allRecords(store).map(\.payload) == [Data("old-0".utf8), Data("old-1".utf8)])
            let result = try store.append(payloads(1), mark: QueueMark(name: "journal", value: "0/1"))
            #expect(try store.mark(named: "journal") == "0/1")
            // Ids keep increasing past the version-1 rows.
            #expect(try allRecords(store).map(\.id) == [1, 2] + result.ids)
            #expect(result.ids == [3])
        }
    }

    private func open(_ url: URL) throws -> SQLiteDatabase {
        try SQLiteDatabase(fileURL: url, clock: self.clock, logger: .disabled)
    }

    /// Writes the file an SDK with schema version 1 left: `queue_records` only, `user_version` 1.
    private static func writeVersion1Database(at url: URL, payloads: [String]) throws {
        var handle: OpaquePointer?
        guard sqlite3_open(url.path, &handle) == SQLITE_OK, let handle else {
            sqlite3_close(handle)
            Issue.record("cannot create the version-1 database")
            return
        }
        defer { sqlite3_close(handle) }
        let inserts = payloads.map {
            "INSERT INTO queue_records (queue, payload) VALUES ('events', CAST('\($0)' AS BLOB));"
        }
        let sql = """
            PRAGMA journal_mode = WAL;
            CREATE TABLE queue_records (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                queue TEXT NOT NULL,
                payload BLOB NOT NULL
            );
            CREATE INDEX queue_records_by_queue ON queue_records (queue, id);
            \(inserts.joined(separator: "\n"))
            PRAGMA user_version = 1;
            """
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        try #require(status == SQLITE_OK, "sqlite3_exec: \(String(cString: sqlite3_errmsg(handle)))")
    }
}
