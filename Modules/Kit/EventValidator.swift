package import JoryioCore

/// The server's event limits, checked before an event is stored (EVT-3, EVT-5).
package enum EventValidator {
    /// Longest event name, in Unicode scalars (the server counts code points).
    package static let maxNameLength = 255
    /// Largest properties object, in canonical JSON bytes (50 KB).
    package static let maxPropertiesBytes = 51_200
    /// Most top-level property keys.
    package static let maxPropertyKeys = 200
    /// Deepest nesting; the properties object itself is level 1.
    package static let maxDepth = 5

    /// Why the event must be dropped, or `nil` when it is valid. `encodedProperties` is the
    /// canonical encoding of `properties`.
    package static func problem(name: String, properties: [String: JSONValue], encodedProperties: [UInt8]) -> String? {
        if name.isEmpty {
            return "the event name is empty"
        }
        let length = name.unicodeScalars.count
        if length > Self.maxNameLength {
            return "the event name has \(length) characters (at most \(Self.maxNameLength))"
        }
        if properties.count > Self.maxPropertyKeys {
            return "the properties have \(properties.count) top-level keys (at most \(Self.maxPropertyKeys))"
        }
        // Flat properties (most events) are one level deep: walk the tree only when a value nests.
        let nests = properties.values.contains { value in
            switch value {
            case .array, .object: true
            default: false
            }
        }
        let depth = nests ? JSONValue.object(properties).nestingDepth : 1
        if depth > Self.maxDepth {
            return "the properties nest \(depth) levels deep (at most \(Self.maxDepth))"
        }
        if encodedProperties.count > Self.maxPropertiesBytes {
            return "the properties are \(encodedProperties.count) bytes (at most \(Self.maxPropertiesBytes))"
        }
        return nil
    }
}
