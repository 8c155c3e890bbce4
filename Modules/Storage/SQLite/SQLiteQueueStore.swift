package import Foundation
package import JoryioCore

/// A ``QueueStore`` for one named queue inside a ``SQLiteDatabase``.
///
/// All queues of a database share one table; each row carries its queue's name, and an index on
/// `(queue, id)` keeps every operation on one queue independent of the others' size. Ids come from
/// `INTEGER PRIMARY KEY AUTOINCREMENT`, so they increase across the whole file and are never reused,
/// not even after `removeAll()` or a reopen.
///
/// ``count()`` is O(1): the count is cached on the connection, kept up to date by every write, and
/// recomputed when another connection has committed (`PRAGMA data_version`).
///
/// `SQLiteQueueStore` is `Sendable`; calls are serialized by the database's lock.
package final class SQLiteQueueStore: MarkedQueueStore {
    private static let insertSQL = "INSERT INTO queue_records (queue, payload) VALUES (?1, ?2)"
    private static let evictSQL = """
        DELETE FROM queue_records WHERE id IN \
        (SELECT id FROM queue_records WHERE queue = ?1 ORDER BY id LIMIT ?2)
        """
    private static let sizesSQL = "SELECT id, length(payload) FROM queue_records WHERE queue = ?1 ORDER BY id LIMIT ?2"
    private static let payloadsSQL = """
        SELECT id, payload FROM queue_records WHERE queue = ?1 AND id BETWEEN ?2 AND ?3 ORDER BY id
        """
    private static let deleteSQL = "DELETE FROM queue_records WHERE queue = ?1 AND id = ?2"
    private static let deleteAllSQL = "DELETE FROM queue_records WHERE queue = ?1"
    private static let countSQL = "SELECT COUNT(*) FROM queue_records WHERE queue = ?1"
    private static let setMarkSQL = "INSERT OR REPLACE INTO queue_marks (name, value) VALUES (?1, ?2)"
    private static let markSQL = "SELECT value FROM queue_marks WHERE name = ?1"

    /// The database this store's rows live in.
    package let database: SQLiteDatabase
    /// The queue's name (for example `events`).
    package let queue: String
    /// The most records kept; an append beyond it evicts the oldest.
    package let capacity: Int

    /// Creates the store for `queue` in `database`.
    ///
    /// - Parameters:
    ///   - database: The open database.
    ///   - queue: The queue's name; stores with different names never see each other's records.
    ///   - capacity: The most records kept (values below 1 count as 1).
    package init(database: SQLiteDatabase, queue: String, capacity: Int) {
        self.database = database
        self.queue = queue
        self.capacity = max(capacity, 1)
    }

    // MARK: - QueueStore

    /// Inserts every payload and evicts the oldest rows beyond capacity, in one write transaction.
    ///
    /// On any failure (`SQLITE_FULL` included) the transaction is rolled back: nothing of this call
    /// is stored and every earlier record is intact. `SQLITE_FULL` is retried once after the
    /// write-ahead log is truncated, as for every write of this store.
    @discardableResult
    package func append(_ payloads: [Data]) throws(StorageError) -> QueueAppendResult {
        guard !payloads.isEmpty else { return QueueAppendResult(ids: [], evicted: 0) }
        return try self.append(payloads, setting: nil)
    }

    /// Inserts every payload (possibly none), evicts beyond capacity and sets `mark`, in one
    /// write transaction: on any failure neither the rows nor the mark are stored.
    @discardableResult
    package func append(_ payloads: [Data], mark: QueueMark) throws(StorageError) -> QueueAppendResult {
        try self.append(payloads, setting: mark)
    }

    /// The value last stored for the mark `name` (marks are shared by the queues of one file).
    package func mark(named name: String) throws(StorageError) -> String? {
        try self.database.withConnection { connection throws(StorageError) in
            try connection.withStatement(Self.markSQL) { statement throws(StorageError) in
                try statement.bind(name, at: 1)
                return try statement.step() ? statement.text(at: 0) : nil
            }
        }
    }

    private func append(_ payloads: [Data], setting mark: QueueMark?) throws(StorageError) -> QueueAppendResult {
        try self.database.withConnection { connection throws(StorageError) in
            var count = 0
            let result = try connection.writeTransaction { () throws(StorageError) in
                // Inside the write transaction, so no other connection can change the count meanwhile.
                try connection.dropCachesIfChangedElsewhere()
                count = try self.cachedCount(connection)
                connection.cachedCounts[self.queue] = nil
                var ids: [Int64] = []
                ids.reserveCapacity(payloads.count)
                // One prepared statement for the whole batch, reset between rows.
                try connection.withStatement(Self.insertSQL) { statement throws(StorageError) in
                    for payload in payloads {
                        try statement.bind(self.queue, at: 1)
                        try statement.bind(payload, at: 2)
                        _ = try statement.step()
                        ids.append(try connection.lastInsertRowID())
                        statement.reset()
                    }
                }
                count += payloads.count
                var evicted = 0
                if count > self.capacity {
                    try connection.withStatement(Self.evictSQL) { statement throws(StorageError) in
                        try statement.bind(self.queue, at: 1)
                        try statement.bind(Int64(count - self.capacity), at: 2)
                        _ = try statement.step()
                    }
                    evicted = try connection.changes()
                    count -= evicted
                }
                if let mark {
                    try connection.withStatement(Self.setMarkSQL) { statement throws(StorageError) in
                        try statement.bind(mark.name, at: 1)
                        try statement.bind(mark.value, at: 2)
                        _ = try statement.step()
                    }
                }
                return QueueAppendResult(ids: ids, evicted: evicted)
            }
            connection.cachedCounts[self.queue] = count
            return result
        }
    }

    /// The oldest records within `limit` and `maxBytes`, reading only the payloads it returns.
    ///
    /// Sizes come from `length(payload)`, which SQLite answers without loading the blob, so a large
    /// record just beyond the budget is never read.
    package func peek(limit: Int, maxBytes: Int) throws(StorageError) -> [QueueRecord] {
        guard limit > 0 else { return [] }
        return try self.database.withConnection { connection throws(StorageError) in
            try connection.transaction(immediate: false) { () throws(StorageError) -> [QueueRecord] in
                let ids = try self.idsWithinBudget(connection, limit: limit, maxBytes: maxBytes)
                guard let first = ids.first, let last = ids.last else { return [] }
                return try connection.withStatement(Self.payloadsSQL) { statement throws(StorageError) in
                    try statement.bind(self.queue, at: 1)
                    try statement.bind(first, at: 2)
                    try statement.bind(last, at: 3)
                    var records: [QueueRecord] = []
                    records.reserveCapacity(ids.count)
                    while try statement.step() {
                        records.append(QueueRecord(id: statement.int64(at: 0), payload: statement.data(at: 1)))
                    }
                    return records
                }
            }
        }
    }

    /// Deletes the rows with these ids in one transaction; ids of other queues or unknown ids are ignored.
    ///
    /// A delete writes to the write-ahead log too, so it can fail on a full disk; it is retried
    /// once after the log is checkpointed and truncated (`SQLiteConnection.writeTransaction`).
    package func remove(ids: [Int64]) throws(StorageError) {
        guard !ids.isEmpty else { return }
        try self.database.withConnection { connection throws(StorageError) in
            var count: Int?
            let removed = try connection.writeTransaction { () throws(StorageError) -> Int in
                try connection.dropCachesIfChangedElsewhere()
                count = connection.cachedCounts.removeValue(forKey: self.queue)
                var removed = 0
                for id in Set(ids) {
                    try connection.withStatement(Self.deleteSQL) { statement throws(StorageError) in
                        try statement.bind(self.queue, at: 1)
                        try statement.bind(id, at: 2)
                        _ = try statement.step()
                    }
                    removed += try connection.changes()
                }
                return removed
            }
            connection.cachedCounts[self.queue] = count.map { $0 - removed }
        }
    }

    /// Deletes every row of this queue.
    package func removeAll() throws(StorageError) {
        try self.database.withConnection { connection throws(StorageError) in
            try connection.writeTransaction { () throws(StorageError) in
                try connection.dropCachesIfChangedElsewhere()
                connection.cachedCounts[self.queue] = nil
                try connection.withStatement(Self.deleteAllSQL) { statement throws(StorageError) in
                    try statement.bind(self.queue, at: 1)
                    _ = try statement.step()
                }
            }
            connection.cachedCounts[self.queue] = 0
        }
    }

    /// The number of rows of this queue, from the cache when it is valid.
    package func count() throws(StorageError) -> Int {
        try self.database.withConnection { connection throws(StorageError) in
            try connection.dropCachesIfChangedElsewhere()
            return try self.cachedCount(connection)
        }
    }

    // MARK: - Helpers

    private func cachedCount(_ connection: SQLiteConnection) throws(StorageError) -> Int {
        if let count = connection.cachedCounts[self.queue] { return count }
        let count = try connection.withStatement(Self.countSQL) { statement throws(StorageError) in
            try statement.bind(self.queue, at: 1)
            return try statement.step() ? Int(statement.int64(at: 0)) : 0
        }
        connection.cachedCounts[self.queue] = count
        return count
    }

    /// The ids of the oldest rows that fit `limit` and `maxBytes` (the first one always fits).
    private func idsWithinBudget(
        _ connection: SQLiteConnection,
        limit: Int,
        maxBytes: Int
    ) throws(StorageError) -> [Int64] {
        try connection.withStatement(Self.sizesSQL) { statement throws(StorageError) in
            try statement.bind(self.queue, at: 1)
            try statement.bind(Int64(limit), at: 2)
            var ids: [Int64] = []
            var bytes = 0
            while try statement.step() {
                let size = Int(statement.int64(at: 1))
                if !ids.isEmpty, size > maxBytes - bytes { break }
                ids.append(statement.int64(at: 0))
                bytes += size
            }
            return ids
        }
    }
}
