import Foundation
import JoryioCore
import Testing

/// Property values that used to crash the caller's thread (issue 12, defect 1): dates a timestamp
/// cannot hold, and nesting deep enough to overflow a small stack. Each is dropped and reported with
/// its key path; nothing traps, whatever thread converts.
@Suite struct JSONValueHostileInputTests {
    private static let outsideYears = "date outside years 0000–9999"

    private func text(_ conversion: JSONValue.Conversion) -> String {
        String(decoding: JSONValue.object(conversion.value).encoded(), as: UTF8.self)
    }

    // MARK: - Dates

    @Test("NaN, infinite and astronomically large dates are dropped with their path, the rest is kept")
    func datesATimestampCannotHoldAreDropped() {
        let input: [String: Any] = [
            "nan": Date(timeIntervalSince1970: .nan),
            "infinity": Date(timeIntervalSince1970: .infinity),
            "nested": ["minusInfinity": Date(timeIntervalSince1970: -.infinity), "kept": 1],
            "list": [Date(timeIntervalSince1970: 1e300), Date(timeIntervalSince1970: 0)],
            "farPast": Date(timeIntervalSince1970: -1e300),
            "year10000": Date(timeIntervalSince1970: 253_402_300_800),
            "ok": Date(timeIntervalSince1970: 1_767_225_600.25),
        ]
        let conversion = JSONValue.convert(input)
        #expect(
            self.text(conversion)
                == #"{"list":["1970-01-01T00:00:00.000Z"],"nested":{"kept":1},"ok":"2026-01-01T00:00:00.250Z"}"#
        )
        #expect(
            Set(conversion.dropped.map(\.path))
                == ["nan", "infinity", "nested.minusInfinity", "list[0]", "farPast", "year10000"]
        )
        #expect(conversion.dropped.allSatisfy { $0.reason == Self.outsideYears })
    }

    @Test("string(from:) never traps: a date it cannot hold is written as the nearest end of the range")
    func timestampFormattingIsTotal() {
        #expect(JSONTimestamp.string(from: Date(timeIntervalSince1970: .nan)) == "1970-01-01T00:00:00.000Z")
        #expect(JSONTimestamp.string(from: Date(timeIntervalSince1970: .infinity)) == "9999-12-31T23:59:59.999Z")
        #expect(JSONTimestamp.string(from: Date(timeIntervalSince1970: -1e300)) == "0000-01-01T00:00:00.000Z")
        #expect(JSONTimestamp.string(from: Date(timeIntervalSince1970: 1e18)) == "9999-12-31T23:59:59.999Z")
    }

    // MARK: - Deep nesting

    /// Converts `{"deep": <deep>, "kept": 1}` on a thread with `stackSize` bytes of stack.
    private func convertOnThread(_ deep: DeepNesting, stackSize: Int?) -> JSONValue.Conversion {
        onThread(stackSize: stackSize) { JSONValue.convert(["deep": deep.value, "kept": 1]) }
    }

    private func expectCutAtTheLimit(
        _ conversion: JSONValue.Conversion,
        arrays: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let limit = 64
        // The top-level object is level 1, "deep" level 2: the first container past the limit is
        // reached after limit - 1 steps inside "deep".
        let steps = String(repeating: arrays ? "[0]" : ".k", count: limit - 1)
        let path = "deep" + steps
        #expect(conversion.dropped.map(\.path) == [path], sourceLocation: sourceLocation)
        #expect(
            conversion.dropped.first?.reason == "nested deeper than \(limit) levels",
            sourceLocation: sourceLocation
        )
        #expect(conversion.value["kept"] == 1, sourceLocation: sourceLocation)
        #expect(JSONValue.object(conversion.value).nestingDepth == limit, sourceLocation: sourceLocation)
    }

    @Test("300 and 5,000 levels on a 512 KiB stack (an iOS secondary thread) are cut, not overflowed")
    func deepNestingOnASecondaryThreadStack() {
        for levels in [300, 5000] {
            let objects = DeepNesting(levels: levels)
            self.expectCutAtTheLimit(self.convertOnThread(objects, stackSize: 512 << 10))
            let arrays = DeepNesting(levels: levels, arrays: true)
            self.expectCutAtTheLimit(self.convertOnThread(arrays, stackSize: 512 << 10), arrays: true)
        }
    }

    @Test("10,000 levels on a 1 MiB stack (the iOS main thread) and 100,000 on the default stack")
    func deepNestingOnLargerStacks() {
        self.expectCutAtTheLimit(self.convertOnThread(DeepNesting(levels: 10_000), stackSize: 1 << 20))
        self.expectCutAtTheLimit(self.convertOnThread(DeepNesting(levels: 100_000), stackSize: nil))
    }
}
