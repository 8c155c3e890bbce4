public import Foundation
public import JoryioCore

/// A ``SecureStore`` kept in memory, with the same key rules as the file and Keychain stores.
///
/// Use it in tests. Nothing is protected beyond the process's own memory.
///
/// `InMemorySecureStore` is `Sendable`; a lock serializes calls from different threads.
public final class InMemorySecureStore: SecureStore {
    private let items = Locked<[String: Data]>([:])

    /// Creates an empty store.
    public init() {}

    /// The item stored under `key`, or `nil`.
    ///
    /// - Throws: ``StorageError`` with code `.invalidKey` when `key` breaks the naming rules.
    public func data(forKey key: String) throws(StorageError) -> Data? {
        try SecureStoreKey.validate(key)
        return self.items.withLock { $0[key] }
    }

    /// Stores `data` under `key`, or deletes the item when `data` is `nil`.
    ///
    /// - Throws: ``StorageError`` with code `.invalidKey` when `key` breaks the naming rules.
    public func set(_ data: Data?, forKey key: String) throws(StorageError) {
        try SecureStoreKey.validate(key)
        self.items.withLock { $0[key] = data }
    }

    /// Deletes every item.
    public func removeAll() throws(StorageError) {
        self.items.withLock { $0.removeAll() }
    }
}
