#if canImport(Security)
package import Foundation
package import JoryioCore
import Security

/// A ``SecureStore`` in the Keychain: the Apple backend for ids, tokens and pending writes (STORE-3).
///
/// Items are generic passwords of one service, readable after the device's first unlock and never
/// migrated to another device (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`). Keys follow the
/// same rules as ``FileSecureStore``.
///
/// `KeychainSecureStore` is `Sendable`: it holds only the service name, and the Keychain API is
/// thread-safe.
package final class KeychainSecureStore: SecureStore {
    /// An upper bound on `SecItemDelete` calls in ``removeAll()``, so it can never loop forever.
    private static let maximumDeletePasses = 10_000

    /// The `kSecAttrService` of every item.
    package let service: String

    /// Creates a store for the items of `service` (for example `io.joryio.sdk`).
    package init(service: String) {
        self.service = service
    }

    /// The item stored under `key`, or `nil`.
    ///
    /// - Throws: ``StorageError`` with code `.invalidKey` for a key that breaks the rules, `.io` when
    ///   the Keychain refuses the read (for example before first unlock).
    package func data(forKey key: String) throws(StorageError) -> Data? {
        try SecureStoreKey.validate(key)
        var query = self.itemQuery(key)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        switch status {
        case errSecSuccess:
            guard let data = result as? Data else {
                throw StorageError(.io, "keychain returned no data")
            }
            return data
        case errSecItemNotFound:
            return nil
        default:
            throw Self.error(status, "read")
        }
    }

    /// Updates the item, adds it when it does not exist yet, or deletes it when `data` is `nil`.
    ///
    /// - Throws: ``StorageError`` with code `.invalidKey` for a key that breaks the rules, `.io` when
    ///   the Keychain refuses the write.
    package func set(_ data: Data?, forKey key: String) throws(StorageError) {
        try SecureStoreKey.validate(key)
        let query = self.itemQuery(key)
        guard let data else {
            let status = SecItemDelete(query as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw Self.error(status, "delete")
            }
            return
        }
        let attributes: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        let updateStatus = SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
        switch updateStatus {
        case errSecSuccess:
            return
        case errSecItemNotFound:
            let addQuery = query.merging(attributes) { _, new in new }
            let addStatus = SecItemAdd(addQuery as CFDictionary, nil)
            guard addStatus == errSecSuccess else {
                throw Self.error(addStatus, "add")
            }
        default:
            throw Self.error(updateStatus, "update")
        }
    }

    /// Deletes every item of ``service``.
    ///
    /// `SecItemDelete` removes every match on iOS, but the legacy macOS keychain may remove only one
    /// per call, so it is repeated until nothing matches (each successful call removes at least one).
    package func removeAll() throws(StorageError) {
        for _ in 0..<Self.maximumDeletePasses {
            let status = SecItemDelete(self.serviceQuery() as CFDictionary)
            switch status {
            case errSecSuccess:
                continue
            case errSecItemNotFound:
                return
            default:
                throw Self.error(status, "delete all")
            }
        }
        throw StorageError(.io, "keychain delete all did not finish")
    }

    /// Matches every generic password of ``service``.
    private func serviceQuery() -> [String: Any] {
        // No kSecUseDataProtectionKeychain: on macOS it needs a keychain-access-groups entitlement,
        // which unsigned tools and `swift test` lack (errSecMissingEntitlement).
        [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: self.service,
        ]
    }

    /// Matches the one item stored under `key`.
    private func itemQuery(_ key: String) -> [String: Any] {
        var query = self.serviceQuery()
        query[kSecAttrAccount as String] = key
        return query
    }

    private static func error(_ status: OSStatus, _ operation: String) -> StorageError {
        StorageError(.io, "keychain \(operation) failed (OSStatus \(status))")
    }
}
#endif
