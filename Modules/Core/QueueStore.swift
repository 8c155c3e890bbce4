public import Foundation

/// One item in a ``QueueStore``: an opaque payload with the id the store gave it.
public struct QueueRecord: Sendable, Equatable, Identifiable {
    /// Increasing in insertion order within one store; never reused.
    public var id: Int64
    /// The bytes the SDK stored (an encoded event or write).
    public var payload: Data

    /// Creates a record.
    public init(id: Int64, payload: Data) {
        self.id = id
        self.payload = payload
    }
}

/// What ``QueueStore/append(_:)`` did.
public struct QueueAppendResult: Sendable, Equatable {
    /// The ids given to the appended payloads, in order.
    public var ids: [Int64]
    /// How many of the oldest records were deleted to stay within capacity.
    public var evicted: Int

    /// Creates a result.
    public init(ids: [Int64], evicted: Int) {
        self.ids = ids
        self.evicted = evicted
    }
}

/// A durable FIFO of payloads: the SDK's offline queue.
///
/// Contract (checked for every backend by one shared test suite):
/// - ``peek(limit:maxBytes:)`` returns records oldest first, in the order they were appended.
/// - `append` is atomic: either every payload of the call is stored or none is, and a failed append
///   (for example a full disk) leaves everything stored before it intact.
/// - When a store has a capacity, an append that would exceed it deletes the oldest records first.
/// - Persistent backends return the same records after the store is closed and opened again.
/// - Implementations are thread-safe; the SDK calls them from its serial engine.
public protocol QueueStore: Sendable {
    /// Appends payloads at the tail in one transaction, evicting the oldest records beyond capacity.
    @discardableResult
    func append(_ payloads: [Data]) throws(StorageError) -> QueueAppendResult

    /// The oldest records, at most `limit` of them and at most `maxBytes` of payload in total, except
    /// that the first record is always returned (alone) even when it is larger than `maxBytes`.
    func peek(limit: Int, maxBytes: Int) throws(StorageError) -> [QueueRecord]

    /// Deletes the records with these ids. Unknown ids are ignored.
    func remove(ids: [Int64]) throws(StorageError)

    /// Deletes every record.
    func removeAll() throws(StorageError)

    /// The number of records stored.
    func count() throws(StorageError) -> Int
}

/// A small named value a ``MarkedQueueStore`` stores in the same transaction as an append: the SDK
/// records how far it has read its event journal together with the events it read, so a restart
/// never replays an event twice nor skips one.
package struct QueueMark: Sendable, Equatable {
    /// The mark's name (for example `journal`).
    package var name: String
    /// Its value.
    package var value: String

    /// Creates a mark.
    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// A ``QueueStore`` that can store a ``QueueMark`` atomically with an append (SQLite does).
package protocol MarkedQueueStore: QueueStore {
    /// Appends `payloads` (possibly none) and sets `mark`, in one transaction: both or neither.
    @discardableResult
    func append(_ payloads: [Data], mark: QueueMark) throws(StorageError) -> QueueAppendResult

    /// The value last stored for the mark `name`, `nil` when none was.
    func mark(named name: String) throws(StorageError) -> String?
}
