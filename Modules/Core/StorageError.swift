/// A failure of the storage layer (queue store, key-value store or secure store).
public struct StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure happened. New codes may be added without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: String, Hashable, Sendable {
            case cannotOpen, corrupt, full, io, schema, invalidKey, closed
        }
        private let wrapped: Wrapped

        /// The store could not be opened or created.
        public static let cannotOpen = Code(wrapped: .cannotOpen)
        /// Stored data is damaged.
        public static let corrupt = Code(wrapped: .corrupt)
        /// The disk or the database is full; the write did not happen and nothing stored was lost.
        public static let full = Code(wrapped: .full)
        /// A read or write failed.
        public static let io = Code(wrapped: .io)
        /// The stored schema is newer than this SDK understands, or a migration failed.
        public static let schema = Code(wrapped: .schema)
        /// A key does not follow the SDK's naming rules (for example the `jry_` / `joryio_` prefix).
        public static let invalidKey = Code(wrapped: .invalidKey)
        /// The store was closed.
        public static let closed = Code(wrapped: .closed)

        /// The code's name, such as `full`.
        public var description: String { self.wrapped.rawValue }
    }

    /// The kind of failure.
    public var code: Code
    /// A description of what failed; never contains personal data.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `StorageError(code): message`.
    public var description: String { "StorageError(\(self.code)): \(self.message)" }
}
