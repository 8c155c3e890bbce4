import Foundation
import JoryioCore
import Testing

/// Every numeric type an app naturally passes is either sent exactly or dropped with a reason and
/// its key path (issue 12, defect 2). Each case states the JSON text that is sent, or `nil` for a
/// value that is dropped.
@Suite struct JSONValueNumberTests {
    private static let outOfRange = "integer outside the signed 64-bit range"
    private static let nonFinite = "non-finite number"

    /// Converts `["n": value]` and returns the JSON text of `n`, or the reason it was dropped.
    private func sent(_ value: Any) -> (json: String?, dropped: String?) {
        let conversion = JSONValue.convert(["n": value])
        #expect(conversion.dropped.allSatisfy { $0.path == "n" })
        let text = conversion.value["n"].map { String(decoding: $0.encoded(), as: UTF8.self) }
        return (text, conversion.dropped.first?.reason)
    }

    private func expect(
        _ value: Any,
        sends json: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let result = self.sent(value)
        #expect(result.json == json, "\(type(of: value)) \(value)", sourceLocation: sourceLocation)
        #expect(result.dropped == nil, sourceLocation: sourceLocation)
    }

    private func expect(
        _ value: Any,
        isDroppedBecause reason: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let result = self.sent(value)
        #expect(result.json == nil, "\(type(of: value)) \(value)", sourceLocation: sourceLocation)
        #expect(result.dropped == reason, sourceLocation: sourceLocation)
    }

    @Test("fixed-width integers: every type's minimum and maximum")
    func integers() {
        self.expect(Int8.min, sends: "-128")
        self.expect(Int8.max, sends: "127")
        self.expect(Int16.min, sends: "-32768")
        self.expect(Int16.max, sends: "32767")
        self.expect(Int32.min, sends: "-2147483648")
        self.expect(Int32.max, sends: "2147483647")
        self.expect(Int64.min, sends: "-9223372036854775808")
        self.expect(Int64.max, sends: "9223372036854775807")
        self.expect(Int.min, sends: "-9223372036854775808")
        self.expect(UInt8.max, sends: "255")
        self.expect(UInt16.max, sends: "65535")
        self.expect(UInt32.max, sends: "4294967295")
        self.expect(UInt64(Int64.max), sends: "9223372036854775807")
        self.expect(UInt(0), sends: "0")
        // JSON integers are 64-bit signed here: a larger unsigned value is never rounded to a double.
        self.expect(UInt64.max, isDroppedBecause: Self.outOfRange)
        self.expect(UInt64(Int64.max) + 1, isDroppedBecause: Self.outOfRange)
        self.expect(UInt.max, isDroppedBecause: Self.outOfRange)
    }

    @Test("Double, Float and CGFloat: finite values exactly, NaN and infinities dropped (EVT-4)")
    func floatingPoint() {
        self.expect(0.1, sends: "0.1")
        self.expect(1e16, sends: "1e+16")
        self.expect(-0.0, sends: "-0.0")
        // A Float is sent as its shortest decimal form, which reads back as the same Float.
        self.expect(Float(1.1), sends: "1.1")
        self.expect(Float(0.1), sends: "0.1")
        self.expect(Float(16_777_216), sends: "16777216.0")
        self.expect(Float.greatestFiniteMagnitude, sends: "3.4028235e+38")
        self.expect(Float.leastNonzeroMagnitude, sends: "1e-45")
        self.expect(CGFloat(1.5), sends: "1.5")
        self.expect(CGFloat(1.0 / 3.0), sends: "0.3333333333333333")
        for value: Any in [
            Double.nan, Double.infinity, -Double.infinity, Float.nan, Float.infinity, -Float.infinity,
            CGFloat.nan, CGFloat.infinity, Double.signalingNaN,
        ] {
            self.expect(value, isDroppedBecause: Self.nonFinite)
        }
    }

    #if arch(x86_64) && os(Linux)
    @Test("Float16 and Float80: exact when a double holds them, dropped otherwise")
    func otherFloatingPointTypes() {
        self.expect(Float16(1.5), sends: "1.5")
        self.expect(Float16(0.1), sends: "0.1")
        self.expect(Float16.nan, isDroppedBecause: Self.nonFinite)
        self.expect(Float80(2.5), sends: "2.5")
        self.expect(Float80(1) / 3, isDroppedBecause: "Float80 value a double cannot hold exactly")
    }
    #endif

