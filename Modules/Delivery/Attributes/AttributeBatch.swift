/// Attribute writes frozen into one request: the writes and the idempotency key never change
/// once the request has been sent, so a retry repeats exactly the same request (wire-v2).
package struct AttributeBatch: Sendable, Equatable {
    /// The `Idempotency-Key` header value.
    package var idempotencyKey: String
    /// The writes, in order; all of one identity.
    package var writes: [AttributeWrite]

    /// Creates a batch.
    package init(idempotencyKey: String, writes: [AttributeWrite]) {
        self.idempotencyKey = idempotencyKey
        self.writes = writes
    }
}

extension AttributeWrite {
    /// Whether `other` was made under the same identity (user id and anonymous id).
    package func hasSameIdentity(as other: AttributeWrite) -> Bool {
        self.userId == other.userId && self.anonymousId == other.anonymousId
    }

    /// Whether the write is the person's who is now `userId` on `anonymousId`: made as that user, or
    /// made anonymously on that anonymous id (the same person before the identify, DURABLE-5).
    package func isOfPerson(userId: String?, anonymousId: String) -> Bool {
        if let userId, self.userId == userId { return true }
        return self.userId == nil && self.anonymousId == anonymousId
    }

    /// Whether `other` changes the same attribute of the same identity.
    package func hasSameTarget(as other: AttributeWrite) -> Bool {
        self.key == other.key && self.hasSameIdentity(as: other)
    }

    /// Whether the write removes its key.
    package var isUnset: Bool {
        if case .unset = self.operation { return true }
        return false
    }
}
