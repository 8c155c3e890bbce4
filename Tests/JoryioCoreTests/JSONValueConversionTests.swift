import Foundation
import JoryioCore
import Testing

@Suite struct JSONValueConversionTests {
    @Test("EVT-11: every supported property type converts (Date as ISO 8601 with milliseconds)")
    func convertsEverySupportedType() {
        let date = Date(timeIntervalSince1970: 1_767_225_600.25)
        let missing: String? = nil
        let present: Int? = 7
        let input: [String: Any] = [
            "string": "s", "bool": true, "int": 42, "int8": Int8(-8), "uint64": UInt64(5), "double": 2.5,
            "float": Float(1.1), "date": date, "url": URL(string: "https://joryio.com/x?y=1") as Any,
            "null": NSNull(), "missing": missing as Any, "present": present as Any,
            "array": [1, "two", [3.5]], "object": ["inner": ["flag": false]],
        ]
        let conversion = JSONValue.convert(input)
        #expect(conversion.dropped.isEmpty)
        let expected: [String: JSONValue] = [
            "string": "s", "bool": true, "int": 42, "int8": -8, "uint64": 5, "double": 2.5,
            "float": 1.1, "date": "2026-01-01T00:00:00.250Z", "url": "https://joryio.com/x?y=1",
            "null": nil, "missing": nil, "present": 7,
            "array": [1, "two", [3.5]], "object": ["inner": ["flag": false]],
        ]
        #expect(conversion.value == expected)
    }

    @Test func foundationNumbersKeepTheirKind() throws {
        let parsed = try JSONSerialization.jsonObject(with: Data(#"{"t":true,"f":false,"one":1,"half":0.5}"#.utf8))
        let dictionary = try #require(parsed as? [String: Any])
        let conversion = JSONValue.convert(dictionary)
        #expect(conversion.value == ["t": true, "f": false, "one": 1, "half": 0.5])
        let numbers: [String: Any] = [
            "yes": NSNumber(value: true), "seven": NSNumber(value: 7), "pi": NSNumber(value: 3.25),
        ]
        #expect(JSONValue.convert(numbers).value == ["yes": true, "seven": 7, "pi": 3.25])
    }

    @Test func nonFiniteNumbersAreDroppedWithTheirPathAndTheRestKept() {
        let input: [String: Any] = [
            "price": Double.nan, "ok": 1, "nested": ["inf": Double.infinity, "fine": "x"],
            "list": [1.0, -Double.infinity, 2.0], "floatNaN": Float.nan,
        ]
        let conversion = JSONValue.convert(input)
        #expect(conversion.value == ["ok": 1, "nested": ["fine": "x"], "list": [1.0, 2.0]])
        let paths = Set(conversion.dropped.map(\.path))
        #expect(paths == ["price", "nested.inf", "list[1]", "floatNaN"])
        #expect(conversion.dropped.allSatisfy { $0.reason == "non-finite number" })
    }

    @Test func unsupportedTypesAreDroppedNotCrashed() {
        struct Custom {}
        let conversion = JSONValue.convert(["custom": Custom(), "data": Data([1]), "kept": "yes"])
        #expect(conversion.value == ["kept": "yes"])
        #expect(conversion.dropped.count == 2)
        #expect(conversion.dropped.allSatisfy { $0.reason.hasPrefix("unsupported type") })
    }

    @Test func parseRejectsGarbage() {
        #expect(JSONValue.parse(Data("{not json".utf8)) == nil)
        #expect(JSONValue.parse(Data(#"{"success":true,"rejectedIndices":[1,3]}"#.utf8))?["rejectedIndices"] == [1, 3])
    }

    @Test func accessors() {
        let value: JSONValue = ["s": "x", "n": 2, "d": 2.0, "b": true, "a": [1], "o": [:]]
        #expect(value["s"]?.stringValue == "x")
        #expect(value["n"]?.intValue == 2)
        #expect(value["d"]?.intValue == 2)
        #expect(value["n"]?.doubleValue == 2.0)
        #expect(value["b"]?.boolValue == true)
        #expect(value["a"]?.arrayValue == [1])
        #expect(value["o"]?.objectValue == [:])
        #expect(value["missing"] == nil)
        #expect(JSONValue.null.isNull)
    }
}
