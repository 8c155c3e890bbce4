internal import Foundation

/// The walk behind ``JSONValue/convert(_:)``: app values in, ``JSONValue`` out, with what was left
/// out and why.
///
/// It runs on the caller's thread for every `track()`, so two things are built in:
///
/// - **Bounded depth.** A container past ``maxDepth`` is dropped (the first one is reported as too
///   deep by ``finish(root:)``) and never looked into, so recursion is at most ``maxDepth`` levels whatever the input: hostile nesting cannot
///   exhaust a 512 KiB stack, and costs nothing past the limit.
/// - **Paths on demand.** A dropped value is recorded with an empty path, and each container puts
///   its own step in front on the way out; the common case builds no path strings and allocates
///   nothing for paths.
struct JSONConverter {
    /// The deepest container kept; the value converted at level 1 is the outermost container.
    let maxDepth: Int
    /// Values left out so far, in the order they were met; paths are relative to the container
    /// being converted until ``finish(root:)``.
    private var dropped: [JSONValue.DroppedValue] = []
    /// The index in ``dropped`` of the first container found past ``maxDepth``.
    private var tooDeepIndex: Int?

    init(maxDepth: Int) {
        self.maxDepth = max(1, maxDepth)
    }

    /// What was left out, with paths under `root` (where the converted value sits in the caller's
    /// input; `""` for the top level), and the first container past the depth limit.
    func finish(root: String = "") -> (dropped: [JSONValue.DroppedValue], tooDeep: JSONValue.DroppedValue?) {
        var dropped = self.dropped
        if !root.isEmpty {
            for index in dropped.indices {
                dropped[index].path = Self.join(root, dropped[index].path)
            }
        }
        return (dropped, self.tooDeepIndex.map { dropped[$0] })
    }

    // MARK: - Containers

    /// Converts an object at `level` (its members are one level deeper).
    mutating func object(_ dictionary: [String: Any], level: Int) -> [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        members.reserveCapacity(dictionary.count)
        for (key, element) in dictionary {
            let mark = self.dropped.count
            if let converted = self.value(element, level: level + 1) {
                members[key] = converted
            }
            self.prefix(key, since: mark)
        }
        return members
    }

