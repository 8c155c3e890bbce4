package import Foundation
internal import JoryioCore

// MARK: - Codec

/// The secure-store item `jry_auth_tokens`: compact JSON with sorted keys, version 1.
///
/// ```json
/// {"current":"u1","enabled":true,"next":["u2"],"tokens":{"u1":"<jwt>","u2":"<jwt>"},"unbound":"<token>","v":1}
/// ```
///
/// `current` and `unbound` are left out when absent, `next` when empty. Decoding is strict: an item
/// of another version, with a key of the wrong type, or with an empty user id or token is refused
/// (`nil`), and the engine starts from an empty book (logging the loss).
extension AuthTokenBook {
    /// The version written by ``encoded()``.
    static let formatVersion: Int64 = 1

    /// The item's bytes; the same book always encodes to the same bytes.
    package func encoded() -> Data {
        var object: [String: JSONValue] = [
            "v": .int(Self.formatVersion),
            "enabled": .bool(self.isEnabled),
            "tokens": .object(self.tokens.mapValues(JSONValue.string)),
        ]
        if let current = self.currentUserId {
            object["current"] = .string(current)
        }
        if !self.nextUserIds.isEmpty {
            object["next"] = .array(self.nextUserIds.sorted().map(JSONValue.string))
        }
        if let unbound = self.unboundToken {
            object["unbound"] = .string(unbound)
        }
        return JSONValue.object(object).encoded()
    }

    /// Restores a book from ``encoded()`` bytes; `nil` for anything else.
    package init?(data: Data) {
        guard let object = JSONValue.parse(data)?.objectValue,
            object["v"]?.intValue == Self.formatVersion,
            let enabled = object["enabled"]?.boolValue,
            let tokenObject = object["tokens"]?.objectValue
        else {
            return nil
        }
        var tokens: [String: String] = [:]
        for (user, value) in tokenObject {
            guard !user.isEmpty, let token = value.stringValue, !token.isEmpty else { return nil }
            tokens[user] = token
        }
        guard let current = Self.optionalString(object["current"]),
            let unbound = Self.optionalString(object["unbound"])
        else {
            return nil
        }
        var next: Set<String> = []
        if let value = object["next"] {
            guard let array = value.arrayValue else { return nil }
            for element in array {
                guard let user = element.stringValue, !user.isEmpty else { return nil }
                next.insert(user)
            }
        }
        self.init(
            tokens: tokens,
            currentUserId: current,
            nextUserIds: next,
            unboundToken: unbound,
            isEnabled: enabled
        )
    }

    /// Reads an optional string member: an absent key gives `.some(nil)`, a non-empty string gives
    /// `.some(string)`, anything else (a corrupt item) gives `nil`.
    private static func optionalString(_ value: JSONValue?) -> String?? {
        guard let value else { return .some(nil) }
        guard let string = value.stringValue, !string.isEmpty else { return nil }
        return .some(string)
    }
}
