public import Foundation

extension JSONValue {
    /// The compact JSON bytes of this value: exactly what the server measures (protocol.md,
    /// "Canonical JSON").
    ///
    /// The form matches Python's `json.dumps(value, separators=(",", ":"), ensure_ascii=False)`: no
    /// whitespace, non-ASCII characters as raw UTF-8, `/` unescaped, control characters escaped, and
    /// doubles in Python's shortest `repr` form (`1.0`, `1e-05`, `1e+16`). Object keys are sorted. A
    /// non-finite double, which has no JSON form, is written as `null`.
    public func encoded() -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        self.encode(into: &bytes)
        return Data(bytes)
    }

    /// The number of bytes ``encoded()`` produces.
    public var encodedByteCount: Int {
        var bytes: [UInt8] = []
        self.encode(into: &bytes)
        return bytes.count
    }

    /// Appends the compact JSON form of this value to `bytes`.
    public func encode(into bytes: inout [UInt8]) {
        switch self {
        case .null:
            bytes.append(contentsOf: Self.nullBytes)
        case .bool(let value):
            bytes.append(contentsOf: value ? Self.trueBytes : Self.falseBytes)
        case .int(let value):
            bytes.append(contentsOf: String(value).utf8)
        case .double(let value) where value.isFinite:
            bytes.append(contentsOf: JSONNumberFormat.pythonRepr(value).utf8)
        case .double:
            // NaN and infinities have no JSON form. Conversion drops them (EVT-4); one built by hand
            // (`.double(.nan)` from a plugin) is written as `null` rather than as invalid JSON that
            // would get its whole batch refused.
            bytes.append(contentsOf: Self.nullBytes)
        case .string(let value):
            Self.encode(string: value, into: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                element.encode(into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            Self.encode(object: members, into: &bytes)
        }
    }

    /// Appends an object with sorted keys.
    public static func encode(object members: [String: JSONValue], into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "{"))
        var first = true
        // Sort the pairs, not the keys: looking each key up again would hash it a second time.
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            Self.encode(string: key, into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            value.encode(into: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Appends a quoted, escaped string.
    public static func encode(string: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                Self.appendEscape(for: byte, into: &bytes)
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func appendEscape(for byte: UInt8, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            bytes.append(hex[Int(byte >> 4)])
            bytes.append(hex[Int(byte & 0x0F)])
        }
    }

    private static let nullBytes = Array("null".utf8)
    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)
}
