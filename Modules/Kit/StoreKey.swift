internal import Foundation
internal import JoryioCore

/// Where each identifier and flag lives (STORE-1 … STORE-5). Every key starts with `jry_`.
enum StoreKey {
    // Key-value store (UserDefaults on Apple platforms).
    static let anonymousId = "jry_anonymous_id"
    static let deviceId = "jry_device_id"
    static let session = "jry_session"
    static let optedOut = "jry_opted_out"
    static let consentDenied = "jry_consent_denied"
    static let preInitDecisions = "jry_preinit_decisions"
    static let identifyKept = "jry_identify_kept"
    static let installMarker = "jry_install_marker"
    // Secure store (Keychain on Apple platforms).
    static let userId = "jry_user_id"
    static let attributeWrites = "jry_attribute_writes"
}

extension KeyValueStore {
    /// The UTF-8 string under `key`, `nil` when absent or empty.
    func string(forKey key: String) -> String? {
        self.data(forKey: key).map { String(decoding: $0, as: UTF8.self) }.nonEmpty
    }

    /// Stores `value` (or removes the key for `nil`), logging a failure instead of throwing.
    func save(_ value: String?, forKey key: String, logger: Logger) {
        do {
            try self.set(value.map { Data($0.utf8) }, forKey: key)
        } catch {
            logger.error("cannot store \(key): \(error)")
        }
    }
}

extension SecureStore {
    /// The UTF-8 string under `key`, `nil` when absent, empty or unreadable (logged).
    func string(forKey key: String, logger: Logger) -> String? {
        do {
            return try self.data(forKey: key).map { String(decoding: $0, as: UTF8.self) }.nonEmpty
        } catch {
            logger.error("cannot read \(key) from the secure store: \(error)")
            return nil
        }
    }

    /// Stores `value` (or deletes the item for `nil`), logging a failure instead of throwing.
    func save(_ value: String?, forKey key: String, logger: Logger) {
        do {
            try self.set(value.map { Data($0.utf8) }, forKey: key)
        } catch {
            logger.error("cannot store \(key) in the secure store: \(error)")
        }
    }
}
