public import Foundation

extension JSONValue {
    /// The result of converting app-supplied values: what was kept and what was dropped.
    public struct Conversion: Sendable, Equatable {
        /// The converted object.
        public var value: [String: JSONValue]
        /// Key paths of values that were dropped (non-finite numbers, unsupported types), such as
        /// `price` or `items[2].weight`.
        public var dropped: [DroppedValue]

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
        /// Why it was dropped: `non-finite number` or `unsupported type <TypeName>`.
        public var reason: String

        /// Creates a dropped-value record.
        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    /// Converts an app's dictionary (strings, booleans, integers, doubles, `Date`, `URL`, `NSNull`,
    /// optionals and nested arrays and dictionaries of those).
    ///
    /// Non-finite numbers and values of other types are left out (EVT-4) and listed in
    /// ``Conversion/dropped``, so the caller can log one warning each; the rest is kept. `nil` and
    /// `NSNull` become `null`. Dates become ISO 8601 UTC strings with milliseconds, URLs their
    /// absolute string.
    public static func convert(_ dictionary: [String: Any]) -> Conversion {
        var dropped: [DroppedValue] = []
        let value = Self.convertObject(dictionary, path: "", dropped: &dropped)
        return Conversion(value: value, dropped: dropped)
    }

    /// Converts any supported value; `nil` when it (as a whole) was dropped, recorded in `dropped`.
    public static func convert(any value: Any, path: String = "", dropped: inout [DroppedValue]) -> JSONValue? {
        // Fast path for the exact types apps pass most (this runs on the caller's thread for every
        // property): comparing metatypes is free, while each failing `as?` below is a runtime cast
        // with conformance lookups (~600 ns a value). Same results as the general path.
        let dynamicType = type(of: value)
        if dynamicType == String.self, let value = value as? String { return .string(value) }
        if dynamicType == Double.self, let value = value as? Double {
            return Self.finite(value, path: path, dropped: &dropped)
        }
        if dynamicType == Int.self, let value = value as? Int { return .int(Int64(value)) }
        if dynamicType == Bool.self, let value = value as? Bool { return .bool(value) }

        if let optional = value as? any OptionalConvertible {
            guard let wrapped = optional.wrappedAny else { return .null }
            return Self.convert(any: wrapped, path: path, dropped: &dropped)
        }
        // Foundation numbers first: on Linux they also cast to Bool, Int and Double.
        if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
            return Self.convert(number: number, path: path, dropped: &dropped)
        }
        switch value {
        case let value as JSONValue:
            return value
        case let value as String:
            return .string(value)
        case let value as Substring:
            return .string(String(value))
        case let value as Bool:
            return .bool(value)
        case let value as any BinaryInteger:
            if let exact = Int64(exactly: value) { return .int(exact) }
            return Self.finite(Double(value), path: path, dropped: &dropped)
        case let value as Double:
            return Self.finite(value, path: path, dropped: &dropped)
        case let value as Float:
            return Self.finite(Double("\(value)") ?? Double(value), path: path, dropped: &dropped)
        case let value as Date:
            return .string(JSONTimestamp.string(from: value))
        case let value as URL:
            return .string(value.absoluteString)
        case is NSNull:
            return .null
        case let value as [String: Any]:
            return .object(Self.convertObject(value, path: path, dropped: &dropped))
        case let value as [Any]:
            var elements: [JSONValue] = []
            elements.reserveCapacity(value.count)
            for (index, element) in value.enumerated() {
                if let converted = Self.convert(any: element, path: "\(path)[\(index)]", dropped: &dropped) {
                    elements.append(converted)
                }
            }
            return .array(elements)
        default:
            dropped.append(DroppedValue(path: path, reason: "unsupported type \(type(of: value))"))
            return nil
        }
    }

    /// Parses JSON text (for example a server response) into a value.
    public static func parse(_ data: Data) -> JSONValue? {
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return nil
        }
        var dropped: [DroppedValue] = []
        return Self.convert(any: object, dropped: &dropped)
    }

    private static func convertObject(
        _ dictionary: [String: Any],
        path: String,
        dropped: inout [DroppedValue]
    ) -> [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        members.reserveCapacity(dictionary.count)
        for (key, element) in dictionary {
            let elementPath = path.isEmpty ? key : "\(path).\(key)"
            if let converted = Self.convert(any: element, path: elementPath, dropped: &dropped) {
                members[key] = converted
            }
        }
        return members
    }

    private static func convert(number: NSNumber, path: String, dropped: inout [DroppedValue]) -> JSONValue? {
        if Self.isBoolean(number) {
            return .bool(number.boolValue)
        }
        switch String(cString: number.objCType) {
        case "f", "d":
            return Self.finite(number.doubleValue, path: path, dropped: &dropped)
        case "Q", "L", "I", "S", "C":
            let unsigned = number.uint64Value
            if let exact = Int64(exactly: unsigned) { return .int(exact) }
            return .double(Double(unsigned))
        default:
            return .int(number.int64Value)
        }
    }

    private static func isBoolean(_ number: NSNumber) -> Bool {
        #if canImport(Darwin)
        return CFGetTypeID(number) == CFBooleanGetTypeID()
        #else
        return String(cString: number.objCType) == "c"
        #endif
    }

    private static func finite(_ value: Double, path: String, dropped: inout [DroppedValue]) -> JSONValue? {
        guard value.isFinite else {
            dropped.append(DroppedValue(path: path, reason: "non-finite number"))
            return nil
        }
        return .double(value)
    }
}

/// Lets ``JSONValue/convert(any:path:dropped:)`` see through an `Optional` hidden inside `Any`.
protocol OptionalConvertible {
    /// The wrapped value, or `nil`.
    var wrappedAny: Any? { get }
}

extension Optional: OptionalConvertible {
    var wrappedAny: Any? {
        self.map { $0 as Any }
    }
}