    /// Converts an array at `level` (its elements are one level deeper).
    private mutating func array(_ elements: [Any], level: Int) -> [JSONValue] {
        var converted: [JSONValue] = []
        converted.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let mark = self.dropped.count
            if let value = self.value(element, level: level + 1) {
                converted.append(value)
            }
            self.prefix(index, since: mark)
        }
        return converted
    }

    /// Whether a container may be converted at `level`; records it as too deep otherwise.
    private mutating func enters(_ level: Int) -> Bool {
        guard level > self.maxDepth else { return true }
        if self.tooDeepIndex == nil { self.tooDeepIndex = self.dropped.count }
        _ = self.drop("nested deeper than \(self.maxDepth) levels")
        return false
    }

    // MARK: - Values

    /// Converts any supported value at `level` (the level it has if it is a container); `nil` when
    /// it was dropped, recorded in ``dropped``.
    mutating func value(_ value: Any, level: Int) -> JSONValue? {
        // Fast path for the exact types apps pass most (this runs on the caller's thread for every
        // property): comparing metatypes is free, while each failing `as?` below is a runtime cast
        // with conformance lookups (~600 ns a value). Same results as the general path.
        let dynamicType = type(of: value)
        if dynamicType == String.self, let value = value as? String { return .string(value) }
        if dynamicType == Double.self, let value = value as? Double { return self.double(value) }
        if dynamicType == Int.self, let value = value as? Int { return .int(Int64(value)) }
        if dynamicType == Bool.self, let value = value as? Bool { return .bool(value) }

        if let optional = value as? any OptionalConvertible {
            guard let wrapped = optional.wrappedAny else { return .null }
            return self.value(wrapped, level: level)
        }
        // Foundation numbers first: on Linux they also cast to Bool, Int and Double.
        if dynamicType is NSNumber.Type, let number = value as? NSNumber {
            return self.number(number)
        }
        // By metatype, not `is NSNull`: casting a dictionary or an array to a class bridges it to
        // Foundation first, all of it, recursively (deep input overflowed the stack right there).
        if dynamicType is NSNull.Type {
            return .null
        }
        switch value {
        // Containers before anything else, for the same reason.
        case let value as [String: Any]:
            guard self.enters(level) else { return nil }
            return .object(self.object(value, level: level))
        case let value as [Any]:
            guard self.enters(level) else { return nil }
            return .array(self.array(value, level: level))
        case let value as JSONValue:
            return self.json(value, level: level)
        case let value as String:
            return .string(value)
        case let value as Substring:
            return .string(String(value))
        case let value as Bool:
            return .bool(value)
        case let value as Decimal:
            return self.decimal(value)
        case let value as any BinaryInteger:
            return self.integer(value)
        case let value as Double:
            return self.double(value)
        case let value as any BinaryFloatingPoint:
            // Float, CGFloat, Float16, Float80.
            return self.binaryFloatingPoint(value)
        case let value as Date:
            guard let text = JSONTimestamp.string(ifRepresentable: value) else {
                return self.drop("date outside years 0000–9999")
            }
            return .string(text)
        case let value as URL:
            return .string(value.absoluteString)
        default:
            return self.drop("unsupported type \(type(of: value))")
        }
    }

    /// A ``JSONValue`` the app built itself: held to the same rules (depth, EVT-4), since the
    /// encoder and the server would choke on what the rules keep out.
    private mutating func json(_ value: JSONValue, level: Int) -> JSONValue? {
        switch value {
        case .double(let number):
            return self.double(number)
        case .array(let elements):
            guard self.enters(level) else { return nil }
            var converted: [JSONValue] = []
            converted.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                let mark = self.dropped.count
                if let value = self.json(element, level: level + 1) { converted.append(value) }
                self.prefix(index, since: mark)
            }
            return .array(converted)
        case .object(let members):
            guard self.enters(level) else { return nil }
            var converted: [String: JSONValue] = [:]
            converted.reserveCapacity(members.count)
            for (key, member) in members {
                let mark = self.dropped.count
                if let value = self.json(member, level: level + 1) { converted[key] = value }
                self.prefix(key, since: mark)
            }
            return .object(converted)
        case .null, .bool, .int, .string:
            return value
        }
    }

    // MARK: - Dropping

    /// Records the value being converted as dropped; returns `nil` for the caller to return.
    mutating func drop(_ reason: String) -> JSONValue? {
        self.dropped.append(JSONValue.DroppedValue(path: "", reason: reason))
        return nil
    }

    /// Puts a member's key in front of the paths of the values dropped inside it (those recorded
    /// since `mark`); nothing to do, and nothing built, when none were.
    private mutating func prefix(_ key: String, since mark: Int) {
        for index in mark..<self.dropped.count {
            self.dropped[index].path = Self.join(key, self.dropped[index].path)
        }
    }

    /// Puts an element's index in front of the paths of the values dropped inside it.
    private mutating func prefix(_ index: Int, since mark: Int) {
        for dropped in mark..<self.dropped.count {
            self.dropped[dropped].path = Self.join("[\(index)]", self.dropped[dropped].path)
        }
    }

    /// `outer` followed by `inner`: `a` + `b` is `a.b`, `a` + `[2].b` is `a[2].b`.
    private static func join(_ outer: String, _ inner: String) -> String {
        if inner.isEmpty { return outer }
        if outer.isEmpty || inner.utf8.first == UInt8(ascii: "[") { return outer + inner }
        return outer + "." + inner
    }
}

/// Lets ``JSONConverter`` see through an `Optional` hidden inside `Any`.
protocol OptionalConvertible {
    /// The wrapped value, or `nil`.
    var wrappedAny: Any? { get }
}

extension Optional: OptionalConvertible {
    var wrappedAny: Any? {
        self.map { $0 as Any }
    }
}
