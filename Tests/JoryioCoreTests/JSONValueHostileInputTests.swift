import Foundation
import JoryioCore
import JoryioTestLanes
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

    @Test("the wire form holds years 0000 to 9999, Date.distantPast and Date.distantFuture included")
    func timestampRange() {
        let first = Date(timeIntervalSince1970: -62_167_219_200)
        let last = Date(timeIntervalSince1970: 253_402_300_799.999)
        #expect(JSONTimestamp.string(ifRepresentable: first) == "0000-01-01T00:00:00.000Z")
        #expect(JSONTimestamp.string(ifRepresentable: last) == "9999-12-31T23:59:59.999Z")
        #expect(JSONTimestamp.string(ifRepresentable: first.addingTimeInterval(-0.001)) == nil)
        #expect(JSONTimestamp.string(ifRepresentable: last.addingTimeInterval(0.001)) == nil)
        #expect(JSONTimestamp.string(ifRepresentable: .distantPast) == "0000-12-30T00:00:00.000Z")
        #expect(JSONTimestamp.string(ifRepresentable: .distantFuture) == "4001-01-01T00:00:00.000Z")
        for seconds in [TimeInterval.nan, .infinity, -.infinity, 1e300, -1e300, .greatestFiniteMagnitude] {
            #expect(JSONTimestamp.string(ifRepresentable: Date(timeIntervalSince1970: seconds)) == nil)
        }
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
        let limit = JSONValue.maxConversionDepth
        // The top-level object is level 1, "deep" level 2: the first container past the limit is
        // reached after limit - 1 steps inside "deep".
        let steps = String(repeating: arrays ? "[0]" : ".k", count: limit - 1)
        let path = "deep" + steps
        #expect(conversion.tooDeep?.path == path, sourceLocation: sourceLocation)
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

    @Test("a caller's own depth limit cuts the conversion there, before looking any deeper")
    func callerDepthLimit() {
        let deep = DeepNesting(levels: 100_000)
        let conversion = onThread(stackSize: 512 << 10) {
            JSONValue.convert(["a": ["b": ["c": ["d": deep.value]]], "kept": true], maxDepth: 5)
        }
        #expect(conversion.tooDeep?.path == "a.b.c.d.k")
        #expect(conversion.tooDeep?.reason == "nested deeper than 5 levels")
        #expect(conversion.value["kept"] == true)
        // Exactly at the limit: nothing is cut.
        let fits = JSONValue.convert(["a": ["b": ["c": ["d": [1]]]]], maxDepth: 5)
        #expect(fits.tooDeep == nil && fits.dropped.isEmpty)
        #expect(JSONValue.object(fits.value).nestingDepth == 5)
        // One value on its own is level 1 when it is a container.
        let single = JSONValue.convert(any: ["k": ["k": ["k": 1]]], path: "attr", maxDepth: 2)
        #expect(single.tooDeep?.path == "attr.k.k")
        #expect(single.value == ["k": [:]])
    }

    @Test("a JSONValue passed inside the properties obeys the same depth limit and EVT-4")
    func embeddedJSONValues() {
        var deep: JSONValue = 1
        for _ in 0..<10 { deep = ["k": deep] }
        let conversion = JSONValue.convert(
            ["deep": deep, "nan": JSONValue.double(.nan), "list": [JSONValue.double(.infinity), 2] as JSONValue],
            maxDepth: 5
        )
        #expect(conversion.tooDeep?.path == "deep.k.k.k.k")
        #expect(Set(conversion.dropped.map(\.path)) == ["deep.k.k.k.k", "nan", "list[0]"])
        #expect(conversion.value["list"] == [2])
        #expect(conversion.value["nan"] == nil)
    }
}
