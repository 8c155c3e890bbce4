package import Foundation
import JoryioCore

/// The stored form of a ``DurableWrite``: one compact JSON object per ``QueueRecord`` payload.
///
/// Version 2, written by this SDK, stores the whole kind, so a kind declared by any module is
/// read back without a registry, and a write is sent the way it was made:
///
/// ```json
/// {"anonymousId":"a1","id":"w1","kind":{"fields":{"channel":"email","status":"subscribed"},
///  "method":"POST","name":"subscription","path":"v1/subscriptions",
///  "replacement":{"key":"sub|email","scope":"person"},"rules":{"404":"afterEvents"},
///  "withdrawal":false},"timestamp":1767225600123,"userId":"u1","v":2}
/// ```
///
/// - `v`: the format version. Version 1 (earlier SDKs: `kind` is a tag such as `"subscription"`
///   with the kind's values beside it) is still read, see `DurableWriteCodec+Version1.swift`. A
///   record of another version, or one that does not decode, is never sent: the channel logs it
///   and deletes it.
/// - `kind`: ``DurableWrite/Kind``'s members; `rules` (status → ``DurableWrite/ResponseRule``) is
///   left out when empty.
/// - `timestamp`: whole milliseconds since 1970, cut the way ``JSONTimestamp`` cuts them, so the
///   wire `timestamp` of a reloaded write is the same string (the wire carries milliseconds only;
///   a JSON double would not survive `JSONSerialization` exactly).
/// - `userId` / `anonymousId`: absent when `nil`.
///
/// Attempt counts are not stored (they live in memory, see ``DurableWriteChannel``).
package enum DurableWriteCodec {
    /// The format version written by this SDK.
    package static let version: Int64 = 2

    /// The payload for `write`.
    package static func encode(_ write: DurableWrite) -> Data {
        var object: [String: JSONValue] = [
            "v": .int(Self.version),
            "id": .string(write.id),
            "timestamp": .int(Self.milliseconds(write.timestamp)),
            "kind": Self.encode(write.kind),
        ]
        if let userId = write.userId { object["userId"] = .string(userId) }
        if let anonymousId = write.anonymousId { object["anonymousId"] = .string(anonymousId) }
        return JSONValue.object(object).encoded()
    }

    /// The write stored in `payload` (version 1 or 2), or `nil` when it is neither.
    package static func decode(_ payload: Data) -> DurableWrite? {
        guard let object = JSONValue.parse(payload), object.objectValue != nil,
            let id = object["id"]?.stringValue, !id.isEmpty,
            let milliseconds = object["timestamp"]?.intValue,
            (-Self.maxMilliseconds...Self.maxMilliseconds).contains(milliseconds)
        else { return nil }
        let kind: DurableWrite.Kind?
        switch object["v"]?.intValue {
        case 1: kind = Self.version1Kind(of: object)
        case 2: kind = object["kind"].flatMap(Self.kind(from:))
        default: kind = nil
        }
        guard let kind else { return nil }
        return DurableWrite(
            id: id,
            kind: kind,
            userId: object["userId"]?.stringValue,
            anonymousId: object["anonymousId"]?.stringValue,
            timestamp: Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        )
    }

    /// The largest stored timestamp (milliseconds either side of 1970, about the year 2096) that
    /// decodes: up to it a `Date` holds the whole milliseconds exactly, so the write encodes back to
    /// the same record. A larger one can only come from a damaged record (found by fuzzing, issue 12:
    /// it decoded, then encoded as 0).
    static let maxMilliseconds: Int64 = 4_000_000_000_000

    /// Milliseconds since 1970, rounded to the microsecond first and then floored, as
    /// ``JSONTimestamp/string(from:)`` does.
    static func milliseconds(_ date: Date) -> Int64 {
        let microseconds = (date.timeIntervalSince1970 * 1_000_000).rounded()
        guard microseconds.isFinite, abs(microseconds) < 9.0e18 else { return 0 }
        let value = Int64(microseconds)
        let quotient = value / 1000
        return value % 1000 < 0 ? quotient - 1 : quotient
    }

    // MARK: - Kinds

    /// The stored object of a kind.
    private static func encode(_ kind: DurableWrite.Kind) -> JSONValue {
        var object: [String: JSONValue] = [
            "name": .string(kind.name),
            "method": .string(kind.method),
            "path": .string(kind.path),
            "fields": .object(kind.fields),
            "replacement": kind.replacement.keepsWaiting
                ? [
                    "key": .string(kind.replacement.key), "scope": .string(kind.replacement.scope.rawValue),
                    "keepsWaiting": .bool(true),
                ]
                : ["key": .string(kind.replacement.key), "scope": .string(kind.replacement.scope.rawValue)],
            "withdrawal": .bool(kind.isWithdrawal),
        ]
        if !kind.responseRules.isEmpty {
            object["rules"] = .object(
                Dictionary(
                    uniqueKeysWithValues: kind.responseRules.map {
                        (String($0.key), JSONValue.string($0.value.rawValue))
                    }
                )
            )
        }
        return .object(object)
    }

    /// The kind of a stored object, or `nil` when a member is missing or unknown.
    private static func kind(from object: JSONValue) -> DurableWrite.Kind? {
        guard let name = object["name"]?.stringValue,
            let method = object["method"]?.stringValue, !method.isEmpty,
            let path = object["path"]?.stringValue, !path.isEmpty,
            let fields = object["fields"]?.objectValue,
            let key = object["replacement"]?["key"]?.stringValue,
            let scope = object["replacement"]?["scope"]?.stringValue.flatMap(
                DurableWrite.Replacement.Scope.init(rawValue:)
            ),
            let withdrawal = object["withdrawal"]?.boolValue
        else { return nil }
        var rules: [Int: DurableWrite.ResponseRule] = [:]
        for (status, rule) in object["rules"]?.objectValue ?? [:] {
            guard let status = Int(status),
                let rule = rule.stringValue.flatMap(DurableWrite.ResponseRule.init(rawValue:))
            else { return nil }
            rules[status] = rule
        }
        return DurableWrite.Kind(
            name: name,
            method: method,
            path: path,
            fields: fields,
            replacement: DurableWrite.Replacement(
                key: key,
                scope: scope,
                keepsWaiting: object["replacement"]?["keepsWaiting"]?.boolValue ?? false
            ),
            isWithdrawal: withdrawal,
            responseRules: rules
        )
    }
}
