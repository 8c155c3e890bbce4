import CJoryioZlib
public import Foundation

/// gzip (RFC 1952) encoding for request bodies, and size-capped decoding.
///
/// Both directions stream through zlib in fixed-size chunks, so memory use is bounded by the input,
/// the output and one 64 KiB buffer. Decoding stops at ``decompress(_:maxOutputBytes:)``'s limit, which
/// makes it safe against "gzip bombs". Stateless, so `Sendable` and usable from any thread.
///
/// ```swift
/// let body = try Gzip.compress(json)              // starts with 1f 8b
/// let back = try Gzip.decompress(body, maxOutputBytes: 1 << 20)
/// ```
public enum Gzip: Sendable {
    /// A compression level, from ``fastest`` to ``best``.
    public struct Level: Hashable, Sendable {
        fileprivate let rawValue: Int32

        /// Level 1: least CPU, larger output.
        public static let fastest = Level(rawValue: 1)
        /// Level 6, zlib's default balance of speed and size.
        public static let `default` = Level(rawValue: 6)
        /// Level 9: smallest output, most CPU.
        public static let best = Level(rawValue: 9)

        /// An explicit level; values outside `0...9` are clamped (0 stores without compressing).
        public static func custom(_ level: Int) -> Level {
            Level(rawValue: Int32(min(max(level, 0), 9)))
        }
    }

    /// The size of the scratch buffer zlib writes into.
    private static let chunkSize = 64 * 1024

    /// Compresses `data` into a single gzip member.
    ///
    /// - Parameters:
    ///   - data: The bytes to compress; may be empty.
    ///   - level: The compression level.
    /// - Returns: A gzip stream (starting with the magic bytes `1f 8b`).
    /// - Throws: ``GzipError`` with code ``GzipError/Code/zlib`` if zlib cannot run.
    public static func compress(_ data: Data, level: Level = .default) throws(GzipError) -> Data {
        let result = data.withUnsafeBytes { input in
            Result { () throws(GzipError) -> Data in
                try ZlibStream.deflate(input, level: level.rawValue, chunkSize: Self.chunkSize)
            }
        }
        return try result.get()
    }

    /// Decompresses the first gzip member of `data`, refusing to produce more than `maxOutputBytes`.
    ///
    /// Bytes after the end of the first member are ignored.
    ///
    /// - Parameters:
    ///   - data: A gzip stream.
    ///   - maxOutputBytes: The largest decompressed size accepted.
    /// - Returns: The decompressed bytes.
    /// - Throws: ``GzipError`` with ``GzipError/Code/invalidData`` for corrupt or truncated input,
    ///   ``GzipError/Code/outputTooLarge`` when the limit would be exceeded.
    public static func decompress(_ data: Data, maxOutputBytes: Int) throws(GzipError) -> Data {
        let result = data.withUnsafeBytes { input in
            Result { () throws(GzipError) -> Data in
                try ZlibStream.inflate(input, maxOutputBytes: max(0, maxOutputBytes), chunkSize: Self.chunkSize)
            }
        }
        return try result.get()
    }
}
