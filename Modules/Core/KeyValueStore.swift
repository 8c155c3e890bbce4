public import Foundation

/// Small persistent settings: ids, flags and decisions (STORE-1, STORE-2).
///
/// Every key must start with `jry_` or `joryio_` (STORE-5); other keys are refused with
/// ``StorageError/Code/invalidKey``. Values are opaque bytes (the SDK stores encoded JSON).
public protocol KeyValueStore: Sendable {
    /// The value stored under `key`, or `nil`.
    func data(forKey key: String) -> Data?

    /// Stores `data` under `key`, or removes the key when `data` is `nil`. The write is durable when
    /// the call returns.
    func set(_ data: Data?, forKey key: String) throws(StorageError)

    /// Every key currently stored, sorted.
    func allKeys() -> [String]
}

/// Secrets and personal identifiers: user id, push token, auth tokens (STORE-3).
///
/// Apple platforms use the Keychain (this device only, after first unlock); Linux uses 0600 files
/// in a 0700 directory.
public protocol SecureStore: Sendable {
    /// The item stored under `key`, or `nil`.
    func data(forKey key: String) throws(StorageError) -> Data?

    /// Stores `data` under `key`, or deletes the item when `data` is `nil`.
    func set(_ data: Data?, forKey key: String) throws(StorageError)

    /// Deletes every item this store holds (used on reinstall detection and `wipeData()`).
    func removeAll() throws(StorageError)
}

/// The rule every key-value and secure-store key follows (STORE-5).
package enum StorageKey {
    /// Whether `key` starts with `jry_` or `joryio_` and has something after the prefix.
    package static func isValid(_ key: String) -> Bool {
        (key.hasPrefix("jry_") && key.count > 4) || (key.hasPrefix("joryio_") && key.count > 7)
    }

    /// Throws ``StorageError/Code/invalidKey`` unless `key` is valid.
    package static func validate(_ key: String) throws(StorageError) {
        guard Self.isValid(key) else {
            throw StorageError(.invalidKey, "keys must start with jry_ or joryio_")
        }
    }
}
