internal import Foundation

/// Numbers: each is sent exactly, or dropped with a reason (issue 12; `docs/decisions.md`,
/// "Hardening (issue 12)").
///
/// A JSON integer here is 64-bit signed (``JSONValue/int(_:)``); every other number travels as a
/// double, which is also how the server reads any number with a fraction or an exponent (protocol
/// §3.1). So:
///
/// - integers of any width: exact within `Int64`, dropped outside it (never rounded to a double);
/// - `Double`: exact; NaN and infinities dropped (EVT-4);
/// - `Float`, `CGFloat`, `Float16`: their shortest decimal form (`Float(1.1)` → `1.1`), which reads
///   back as the same value; `Float80` only when a double holds it exactly;
/// - `Decimal` and `NSDecimalNumber`: integers as integers (within `Int64`), fractions as the double
///   nearest to the exact decimal text: exact up to 15 significant digits, and beyond that the very
///   double the server would read from the exact text;
/// - `NSNumber`: booleans as booleans, other numbers by the kind they were made from.
extension JSONConverter {
    static let nonFinite = "non-finite number"
    static let outOfRange = "integer outside the signed 64-bit range"

    mutating func double(_ value: Double) -> JSONValue? {
        value.isFinite ? .double(value) : self.drop(Self.nonFinite)
    }

    mutating func integer(_ value: some BinaryInteger) -> JSONValue? {
        Int64(exactly: value).map(JSONValue.int) ?? self.drop(Self.outOfRange)
    }

    /// A binary floating-point value other than `Double`.
    mutating func binaryFloatingPoint<Value: BinaryFloatingPoint>(_ value: Value) -> JSONValue? {
        guard value.isFinite else { return self.drop(Self.nonFinite) }
        // The shortest decimal that reads back as `value` (what `print(Float(1.1))` shows), as the
        // nearest double; it reads back as `value` too unless double rounding bites.
        if let shortest = Double("\(value)"), Value(shortest) == value {
            return .double(shortest)
        }
        let widened = Double(value)
        guard Value(widened) == value else {
            return self.drop("\(Value.self) value a double cannot hold exactly")
        }
        return .double(widened)
    }

    mutating func decimal(_ value: Decimal) -> JSONValue? {
        guard !value.isNaN else { return self.drop(Self.nonFinite) }
        // The exact decimal text, such as `19.99` or `-120` (never an exponent).
        let text = value.description
        guard text.utf8.contains(UInt8(ascii: ".")) else {
            return Int64(text).map(JSONValue.int) ?? self.drop(Self.outOfRange)
        }
        // Swift's parser rounds correctly, like the server's (`NSDecimalNumber.doubleValue` can be an
        // ulp off: 19.99 came out as 19.990000000000002 on Linux).
        guard let double = Double(text), double.isFinite else { return self.drop(Self.outOfRange) }
        return .double(double)
    }

    mutating func number(_ number: NSNumber) -> JSONValue? {
        if Self.isBoolean(number) {
            return .bool(number.boolValue)
        }
        if let decimal = number as? NSDecimalNumber {
            return self.decimal(decimal.decimalValue)
        }
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "f"):
            return self.binaryFloatingPoint(number.floatValue)
        case UInt8(ascii: "d"):
            return self.double(number.doubleValue)
        case UInt8(ascii: "C"), UInt8(ascii: "S"), UInt8(ascii: "I"), UInt8(ascii: "L"), UInt8(ascii: "Q"):
            return self.integer(number.uint64Value)
        default:
            return .int(number.int64Value)
        }
    }

    /// Whether `number` is a boolean (`NSNumber(value: true)`, a JSON `true`), not a number.
    ///
    /// Not by `objCType`: on Linux a boolean is `"c"` (char), and so is `NSNumber(value: Int8(-3))`.
    private static func isBoolean(_ number: NSNumber) -> Bool {
        #if canImport(Darwin)
        return CFGetTypeID(number) == CFBooleanGetTypeID()
        #else
        return ObjectIdentifier(type(of: number)) == Self.booleanClass
        #endif
    }

    #if !canImport(Darwin)
    /// Foundation's class for `true` and `false` (`__NSCFBoolean`), not otherwise reachable on Linux.
    private static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))
    #endif
}
