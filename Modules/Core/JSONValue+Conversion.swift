public import Foundation

extension JSONValue {
    /// The result of converting app-supplied values: what was kept and what was dropped.
    public struct Conversion: Sendable, Equatable {
        /// The converted object.
        public var value: [String: JSONValue]
        /// Key paths of values that were dropped (non-finite numbers, unsupported types), such as
        /// `price` or `items[2].weight`.
        public var dropped: [DroppedValue]

        /// The first value nested deeper than the conversion's depth limit, when there is one (also
        /// in ``dropped``). The conversion never looks inside it; callers whose limit is a server rule
        /// (EVT-5, attribute values) refuse the whole input.
        package var tooDeep: DroppedValue?

        /// Creates a conversion result.
        public init(value: [String: JSONValue], dropped: [DroppedValue]) {
            self.value = value
            self.dropped = dropped
        }
    }

    /// A value left out of a ``Conversion``, and why.
    public struct DroppedValue: Sendable, Equatable {
        /// Where the value was, such as `items[2].weight`.
        public var path: String
        /// Why it was dropped, such as `non-finite number`, `integer outside the signed 64-bit range`,
        /// `date outside years 0000–9999`, `nested deeper than 64 levels` or
        /// `unsupported type <TypeName>`.
        public var reason: String

        /// Creates a dropped-value record.
        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    /// How deeply ``convert(_:)`` and ``convert(any:path:dropped:)`` nest containers at most; deeper
    /// ones are dropped without being looked into, so no input can exhaust the caller's stack.
    package static let maxConversionDepth = 64

    /// Converts an app's dictionary (strings, booleans, numbers, `Date`, `URL`, `NSNull`, optionals
    /// and nested arrays and dictionaries of those).
    ///
    /// Non-finite numbers and values of other types are left out (EVT-4) and listed in
    /// ``Conversion/dropped``, so the caller can log one warning each; the rest is kept. `nil` and
    /// `NSNull` become `null`. Dates become ISO 8601 UTC strings with milliseconds (years 0000…9999;
    /// others are left out), URLs their absolute string. A number is kept only when it is sent
    /// exactly: integers within 64 bits signed, `Float` and `CGFloat` as their shortest decimal
    /// form, `Decimal` as an integer or the double nearest to its decimal text, `NSNumber` booleans
    /// as booleans. Containers nested more than 64 levels deep are left out without being looked
    /// into.
    public static func convert(_ dictionary: [String: Any]) -> Conversion {
        Self.convert(dictionary, maxDepth: Self.maxConversionDepth)
    }

    /// Converts an app's dictionary, keeping containers at most `maxDepth` levels deep (the
    /// dictionary itself is level 1); the first deeper one is ``Conversion/tooDeep``.
    package static func convert(_ dictionary: [String: Any], maxDepth: Int) -> Conversion {
        var converter = JSONConverter(maxDepth: maxDepth)
        let value = converter.object(dictionary, level: 1)
        let (dropped, tooDeep) = converter.finish()
        var conversion = Conversion(value: value, dropped: dropped)
        conversion.tooDeep = tooDeep
        return conversion
    }

    /// Converts any supported value; `nil` when it (as a whole) was dropped, recorded in `dropped`.
    public static func convert(any value: Any, path: String = "", dropped: inout [DroppedValue]) -> JSONValue? {
        let converted = Self.convert(any: value, path: path, maxDepth: Self.maxConversionDepth)
        dropped += converted.dropped
        return converted.value
    }

    /// Converts one value, keeping containers at most `maxDepth` levels deep (the value itself is
    /// level 1); `value` is `nil` when it was dropped as a whole.
    package static func convert(
        any value: Any,
        path: String,
        maxDepth: Int
    ) -> (value: JSONValue?, dropped: [DroppedValue], tooDeep: DroppedValue?) {
        var converter = JSONConverter(maxDepth: maxDepth)
        let converted = converter.value(value, level: 1)
        let (dropped, tooDeep) = converter.finish(root: path)
        return (converted, dropped, tooDeep)
    }

    /// Parses JSON text (for example a server response or a stored record) into a value, with
    /// exact numbers (``JSONParser``); values nested deeper than 64 levels are left out.
    public static func parse(_ data: Data) -> JSONValue? {
        JSONParser.parse(data, maxDepth: Self.maxConversionDepth)
    }
}
