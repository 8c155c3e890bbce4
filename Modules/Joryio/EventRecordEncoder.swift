internal import JoryioCore

/// Writes one stored event: the compact JSON of the wire event (protocol.md, "Event object"), with
/// keys in sorted order and the already-encoded properties spliced in.
package enum EventRecordEncoder {
    /// The stored payload of `event`, recorded in `sessionId` on `deviceId`.
    package static func encode(
        _ event: JoryioEvent,
        encodedProperties: [UInt8],
        sessionId: String?,
        deviceId: String?
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encodedProperties.count + 320)
        bytes += Array(#"{"anonymousId":"#.utf8)
        JSONValue.encode(string: event.anonymousId, into: &bytes)
        if let deviceId {
            bytes += Array(#","deviceId":"#.utf8)
            JSONValue.encode(string: deviceId, into: &bytes)
        }
        bytes += Array(#","event":"#.utf8)
        JSONValue.encode(string: event.name, into: &bytes)
        bytes += Array(#","messageId":"#.utf8)
        JSONValue.encode(string: event.messageId, into: &bytes)
        bytes += Array(#","properties":"#.utf8)
        bytes += encodedProperties
        if let sessionId {
            bytes += Array(#","sessionId":"#.utf8)
            JSONValue.encode(string: sessionId, into: &bytes)
        }
        bytes += Array(#","timestamp":"#.utf8)
        JSONValue.encode(string: JSONTimestamp.string(from: event.timestamp), into: &bytes)
        bytes += Array(#","type":"track""#.utf8)
        if let userId = event.userId {
            bytes += Array(#","userId":"#.utf8)
            JSONValue.encode(string: userId, into: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}
