package import Foundation
package import JoryioCore

/// One attribute change the app asked for, kept until the server confirms it (ATTR-7, ATTR-14).
///
/// A write carries the identity it was made under: it is always sent with those ids, never with a
/// later user's (IDENT-4).
package struct AttributeWrite: Sendable, Equatable {
    /// What the write does to its key.
    package enum Operation: Sendable, Equatable {
        /// Sets the key to a value (never `null`: a removal is ``unset``).
        case set(JSONValue)
        /// Adds a delta to the key's number on the server (ATTR-3): never a total.
        case increment(Double)
        /// Removes the key (ATTR-2, ATTR-4).
        case unset
    }

    /// Unique per write; the server applies a write id once (idempotency, GAP-8).
    package var id: String
    /// The attribute name (non-empty; validated by the facade).
    package var key: String
    /// The change.
    package var operation: Operation
    /// The user id current when the write was made.
    package var userId: String?
    /// The anonymous id current when the write was made.
    package var anonymousId: String
    /// When the app made the call; the server orders writes by it.
    package var timestamp: Date

    /// Creates a write.
    package init(id: String, key: String, operation: Operation, userId: String?, anonymousId: String, timestamp: Date) {
        self.id = id
        self.key = key
        self.operation = operation
        self.userId = userId
        self.anonymousId = anonymousId
        self.timestamp = timestamp
    }
}
