import JoryioCore

/// Version 1 of the stored form, written by earlier SDKs and still read:
///
/// ```json
/// {"anonymousId":"a1","channel":"email","id":"w1","kind":"subscription","status":"subscribed",
///  "timestamp":1767225600123,"userId":"u1","v":1}
/// ```
///
/// `kind` is one of `identify`, `alias` (`label`, `name`), `subscription` (`channel`, `status`),
/// `subscriptionGroup` (`channel`, `groupId`, `join`), `optOut` (`optedOut`), `pushUnregister`
/// (`token`); each becomes today's kind of the same name, so a write stored before the update is
/// sent exactly as one made now.
extension DurableWriteCodec {
    /// The kind of a version-1 record, or `nil` when its tag or values do not read.
    static func version1Kind(of object: JSONValue) -> DurableWrite.Kind? {
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
