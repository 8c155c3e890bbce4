package import Foundation
import JoryioCore

/// The user id of a stored event payload (its top-level `userId`), `nil` when anonymous.
///
/// Read for every queued event a batch may take while SDK authentication is on, so it avoids parsing
/// the whole event: the SDK's encoder writes keys in sorted order, which puts `userId` last, right
/// after `"type":"track"`. Anything else falls back to a full parse.
package enum EventPayloadIdentity {
    /// How an anonymous payload ends.
    private static let anonymousTail = Data(#""type":"track"}"#.utf8)
    /// The top-level `userId` key, the last one of a user's payload.
    private static let userMarker = Data(#","userId":"#.utf8)

    /// The payload's `userId`, or `nil`.
    package static func userId(of payload: Data) -> String? {
        if payload.count >= Self.anonymousTail.count, payload.suffix(Self.anonymousTail.count) == Self.anonymousTail {
            return nil
        }
        // `…,"userId":"<string>"}`: a raw `,"userId":` cannot occur inside a JSON string, and the
        // top-level key is the last one; a `userId` key inside the properties fails to parse below.
        if let marker = payload.range(of: Self.userMarker, options: .backwards), payload.last == UInt8(ascii: "}") {
            var literal = Data("[".utf8)
            literal.append(payload[marker.upperBound..<(payload.endIndex - 1)])
            literal.append(UInt8(ascii: "]"))
            if let elements = JSONValue.parse(literal)?.arrayValue, elements.count == 1,
                let value = elements[0].stringValue
            {
                return value.isEmpty ? nil : value
            }
        }
        return JSONValue.parse(payload)?["userId"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
    }
}
