internal import Foundation
internal import JoryioCore
internal import JoryioDelivery

/// One attribute change as the app asked for it, checked and converted on the caller's thread.
enum AttributeChange: Sendable, Equatable {
    case set(JSONValue)
    case increment(Double)
    case unset

    /// The change a write carries.
    var operation: AttributeWrite.Operation {
        switch self {
        case .set(let value): .set(value)
        case .increment(let delta): .increment(delta)
        case .unset: .unset
        }
    }
}

/// The checks on attribute, alias and subscription input (ATTR-5, ATTR-6, IDENT-13, SUB-10 and the
/// decisions GAP-24, GAP-31). Each returns what to send and the warnings to log; nothing here
/// throws or crashes on app input.
enum WriteValidator {
    /// Attribute names the SDK writes itself (ATTR-21): an app cannot set them.
    static let reservedAttributeKeys: Set<String> = ["tracking_opted_out", "push_permission"]
    /// The longest attribute name, in Unicode code points (the server's limit, docs/protocol.md §3.3).
    static let maxKeyLength = 255
    /// The largest attribute value, as compact JSON (the event properties' limit, EVT).
    static let maxValueBytes = 51_200
    /// The deepest attribute value (the server's limit).
    static let maxValueDepth = 5
    /// Marketing channels (SUB-3).
    static let channels: Set<String> = ["email", "sms", "whatsapp", "push", "viber"]
    /// Subscription statuses (SUB-3).
    static let statuses: Set<String> = ["optedIn", "subscribed", "unsubscribed"]
    /// The longest alias label (GAP-24).
    static let maxLabelLength = 64
    /// The longest alias value, in Unicode code points (docs/protocol.md §3.3).
    static let maxNameLength = 255
    /// The longest subscription group id, in Unicode code points (docs/protocol.md §3.3).
    static let maxGroupIdLength = 128

    /// The result of checking an attribute call.
    struct Checked: Sendable, Equatable {
        var changes: [(key: String, change: AttributeChange)]
        var warnings: [String]

        static func == (lhs: Checked, rhs: Checked) -> Bool {
            lhs.warnings == rhs.warnings
                && lhs.changes.elementsEqual(rhs.changes) { $0.key == $1.key && $0.change == $1.change }
        }
    }

    /// Checks `setAttributes` / `setAttribute` input: `nil` and `NSNull` remove the key (ATTR-1,
    /// ATTR-2); a value that cannot be sent is dropped with a warning and the rest goes ahead (ATTR-6).
    static func set(_ attributes: [(key: String, value: Any?)], call: String) -> Checked {
        var checked = Checked(changes: [], warnings: [])
        for (key, value) in attributes {
            if let problem = Self.keyProblem(key) {
                checked.warnings.append("\(call): \(problem); that attribute was skipped")
                continue
            }
            // `NSNull` by metatype: `is NSNull` would first bridge a dictionary or array value to
            // Foundation, all of it, recursively, on the caller's thread.
            guard let value, !(type(of: value) is NSNull.Type) else {
                checked.changes.append((key, .unset))
                continue
            }
            // Converted no deeper than the server's limit, so deep input costs neither time nor stack.
            let conversion = JSONValue.convert(any: value, path: key, maxDepth: Self.maxValueDepth)
            if let tooDeep = conversion.tooDeep {
                checked.warnings.append(
                    "\(call): attribute \"\(key)\" nests deeper than \(Self.maxValueDepth) levels "
                        + "(at \(tooDeep.path)); skipped"
                )
                continue
            }
            for item in conversion.dropped {
                checked.warnings.append("\(call): dropped value \(item.path) (\(item.reason))")
            }
            guard let converted = conversion.value else { continue }
            if converted == .null {
                checked.changes.append((key, .unset))
                continue
            }
            var bytes: [UInt8] = []
            converted.encode(into: &bytes)
            if bytes.count > Self.maxValueBytes {
                checked.warnings.append(
                    "\(call): attribute \"\(key)\" is \(bytes.count) bytes (limit \(Self.maxValueBytes)); skipped"
                )
                continue
            }
            checked.changes.append((key, .set(converted)))
        }
        return checked
    }

    /// Checks `incrementAttribute`: a finite delta on a valid key (ATTR-3, ATTR-6).
    static func increment(_ key: String, by amount: Double) -> Checked {
        if let problem = Self.keyProblem(key) {
            return Checked(changes: [], warnings: ["incrementAttribute: \(problem); nothing changed"])
        }
        guard amount.isFinite else {
            return Checked(
                changes: [],
                warnings: ["incrementAttribute \"\(key)\": the amount is not a finite number; nothing changed"]
            )
        }
        return Checked(changes: [(key, .increment(amount))], warnings: [])
    }

    /// Checks `unsetAttribute` (ATTR-4, ATTR-5).
    static func unset(_ key: String) -> Checked {
        if let problem = Self.keyProblem(key) {
            return Checked(changes: [], warnings: ["unsetAttribute: \(problem); nothing changed"])
        }
        return Checked(changes: [(key, .unset)], warnings: [])
    }

    /// Why an attribute name cannot be used, or `nil`.
    static func keyProblem(_ key: String) -> String? {
        if key.isEmpty { return "the attribute name is empty" }
        // Code points, as the server counts (Swift's `count` counts grapheme clusters, fewer).
        let length = key.unicodeScalars.count
        if length > Self.maxKeyLength {
            return "the attribute name is longer than \(Self.maxKeyLength) characters (\(length) code points)"
        }
        if Self.reservedAttributeKeys.contains(key) { return "\"\(key)\" is written by the SDK itself" }
        return nil
    }

    /// Why `addAlias(label, name:)` cannot be sent, or `nil` (IDENT-13, GAP-24).
    static func aliasProblem(label: String, name: String) -> String? {
        if label.isEmpty || label.utf8.count > Self.maxLabelLength
            || !label.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F })
        {
            return
                "the label \(Self.quoted(label)) must be 1–\(Self.maxLabelLength) lowercase letters, digits or underscores"
        }
        if name.isEmpty { return "the alias value (name:) is empty" }
        let length = name.unicodeScalars.count
        if length > Self.maxNameLength {
            return "the alias value is longer than \(Self.maxNameLength) characters (\(length) code points)"
        }
        return nil
    }

    /// `text` in quotes for a log line: at most 80 characters, control characters escaped
    /// (`\n`, `\u{0}`), so hostile input keeps the line one readable line.
    static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars.prefix(80) {
            output += scalar.properties.generalCategory == .control ? scalar.escaped(asASCII: true) : String(scalar)
        }
        return output + (text.unicodeScalars.count > 80 ? "…\"" : "\"")
    }

    /// Why a subscription call cannot be sent, or `nil` (SUB-3, SUB-10).
    static func subscriptionProblem(channel: String, status: String? = nil, groupId: String? = nil) -> String? {
        if !Self.channels.contains(channel) {
            return "unknown channel \(Self.quoted(channel)) (email, sms, whatsapp, push or viber)"
        }
        if let status, !Self.statuses.contains(status) {
            return "unknown status \(Self.quoted(status)) (optedIn, subscribed or unsubscribed)"
        }
        if let groupId, groupId.isEmpty || groupId.unicodeScalars.count > Self.maxGroupIdLength {
            return "the group id must be 1–\(Self.maxGroupIdLength) characters (Unicode code points)"
        }
        return nil
    }
}
