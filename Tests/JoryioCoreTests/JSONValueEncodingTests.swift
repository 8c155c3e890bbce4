import Foundation
import JoryioCore
import Testing

@Suite struct JSONValueEncodingTests {
    private func text(_ value: JSONValue) -> String {
        String(decoding: value.encoded(), as: UTF8.self)
    }

    @Test(arguments: [
        (1e15, "1000000000000000.0"), (1e16, "1e+16"), (9007199254740992.0, "9007199254740992.0"),
        (0.0001, "0.0001"), (0.00001, "1e-05"), (1.0 / 3, "0.3333333333333333"),
        (Double.leastNonzeroMagnitude, "5e-324"),
        (1.7976931348623157e308, "1.7976931348623157e+308"), (123456789012345678.0, "1.2345678901234568e+17"),
        (-0.0, "-0.0"), (100.0, "100.0"), (1.5e300, "1.5e+300"), (99.99, "99.99"), (-2.5e-7, "-2.5e-07"),
        (0.1 + 0.2, "0.30000000000000004"), (1234.5, "1234.5"), (1e22, "1e+22"),
        (12345678901234567890.0, "1.2345678901234567e+19"), (0.001234, "0.001234"), (-1e-4, "-0.0001"),
    ])
    func doublesMatchPythonRepr(value: Double, expected: String) {
        #expect(self.text(.double(value)) == expected)
    }

    @Test func scalarsAndContainers() {
        #expect(self.text(.null) == "null")
        #expect(self.text(true) == "true")
        #expect(self.text(false) == "false")
        #expect(self.text(.int(-42)) == "-42")
        #expect(self.text(.int(.max)) == "9223372036854775807")
        #expect(self.text([1, "a", nil, [:], []]) == #"[1,"a",null,{},[]]"#)
        #expect(self.text(["b": 1, "a": ["c": true]]) == #"{"a":{"c":true},"b":1}"#)
    }

    @Test("a non-finite double built by hand is written as null, never as invalid JSON")
    func nonFiniteDoublesAreNull() {
        #expect(self.text(.double(.nan)) == "null")
        #expect(self.text([.double(.infinity), 1, ["x": .double(-.infinity)]]) == #"[null,1,{"x":null}]"#)
    }

    @Test func stringsEscapeLikePython() {
        #expect(self.text("quote\" back\\ slash/") == #""quote\" back\\ slash/""#)
        #expect(self.text("\n\r\t\u{08}\u{0C}") == #""\n\r\t\b\f""#)
        #expect(self.text("\u{01}\u{1F}\u{7F}") == "\"\\u0001\\u001f\u{7F}\"")
        #expect(self.text("héllo ✓ 日本 🎉") == "\"héllo ✓ 日本 🎉\"")
        #expect(JSONValue.string("é").encodedByteCount == 4)
    }

    @Test func encodedBytesParseBackToTheSameValue() throws {
        let value: JSONValue = [
            "name": "Product Viewed", "price": 99.99, "count": 3, "tags": ["a", "b"],
            "nested": ["deep": ["deeper": [1.5, nil, false]]], "emoji": "🎉\u{00}",
        ]
        let parsed = try #require(JSONValue.parse(value.encoded()))
        #expect(parsed == value)
    }

    @Test func nestingDepth() {
        #expect(JSONValue.int(1).nestingDepth == 0)
        #expect(JSONValue.object([:]).nestingDepth == 1)
        #expect(JSONValue(dictionaryLiteral: ("a", ["b": [1]])).nestingDepth == 3)
    }
}

@Suite struct JSONTimestampTests {
    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00.000Z"),
        (1_767_225_600.0, "2026-01-01T00:00:00.000Z"),
        (1_796_066_519.123_9, "2026-11-30T19:21:59.123Z"),
        (951_782_400.5, "2000-02-29T00:00:00.500Z"),
        (-0.001, "1969-12-31T23:59:59.999Z"),
        (4_107_542_400.0, "2100-03-01T00:00:00.000Z"),
    ])
    func formatsUTCWithMilliseconds(seconds: Double, expected: String) {
        #expect(JSONTimestamp.string(from: Date(timeIntervalSince1970: seconds)) == expected)
    }

    @Test func agreesWithISO8601DateFormatterOverManyInstants() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        var seconds = -2_000_000_000.0
        while seconds < 4_000_000_000 {
            let date = Date(timeIntervalSince1970: seconds.rounded(.down))
            #expect(JSONTimestamp.string(from: date) == formatter.string(from: date))
            seconds += 86_400 * 97.3
        }
    }
}
