internal import Foundation

/// A JSON parser (RFC 8259) straight into ``JSONValue``, with exact numbers.
///
/// It replaces `JSONSerialization`, which on Linux silently drops some valid numbers from arrays
/// and objects (`1.2345678901234567e+20` vanishes), rounds others to a different double
/// (`9.999999999999999e+22` reads as `1e+23`) and refuses the SDK's own encoding of some doubles
/// (found by `fuzz-JSONValue`, issue 12). Here an integer literal within `Int64` is an `.int`; any
/// other number is the correctly rounded `Double` of its text, so every double the SDK encodes
/// (shortest round-trip digits) reads back as the same double.
///
/// - Values nested deeper than `maxDepth` are skipped (without recursion, whatever their depth)
///   and left out of their container, as conversion does.
/// - Strings: escapes including surrogate pairs; a lone surrogate becomes U+FFFD, and so does
///   invalid UTF-8; an unescaped control character is an error.
/// - A number too large for a `Double` (`1e400`) is an error, as are `NaN`, `Infinity`, leading
///   zeros, trailing commas and anything after the value but whitespace. A UTF-8 byte order mark
///   at the start is skipped. Duplicate keys: the last one wins.
struct JSONParser {
    enum Failure: Error {
        case syntax
    }

    private let bytes: UnsafeRawBufferPointer
    private let maxDepth: Int
    private var index = 0

