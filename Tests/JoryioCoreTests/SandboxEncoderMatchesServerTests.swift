import Foundation
import JoryioCore
import JoryioTestLanes
import JoryioTesting
import Testing

/// GAP-9: the SDK's byte count must be exactly what the server measures.
@Suite(.tags(.sandbox)) struct SandboxEncoderMatchesServerTests {
    static let samples: [JSONValue] = [
        ["plain": "ascii", "int": 42, "negative": -7, "big": .int(.max), "small": .int(.min)],
        ["unicode": "héllo ✓ 日本 🎉 עברית العربية", "escapes": "q\" b\\ / \n\r\t\u{08}\u{0C}\u{01}\u{1F}\u{7F}"],
        [
            "floats": .array(
                [0.1, 0.1 + 0.2, 1e15, 1e16, 1e-5, 0.0001, -0.0, 1.5e300, .leastNonzeroMagnitude, 99.99, 1.0 / 3, 2.0]
                    .map(JSONValue.double)
            ),
            "flags": [true, false, nil],
        ],
        ["nested": ["a": ["b": ["c": ["d": [1, [2, [3]]]]]]], "empty": ["o": [:], "a": []]],
        ["date": .string(JSONTimestamp.string(from: Date(timeIntervalSince1970: 1_767_225_600.5)))],
    ]

    @Test func byteCountsEqualTheSandboxMeasurement() async throws {
        let sandbox = try await startSandbox()
        defer { sandbox.stop() }
        for sample in Self.samples {
            let encoded = sample.encoded()
            #expect(try await sandbox.measure(encoded) == encoded.count, "\(String(decoding: encoded, as: UTF8.self))")
            #expect(sample.encodedByteCount == encoded.count)
        }
        var random = SplitMix64(seed: 9)
        for _ in 0..<200 {
            let value = JSONValue.double(Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF))
            let encoded = JSONValue.array([value]).encoded()
            #expect(try await sandbox.measure(encoded) == encoded.count, "\(String(decoding: encoded, as: UTF8.self))")
        }
    }
}
