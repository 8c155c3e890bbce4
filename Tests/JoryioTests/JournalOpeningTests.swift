import Foundation
import JoryioCore
import JoryioKit
import JoryioStorage
import JoryioTesting
import Testing

/// ``JoryioStores/openJournal(at:for:capacity:logger:)``: the stored read position decides what a
/// restart replays; a database without one gets the journal's start stored at once.
@Suite("Opening the event journal")
struct JournalOpeningTests {
    private let clock = FixedJournalClock()

    @Test("with no stored position the journal's start is stored at once")
    func noStoredMark() throws {
        try withTemporaryDirectory { directory in
            let database = try SQLiteDatabase(
                fileURL: directory.appendingPathComponent("q.sqlite"),
                clock: self.clock,
                logger: .disabled
            )
            defer { database.close() }
            let events = SQLiteQueueStore(database: database, queue: "events", capacity: 100)
            let sink = InMemoryLogSink()
            let journal = try #require(
                JoryioStores.openJournal(
                    at: directory.appendingPathComponent("events.journal"),
                    for: events,
                    capacity: EventJournal.minimumCapacity,
                    logger: sink.logger()
                )
            )
            #expect(journal.committed == .origin)
            #expect(try events.mark(named: JoryioStores.journalMark) == JournalPosition.origin.mark)
            #expect(try events.count() == 0)
            #expect(sink.records(at: .error).isEmpty)
            #expect(sink.records(at: .warning).isEmpty)
        }
    }

    @Test("a stored position is where the replay starts, and it is not rewritten")
    func storedMark() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("events.journal")
            let database = try SQLiteDatabase(
                fileURL: directory.appendingPathComponent("q.sqlite"),
                clock: self.clock,
                logger: .disabled
            )
            defer { database.close() }
            let events = SQLiteQueueStore(database: database, queue: "events", capacity: 100)
            let first = try #require(
                JoryioStores.openJournal(
                    at: url,
                    for: events,
                    capacity: EventJournal.minimumCapacity,
                    logger: .disabled
                )
            )
            for index in 0..<3 {
                _ = first.append(fence: 0, bodySize: 16) {
                    $0.copyBytes(from: Data(repeating: UInt8(index), count: 16))
                }
            }
            // The engine stored the first record with its position.
            var stored = JournalPosition.origin
            _ = first.visit(from: .origin, replayUntil: first.recovered) { _, next in
                if stored == .origin { stored = next }
            }
            try events.append([Data("e0".utf8)], mark: QueueMark(name: JoryioStores.journalMark, value: stored.mark))
            first.relinquish()

            let second = try #require(
                JoryioStores.openJournal(
                    at: url,
                    for: events,
                    capacity: EventJournal.minimumCapacity,
                    logger: .disabled
                )
            )
            #expect(second.committed == stored)
            #expect(second.recoveredCount == 2)
            #expect(try events.mark(named: JoryioStores.journalMark) == stored.mark)
        }
    }

    @Test("an unreadable stored position is logged and a new journal starts")
    func unreadableMark() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("events.journal")
            let database = try SQLiteDatabase(
                fileURL: directory.appendingPathComponent("q.sqlite"),
                clock: self.clock,
                logger: .disabled
            )
            defer { database.close() }
            let events = SQLiteQueueStore(database: database, queue: "events", capacity: 100)
            let first = try #require(
                JoryioStores.openJournal(
                    at: url,
                    for: events,
                    capacity: EventJournal.minimumCapacity,
                    logger: .disabled
                )
            )
            _ = first.append(fence: 0, bodySize: 8) { $0.copyBytes(from: Data(count: 8)) }
            first.relinquish()
            try events.append([], mark: QueueMark(name: JoryioStores.journalMark, value: "not a position"))

            let sink = InMemoryLogSink()
            let journal = try #require(
                JoryioStores.openJournal(
                    at: url,
                    for: events,
                    capacity: EventJournal.minimumCapacity,
                    logger: sink.logger()
                )
            )
            let errors = sink.records(at: .error)
            #expect(errors.count == 1)
            #expect(errors.first?.message.contains("unreadable") == true)
            #expect(journal.committed == .origin)
            #expect(journal.recoveredCount == 0)
            #expect(try events.mark(named: JoryioStores.journalMark) == JournalPosition.origin.mark)
        }
    }

    @Test("a position that cannot be read or stored leaves the SDK without a journal, and the file free")
    func storeFailures() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("events.journal")
            let sink = InMemoryLogSink()
            #expect(
                JoryioStores.openJournal(
                    at: url,
                    for: FailingMarkStore(failRead: true),
                    capacity: EventJournal.minimumCapacity,
                    logger: sink.logger()
                ) == nil
            )
            #expect(sink.records(at: .error).count == 1)

            sink.clear()
            #expect(
                JoryioStores.openJournal(
                    at: url,
                    for: FailingMarkStore(failRead: false),
                    capacity: EventJournal.minimumCapacity,
                    logger: sink.logger()
                ) == nil
            )
            #expect(sink.records(at: .error).count == 1)
            // The journal opened for the failed attempt was relinquished: the file is free again.
            #expect(
                EventJournal.open(at: url, capacity: EventJournal.minimumCapacity, committed: nil, logger: .disabled)
                    != nil
            )
        }
    }
}

/// A clock stopped at one instant.
private struct FixedJournalClock: Clock {
    func now() -> Date {
        Date(timeIntervalSince1970: 1_767_225_600)
    }
}

/// A marked store whose mark cannot be read (`failRead`) or stored.
private struct FailingMarkStore: MarkedQueueStore {
    let failRead: Bool

    func append(_ payloads: [Data], mark: QueueMark) throws(StorageError) -> QueueAppendResult {
        throw StorageError(.io, "cannot write")
    }

    func mark(named name: String) throws(StorageError) -> String? {
        if self.failRead { throw StorageError(.io, "cannot read") }
        return nil
    }

    func append(_ payloads: [Data]) throws(StorageError) -> QueueAppendResult {
        throw StorageError(.io, "cannot write")
    }

    func peek(limit: Int, maxBytes: Int) throws(StorageError) -> [QueueRecord] { [] }

    func remove(ids: [Int64]) throws(StorageError) {}

    func removeAll() throws(StorageError) {}

    func count() throws(StorageError) -> Int { 0 }
}
