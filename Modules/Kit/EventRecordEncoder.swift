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
        bytes.append(contentsOf: #"{"anonymousId":"#.utf8)
        JSONValue.encode(string: event.anonymousId, into: &bytes)
        if let deviceId {
            bytes.append(contentsOf: #","deviceId":"#.utf8)
            JSONValue.encode(string: deviceId, into: &bytes)
        }
        bytes.append(contentsOf: #","event":"#.utf8)
        JSONValue.encode(string: event.name, into: &bytes)
        bytes.append(contentsOf: #","messageId":"#.utf8)
        JSONValue.encode(string: event.messageId, into: &bytes)
        bytes.append(contentsOf: #","properties":"#.utf8)
        bytes += encodedProperties
        if let sessionId {
            bytes.append(contentsOf: #","sessionId":"#.utf8)
            JSONValue.encode(string: sessionId, into: &bytes)
        }
        bytes.append(contentsOf: #","timestamp":"#.utf8)
        JSONValue.encode(string: JSONTimestamp.string(from: event.timestamp), into: &bytes)
        bytes.append(contentsOf: #","type":"track""#.utf8)
        if let userId = event.userId {
            bytes.append(contentsOf: #","userId":"#.utf8)
            JSONValue.encode(string: userId, into: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}
