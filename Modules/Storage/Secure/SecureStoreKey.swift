internal import JoryioCore

/// The key rule of every ``SecureStore`` in this module: ``StorageKey`` plus a file-name-safe alphabet.
///
/// A key names a file in ``FileSecureStore``, so besides the `jry_` / `joryio_` prefix it may only use
/// `A-Z a-z 0-9 _ . -` and at most 200 bytes. The Keychain and in-memory stores apply the same rule,
/// so a key that works on one platform works on all.
enum SecureStoreKey {
    /// The longest key accepted, in bytes (leaves room for temp-file affixes within `NAME_MAX`).
    static let maximumLength = 200

    /// Throws `.invalidKey` unless `key` follows the rule.
    static func validate(_ key: String) throws(StorageError) {
        try StorageKey.validate(key)
        guard key.utf8.count <= Self.maximumLength, key.utf8.allSatisfy(Self.isAllowed) else {
            throw StorageError(.invalidKey, "secure-store keys may only use A-Z a-z 0-9 _ . - (at most 200 bytes)")
        }
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }
}
