public import Foundation
public import JoryioCore

/// A ``QueueStore`` kept in memory: the full queue contract except that nothing outlives the process.
///
/// Fast and real (not a double): use it in tests, or when an app chooses not to persist its queue.
/// Ids start at 1 and are never reused by the same instance.
///
/// `InMemoryQueueStore` is `Sendable`; a lock serializes calls from different threads.
///
/// ```swift
/// let store = InMemoryQueueStore(capacity: 1_000)
/// try store.append([Data("one".utf8), Data("two".utf8)])
/// let batch = try store.peek(limit: 100, maxBytes: 512 * 1024)
/// try store.remove(ids: batch.map(\.id))
/// ```
public final class InMemoryQueueStore: QueueStore {
    private struct State {
        var records: [QueueRecord] = []
        var nextID: Int64 = 1
    }

    /// The most records kept; an append beyond it evicts the oldest.
    public let capacity: Int
    private let state = Locked(State())

    /// Creates an empty store.
    ///
    /// - Parameter capacity: The most records kept (values below 1 count as 1). Unbounded by default.
    public init(capacity: Int = .max) {
        self.capacity = max(capacity, 1)
    }

    /// Appends every payload, then evicts the oldest records beyond ``capacity``.
    @discardableResult
    public func append(_ payloads: [Data]) throws(StorageError) -> QueueAppendResult {
        self.state.withLock { state in
            var ids: [Int64] = []
            ids.reserveCapacity(payloads.count)
            for payload in payloads {
                ids.append(state.nextID)
                state.records.append(QueueRecord(id: state.nextID, payload: payload))
                state.nextID += 1
            }
            let evicted = max(state.records.count - self.capacity, 0)
            state.records.removeFirst(evicted)
            return QueueAppendResult(ids: ids, evicted: evicted)
        }
    }

    /// The oldest records within `limit` and `maxBytes`; the first record is returned even when larger.
    public func peek(limit: Int, maxBytes: Int) throws(StorageError) -> [QueueRecord] {
        guard limit > 0 else { return [] }
        return self.state.withLock { state in
            var result: [QueueRecord] = []
            var bytes = 0
            for record in state.records.prefix(limit) {
                if !result.isEmpty, record.payload.count > maxBytes - bytes { break }
                result.append(record)
                bytes += record.payload.count
            }
            return result
        }
    }

    /// Deletes the records with these ids; unknown ids are ignored.
    public func remove(ids: [Int64]) throws(StorageError) {
        guard !ids.isEmpty else { return }
        let doomed = Set(ids)
        self.state.withLock { $0.records.removeAll { doomed.contains($0.id) } }
    }

    /// Deletes every record (ids keep increasing afterwards).
    public func removeAll() throws(StorageError) {
        self.state.withLock { $0.records.removeAll() }
    }

    /// The number of records stored.
    public func count() throws(StorageError) -> Int {
        self.state.withLock { $0.records.count }
    }
}
