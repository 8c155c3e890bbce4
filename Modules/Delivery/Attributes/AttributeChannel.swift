package import Foundation
package import JoryioCore

/// Delivers attribute writes to `POST /v1/attributes`: durable, coalesced, one request at a time.
///
/// Runs entirely on the engine's scheduler: every method must be called there, and transport
/// completions are sent back to it. Every unconfirmed write, of every identity, is kept in one
/// secure-store item (ATTR-14), written before ``enqueue(_:)`` returns and before a request
/// leaves, so after a restart ``load()`` resends the request that was in flight first, with the
/// same `Idempotency-Key` and the same writes.
///
/// Timing (ATTR-9, GAP-30): a request never starts within ``Settings/window`` of the previous
/// one. When the channel is idle and the window has passed, a write goes out at once (leading
/// edge); otherwise it waits for the end of the window, or for the in-flight response if that
/// comes later (ATTR-10), and everything that waits by then is sent together. Backoff and
/// `Retry-After` push the next start further out; writes arriving meanwhile do not bypass them.
package final class AttributeChannel: Sendable {
    /// Limits and retry settings (already clamped by the configuration).
    package struct Settings: Sendable {
        /// The coalescing window: the least time between two request starts (ATTR-9).
        package var window: TimeInterval
        /// The most unconfirmed writes kept; beyond it the oldest waiting ones are dropped (ATTR-19).
        package var maxPending: Int
        /// Operations per request (the server accepts up to 1000).
        package var maxOperationsPerRequest: Int
        /// Unsets per request (ATTR-13).
        package var maxUnsetsPerRequest: Int
        /// Uncompressed body budget per request.
        package var maxBodyBytes: Int
        /// The backoff schedule after failures.
        package var backoff: BackoffPolicy
        /// Retries armed by the channel itself before it waits for the next trigger (GAP-18).
        package var maxRetries: Int

        /// Creates settings.
        package init(
            maxPending: Int,
            backoff: BackoffPolicy,
            maxRetries: Int,
            window: TimeInterval = 0.8,
            maxOperationsPerRequest: Int = 500,
            maxUnsetsPerRequest: Int = 200,
            maxBodyBytes: Int = 921_600
        ) {
            self.window = window
            self.maxPending = maxPending
            self.maxOperationsPerRequest = maxOperationsPerRequest
            self.maxUnsetsPerRequest = maxUnsetsPerRequest
            self.maxBodyBytes = maxBodyBytes
            self.backoff = backoff
            self.maxRetries = maxRetries
        }

        /// The per-request limits a batch is cut to.
        var limits: AttributeQueue.Limits {
            AttributeQueue.Limits(
                maxOperations: self.maxOperationsPerRequest,
                maxUnsets: self.maxUnsetsPerRequest,
                maxBodyBytes: self.maxBodyBytes
            )
        }
    }

    /// The channel's mutable state, behind ``state``.
    struct State {
        /// Every unconfirmed write.
        var queue = AttributeQueue()
        /// The key of the request on the wire; it may no longer be in the queue after
        /// ``discardCollected()``.
        var inFlightKey: String?
        /// When the last request started: the next waits for the window (ATTR-9).
        var lastSendStart: Date?
        /// The failure streak, backoff and `Retry-After`.
        var retry = RetryState()
        /// Whether collection is allowed (``setCollectionAllowed(_:)``).
        var collectionAllowed = true
        /// A 402 stopped sending for this instance.
        var stopped = false
        /// The server rejected the current user's token: nothing is sent until a new one arrives.
        var awaitingToken = false
        /// The stored item could not be read at ``load()``; it is left as it is until a change
        /// must be stored.
        var storedItemUnreadable = false
        /// ``load()`` has run (or was made unnecessary by ``discardCollected()``).
        var loaded = false
        /// Failed writes of the stored item in a row (a full disk): the item is stale, and written
        /// again with backoff.
        var persistFailures = 0

        /// The send decision's inputs: never within the window of the previous start (ATTR-9).
        func gate(window: TimeInterval) -> SendGate {
            SendGate(
                stopped: self.stopped,
                held: !self.collectionAllowed,
                awaitingToken: self.awaitingToken,
                inFlight: self.inFlightKey != nil,
                hasWork: !self.queue.isEmpty,
                retryAfterUntil: self.retry.retryAfterUntil,
                backoffUntil: self.retry.backoffUntil,
                notBefore: self.lastSendStart.map { $0.addingTimeInterval(window) }
            )
        }
    }

    /// Where the unconfirmed writes are kept (ATTR-14).
    let secureStore: any SecureStore
    /// The secure-store key of the item.
    let storageKey: String
    /// Makes each batch's request.
    let builder: AttributeRequestBuilder
    /// Limits and retry settings.
    let settings: Settings
    /// Transport, scheduler, clock, ids, logger, authorization and result reporting.
    let dependencies: ChannelDependencies
    /// The mutable state.
    let state = Locked(State())
    /// Armed for the earliest allowed start (window, backoff, `Retry-After`).
    let timer: ChannelTimer
    /// Armed while the stored item could not be written: writes it again with backoff.
    let persistTimer: ChannelTimer

    /// Creates a channel; call ``load()`` next.
    package init(
        secureStore: any SecureStore,
        storageKey: String = "jry_attribute_writes",
        builder: AttributeRequestBuilder,
        settings: Settings,
        dependencies: ChannelDependencies
    ) {
        self.secureStore = secureStore
        self.storageKey = storageKey
        self.builder = builder
        self.settings = settings
        self.dependencies = dependencies
        self.timer = ChannelTimer(scheduler: dependencies.scheduler)
        self.persistTimer = ChannelTimer(scheduler: dependencies.scheduler)
    }

    // MARK: - State

    /// Unconfirmed writes: those waiting and those in frozen batches (including the one in flight).
    package var pendingCount: Int { self.state.withLock { $0.queue.count } }

    /// Whether a request is on the wire.
    package var isSending: Bool { self.state.withLock { $0.inFlightKey != nil } }

    /// Whether collection is allowed; while it is not (consent pending), writes wait.
    package var isCollectionAllowed: Bool { self.state.withLock { $0.collectionAllowed } }

    /// Whether a 402 stopped attribute sending for this instance's life.
    package var isStopped: Bool { self.state.withLock { $0.stopped } }

    /// Whether sending waits for a new SDK-auth token.
    package var isWaitingForToken: Bool { self.state.withLock { $0.awaitingToken } }

    /// A copy of the unconfirmed writes (frozen batches first).
    package var queue: AttributeQueue { self.state.withLock { $0.queue } }

    // MARK: - Commands

    /// Reads the stored writes and sends what waits (the stored in-flight batch first, unchanged).
    ///
    /// Runs once: later calls do nothing. ``enqueue(_:)`` and ``discardCollected()`` load first
    /// when the engine has not, so a write can never overwrite stored writes that were not read
    /// yet. Unreadable data is logged as an error and the channel goes on empty; the stored item
    /// is left untouched until the next write (or ``discardCollected()``) replaces it. Call
    /// ``setCollectionAllowed(_:)`` before `load()` when consent is pending.
    package func load() {
        let first = self.state.withLock { state -> Bool in
            defer { state.loaded = true }
            return !state.loaded
        }
        guard first else { return }
        let loaded: AttributeQueue?
        do {
            loaded = try self.secureStore.data(forKey: self.storageKey).map(AttributeWriteCodec.decode)
        } catch {
            self.dependencies.logger.error("cannot read stored attribute writes; starting without them: \(error)")
            self.state.withLock { $0.storedItemUnreadable = true }
            return
        }
        guard let loaded, !loaded.isEmpty else { return }
        self.state.withLock { $0.queue = loaded }
        self.dependencies.logger.debug("loaded \(loaded.count) unconfirmed attribute writes")
        self.sendIfDue()
    }

    /// Stores `writes` (compacted with those waiting) before returning, then sends or schedules.
    package func enqueue(_ writes: [AttributeWrite]) {
        let logger = self.dependencies.logger
        var accepted: [AttributeWrite] = []
        for write in writes {
            if case .increment(let delta) = write.operation, !delta.isFinite {
                logger.warning("dropped an increment of \"\(write.key)\": the delta is not a finite number")
            } else {
                accepted.append(write)
            }
        }
        guard !accepted.isEmpty else { return }
        self.load()
        let (queue, evicted, replacesUnreadable) = self.state.withLock { state in
            for write in accepted { state.queue.append(write) }
            let evicted = state.queue.evictOldest(keeping: self.settings.maxPending)
            defer { state.storedItemUnreadable = false }
            return (state.queue, evicted, state.storedItemUnreadable)
        }
        if !evicted.isEmpty {
            logger.warning(
                "dropped the \(evicted.count) oldest waiting attribute writes: more than \(self.settings.maxPending) unconfirmed"
            )
        }
        if replacesUnreadable {
            logger.warning("replacing the unreadable stored attribute writes")
        }
        self.persist(queue)
        self.sendIfDue()
    }

    /// Holds sending while collection is not allowed (consent pending, ATTR-19): writes are stored,
    /// nothing is sent. Allowing it again sends what waits.
    package func setCollectionAllowed(_ allowed: Bool) {
        let resume = self.state.withLock { state -> Bool in
            defer { state.collectionAllowed = allowed }
            return !state.collectionAllowed && allowed
        }
        if !allowed { self.timer.cancel() }
        if resume { self.sendIfDue() }
    }

    /// A token was set: writes held by a rejected token are sent again (AUTH-9).
    package func authorizationChanged() {
        let resume = self.state.withLock { state -> Bool in
            defer { state.awaitingToken = false }
            return state.awaitingToken
        }
        if resume { self.sendIfDue() }
    }

    /// A retry trigger (foreground, `optIn()`, consent granted; ATTR-8): skips the channel's own
    /// backoff, never `Retry-After`, the window or a request in flight.
    package func trigger() {
        // A fresh retry budget too, so a trigger that arrives while a request is on the wire still
        // counts if that request fails after `maxRetries` failures in a row.
        self.state.withLock { $0.retry.recordSuccess() }
        self.sendIfDue()
    }

    /// Drops every unconfirmed write and forgets the in-flight batch, whatever its outcome
    /// (ATTR-15: `optOut()`, `reset()`, `wipeData()`, consent denied). The stored item is deleted.
    package func discardCollected() {
        let count = self.state.withLock { state in
            defer {
                state.loaded = true
                state.queue = AttributeQueue()
                state.storedItemUnreadable = false
            }
            return state.queue.count
        }
        self.timer.cancel()
        self.persist(AttributeQueue())
        if count > 0 { self.dependencies.logger.info("purged \(count) unconfirmed attribute writes") }
    }
}
