internal import Foundation
internal import JoryioCore

/// Writes one stored event: the compact JSON of the wire event (protocol.md, "Event object"), with
/// keys in sorted order and the already-encoded name, properties and timestamp spliced in.
package enum EventRecordEncoder {
    /// The stored payload of `event`, recorded in `sessionId` on `deviceId`.
    package static func encode(
        _ event: JoryioEvent,
        encodedProperties: [UInt8],
        sessionId: String?,
        deviceId: String?
    ) -> [UInt8] {
        var name: [UInt8] = []
        JSONValue.encode(string: event.name, into: &name)
        let timestamp = Array(JSONTimestamp.string(from: event.timestamp).utf8)
        return name.withUnsafeBytes { name in
            encodedProperties.withUnsafeBytes { properties in
                timestamp.withUnsafeBytes { timestamp in
                    Self.encode(
                        Fragments(name: name, properties: properties, timestamp: timestamp),
                        messageId: event.messageId,
                        anonymousId: event.anonymousId,
                        userId: event.userId,
                        sessionId: sessionId,
                        deviceId: deviceId
                    )
                }
            }
        }
    }

    /// The parts of an event that arrive already encoded (from the caller's thread, through the
    /// journal): the name as a JSON string literal, the properties as a JSON object, and the
    /// timestamp's wire text without quotes.
    struct Fragments {
        var name: UnsafeRawBufferPointer
        var properties: UnsafeRawBufferPointer
        var timestamp: UnsafeRawBufferPointer
    }

    /// The stored payload from encoded fragments and the ids the engine adds.
    static func encode(
        _ fragments: Fragments,
        messageId: String,
        anonymousId: String,
        userId: String?,
        sessionId: String?,
        deviceId: String?
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(fragments.name.count + fragments.properties.count + 320)
        bytes.append(contentsOf: #"{"anonymousId":"#.utf8)
        JSONValue.encode(string: anonymousId, into: &bytes)
        if let deviceId {
            bytes.append(contentsOf: #","deviceId":"#.utf8)
            JSONValue.encode(string: deviceId, into: &bytes)
        }
        bytes.append(contentsOf: #","event":"#.utf8)
        bytes.append(contentsOf: fragments.name)
        bytes.append(contentsOf: #","messageId":"#.utf8)
        JSONValue.encode(string: messageId, into: &bytes)
        bytes.append(contentsOf: #","properties":"#.utf8)
        bytes.append(contentsOf: fragments.properties)
        if let sessionId {
            bytes.append(contentsOf: #","sessionId":"#.utf8)
            JSONValue.encode(string: sessionId, into: &bytes)
        }
        bytes.append(contentsOf: #","timestamp":""#.utf8)
        bytes.append(contentsOf: fragments.timestamp)
        bytes.append(contentsOf: #"","type":"track""#.utf8)
        if let userId {
            bytes.append(contentsOf: #","userId":"#.utf8)
            JSONValue.encode(string: userId, into: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}