    private init(bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// The value `data` holds, or `nil` when it is not one JSON text.
    static func parse(_ data: Data, maxDepth: Int) -> JSONValue? {
        data.withUnsafeBytes { buffer -> JSONValue? in
            var parser = JSONParser(bytes: buffer, maxDepth: maxDepth)
            if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF {
                parser.index = 3
            }
            do {
                let value = try parser.value(depth: 1)
                parser.skipWhitespace()
                guard parser.index == buffer.count else { return nil }
                return value ?? .null
            } catch {
                return nil
            }
        }
    }

    // MARK: - Values

    /// The value at the cursor; `nil` when it is a container deeper than `maxDepth` (skipped).
    private mutating func value(depth: Int) throws(Failure) -> JSONValue? {
        self.skipWhitespace()
        guard let byte = self.peek() else { throw .syntax }
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth <= self.maxDepth else {
                try self.skipContainer()
                return nil
            }
            return byte == UInt8(ascii: "{") ? try self.object(depth: depth) : try self.array(depth: depth)
        case UInt8(ascii: "\""):
            return .string(try self.string())
        case UInt8(ascii: "t"):
            try self.literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try self.literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try self.literal("null")
            return .null
        default:
            return try self.number()
        }
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        self.index += 1
        var members: [String: JSONValue] = [:]
        self.skipWhitespace()
        if self.peek() == UInt8(ascii: "}") {
            self.index += 1
            return .object(members)
        }
        while true {
            self.skipWhitespace()
            guard self.peek() == UInt8(ascii: "\"") else { throw .syntax }
            let key = try self.string()
            self.skipWhitespace()
            guard self.peek() == UInt8(ascii: ":") else { throw .syntax }
            self.index += 1
            if let value = try self.value(depth: depth + 1) {
                members[key] = value
            }
            self.skipWhitespace()
            switch self.next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"): return .object(members)
            default: throw .syntax
            }
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        self.index += 1
        var elements: [JSONValue] = []
        self.skipWhitespace()
        if self.peek() == UInt8(ascii: "]") {
            self.index += 1
            return .array(elements)
        }
        while true {
            if let value = try self.value(depth: depth + 1) {
                elements.append(value)
            }
            self.skipWhitespace()
            switch self.next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "]"): return .array(elements)
            default: throw .syntax
            }
        }
    }

    /// Skips a container too deep to keep, checking only that its brackets and strings close.
    private mutating func skipContainer() throws(Failure) {
        var open: [UInt8] = []
        repeat {
            guard let byte = self.peek() else { throw .syntax }
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                open.append(byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]"))
                self.index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard open.popLast() == byte else { throw .syntax }
                self.index += 1
            case UInt8(ascii: "\""):
                _ = try self.string()
            default:
                self.index += 1
            }
        } while !open.isEmpty
    }

    private mutating func literal(_ text: StaticString) throws(Failure) {
        let count = text.utf8CodeUnitCount
        guard self.bytes.count - self.index >= count else { throw .syntax }
        for offset in 0..<count where self.bytes[self.index + offset] != text.utf8Start[offset] {
            throw .syntax
        }
        self.index += count
    }

    // MARK: - Numbers

    private mutating func number() throws(Failure) -> JSONValue {
        let start = self.index
        var integral = true
        if self.peek() == UInt8(ascii: "-") { self.index += 1 }
        guard let first = self.peek(), Self.isDigit(first) else { throw .syntax }
        self.index += 1
        if first != UInt8(ascii: "0") {
            self.skipDigits()
        }
        if self.peek() == UInt8(ascii: ".") {
            integral = false
            self.index += 1
            guard let digit = self.peek(), Self.isDigit(digit) else { throw .syntax }
            self.skipDigits()
        }
        if self.peek() == UInt8(ascii: "e") || self.peek() == UInt8(ascii: "E") {
            integral = false
            self.index += 1
            if self.peek() == UInt8(ascii: "+") || self.peek() == UInt8(ascii: "-") { self.index += 1 }
            guard let digit = self.peek(), Self.isDigit(digit) else { throw .syntax }
            self.skipDigits()
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: self.bytes[start..<self.index]), as: UTF8.self)
        if integral, let value = Int64(text) {
            return .int(value)
        }
        guard let value = Double(text), value.isFinite else { throw .syntax }
        return .double(value)
    }

    private mutating func skipDigits() {
        while let byte = self.peek(), Self.isDigit(byte) { self.index += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    // MARK: - Strings

    private mutating func string() throws(Failure) -> String {
        self.index += 1  // the opening quote
        let start = self.index
        // Most strings have no escape: one pass to the closing quote, one decode.
        while let byte = self.peek(), byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { throw .syntax }
            self.index += 1
        }
        guard let stop = self.peek() else { throw .syntax }
        var utf8 = Array(UnsafeRawBufferPointer(rebasing: self.bytes[start..<self.index]))
        if stop == UInt8(ascii: "\"") {
            self.index += 1
            return String(decoding: utf8, as: UTF8.self)
        }
        while true {
            guard let byte = self.next() else { throw .syntax }
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try self.escape(into: &utf8)
            case 0..<0x20:
                throw .syntax
            default:
                utf8.append(byte)
            }
        }
    }

    private mutating func escape(into utf8: inout [UInt8]) throws(Failure) {
        guard let byte = self.next() else { throw .syntax }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = UInt32(try self.hex4())
            if (0xD800..<0xDC00).contains(scalar), self.bytes.count - self.index >= 6,
                self.bytes[self.index] == UInt8(ascii: "\\"), self.bytes[self.index + 1] == UInt8(ascii: "u")
            {
                let mark = self.index
                self.index += 2
                let low = UInt32(try self.hex4())
                if (0xDC00..<0xE000).contains(low) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    self.index = mark  // not a pair: the high surrogate alone, then this escape
                }
            }
            let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
            utf8.append(contentsOf: String(character).utf8)
        default:
            throw .syntax
        }
    }

    private mutating func hex4() throws(Failure) -> UInt16 {
        guard self.bytes.count - self.index >= 4 else { throw .syntax }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = self.bytes[self.index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .syntax
            }
            value = value << 4 | UInt16(digit)
            self.index += 1
        }
        return value
    }

    // MARK: - Cursor

    private func peek() -> UInt8? {
        self.index < self.bytes.count ? self.bytes[self.index] : nil
    }

    private mutating func next() -> UInt8? {
        defer { self.index += 1 }
        return self.peek()
    }

    private mutating func skipWhitespace() {
        while let byte = self.peek(),
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
                || byte == UInt8(ascii: "\t")
        {
            self.index += 1
        }
    }
}
