public import Foundation
public import JoryioCore

/// A ``KeyValueStore`` kept in memory, with the same key rules as the persistent stores.
///
/// Use it in tests or previews. Keys that do not start with `jry_` or `joryio_` are refused (STORE-5).
///
/// `InMemoryKeyValueStore` is `Sendable`; a lock serializes calls from different threads.
public final class InMemoryKeyValueStore: KeyValueStore {
    private let values = Locked<[String: Data]>([:])

    /// Creates an empty store.
    public init() {}

    /// The value stored under `key`, or `nil` (also for an invalid key).
    public func data(forKey key: String) -> Data? {
        self.values.withLock { $0[key] }
    }

    /// Stores `data` under `key`, or removes the key when `data` is `nil`.
    ///
    /// - Throws: ``StorageError`` with code `.invalidKey` when `key` breaks the naming rule.
    public func set(_ data: Data?, forKey key: String) throws(StorageError) {
        try StorageKey.validate(key)
        self.values.withLock { $0[key] = data }
    }

    /// Every key stored, sorted.
    public func allKeys() -> [String] {
        self.values.withLock { $0.keys.sorted() }
    }
}
