import Foundation
import JoryioTesting
import JoryioTransport
import Testing

@Suite("Gzip")
struct GzipTests {
    /// Deterministic pseudo-random bytes (SplitMix64), so a failure reproduces.
    static func randomBytes(_ count: Int, seed: UInt64 = 0x4A6F_7279_696F) -> Data {
        var generator = SplitMix64(seed: seed)
        var bytes = [UInt8]()
        bytes.reserveCapacity(count)
        while bytes.count < count {
            withUnsafeBytes(of: generator.next()) { bytes.append(contentsOf: $0.prefix(count - bytes.count)) }
        }
        return Data(bytes)
    }

    static let payloads: [(name: String, data: Data)] = [
        ("empty", Data()),
        ("small", Data(#"{"sentAt":"2026-11-30T19:21:59.123Z","batch":[]}"#.utf8)),
        ("1 MB random", Self.randomBytes(1 << 20)),
        ("compressible", Data(String(repeating: #"{"event":"Viewed Product","n":1},"#, count: 40_000).utf8)),
    ]

    @Test("round trip", arguments: Self.payloads.map(\.name))
    func roundTrip(name: String) throws {
        let payload = try #require(Self.payloads.first { $0.name == name }).data
        let compressed = try Gzip.compress(payload)
        #expect(Array(compressed.prefix(2)) == [0x1F, 0x8B])
        let restored = try Gzip.decompress(compressed, maxOutputBytes: payload.count)
        #expect(restored == payload)
    }

    @Test("every level round-trips and compressible data shrinks")
    func levels() throws {
        let payload = Self.payloads[3].data
        for level in [Gzip.Level.fastest, .default, .best, .custom(0), .custom(42)] {
            let compressed = try Gzip.compress(payload, level: level)
            #expect(try Gzip.decompress(compressed, maxOutputBytes: payload.count) == payload)
            if level != .custom(0) {
                #expect(compressed.count * 20 < payload.count)
            }
        }
    }

    @Test("the output cap is enforced")
    func outputCap() throws {
        let bomb = try Gzip.compress(Data(count: 4 << 20))
        #expect(bomb.count < 10_000)
        let error = #expect(throws: GzipError.self) {
            try Gzip.decompress(bomb, maxOutputBytes: 1 << 20)
        }
        #expect(error?.code == .outputTooLarge)
        // Exactly at the limit is accepted; one byte less is not.
        let small = try Gzip.compress(Data("hello".utf8))
        #expect(try Gzip.decompress(small, maxOutputBytes: 5) == Data("hello".utf8))
        #expect(throws: GzipError.self) { try Gzip.decompress(small, maxOutputBytes: 4) }
    }

    @Test("garbage, truncated and empty input throw invalidData")
    func invalidInput() throws {
        let valid = try Gzip.compress(Self.randomBytes(10_000))
        var corrupt = valid
        corrupt[corrupt.count / 2] ^= 0xFF
        corrupt[corrupt.count / 2 + 1] ^= 0xFF
        let inputs = [
            Data(),
            Data("not gzip at all".utf8),
            Self.randomBytes(4096, seed: 7),
            valid.prefix(valid.count / 2),
            valid.prefix(5),
            corrupt,
        ]
        for input in inputs {
            let error = #expect(throws: GzipError.self) {
                try Gzip.decompress(input, maxOutputBytes: 1 << 20)
            }
            #expect(error?.code == .invalidData, "\(String(describing: error))")
        }
    }
}