    @Test("Decimal: exact decimal text when a double or a 64-bit integer holds it (docs/decisions.md)")
    func decimals() throws {
        self.expect(try #require(Decimal(string: "19.99")), sends: "19.99")
        self.expect(try #require(Decimal(string: "2.50")), sends: "2.5")
        self.expect(try #require(Decimal(string: "-0.00001")), sends: "-1e-05")
        self.expect(Decimal(42), sends: "42")
        self.expect(try #require(Decimal(string: "2.0")), sends: "2")
        self.expect(try #require(Decimal(string: "9223372036854775807")), sends: "9223372036854775807")
        self.expect(try #require(Decimal(string: "-9223372036854775808")), sends: "-9223372036854775808")
        self.expect(try #require(Decimal(string: "123456789012.345")), sends: "123456789012.345")
        // More significant digits than a double keeps: the double the server reads from the exact
        // text (protocol §3.1), so the size the SDK measures is the server's.
        self.expect(Decimal(1) / Decimal(3), sends: "0.3333333333333333")
        self.expect(Decimal(3.133), sends: "3.1329999999999996")  // Foundation's Decimal(Double) is inexact
        // Integers a JSON integer here cannot hold are dropped, as for UInt64.
        self.expect(try #require(Decimal(string: "9223372036854775808")), isDroppedBecause: Self.outOfRange)
        self.expect(try #require(Decimal(string: "1e20")), isDroppedBecause: Self.outOfRange)
        self.expect(Decimal.nan, isDroppedBecause: Self.nonFinite)
        self.expect(NSDecimalNumber(string: "19.99"), sends: "19.99")
        self.expect(NSDecimalNumber(string: "-9223372036854775808"), sends: "-9223372036854775808")
        self.expect(NSDecimalNumber.notANumber, isDroppedBecause: Self.nonFinite)
    }

    @Test("NSNumber: booleans stay booleans, numbers stay numbers of their own kind")
    func foundationNumbers() {
        self.expect(NSNumber(value: true), sends: "true")
        self.expect(NSNumber(value: false), sends: "false")
        self.expect(NSNumber(value: 1), sends: "1")
        self.expect(NSNumber(value: 0), sends: "0")
        // On Linux these are "c" (char) numbers, like the booleans, but they are not booleans.
        self.expect(NSNumber(value: Int8(-3)), sends: "-3")
        self.expect(NSNumber(value: Int8(1)), sends: "1")
        self.expect(NSNumber(value: UInt8(200)), sends: "200")
        self.expect(NSNumber(value: Int64.min), sends: "-9223372036854775808")
        self.expect(NSNumber(value: UInt64(Int64.max)), sends: "9223372036854775807")
        self.expect(NSNumber(value: UInt64.max), isDroppedBecause: Self.outOfRange)
        self.expect(NSNumber(value: Float(1.1)), sends: "1.1")
        self.expect(NSNumber(value: 0.1), sends: "0.1")
        self.expect(NSNumber(value: Double.nan), isDroppedBecause: Self.nonFinite)
        self.expect(NSNumber(value: Float.infinity), isDroppedBecause: Self.nonFinite)
        // Swift values in `Any`, for comparison: never confused with each other either.
        self.expect(true, sends: "true")
        self.expect(1, sends: "1")
        self.expect(0, sends: "0")
    }

    @Test("numbers as JSONSerialization returns them on this platform")
    func parsedNumbers() throws {
        let text =
            #"{"t":true,"f":false,"one":1,"zero":0,"neg":-9223372036854775808,"half":0.5,"big":18446744073709551615}"#
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let conversion = JSONValue.convert(parsed)
        #expect(
            String(decoding: JSONValue.object(conversion.value).encoded(), as: UTF8.self)
                == #"{"f":false,"half":0.5,"neg":-9223372036854775808,"one":1,"t":true,"zero":0}"#
        )
        #expect(conversion.dropped == [JSONValue.DroppedValue(path: "big", reason: Self.outOfRange)])
    }
}
