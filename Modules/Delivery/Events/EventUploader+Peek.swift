import Foundation
package import JoryioCore

/// Reading the next batch from the store, without the events whose delete failed.
extension EventUploader {
    /// The oldest stored events that wait to be sent, within the batch size and byte budget.
    func peekSendable() throws(StorageError) -> [QueueRecord] {
        let limit = self.settings.batchSize
        let excluded = self.pendingDeletes.excluded
        return try Self.peek(
            self.store,
            limit: limit,
            maxBytes: BatchRequestBuilder.payloadBudget(bodyBytes: self.settings.maxBatchBytes, limit: limit),
            excluding: excluded.ids,
            excludedBytes: excluded.bytes
        )
    }

    /// What `store.peek(limit:maxBytes:)` would answer if the records with ids `excluded` (whose
    /// payloads add up to `excludedBytes`) were not in the store.
    ///
    /// The store is asked for `limit + excluded.count` records and `maxBytes + excludedBytes`:
    /// whatever excluded records sit among the oldest, the answer then still holds every record a
    /// plain peek would return, and the limits are applied again to what is left. When only
    /// excluded records came back but the store holds more, the next record is larger than the
    /// budget; it is read on its own and returned alone, as a plain peek returns an oversized
    /// first record.
    package static func peek(
        _ store: any QueueStore,
        limit: Int,
        maxBytes: Int,
        excluding excluded: Set<Int64>,
        excludedBytes: Int
    ) throws(StorageError) -> [QueueRecord] {
        guard !excluded.isEmpty else { return try store.peek(limit: limit, maxBytes: maxBytes) }
        guard limit > 0 else { return [] }
        let wideLimit = Self.saturatingSum(limit, excluded.count)
        let peeked = try store.peek(limit: wideLimit, maxBytes: Self.saturatingSum(maxBytes, excludedBytes))
        var fresh = peeked.filter { !excluded.contains($0.id) }
        if fresh.isEmpty, !peeked.isEmpty, peeked.count < wideLimit {
            let more = try store.peek(limit: peeked.count + 1, maxBytes: .max)
            fresh = more.dropFirst(peeked.count).filter { !excluded.contains($0.id) }
        }
        var result: [QueueRecord] = []
        var bytes = 0
        for record in fresh.prefix(limit) {
            if !result.isEmpty, record.payload.count > maxBytes - bytes { break }
            result.append(record)
            bytes += record.payload.count
        }
        return result
    }

    private static func saturatingSum(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }
}
