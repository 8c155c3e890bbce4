import Foundation
import JoryioCore

/// A pass-through ``QueueStore`` that notes the size of every `append` (one per group commit) and
/// when `peek` and `remove` ran, so the raw-SQLite baseline can replay the SDK's exact transactions
/// and a flush can be split into its stages. One lock per store call, never per event.
final class RecordingQueueStore: MarkedQueueStore {
    private struct Log {
        var batchSizes: [Int] = []
        var peeks: [(start: UInt64, end: UInt64)] = []
        var removes: [(start: UInt64, end: UInt64)] = []
    }

    private let base: any QueueStore
    private let log = Locked(Log())

    init(_ base: any QueueStore) {
        self.base = base
    }

    /// Payload counts of every append since the last ``reset()``: the SDK's transactions.
    var batchSizes: [Int] { self.log.withLock { $0.batchSizes } }

    /// Monotonic start and end of every `peek` since the last ``reset()``.
    var peeks: [(start: UInt64, end: UInt64)] { self.log.withLock { $0.peeks } }

    /// Monotonic start and end of every `remove` since the last ``reset()``.
    var removes: [(start: UInt64, end: UInt64)] { self.log.withLock { $0.removes } }

    func reset() {
        self.log.withLock { $0 = Log() }
    }

    @discardableResult
    func append(_ payloads: [Data]) throws(StorageError) -> QueueAppendResult {
        let result = try self.base.append(payloads)
        self.log.withLock { $0.batchSizes.append(payloads.count) }
        return result
    }

    /// The SDK's journal path: the events and the journal position in one transaction.
    @discardableResult
    func append(_ payloads: [Data], mark: QueueMark) throws(StorageError) -> QueueAppendResult {
        guard let marked = self.base as? any MarkedQueueStore else { return try self.append(payloads) }
        let result = try marked.append(payloads, mark: mark)
        if !payloads.isEmpty { self.log.withLock { $0.batchSizes.append(payloads.count) } }
        return result
    }

    func mark(named name: String) throws(StorageError) -> String? {
        try (self.base as? any MarkedQueueStore)?.mark(named: name)
    }

    func peek(limit: Int, maxBytes: Int) throws(StorageError) -> [QueueRecord] {
        let start = Monotonic.nanoseconds()
        let records = try self.base.peek(limit: limit, maxBytes: maxBytes)
        let end = Monotonic.nanoseconds()
        self.log.withLock { $0.peeks.append((start, end)) }
        return records
    }

    func remove(ids: [Int64]) throws(StorageError) {
        let start = Monotonic.nanoseconds()
        try self.base.remove(ids: ids)
        let end = Monotonic.nanoseconds()
        self.log.withLock { $0.removes.append((start, end)) }
    }

    func removeAll() throws(StorageError) {
        try self.base.removeAll()
    }

    func count() throws(StorageError) -> Int {
        try self.base.count()
    }
}
