package import Foundation
import JoryioCore

/// The stored form of a ``DurableWrite``: one compact JSON object per ``QueueRecord`` payload.
///
/// ```json
/// {"anonymousId":"a1","channel":"email","id":"w1","kind":"subscription","status":"subscribed",
///  "timestamp":1767225600123,"userId":"u1","v":1}
/// ```
///
/// - `v`: the format version (1). A record with another version, or one that does not decode, is
///   never sent: the channel logs it and deletes it.
/// - `kind`: `identify`, `alias` (`label`, `name`), `subscription` (`channel`, `status`),
///   `subscriptionGroup` (`channel`, `groupId`, `join`), `optOut` (`optedOut`), `pushUnregister`
///   (`token`).
/// - `timestamp`: whole milliseconds since 1970, cut the way ``JSONTimestamp`` cuts them, so the
///   wire `timestamp` of a reloaded write is the same string (the wire carries milliseconds only;
///   a JSON double would not survive `JSONSerialization` exactly).
/// - `userId` / `anonymousId`: absent when `nil`.
///
/// Attempt counts are not stored (they live in memory, see ``DurableWriteChannel``).
package enum DurableWriteCodec {
    /// The format version written by this SDK.
    package static let version: Int64 = 1

    /// The payload for `write`.
    package static func encode(_ write: DurableWrite) -> Data {
        var object: [String: JSONValue] = [
            "v": .int(Self.version),
            "id": .string(write.id),
            "timestamp": .int(Self.milliseconds(write.timestamp)),
        ]
        if let userId = write.userId { object["userId"] = .string(userId) }
        if let anonymousId = write.anonymousId { object["anonymousId"] = .string(anonymousId) }
        switch write.kind {
        case .identify:
            object["kind"] = "identify"
        case .alias(let label, let name):
            object["kind"] = "alias"
            object["label"] = .string(label)
            object["name"] = .string(name)
        case .subscription(let channel, let status):
            object["kind"] = "subscription"
            object["channel"] = .string(channel)
            object["status"] = .string(status)
        case .subscriptionGroup(let channel, let groupId, let join):
            object["kind"] = "subscriptionGroup"
            object["channel"] = .string(channel)
            object["groupId"] = .string(groupId)
            object["join"] = .bool(join)
        case .optOutRecord(let optedOut):
            object["kind"] = "optOut"
            object["optedOut"] = .bool(optedOut)
        case .pushUnregister(let token):
            object["kind"] = "pushUnregister"
            object["token"] = .string(token)
        }
        return JSONValue.object(object).encoded()
    }

    /// The write stored in `payload`, or `nil` when it is not a version-1 write.
    package static func decode(_ payload: Data) -> DurableWrite? {
        guard let object = JSONValue.parse(payload), object.objectValue != nil,
            object["v"]?.intValue == Self.version,
            let id = object["id"]?.stringValue, !id.isEmpty,
            let milliseconds = object["timestamp"]?.intValue,
            let kind = Self.kind(of: object)
        else { return nil }
        let userId = object["userId"]?.stringValue
        let anonymousId = object["anonymousId"]?.stringValue
        return DurableWrite(
            id: id,
            kind: kind,
            userId: userId,
            anonymousId: anonymousId,
            timestamp: Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        )
    }

    /// Milliseconds since 1970, rounded to the microsecond first and then floored, as
    /// ``JSONTimestamp/string(from:)`` does.
    static func milliseconds(_ date: Date) -> Int64 {
        let microseconds = (date.timeIntervalSince1970 * 1_000_000).rounded()
        guard microseconds.isFinite, abs(microseconds) < 9.0e18 else { return 0 }
        let value = Int64(microseconds)
        let quotient = value / 1000
        return value % 1000 < 0 ? quotient - 1 : quotient
    }

    private static func kind(of object: JSONValue) -> DurableWrite.Kind? {
        let string = { (key: String) in object[key]?.stringValue }
        switch string("kind") {
        case "identify":
            return .identify
        case "alias":
            guard let label = string("label"), let name = string("name") else { return nil }
            return .alias(label: label, name: name)
        case "subscription":
            guard let channel = string("channel"), let status = string("status") else { return nil }
            return .subscription(channel: channel, status: status)
        case "subscriptionGroup":
            guard let channel = string("channel"), let groupId = string("groupId"),
                let join = object["join"]?.boolValue
            else { return nil }
            return .subscriptionGroup(channel: channel, groupId: groupId, join: join)
        case "optOut":
            guard let optedOut = object["optedOut"]?.boolValue else { return nil }
            return .optOutRecord(optedOut: optedOut)
        case "pushUnregister":
            guard let token = string("token") else { return nil }
            return .pushUnregister(token: token)
        default:
            return nil
        }
    }
}
