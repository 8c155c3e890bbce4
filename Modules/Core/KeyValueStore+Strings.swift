internal import Foundation

extension KeyValueStore {
    /// The UTF-8 string under `key`, `nil` when absent or empty.
    package func string(forKey key: String) -> String? {
        self.data(forKey: key).map { String(decoding: $0, as: UTF8.self) }.nonEmpty
    }

    /// Stores `value` (or removes the key for `nil`), logging a failure instead of throwing.
    package func save(_ value: String?, forKey key: String, logger: Logger) {
        do {
            try self.set(value.map { Data($0.utf8) }, forKey: key)
        } catch {
            logger.error("cannot store \(key): \(error)")
        }
    }
}

extension SecureStore {
    /// The UTF-8 string under `key`, `nil` when absent, empty or unreadable (logged).
    package func string(forKey key: String, logger: Logger) -> String? {
        do {
            return try self.data(forKey: key).map { String(decoding: $0, as: UTF8.self) }.nonEmpty
        } catch {
            logger.error("cannot read \(key) from the secure store: \(error)")
            return nil
        }
    }

    /// Stores `value` (or deletes the item for `nil`), logging a failure instead of throwing.
    package func save(_ value: String?, forKey key: String, logger: Logger) {
        do {
            try self.set(value.map { Data($0.utf8) }, forKey: key)
        } catch {
            logger.error("cannot store \(key) in the secure store: \(error)")
        }
    }
}
