package import Foundation
package import JoryioCore

/// Records a channel is done with (delivered, or dropped for good) whose delete from the store
/// failed, typically because the disk is full (`SQLITE_FULL`, ``StorageError/Code/full``).
///
/// They are remembered in memory so the channel never sends them again, and the delete is tried
/// again: at once whenever the channel deletes anything else or is about to send (a store that
/// took a new record likely has room again), and otherwise on a timer with exponential backoff
/// (``retryPolicy(from:)``: the channel's first delay, at least 1 s, capped at 1 min). Without
/// this, a delivered batch whose delete fails stays the oldest in the queue and is resent at once,
/// in a loop as fast as the server answers (issue 12).
///
/// Logging: one error when deletes start failing, debug lines for the attempts after it, and one
/// info line when a delete works again. The memory is lost on a restart: the records are then
/// sent once more, and the server drops the duplicates (`messageId`, `writeId`).
///
/// Used from the channel's scheduler only; the lock keeps the getters safe from any thread.
package final class PendingDeletes: Sendable {
    /// The remembered records and the failure streak.
    private struct State {
        /// Payload sizes by record id, so a peek can widen its byte budget by what it skips.
        var sizes: [Int64: Int] = [:]
        /// The sum of ``sizes``.
        var bytes = 0
        /// Failed deletes in a row.
        var failures = 0
    }

    /// The store the records live in.
    private let store: any QueueStore
    /// What the records are, for log lines ("delivered events").
    private let noun: String
    /// The retry schedule.
    private let policy: BackoffPolicy
    /// Scheduler, clock, jitter and logger.
    private let dependencies: ChannelDependencies
    /// The retry timer.
    private let timer: ChannelTimer
    /// The mutable state.
    private let state = Locked(State())

    /// Creates an empty set for records of `store`.
    ///
    /// - Parameters:
    ///   - store: The queue store the channel deletes from.
    ///   - noun: What the records are, in log lines (for example `delivered events`).
    ///   - backoff: The channel's backoff; the retries follow ``retryPolicy(from:)``.
    ///   - dependencies: The channel's dependencies (scheduler, clock, jitter, logger).
    package init(store: any QueueStore, noun: String, backoff: BackoffPolicy, dependencies: ChannelDependencies) {
        self.store = store
        self.noun = noun
        self.policy = Self.retryPolicy(from: backoff)
        self.dependencies = dependencies
        self.timer = ChannelTimer(scheduler: dependencies.scheduler)
    }

    /// The retry schedule for deletes: the channel's first delay, at least 1 s, doubling up to
    /// 1 min (or the channel's own cap when lower). A delete is local and cheap, so space that
    /// comes back is used within a minute; the floor keeps a 1 ms `retryBackoffMs` from spinning.
    package static func retryPolicy(from backoff: BackoffPolicy) -> BackoffPolicy {
        let base = max(backoff.base, 1)
        return BackoffPolicy(base: base, cap: max(base, min(backoff.cap, 60)))
    }

    // MARK: - State

    /// How many records wait for their delete.
    package var count: Int { self.state.withLock { $0.sizes.count } }

    /// Whether no record waits for its delete.
    package var isEmpty: Bool { self.state.withLock { $0.sizes.isEmpty } }

    /// Whether `id` waits for its delete (and must not be sent again).
    package func contains(_ id: Int64) -> Bool {
        self.state.withLock { $0.sizes[id] != nil }
    }

    /// The ids waiting for their delete and the sum of their payload sizes.
    package var excluded: (ids: Set<Int64>, bytes: Int) {
        self.state.withLock { (Set($0.sizes.keys), $0.bytes) }
    }

    /// Failed deletes in a row (0 when the last one worked).
    package var consecutiveFailures: Int { self.state.withLock { $0.failures } }

    /// When the retry timer fires, or `nil`.
    package var retryDue: Date? { self.timer.due }

    // MARK: - Deleting

    /// Deletes `records`, together with every record still waiting, in one store call. Returns
    /// whether the store accepted; on failure they are all remembered and a retry is armed.
    @discardableResult
    package func delete(_ records: [QueueRecord]) -> Bool {
        self.delete(records.map { ($0.id, $0.payload.count) })
    }

    /// Deletes the records with `ids` (sizes unknown, counted as 0) with every record still waiting.
    @discardableResult
    package func delete(ids: [Int64]) -> Bool {
        self.delete(ids.map { ($0, 0) })
    }

    /// Tries the deletes that failed, now. Returns whether nothing waits afterwards.
    @discardableResult
    package func retry() -> Bool {
        self.delete([(Int64, Int)]())
    }

    /// Forgets every waiting record without deleting it (the store was emptied by other means).
    package func forgetAll() {
        self.state.withLock { $0 = State() }
        self.timer.cancel()
    }

    // MARK: - Helpers

    private func delete(_ items: [(id: Int64, bytes: Int)]) -> Bool {
        let ids = self.state.withLock { state -> [Int64] in
            var ids = Set(state.sizes.keys)
            ids.formUnion(items.map(\.id))
            return ids.sorted()
        }
        guard !ids.isEmpty else { return true }
        do {
            try self.store.remove(ids: ids)
        } catch {
            self.failed(ids.count, items, error)
            return false
        }
        let (recovered, count) = self.state.withLock { state -> (Bool, Int) in
            defer { state = State() }
            return (state.failures > 0, state.sizes.count)
        }
        self.timer.cancel()
        if recovered {
            self.dependencies.logger.info(
                "deleted \(count) \(self.noun) that could not be deleted before; storage works again"
            )
        }
        return true
    }

    private func failed(_ total: Int, _ items: [(id: Int64, bytes: Int)], _ error: StorageError) {
        let failures = self.state.withLock { state -> Int in
            for item in items where state.sizes[item.id] == nil {
                state.sizes[item.id] = item.bytes
                state.bytes += item.bytes
            }
            state.failures += 1
            return state.failures
        }
        let delay = self.policy.delay(afterFailures: failures, jitter: self.dependencies.jitter.next(), retryAfter: nil)
        let logger = self.dependencies.logger
        if failures == 1 {
            logger.error(
                "cannot delete \(total) \(self.noun) (\(error)); they are remembered and never sent again; "
                    + "retrying the delete with backoff"
            )
        } else {
            logger.debug("still cannot delete \(total) \(self.noun) (\(error)); next attempt in \(delay) s")
        }
        self.timer.replace(after: delay, now: self.dependencies.clock.now()) { [self] in
            self.retry()
        }
    }
}
