import Joryio
import JoryioCore
import Testing

/// The validator's depth check, including the shortcut for flat properties.
struct EventValidatorDepthTests {
    private func problem(_ properties: [String: JSONValue]) -> String? {
        var encoded: [UInt8] = []
        JSONValue.encode(object: properties, into: &encoded)
        return EventValidator.problem(name: "Event", properties: properties, encodedProperties: encoded)
    }

    @Test func flatAndEmptyPropertiesPass() {
        #expect(self.problem([:]) == nil)
        #expect(self.problem(["a": 1, "b": "x", "c": true, "d": 1.5, "e": nil]) == nil)
    }

    @Test func fiveLevelsPassSixAreDropped() {
        #expect(self.problem(["a": ["b": ["c": ["d": [:]]]]]) == nil)
        #expect(self.problem(["a": ["b": ["c": ["d": ["e": [:]]]]]])?.contains("6 levels") == true)
        #expect(self.problem(["a": [[[[]]]]]) == nil)
        #expect(self.problem(["flat": 1, "a": [[[[[]]]]]])?.contains("6 levels") == true)
    }
}
