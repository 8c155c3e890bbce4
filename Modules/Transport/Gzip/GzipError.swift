/// A gzip payload could not be compressed or decompressed.
public struct GzipError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong. New codes may be added without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: String, Hashable, Sendable {
            case invalidData, outputTooLarge, zlib
        }
        private let wrapped: Wrapped

        /// The input is not a complete, valid gzip stream (bad header, corrupt data, truncated).
        public static let invalidData = Code(wrapped: .invalidData)
        /// Decompressing would produce more bytes than the caller allowed.
        public static let outputTooLarge = Code(wrapped: .outputTooLarge)
        /// zlib itself failed (out of memory, bad parameters).
        public static let zlib = Code(wrapped: .zlib)

        /// The code's name, such as `invalidData`.
        public var description: String { self.wrapped.rawValue }
    }

    /// The kind of failure.
    public var code: Code
    /// Details from zlib; never contains payload bytes.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `GzipError(code): message`.
    public var description: String { "GzipError(\(self.code)): \(self.message)" }
}
