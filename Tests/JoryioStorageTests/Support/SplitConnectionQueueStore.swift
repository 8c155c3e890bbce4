import Foundation
import JoryioCore
import JoryioStorage

/// A queue store that appends through one SQLite connection and reads and deletes through another.
///
/// Running the contract suite over it checks that each connection sees the other's commits and that
/// the cached counts are dropped when the other connection writes.
struct SplitConnectionQueueStore: QueueStore {
    let writer: SQLiteQueueStore
    let reader: SQLiteQueueStore

    func append(_ payloads: [Data]) throws(StorageError) -> QueueAppendResult {
        try self.writer.append(payloads)
    }

    func peek(limit: Int, maxBytes: Int) throws(StorageError) -> [QueueRecord] {
        try self.reader.peek(limit: limit, maxBytes: maxBytes)
    }

    func remove(ids: [Int64]) throws(StorageError) {
        try self.reader.remove(ids: ids)
    }

    func removeAll() throws(StorageError) {
        try self.reader.removeAll()
    }

    func count() throws(StorageError) -> Int {
        try self.reader.count()
    }
}
