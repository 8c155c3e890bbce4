package import Foundation
package import JoryioCore

/// Delivers ``DurableWrite``s: kept in a store until the server confirms them, sent in order, one
/// request at a time (DURABLE-1…13, SUB-4…9).
///
/// Runs entirely on the engine's scheduler: every method except the read-only getters must be
/// called there, and transport completions are sent back to it. Call ``load()`` once at start,
/// after ``setCollectionAllowed(_:)`` has stated the privacy state: nothing is sent before
/// ``load()``, so the writes of earlier launches go out before the ones made during this one.
///
/// Rules the channel applies:
/// - The head write blocks the writes behind it while it waits (backoff, `Retry-After`, a 404
///   waiting for events), so order holds. Only *held* non-withdrawals are skipped: while collection
///   is not allowed (``setCollectionAllowed(_:)``), or after a 402 for this instance, withdrawals
///   behind them still go (DURABLE-10, SUB-6, GAP-32, GAP-63).
/// - Backoff and `Retry-After` belong to the channel (the server's health), not to one write.
/// - Attempt counts (`success: false`/401 up to ``Settings/maxCountedAttempts``, 404 on a
///   subscription up to ``Settings/max404Attempts``) live in memory: a restart gives a write a fresh
///   budget. The store has no update operation, and re-appending a write to record its count would
///   move it behind newer writes.
/// - A store that throws never crashes the channel and never loses what it accepted: a write the
///   store refused is kept in memory and sent during this launch; a write that cannot be deleted is
///   sent again after a restart (the server applies a `writeId` once).
package final class DurableWriteChannel: Sendable {
    /// Limits and retry settings.
    package struct Settings: Sendable {
        /// The most writes kept; a new write beyond it evicts the oldest non-withdrawal (DURABLE-11).
        package var maxWrites: Int
        /// How many 404 answers a subscription write gets before it is dropped (DURABLE-7).
        package var max404Attempts: Int
        /// How many `success: false` / 401 answers a write gets before it is dropped (DURABLE-8).
        package var maxCountedAttempts: Int
        /// The backoff schedule (BATCH-18).
        package var backoff: BackoffPolicy
        /// Consecutive failures after which the channel stops arming its own retry timer and waits
        /// for the next trigger (an enqueue, ``retry()``, consent, events delivered), as events do.
        package var maxRetries: Int
        /// The longest a subscription write answered 404 waits for ``eventsDelivered()`` before it
        /// is resent anyway (the event queue may be stopped for the session by a 402/403).
        package var eventsWaitLimit: TimeInterval

        /// Creates settings.
        package init(
            backoff: BackoffPolicy,
            maxRetries: Int,
            maxWrites: Int = 1000,
            max404Attempts: Int = 5,
            maxCountedAttempts: Int = 10,
            eventsWaitLimit: TimeInterval = 300
        ) {
            self.backoff = backoff
            self.maxRetries = maxRetries
            self.maxWrites = max(1, maxWrites)
            self.max404Attempts = max(1, max404Attempts)
            self.maxCountedAttempts = max(1, maxCountedAttempts)
            self.eventsWaitLimit = max(0, eventsWaitLimit)
        }
    }

    struct Entry {
        var write: DurableWrite
        /// The store's id; `nil` when the store refused the write (kept in memory only).
        var recordId: Int64?
        var countedFailures = 0
        var notFoundFailures = 0
    }

    struct State {
        var entries: [Entry] = []
        var loaded = false
        var inFlight: String?
        var collectionAllowed = false
        /// A 402 answered a non-withdrawal: non-withdrawals wait for the next launch (DURABLE-10).
        var paymentHeld = false
        /// The server rejected the current user's token: nothing is sent until a new one arrives.
        var authHeld = false
        var waitingForEvents: String?
        var eventsWaitTimer: (any Cancellable)?
        var retry = RetryState()
        var retryTimer: (any Cancellable)?
        var retryTimerDue: Date?

        func isSendable(_ write: DurableWrite) -> Bool {
            write.isWithdrawal || (self.collectionAllowed && !self.paymentHeld)
        }
    }

    let store: any QueueStore
    let transport: any Transport
    let scheduler: any Scheduler
    let clock: any Clock
    let jitter: any JitterSource
    let logger: Logger
    let builder: DurableRequestBuilder
    let settings: Settings
    let currentIdentity: @Sendable () -> (userId: String?, anonymousId: String?)
    let eventsWaiting: @Sendable () -> Bool
    let onResult: @Sendable (JoryioTransportError?) -> Void
    let authorization: RequestAuthorization
    let state = Locked(State())

    /// Creates a channel. Collection starts *not allowed*: only withdrawals are sent until
    /// ``setCollectionAllowed(_:)`` says otherwise.
    ///
    /// - Parameters:
    ///   - store: A store of its own (SQLite in production, DURABLE-14) with a capacity above
    ///     `settings.maxWrites`, so that the channel, not the store, chooses what is evicted.
    ///   - currentIdentity: The ids current now, read at send time (DURABLE-5).
    ///   - eventsWaiting: Whether events are queued, read after a 404 (DURABLE-7).
    ///   - onResult: Hears every request's failure, or `nil` after a success.
    package init(
        store: any QueueStore,
        transport: any Transport,
        scheduler: any Scheduler,
        clock: any Clock,
        jitter: any JitterSource,
        logger: Logger,
        builder: DurableRequestBuilder,
        settings: Settings,
        currentIdentity: @escaping @Sendable () -> (userId: String?, anonymousId: String?),
        eventsWaiting: @escaping @Sendable () -> Bool,
        authorization: RequestAuthorization = .disabled,
        onResult: @escaping @Sendable (JoryioTransportError?) -> Void
    ) {
        self.authorization = authorization
        self.store = store
        self.transport = transport
        self.scheduler = scheduler
        self.clock = clock
        self.jitter = jitter
        self.logger = logger
        self.builder = builder
        self.settings = settings
        self.currentIdentity = currentIdentity
        self.eventsWaiting = eventsWaiting
        self.onResult = onResult
    }

    // MARK: - Getters (any thread)

    /// Whether sending waits for a new SDK-auth token.
    package var isWaitingForToken: Bool { self.state.withLock { $0.authHeld } }

    /// A token was set: a write held by a rejected token is sent again (AUTH-9, DURABLE-8).
    package func authorizationChanged() {
        let resume = self.state.withLock { state -> Bool in
            defer { state.authHeld = false }
            return state.authHeld
        }
        if resume { self.kick() }
    }

    /// The number of writes waiting (the one on the wire included).
    package var pendingCount: Int { self.state.withLock { $0.entries.count } }

    /// The writes waiting, in sending order.
    package var pending: [DurableWrite] { self.state.withLock { $0.entries.map(\.write) } }

    /// Whether a request is on the wire.
    package var isSending: Bool { self.state.withLock { $0.inFlight != nil } }

    /// Whether a 402 holds non-withdrawals for the rest of this instance.
    package var isPaymentHeld: Bool { self.state.withLock { $0.paymentHeld } }

    // MARK: - Commands (scheduler)

    /// Reads every stored write into memory, oldest first, then starts sending.
    ///
    /// Records that do not decode are logged and deleted. If the store cannot be read, the failure
    /// is logged and the channel runs with what it has in memory; the stored writes stay in the
    /// store for the next launch.
    package func load() {
        let records: [QueueRecord]
        do {
            records = try self.store.peek(limit: Int(Int32.max), maxBytes: Int.max)
        } catch {
            self.logger.error("cannot read stored durable writes: \(error)")
            self.state.withLock { $0.loaded = true }
            self.kick()
            return
        }
        var undecodable: [Int64] = []
        let evicted = self.state.withLock { state -> [Entry] in
            let known = Dictionary(
                state.entries.compactMap { entry in entry.recordId.map { ($0, entry) } },
                uniquingKeysWith: { first, _ in first }
            )
            var loaded: [Entry] = []
            var ids = Set<String>()
            for record in records {
                if let entry = known[record.id]
                    ?? DurableWriteCodec.decode(record.payload).map({ Entry(write: $0, recordId: record.id) })
                {
                    if ids.insert(entry.write.id).inserted { loaded.append(entry) }
                } else {
                    undecodable.append(record.id)
                }
            }
            let stored = Set(records.map(\.id))
            for entry in state.entries where entry.recordId.map({ !stored.contains($0) }) ?? true {
                if ids.insert(entry.write.id).inserted { loaded.append(entry) }
            }
            state.entries = loaded
            state.loaded = true
            return Self.evict(from: &state, toFit: self.settings.maxWrites)
        }
        if !undecodable.isEmpty {
            self.logger.error("deleted \(undecodable.count) stored durable writes that cannot be read")
            self.deleteRecords(undecodable)
        }
        self.dropEvicted(evicted)
        self.logger.debug("loaded \(records.count - undecodable.count) durable writes")
        self.kick()
    }

    /// Stores `write`, replacing a waiting write with the same ``DurableWrite/replacementKey``
    /// (DURABLE-4) and evicting beyond ``Settings/maxWrites`` (DURABLE-11), then starts sending.
    ///
    /// The write is in the store when this returns, unless the store failed: then it is logged and
    /// kept in memory for this launch.
    package func enqueue(_ write: DurableWrite) {
        let victims = self.state.withLock { state -> (replaced: Entry?, evicted: [Entry])? in
            guard !state.entries.contains(where: { $0.write.id == write.id }) else { return nil }
            var replaced: Entry?
            let key = write.replacementKey
            // A sign-up never replaces a waiting withdrawal: both go, in order, so an opt-out or a
            // denial that drops the sign-up still delivers the withdrawal (DURABLE-12, SUB-6).
            if let index = state.entries.firstIndex(where: {
                $0.write.id != state.inFlight && $0.write.replacementKey == key
                    && (write.isWithdrawal || !$0.write.isWithdrawal)
            }) {
                replaced = state.entries.remove(at: index)
            }
            return (replaced, Self.evict(from: &state, toFit: self.settings.maxWrites - 1))
        }
        guard let victims else {
            self.logger.warning("ignored a durable write whose id is already queued")
            return
        }
        var recordId: Int64?
        do {
            let result = try self.store.append([DurableWriteCodec.encode(write)])
            recordId = result.ids.first
            if result.evicted > 0 {
                self.logger.error(
                    "the durable-write store evicted \(result.evicted) records by itself; its capacity is below maxWrites"
                )
            }
        } catch {
            self.logger.error("cannot store a durable write; it is kept in memory for this launch: \(error)")
        }
        self.state.withLock { $0.entries.append(Entry(write: write, recordId: recordId)) }
        if let replaced = victims.replaced {
            self.logger.debug("a newer \(Self.name(replaced.write.kind)) write replaced one still waiting")
            self.deleteRecords(replaced.recordId.map { [$0] } ?? [])
        }
        self.dropEvicted(victims.evicted)
        self.kick()
    }

    /// Allows or holds data-collecting writes: `false` while consent is pending or denied or the
    /// person opted out (only withdrawals are sent); `true` sends what was held, in order.
    package func setCollectionAllowed(_ allowed: Bool) {
        self.state.withLock { $0.collectionAllowed = allowed }
        self.kick()
    }

    /// Opt-out, consent denied or `wipeData()`: deletes every waiting identify, alias and
    /// subscribe/join write; a non-withdrawal on the wire is not retried whatever its outcome.
    /// Withdrawals are kept and delivered (DURABLE-12, OPTOUT-4).
    package func dropCollecting() {
        let dropped = self.state.withLock { state -> [Entry] in
            let dropped = state.entries.filter { !$0.write.isWithdrawal }
            state.entries.removeAll { !$0.write.isWithdrawal }
            if let waiting = state.waitingForEvents, !state.entries.contains(where: { $0.write.id == waiting }) {
                state.waitingForEvents = nil
                state.eventsWaitTimer?.cancel()
                state.eventsWaitTimer = nil
            }
            return dropped
        }
        if !dropped.isEmpty {
            self.logger.info("dropped \(dropped.count) pending identify, alias and subscription writes")
            self.deleteRecords(dropped.compactMap(\.recordId))
        }
        self.kick()
    }

    /// Called by the engine after an event batch was accepted or when the event queue became
    /// empty: a subscription write answered 404 is resent now (DURABLE-7).
    package func eventsDelivered() {
        self.state.withLock { state in
            state.waitingForEvents = nil
            state.eventsWaitTimer?.cancel()
            state.eventsWaitTimer = nil
        }
        self.kick()
    }

    /// The app came to the foreground: sends now if possible, never before the backoff or
    /// `Retry-After` has passed.
    package func retry() {
        // A trigger gives the channel a fresh retry budget, so it counts even when it arrives while
        // a request is on the wire that then fails after `maxRetries` failures in a row.
        self.state.withLock { $0.retry.consecutiveFailures = 0 }
        self.kick()
    }

    // MARK: - Helpers

    /// Removes the oldest evictable entries until at most `limit` remain: the oldest non-withdrawal
    /// first, the oldest withdrawal when only withdrawals remain; never the one on the wire.
    static func evict(from state: inout State, toFit limit: Int) -> [Entry] {
        var evicted: [Entry] = []
        while state.entries.count > max(0, limit) {
            let inFlight = state.inFlight
            guard
                let index = state.entries.firstIndex(where: { !$0.write.isWithdrawal && $0.write.id != inFlight })
                    ?? state.entries.firstIndex(where: { $0.write.id != inFlight })
            else { break }
            evicted.append(state.entries.remove(at: index))
        }
        return evicted
    }

    func dropEvicted(_ evicted: [Entry]) {
        guard !evicted.isEmpty else { return }
        for entry in evicted {
            if entry.write.isWithdrawal {
                self.logger.error(
                    "the durable-write queue is full of withdrawals; evicted the oldest \(Self.name(entry.write.kind)) write"
                )
            } else {
                self.logger.warning(
                    "the durable-write queue is full; evicted the oldest \(Self.name(entry.write.kind)) write"
                )
            }
        }
        self.deleteRecords(evicted.compactMap(\.recordId))
    }

    func deleteRecords(_ ids: [Int64]) {
        guard !ids.isEmpty else { return }
        do {
            try self.store.remove(ids: ids)
        } catch {
            // They are loaded again after a restart and resent; the server applies a writeId once.
            self.logger.error("cannot delete \(ids.count) durable writes from the store: \(error)")
        }
    }

    /// A name for logs: never an id, a token or a value.
    static func name(_ kind: DurableWrite.Kind) -> String {
        switch kind {
        case .identify: "identify"
        case .alias: "alias"
        case .subscription(_, let status): status == "unsubscribed" ? "unsubscribe" : "subscription"
        case .subscriptionGroup(_, _, let join): join ? "group join" : "group leave"
        case .optOutRecord: "opt-out record"
        case .pushUnregister: "push unregister"
        }
    }
}
