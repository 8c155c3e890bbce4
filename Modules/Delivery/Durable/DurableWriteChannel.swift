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
/// - A current user's SDK-auth 401 is a counted failure retried with backoff like `success: false`
///   (DURABLE-8); the channel never parks waiting for a token, and a new token sends at once
///   (``authorizationChanged()``), never before `Retry-After`.
/// - Retry counts (`success: false`/401: ``Settings/maxCountedRetries`` retries after the first
///   send, 404 on a subscription: ``Settings/max404Retries``) live in memory: a restart gives a write
///   a fresh budget. The store has no update operation, and re-appending a write to record its count would
///   move it behind newer writes.
/// - A store that throws never crashes the channel and never loses what it accepted: a write the
///   store refused is kept in memory and sent during this launch; a write that cannot be deleted
///   (a full disk) is out of memory already, so it is never sent again during this launch, and its
///   delete is retried with backoff (``PendingDeletes``); only a restart before that works sends it
///   again (the server applies a `writeId` once).
package final class DurableWriteChannel: Sendable {
    /// Limits and retry settings.
    package struct Settings: Sendable {
        /// The most writes kept; a new write beyond it evicts the oldest non-withdrawal (DURABLE-11).
        package var maxWrites: Int
        /// How many times a subscription write answered 404 is sent again (DURABLE-7, "retried …
        /// at most 5 times"): the answer after the last retry, 404 again, drops it. A write is sent
        /// at most `max404Retries + 1` times for 404s.
        package var max404Retries: Int
        /// How many times a write answered `success: false` or a current-user 401 is sent again
        /// (DURABLE-8, "retried with backoff, at most 10 times per write"): the answer after the
        /// last retry, refused again, drops it. A write is sent at most `maxCountedRetries + 1`
        /// times for these answers.
        package var maxCountedRetries: Int
        /// The backoff schedule (BATCH-18).
        package var backoff: BackoffPolicy
        /// Consecutive failures after which the channel stops arming its own retry timer and waits
        /// for the next trigger (an enqueue, ``trigger()``, consent, events delivered), as events do.
        package var maxRetries: Int
        /// The longest a subscription write answered 404 waits for ``eventsDelivered()`` before it
        /// is resent anyway (the event queue may be stopped for the session by a 402/403).
        package var eventsWaitLimit: TimeInterval

        /// Creates settings.
        package init(
            backoff: BackoffPolicy,
            maxRetries: Int,
            maxWrites: Int = 1000,
            max404Retries: Int = 5,
            maxCountedRetries: Int = 10,
            eventsWaitLimit: TimeInterval = 300
        ) {
            self.backoff = backoff
            self.maxRetries = maxRetries
            self.maxWrites = max(1, maxWrites)
            self.max404Retries = max(0, max404Retries)
            self.maxCountedRetries = max(0, maxCountedRetries)
            self.eventsWaitLimit = max(0, eventsWaitLimit)
        }
    }

    /// A waiting write and its failure counts.
    struct Entry {
        /// The write.
        var write: DurableWrite
        /// The store's id; `nil` when the store refused the write (kept in memory only).
        var recordId: Int64?
        /// `success: false` and 401 answers so far (DURABLE-8).
        var countedFailures = 0
        /// 404 answers so far (DURABLE-7).
        var notFoundFailures = 0
    }

    /// The channel's mutable state, behind ``state``.
    struct State {
        /// The waiting writes, in sending order.
        var entries: [Entry] = []
        /// ``load()`` has run: nothing is sent before.
        var loaded = false
        /// ``setSendingHeld(_:)``: nothing is sent, withdrawals included (the engine is starting).
        var sendingHeld = false
        /// The id of the write on the wire.
        var inFlight: String?
        /// Whether collection is allowed (``setCollectionAllowed(_:)``).
        var collectionAllowed = false
        /// A 402 answered a non-withdrawal: non-withdrawals wait for the next launch (DURABLE-10).
        var collectingStopped = false
        /// The last answer was an SDK-auth 401 for the current user: the write backs off like any
        /// counted failure (DURABLE-8), and a new token sends it again without waiting for the
        /// backoff (never before `Retry-After`).
        var tokenRejected = false
        /// The write answered 404 that waits for events to be delivered (DURABLE-7).
        var waitingForEvents: String?
        /// The failure streak, backoff and `Retry-After`.
        var retry = RetryState()

        /// Whether `write` may go now: a withdrawal always, anything else while collection is allowed and not stopped.
        func isSendable(_ write: DurableWrite) -> Bool {
            write.isWithdrawal || (self.collectionAllowed && !self.collectingStopped)
        }

        /// The first write that may go now: held non-withdrawals are skipped, anything else blocks.
        var head: Entry? { self.entries.first { self.isSendable($0.write) } }

        /// The send decision's inputs: nothing before ``DurableWriteChannel/load()``, and nothing
        /// while the head waits for events.
        var gate: SendGate {
            let head = self.head
            return SendGate(
                held: !self.loaded || self.sendingHeld,
                inFlight: self.inFlight != nil,
                hasWork: head.map { $0.write.id != self.waitingForEvents } ?? false,
                retryAfterUntil: self.retry.retryAfterUntil,
                backoffUntil: self.retry.backoffUntil
            )
        }
    }

    /// The channel's own store (DURABLE-14).
    let store: any QueueStore
    /// Makes each write's request.
    let builder: DurableRequestBuilder
    /// Limits and retry settings.
    let settings: Settings
    /// Transport, scheduler, clock, logger, authorization and result reporting.
    let dependencies: ChannelDependencies
    /// The ids current now, read at send time (DURABLE-5).
    let currentIdentity: @Sendable () -> (userId: String?, anonymousId: String?)
    /// Whether events are queued, read after a 404 (DURABLE-7).
    let eventsWaiting: @Sendable () -> Bool
    /// The mutable state.
    let state = Locked(State())
    /// The backoff / `Retry-After` timer.
    let retryTimer: ChannelTimer
    /// The longest a write answered 404 waits for ``eventsDelivered()`` (DURABLE-7).
    let eventsWaitTimer: ChannelTimer
    /// Records of writes done with whose delete failed: deleted again with backoff.
    let pendingDeletes: PendingDeletes

    /// Creates a channel. Collection starts *not allowed*: only withdrawals are sent until
    /// ``setCollectionAllowed(_:)`` says otherwise.
    ///
    /// - Parameters:
    ///   - store: A store of its own (SQLite in production, DURABLE-14) with a capacity above
    ///     `settings.maxWrites`, so that the channel, not the store, chooses what is evicted.
    ///   - builder: Makes each write's request.
    ///   - settings: Limits and retry settings.
    ///   - dependencies: Transport, scheduler, clock, logger, authorization and result reporting.
    ///   - currentIdentity: The ids current now, read at send time (DURABLE-5).
    ///   - eventsWaiting: Whether events are queued, read after a 404 (DURABLE-7).
    package init(
        store: any QueueStore,
        builder: DurableRequestBuilder,
        settings: Settings,
        dependencies: ChannelDependencies,
        currentIdentity: @escaping @Sendable () -> (userId: String?, anonymousId: String?),
        eventsWaiting: @escaping @Sendable () -> Bool
    ) {
        self.store = store
        self.builder = builder
        self.settings = settings
        self.dependencies = dependencies
        self.currentIdentity = currentIdentity
        self.eventsWaiting = eventsWaiting
        self.retryTimer = ChannelTimer(scheduler: dependencies.scheduler)
        self.eventsWaitTimer = ChannelTimer(scheduler: dependencies.scheduler)
        self.pendingDeletes = PendingDeletes(
            store: store,
            noun: "durable writes",
            backoff: settings.backoff,
            dependencies: dependencies
        )
    }

    // MARK: - State (any thread)

    /// The number of writes waiting (the one on the wire included).
    package var pendingCount: Int { self.state.withLock { $0.entries.count } }

    /// The writes waiting, in sending order.
    package var pending: [DurableWrite] { self.state.withLock { $0.entries.map(\.write) } }

    /// Whether a request is on the wire.
    package var isSending: Bool { self.state.withLock { $0.inFlight != nil } }

    /// Whether collection is allowed; while it is not, only withdrawals are sent.
    package var isCollectionAllowed: Bool { self.state.withLock { $0.collectionAllowed } }

    /// Whether a 402 stopped the collecting writes for the rest of this instance; withdrawals
    /// still go (DURABLE-10).
    package var isStopped: Bool { self.state.withLock { $0.collectingStopped } }

    // MARK: - Commands (scheduler)

    /// Allows or holds data-collecting writes: `false` while consent is pending or denied or the
    /// person opted out (only withdrawals are sent); `true` sends what was held, in order.
    package func setCollectionAllowed(_ allowed: Bool) {
        self.state.withLock { $0.collectionAllowed = allowed }
        self.sendIfDue()
    }

    /// Holds every write, withdrawals included, while the engine starts: stored writes are loaded
    /// and a pre-init opt-out, denial or wipe may drop or add some, but nothing leaves before the
    /// launch's pre-init tokens are applied (INIT-17). Releasing sends what may go, in order.
    package func setSendingHeld(_ held: Bool) {
        self.state.withLock { $0.sendingHeld = held }
        self.sendIfDue()
    }

    /// A token was set: a write whose token was rejected is sent again now, with the new token,
    /// instead of at the end of its backoff (AUTH-9, DURABLE-8); never before `Retry-After`.
    package func authorizationChanged() {
        let resume = self.state.withLock { state -> Bool in
            guard state.tokenRejected else { return false }
            state.tokenRejected = false
            state.retry.backoffUntil = nil
            return true
        }
        if resume { self.sendIfDue() }
    }

    /// Called by the engine after an event batch was accepted or when the event queue became
    /// empty: a subscription write answered 404 is resent now (DURABLE-7).
    package func eventsDelivered() {
        self.state.withLock { $0.waitingForEvents = nil }
        self.eventsWaitTimer.cancel()
        self.sendIfDue()
    }

    /// A retry trigger (the app came to the foreground; GAP-18): a fresh retry budget, and a send
    /// now if possible, never before the backoff or `Retry-After` has passed.
    package func trigger() {
        // A trigger gives the channel a fresh retry budget, so it counts even when it arrives while
        // a request is on the wire that then fails after `maxRetries` failures in a row.
        self.state.withLock { $0.retry.consecutiveFailures = 0 }
        self.sendIfDue()
    }
}
