import Foundation
import JoryioCore
import JoryioStorage
import JoryioTesting
import Testing

/// A queue-store backend the contract suite runs over.
enum QueueBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// ``SQLiteQueueStore`` over one connection, sharing its file with another queue.
    case sqlite
    /// ``SQLiteQueueStore`` writing through one connection and reading through a second.
    case sqliteTwoConnections
    /// ``FileQueueStore``.
    case files
    /// ``InMemoryQueueStore``.
    case inMemory

    /// Whether records survive ``QueueHarness/reopen()``.
    var isPersistent: Bool {
        self != .inMemory
    }

    var testDescription: String {
        self.rawValue
    }
}

/// Opens stores of one backend in a temporary directory, and reopens them as a new process would.
final class QueueHarness {
    /// Records of a neighbouring queue in the same SQLite file; the store under test must not see them.
    static let neighbourRecords = 3

    let backend: QueueBackend
    let directory: URL
    let capacity: Int
    private var databases: [SQLiteDatabase] = []
    private var seededNeighbour = false

    init(backend: QueueBackend, directory: URL, capacity: Int) {
        self.backend = backend
        self.directory = directory
        self.capacity = capacity
    }

    var databaseURL: URL {
        self.directory.appendingPathComponent("queue.sqlite")
    }

    /// Opens the backend's store over this harness's storage.
    func open() throws -> any QueueStore {
        switch self.backend {
        case .sqlite:
            let database = try self.openDatabase()
            if !self.seededNeighbour {
                let neighbour = SQLiteQueueStore(database: database, queue: "neighbour", capacity: 100)
                try neighbour.append(payloads(Self.neighbourRecords, prefix: "neighbour"))
                self.seededNeighbour = true
            }
            return SQLiteQueueStore(database: database, queue: "events", capacity: self.capacity)
        case .sqliteTwoConnections:
            let writer = SQLiteQueueStore(database: try self.openDatabase(), queue: "events", capacity: self.capacity)
            let reader = SQLiteQueueStore(database: try self.openDatabase(), queue: "events", capacity: self.capacity)
            return SplitConnectionQueueStore(writer: writer, reader: reader)
        case .files:
            return try FileQueueStore(
                directory: self.directory.appendingPathComponent("events", isDirectory: true),
                capacity: self.capacity,
                logger: .disabled
            )
        case .inMemory:
            return InMemoryQueueStore(capacity: self.capacity)
        }
    }

    /// Closes every store opened so far and opens the storage again (a fresh store for `.inMemory`).
    func reopen() throws -> any QueueStore {
        self.close()
        return try self.open()
    }

    /// Closes the SQLite connections opened so far.
    func close() {
        for database in self.databases {
            database.close()
        }
        self.databases.removeAll()
    }

    private func openDatabase() throws -> SQLiteDatabase {
        let database = try SQLiteDatabase(fileURL: self.databaseURL, clock: StorageTestClock(), logger: .disabled)
        self.databases.append(database)
        return database
    }
}

/// Runs `body` with a harness over a fresh temporary directory, closing everything afterwards.
func withQueueHarness<T>(
    _ backend: QueueBackend,
    capacity: Int = 1_000_000,
    _ body: (QueueHarness) throws -> T
) throws -> T {
    try withTemporaryDirectory { directory in
        let harness = QueueHarness(backend: backend, directory: directory, capacity: capacity)
        defer { harness.close() }
        return try body(harness)
    }
}
