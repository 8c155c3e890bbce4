internal import Foundation

/// A source of unique identifiers (message ids, anonymous ids, session ids, idempotency keys).
public protocol IdentifierGenerator: Sendable {
    /// A new identifier, never returned before.
    func next() -> String
}

/// Random version 4 UUIDs in lowercase, the production ``IdentifierGenerator``.
public struct UUIDGenerator: IdentifierGenerator {
    /// Creates the generator.
    public init() {}

    /// A new random UUID string such as `3f2c8a0e-…`.
    public func next() -> String {
        UUID().uuidString.lowercased()
    }
}
