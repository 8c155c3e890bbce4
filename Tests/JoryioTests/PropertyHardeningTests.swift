import Foundation
import Joryio
import JoryioCore
import JoryioTestLanes
import JoryioTesting
import Testing

/// Hostile property and attribute values through the public API (issue 12, defects 1 and 2; EVT-4,
/// EVT-5, ATTR-6): what is sent, byte for byte, and the warning that names each dropped key path.
/// None of them may crash the caller's thread, whatever its stack.
@Suite struct PropertyHardeningTests {
    /// The compact JSON object that follows the first `"<member>":` in `text`, or `nil`.
    private func object(named member: String, in text: String) -> String? {
        guard let start = text.range(of: "\"\(member)\":{")?.upperBound else { return nil }
        var depth = 1
        var inString = false
        var escaped = false
        var index = start
        while index < text.endIndex, depth > 0 {
            let character = text[index]
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
            } else if character == "\"" {
                inString = true
            } else if character == "{" {
                depth += 1
            } else if character == "}" {
                depth -= 1
            }
            index = text.index(after: index)
        }
        return depth == 0 ? "{" + text[start..<index] : nil
    }

    /// The bodies of every request sent to `path`, as text.
    private func bodies(_ transport: RecordingTransport, _ path: String) -> [String] {
        transport.requests.filter { $0.url.path.hasSuffix("/v1/" + path) }
            .compactMap { $0.decodedBody.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// Runs `calls` against a started SDK (on a thread with `stackSize` bytes of stack when given),
    /// then delivers everything; returns the request bodies per endpoint and the warnings.
    private func run(
        stackSize: Int? = nil,
        _ calls: @escaping @Sendable (Joryio) -> Void
    ) -> (events: [String], attributes: [String], warnings: [String]) {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        let joryio = sdk.joryio
        if let stackSize {
            onThread(stackSize: stackSize) { calls(joryio) }
        } else {
            calls(joryio)
        }
        sdk.scheduler.runUntilIdle()
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        sdk.advance(to: 10)
        return (self.bodies(transport, "events"), self.bodies(transport, "attributes"), sdk.messages(at: .warning))
    }

    // MARK: - Defect 1: values that crashed the caller's thread

    @Test("a Date a timestamp cannot hold is dropped with its key path; the rest of the event is sent")
    func datesATimestampCannotHold() {
        let result = self.run { joryio in
            joryio.track(
                "Dates",
                properties: [
                    "nan": Date(timeIntervalSince1970: .nan),
                    "nested": ["infinite": Date(timeIntervalSince1970: .infinity)],
                    "list": [Date(timeIntervalSince1970: 1e300)],
                    "ok": Date(timeIntervalSince1970: 0),
                ]
            )
            joryio.setAttributes(["since": Date(timeIntervalSince1970: -.infinity), "plan": "pro"])
        }
        #expect(result.events.count == 1)
        #expect(
            result.events.first.flatMap { self.object(named: "properties", in: $0) }
                == #"{"list":[],"nested":{},"ok":"1970-01-01T00:00:00.000Z"}"#
        )
        #expect(result.attributes.count == 1)
        #expect(result.attributes.first?.contains(#""key":"plan""#) == true)
        #expect(result.attributes.first?.contains(#""key":"since""#) == false)
        for path in ["nan", "nested.infinite", "list[0]", "since"] {
            #expect(
                result.warnings.contains { $0.contains("dropped") && $0.contains(" \(path) (date outside years") },
                "\(path): \(result.warnings)"
            )
        }
    }

    @Test("5,000 levels tracked from a 512 KiB thread: the event is dropped with a warning, no crash")
    func deepNestingFromASecondaryThread() {
        let deep = DeepNesting(levels: 5000)
        let result = self.run(stackSize: 512 << 10) { joryio in
            joryio.track("Deep", properties: ["deep": deep.value, "kept": 1])
            joryio.trackScreen("Home", properties: ["deep": deep.value])
            joryio.setAttribute("profile", value: deep.value)
            joryio.track("After", properties: ["fine": ["a": ["b": ["c": 1]]]])
        }
        #expect(result.events.count == 1)
        #expect(result.events.first?.contains(#""event":"After""#) == true)
        #expect(result.attributes.isEmpty)
        #expect(
            result.warnings.contains {
                $0.contains("track \"Deep\" dropped") && $0.contains("more than 5 levels")
                    && $0.contains("deep.k.k.k.k")
            },
            "\(result.warnings)"
        )
        #expect(result.warnings.contains { $0.contains("trackScreen \"Home\" dropped") }, "\(result.warnings)")
        #expect(
            result.warnings.contains {
                $0.contains("\"profile\" nests deeper than 5 levels") && $0.contains("profile.k.k.k.k.k")
            },
            "\(result.warnings)"
        )
    }

    @Test("10,000 levels tracked from a 1 MiB thread (the iOS main thread's stack)")
    func deepNestingFromAMainThreadSizedStack() {
        let deep = DeepNesting(levels: 10_000, arrays: true)
        let result = self.run(stackSize: 1 << 20) { joryio in
            joryio.track("Deep", properties: ["deep": deep.value])
        }
        #expect(result.events.isEmpty)
        #expect(result.warnings.contains { $0.contains("more than 5 levels") && $0.contains("deep[0][0][0][0]") })
    }

    // MARK: - Defect 2: numbers that vanished

    @Test("every numeric type is sent exactly, or dropped with a warning naming its key")
    func numbersAreSentExactlyOrDroppedWithTheirKey() throws {
        let result = self.run { joryio in
            let properties: [String: Any] = [
                "int8": Int8.min, "int16": Int16.max, "int32": Int32.min, "int64Min": Int64.min,
                "int64Max": Int64.max, "uint8": UInt8.max, "uint16": UInt16.max, "uint32": UInt32.max,
                "uint64": UInt64(Int64.max), "uint64Max": UInt64.max, "float": Float(1.1), "floatNaN": Float.nan,
                "cgfloat": CGFloat(2.25), "decimal": Decimal(sign: .plus, exponent: -2, significand: 1999),
                "decimalHuge": Decimal(sign: .plus, exponent: 30, significand: 1), "nsTrue": NSNumber(value: true),
                "nsOne": NSNumber(value: 1), "nsChar": NSNumber(value: Int8(-3)),
                "nsFloat": NSNumber(value: Float(0.1)),
                "nsDecimal": NSDecimalNumber(string: "0.3"), "nested": ["u64": UInt64.max, "ok": UInt16(7)],
            ]
            joryio.track("Numbers", properties: properties)
        }
        let sent = try #require(result.events.first.flatMap { self.object(named: "properties", in: $0) })
        #expect(
            sent
                == #"{"cgfloat":2.25,"decimal":19.99,"float":1.1,"int16":32767,"int32":-2147483648,"#
                + #""int64Max":9223372036854775807,"int64Min":-9223372036854775808,"int8":-128,"#
                + #""nested":{"ok":7},"nsChar":-3,"nsDecimal":0.3,"nsFloat":0.1,"nsOne":1,"nsTrue":true,"#
                + #""uint16":65535,"uint32":4294967295,"uint64":9223372036854775807,"uint8":255}"#
        )
        for (path, reason) in [
            ("uint64Max", "integer outside the signed 64-bit range"), ("decimalHuge", "integer outside"),
            ("nested.u64", "integer outside"), ("floatNaN", "non-finite number"),
        ] {
            #expect(
                result.warnings.contains { $0.contains("dropped property \(path) (\(reason)") },
                "\(path): \(result.warnings)"
            )
        }
        #expect(result.warnings.count == 4, "\(result.warnings)")
    }

    @Test("attribute numbers follow the same rules")
    func attributeNumbers() throws {
        let result = self.run { joryio in
            joryio.setAttributes([
                "price": NSDecimalNumber(string: "19.99"), "flag": NSNumber(value: true),
                "level": NSNumber(value: Int8(-3)),
                "id": UInt64.max, "ratio": Float(0.1), "lowest": Int64.min,
            ])
        }
        let body = try #require(result.attributes.first)
        for expected in [
            #""key":"price","value":19.99,"#, #""key":"flag","value":true,"#, #""key":"level","value":-3,"#,
            #""key":"ratio","value":0.1,"#, #""key":"lowest","value":-9223372036854775808,"#,
        ] {
            #expect(body.contains(expected), "\(expected) in \(body)")
        }
        #expect(!body.contains(#""key":"id""#))
        #expect(result.warnings.contains { $0.contains("dropped value id (integer outside the signed 64-bit range)") })
    }
}
