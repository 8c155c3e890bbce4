/// The unconfirmed attribute writes of every identity: frozen batches first, then waiting writes.
///
/// A pure value: the ``AttributeChannel`` owns one, persists it after each change and decides when
/// to send. Frozen batches (the one in flight, one being retried, the halves of a split) are sent
/// first, unchanged and in order; waiting writes are compacted (ATTR-9) and frozen into a batch
/// only when a request leaves.
package struct AttributeQueue: Sendable, Equatable {
    /// The per-request limits a batch is cut to (wire-v2, ATTR-13).
    package struct Limits: Sendable, Equatable {
        /// Operations per request.
        package var maxOperations: Int
        /// `unset` operations per request.
        package var maxUnsets: Int
        /// Uncompressed body bytes per request (a single larger write is still sent, alone).
        package var maxBodyBytes: Int

        /// Creates limits.
        package init(maxOperations: Int, maxUnsets: Int, maxBodyBytes: Int) {
            self.maxOperations = max(1, maxOperations)
            self.maxUnsets = max(1, maxUnsets)
            self.maxBodyBytes = maxBodyBytes
        }
    }

    /// Batches with an idempotency key, oldest first; the first is in flight or retried next.
    package var batches: [AttributeBatch]
    /// Writes not sent yet, oldest first.
    package var waiting: [AttributeWrite]

    /// Creates a queue.
    package init(batches: [AttributeBatch] = [], waiting: [AttributeWrite] = []) {
        self.batches = batches
        self.waiting = waiting
    }

    /// Every unconfirmed write: those in batches and those waiting.
    package var count: Int {
        self.batches.reduce(self.waiting.count) { $0 + $1.writes.count }
    }

    /// Whether nothing is left to send.
    package var isEmpty: Bool {
        self.batches.isEmpty && self.waiting.isEmpty
    }

    /// Adds `write` after compacting it with the waiting writes of the same identity and key.
    ///
    /// A set or unset replaces every waiting write of its key (they leave the list and `write` goes
    /// to the tail). An increment whose key's last waiting write is an increment adds its delta to
    /// that write, which keeps its id and place and takes the newer timestamp; otherwise it is
    /// appended. An increment never becomes a total (ATTR-3). Frozen batches are never touched.
    package mutating func append(_ write: AttributeWrite) {
        switch write.operation {
        case .set, .unset:
            self.waiting.removeAll { $0.hasSameTarget(as: write) }
            self.waiting.append(write)
        case .increment(let delta):
            if let index = self.waiting.lastIndex(where: { $0.hasSameTarget(as: write) }),
                case .increment(let earlier) = self.waiting[index].operation,
                (earlier + delta).isFinite
            {
                self.waiting[index].operation = .increment(earlier + delta)
                self.waiting[index].timestamp = write.timestamp
            } else {
                self.waiting.append(write)
            }
        }
    }

    /// Drops the oldest waiting writes until at most `maxCount` writes are unconfirmed or none is
    /// waiting (frozen batches are never dropped). Returns the dropped writes.
    package mutating func evictOldest(keeping maxCount: Int) -> [AttributeWrite] {
        let excess = min(max(0, self.count - maxCount), self.waiting.count)
        guard excess > 0 else { return [] }
        let dropped = Array(self.waiting.prefix(excess))
        self.waiting.removeFirst(excess)
        return dropped
    }

    /// Freezes the longest run of waiting writes from the head that share the first write's
    /// identity and fits `limits` into a new batch at the end of ``batches``; `nil` when nothing
    /// waits.
    package mutating func freezeNext(limits: Limits, idempotencyKey: String) -> AttributeBatch? {
        guard let first = self.waiting.first else { return nil }
        var size = AttributeRequestBuilder.envelopeSize(userId: first.userId, anonymousId: first.anonymousId)
        var taken = 0
        var unsets = 0
        for write in self.waiting {
            guard write.hasSameIdentity(as: first), taken < limits.maxOperations else { break }
            if write.isUnset, unsets >= limits.maxUnsets { break }
            let added = AttributeRequestBuilder.operationSize(write) + (taken > 0 ? 1 : 0)
            if taken > 0, size + added > limits.maxBodyBytes { break }
            size += added
            taken += 1
            if write.isUnset { unsets += 1 }
        }
        let batch = AttributeBatch(idempotencyKey: idempotencyKey, writes: Array(self.waiting.prefix(taken)))
        self.waiting.removeFirst(taken)
        self.batches.append(batch)
        return batch
    }

    /// Replaces the first batch by its two halves, each with a new key from `newKey`.
    package mutating func splitFirst(newKey: () -> String) {
        guard let head = self.batches.first, head.writes.count > 1 else { return }
        let middle = head.writes.count / 2
        let halves = [
            AttributeBatch(idempotencyKey: newKey(), writes: Array(head.writes[..<middle])),
            AttributeBatch(idempotencyKey: newKey(), writes: Array(head.writes[middle...])),
        ]
        self.batches.replaceSubrange(0..<1, with: halves)
    }

    /// Drops the first batch and returns it.
    @discardableResult
    package mutating func removeFirstBatch() -> AttributeBatch? {
        self.batches.isEmpty ? nil : self.batches.removeFirst()
    }

    /// Gives the first batch a new idempotency key, keeping its writes.
    package mutating func rekeyFirst(_ key: String) {
        guard !self.batches.isEmpty else { return }
        self.batches[0].idempotencyKey = key
    }
}
