package import Foundation
package import JoryioCore

/// A ``KeyValueStore`` over `UserDefaults`: the Apple backend for ids, flags and decisions (STORE-1, 2).
///
/// Only keys starting with `jry_` or `joryio_` are written (STORE-5) and listed, so the app's own
/// defaults are never touched. Works on Linux too, where Foundation keeps the suite in a plist file.
///
/// `UserDefaultsKeyValueStore` is `Sendable`. `UserDefaults` is thread-safe, but swift-corelibs-foundation
/// does not mark it `Sendable`, so the instance is kept in a `Locked` (calls are short).
package final class UserDefaultsKeyValueStore: KeyValueStore {
    /// The suite, or `nil` for the standard defaults.
    package let suiteName: String?
    private let defaults: Locked<UserDefaults>

    /// Opens the suite `suiteName`, or the app's standard defaults when it is `nil`.
    ///
    /// - Throws: ``StorageError`` with code `.cannotOpen` when Foundation refuses the suite name (for
    ///   example the app's own bundle identifier).
    package init(suiteName: String?) throws(StorageError) {
        guard let defaults = UserDefaults(suiteName: suiteName) else {
            throw StorageError(.cannotOpen, "UserDefaults refused the suite name")
        }
        self.suiteName = suiteName
        self.defaults = Locked(defaults)
    }

    /// The value stored under `key`, or `nil` (also for an invalid key or a non-data value).
    package func data(forKey key: String) -> Data? {
        guard StorageKey.isValid(key) else { return nil }
        return self.defaults.withLock { $0.data(forKey: key) }
    }

    /// Stores `data` under `key`, or removes the key when `data` is `nil`.
    ///
    /// On Apple platforms the system persists defaults itself; elsewhere the suite is synchronized
    /// before returning, so the write is on disk.
    ///
    /// - Throws: ``StorageError`` with code `.invalidKey` for a key without the `jry_` / `joryio_`
    ///   prefix; `.io` when the suite cannot be written.
    package func set(_ data: Data?, forKey key: String) throws(StorageError) {
        try StorageKey.validate(key)
        let saved = self.defaults.withLock { defaults in
            if let data {
                defaults.set(data, forKey: key)
            } else {
                defaults.removeObject(forKey: key)
            }
            #if canImport(Darwin)
            return true
            #else
            return defaults.synchronize()
            #endif
        }
        guard saved else {
            throw StorageError(.io, "UserDefaults could not save the suite")
        }
    }

    /// Every SDK key in the suite, sorted (other keys of the app or the system are left out).
    package func allKeys() -> [String] {
        self.defaults.withLock { $0.dictionaryRepresentation().keys.filter(StorageKey.isValid).sorted() }
    }
}
