import Foundation
import JoryioCore
import JoryioTestLanes
import Testing

/// `JSONValue.parse` (our own parser, issue 12): exact numbers, strict syntax, bounded depth. The
/// first tests failed with `JSONSerialization`, which dropped or changed these numbers on Linux.
@Suite struct JSONParserTests {
    private func parse(_ text: String) -> JSONValue? {
        JSONValue.parse(Data(text.utf8))
    }

    @Test(
        "numbers JSONSerialization dropped or rounded wrongly read back as the correctly rounded double",
        arguments: [
            "1.2345678901234567e+20", "5.5555555555555556e+32", "9.999999999999999e+22", "1.2345678901234567e-05",
            "555555555555555555555555555555555.5", "0.30000000000000004", "1.7976931348623157e+308",
            "2.2250738585072014e-308", "5e-324",
        ]
    )
    func exactDoubles(text: String) throws {
        let expected = try #require(Double(text))
        #expect(self.parse("[\(text)]") == .array([.double(expected)]))
        #expect(self.parse(#"{"v":\#(text)}"#)?["v"] == .double(expected))
    }

    @Test("every double the SDK encodes reads back as the same double (200,000 random bit patterns)")
    func doublesRoundTrip() {
        var random = SplitMix64(seed: 12)
        var checked = 0
        while checked < 200_000 {
            let value = Double(bitPattern: random.next())
            guard value.isFinite else { continue }
            let encoded = JSONValue.array([.double(value)]).encoded()
            guard case .array(let elements)? = JSONValue.parse(encoded), case .double(let back)? = elements.first
            else {
                Issue.record("\(value) encoded as \(String(decoding: encoded, as: UTF8.self)) does not read back")
                return
            }
            #expect(back.bitPattern == value.bitPattern, "\(value) read back as \(back)")
            checked += 1
        }
    }

    @Test("integers: Int64 exactly, beyond it the nearest double, -0 and a whole-number double keep their kind")
    func integers() {
        #expect(self.parse("9223372036854775807") == .int(.max))
        #expect(self.parse("-9223372036854775808") == .int(.min))
        #expect(self.parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(self.parse("12345678901234567890") == .double(12_345_678_901_234_567_168))
        #expect(self.parse("-0") == .int(0))
        #expect(self.parse("5555555555555556.0") == .double(5_555_555_555_555_556))
        #expect(self.parse("1E2") == .double(100))
    }

    @Test("strings: every escape, surrogate pairs, lone surrogates and invalid UTF-8 become U+FFFD")
    func strings() {
        #expect(self.parse(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{8}\u{C}\n\r\t"))
        #expect(self.parse(#""\u00e9\u4e2d\ud83d\ude00""#) == .string("é中😀"))
        #expect(self.parse(#""\ud83d""#) == .string("\u{FFFD}"))
        #expect(self.parse(#""\ude00x""#) == .string("\u{FFFD}x"))
        #expect(self.parse(#""\ud83d\u0041""#) == .string("\u{FFFD}A"))
        #expect(JSONValue.parse(Data([0x22, 0xFF, 0x61, 0x22])) == .string("\u{FFFD}a"))
        #expect(self.parse("\"tab\there\"") == nil)
    }

    @Test(
        "invalid JSON is refused, whole",
        arguments: [
            "", " ", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "-", "+1", "NaN", "Infinity", "1e400", "-1e400", "[1] x",
            "{\"a\" 1}", "{a:1}", "[", "{", "\"open", "tru", "nul", "[1 2]", "\"\\x\"", "\"\\u12\"", "'a'",
        ]
    )
    func invalid(text: String) {
        #expect(self.parse(text) == nil)
    }

    @Test("whitespace, a byte order mark, top-level scalars, and duplicate keys (the last wins)")
    func leniencies() {
        #expect(
            self.parse(" \n\t{ \"a\" : [ 1 , true , null ] }\r\n")
                == .object(["a": .array([.int(1), .bool(true), .null])])
        )
        #expect(JSONValue.parse(Data([0xEF, 0xBB, 0xBF]) + Data("[1]".utf8)) == .array([.int(1)]))
        #expect(self.parse("false") == .bool(false))
        #expect(self.parse(#"{"a":1,"a":2}"#) == .object(["a": .int(2)]))
    }

    @Test("values nested deeper than 64 levels are left out; 200,000 levels parse on a 512 KiB stack")
    func depth() {
        let kept = String(repeating: "[", count: 64) + "1" + String(repeating: "]", count: 64)
        var value = self.parse(kept)
        for _ in 0..<63 {
            guard case .array(let elements)? = value else { break }
            value = elements.first
        }
        #expect(value == .array([.int(1)]))
        #expect(self.parse("[" + kept + "]") != nil)
        #expect(self.parse(#"{"deep":[\#(kept)],"kept":2}"#)?["kept"] == .int(2))
        let deep = String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)
        let wide = "[0," + deep + ",1]"
        let parsed = onThread(stackSize: 512 << 10) { JSONValue.parse(Data(wide.utf8)) }
        #expect(parsed == .array([.int(0), .array(Self.nested(62)), .int(1)]))
        let unclosed = String(repeating: "[", count: 200_000)
        #expect(onThread(stackSize: 512 << 10) { JSONValue.parse(Data(unclosed.utf8)) } == nil)
        let mismatched = String(repeating: "[", count: 100) + String(repeating: "}", count: 100)
        #expect(self.parse(mismatched) == nil)
    }

    /// `levels` empty arrays nested: what is kept of a deeper chain.
    private static func nested(_ levels: Int) -> [JSONValue] {
        var value: [JSONValue] = []
        for _ in 0..<levels {
            value = [.array(value)]
        }
        return value
    }
}

/// A small seeded generator (SplitMix64), so the random cases are the same on every run.
private struct SplitMix64 {
    var state: UInt64

    init(seed: UInt64) {
        self.state = seed
    }

    mutating func next() -> UInt64 {
        self.state &+= 0x9E37_79B9_7F4A_7C15
        var z = self.state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
