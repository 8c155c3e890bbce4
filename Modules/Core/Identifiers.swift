internal import Foundation

#if canImport(Glibc)
internal import Glibc
#endif

/// A source of unique identifiers (message ids, anonymous ids, session ids, idempotency keys).
public protocol IdentifierGenerator: Sendable {
    /// A new identifier, never returned before.
    func next() -> String
}

/// Random version 4 UUIDs in lowercase, the production ``IdentifierGenerator``.
public struct UUIDGenerator: IdentifierGenerator {
    /// Random bytes fetched 512 at a time: one system call per 32 identifiers instead of two each.
    private let pool = RandomPool()

    /// Creates the generator.
    public init() {}

    /// A new random UUID string such as `3f2c8a0e-…`.
    ///
    /// The 122 random bits come from the system's generator (`getrandom` on Linux, `arc4random` on
    /// Apple platforms), read ahead in blocks, and the text is written directly in lowercase. It
    /// runs for every event: Foundation's `UUID()` opens, reads and closes `/dev/urandom` on Linux,
    /// then `uuidString.lowercased()` builds two more strings (about 5 µs against 0.2 µs here).
    public func next() -> String {
        var bits = self.pool.next()
        return withUnsafeMutableBytes(of: &bits) { bytes in
            bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
            bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
            return String(unsafeUninitializedCapacity: 36) { text in
                var position = 0
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    text[position] = Self.hexDigit(bytes[index] >> 4)
                    text[position + 1] = Self.hexDigit(bytes[index] & 0x0F)
                    position += 2
                }
                return position
            }
        }
    }

    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}

/// A block of random 64-bit words from the system, handed out two at a time.
private final class RandomPool: @unchecked Sendable {
    // Confined: every field is only touched while `lock` is held.
    private let lock = NSLock()
    private var words = [UInt64](repeating: 0, count: 64)
    private var index = 64
    /// `/dev/urandom`, opened once (Linux: one `read` per block instead of a `getrandom` per word);
    /// -2 until tried, -1 when it could not be opened.
    private var device: Int32 = -2

    deinit {
        if self.device >= 0 { close(self.device) }
    }

    func next() -> (UInt64, UInt64) {
        self.lock.lock()
        defer { self.lock.unlock() }
        if self.index + 2 > self.words.count {
            self.refill()
            self.index = 0
        }
        defer { self.index += 2 }
        return (self.words[self.index], self.words[self.index + 1])
    }

    private func refill() {
        #if os(Linux) || os(Android)
        if self.device == -2 { self.device = open("/dev/urandom", O_RDONLY | O_CLOEXEC) }
        if self.device >= 0 {
            let device = self.device
            let filled = self.words.withUnsafeMutableBytes { buffer -> Bool in
                read(device, buffer.baseAddress, buffer.count) == buffer.count
            }
            if filled { return }
        }
        #endif
        var generator = SystemRandomNumberGenerator()
        for index in self.words.indices {
            self.words[index] = generator.next()
        }
    }
}

extension Optional where Wrapped == String {
    /// The string unless it is `nil` or empty (how stored and configured ids are read).
    package var nonEmpty: String? {
        guard let self, !self.isEmpty else { return nil }
        return self
    }
}
