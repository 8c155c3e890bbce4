package import Foundation
package import JoryioCore

/// Sends stored events: batching triggers, one request in flight, splitting, retry and backoff.
///
/// Runs entirely on the engine's scheduler: every method must be called there, and transport
/// completions are sent back to it. Events leave the store only when the server accepted them,
/// rejected them permanently (alone, or in `rejectedIndices`), or when capacity evicts them.
package final class EventUploader: Sendable {
    /// Batching and retry settings (already clamped by the configuration).
    package struct Settings: Sendable {
        /// Events per request and the count that triggers a send (BATCH-1).
        package var batchSize: Int
        /// The longest an event waits before a send is triggered (BATCH-2).
        package var flushInterval: TimeInterval
        /// Send as soon as an event is stored (BATCH-3).
        package var sendImmediately: Bool
        /// Retries armed by the SDK itself before it waits for the next trigger (GAP-18).
        package var maxRetries: Int
        /// The backoff schedule (BATCH-18).
        package var backoff: BackoffPolicy
        /// Uncompressed body budget per request (BATCH-5).
        package var maxBatchBytes: Int = 921_600

        /// Creates settings.
        package init(
            batchSize: Int,
            flushInterval: TimeInterval,
            sendImmediately: Bool,
            maxRetries: Int,
            backoff: BackoffPolicy
        ) {
            self.batchSize = batchSize
            self.flushInterval = flushInterval
            self.sendImmediately = sendImmediately
            self.maxRetries = maxRetries
            self.backoff = backoff
        }
    }

    /// Why a send was asked for.
    package enum Trigger: Sendable, Equatable {
        /// `flush()`: skips the SDK's own backoff, never `Retry-After` (BATCH-11).
        case flush
        /// The app went to the background, the flush interval elapsed, or a backoff timer fired.
        case timer
        /// `batchSize` events are waiting, or `sendImmediately` is on.
        case size

        /// A flush beats a timer, which beats a size trigger: the one kept while a request is busy.
        var rank: Int {
            switch self {
            case .flush: 3
            case .timer: 2
            case .size: 1
            }
        }
    }

    /// The uploader's mutable state, behind ``state``.
    struct State {
        /// A request is on the wire.
        var inFlight = false
        /// Called once no request is on the wire any more (``whenSettled(_:)``).
        var whenSettled: [@Sendable () -> Void] = []
        /// Halves of a split batch, sent before anything else (BATCH-6).
        var splitHalves: [[QueueRecord]] = []
        /// The failure streak, backoff and `Retry-After`.
        var retry = RetryState()
        /// A 402 or 403 stopped sending for this session (BATCH-10).
        var stopped = false
        /// Whether collection is allowed (``setCollectionAllowed(_:)``).
        var collectionAllowed = true
        /// A flush or timer asked for the whole queue: keep sending until it is empty.
        var draining = false
        /// The strongest trigger that arrived while a request was on the wire.
        var triggeredWhileBusy: Trigger?
        /// A `flush()` is waiting for `Retry-After` only: the retry timer sends as a flush.
        var flushWaiting = false
        /// The server rejected the current user's token: nothing is sent until a new token arrives.
        var awaitingToken = false

        /// The send decision's inputs for `trigger`; a flush skips the SDK's own backoff.
        func gate(for trigger: Trigger) -> SendGate {
            SendGate(
                stopped: self.stopped,
                held: !self.collectionAllowed,
                awaitingToken: self.awaitingToken,
                inFlight: self.inFlight,
                retryAfterUntil: self.retry.retryAfterUntil,
                backoffUntil: trigger == .flush ? nil : self.retry.backoffUntil
            )
        }
    }

    /// The event queue (the engine stores into it).
    let store: any QueueStore
    /// Makes each batch's request.
    let builder: BatchRequestBuilder
    /// Batching and retry settings.
    let settings: Settings
    /// Transport, scheduler, clock, logger, authorization and result reporting.
    let dependencies: ChannelDependencies
    /// The mutable state.
    let state = Locked(State())
    /// The flush-interval timer (BATCH-2).
    let intervalTimer: ChannelTimer
    /// The backoff / `Retry-After` timer.
    let retryTimer: ChannelTimer
    /// Events done with (delivered, or dropped for good) whose delete failed: never sent again,
    /// deleted again with backoff (a full disk, issue 12).
    let pendingDeletes: PendingDeletes

    /// Creates an uploader.
    package init(
        store: any QueueStore,
        builder: BatchRequestBuilder,
        settings: Settings,
        dependencies: ChannelDependencies
    ) {
        self.store = store
        self.builder = builder
        self.settings = settings
        self.dependencies = dependencies
        self.intervalTimer = ChannelTimer(scheduler: dependencies.scheduler)
        self.retryTimer = ChannelTimer(scheduler: dependencies.scheduler)
        self.pendingDeletes = PendingDeletes(
            store: store,
            noun: "delivered events",
            backoff: settings.backoff,
            dependencies: dependencies
        )
    }

    // MARK: - State

    /// Whether collection is allowed; while it is not (consent pending), events stay queued.
    package var isCollectionAllowed: Bool { self.state.withLock { $0.collectionAllowed } }

    /// Whether 402/403 stopped event sending for this session.
    package var isStopped: Bool { self.state.withLock { $0.stopped } }

    /// Whether a request is on the wire.
    package var isSending: Bool { self.state.withLock { $0.inFlight } }

    /// Whether sending waits for a new SDK-auth token (the current user's was rejected).
    package var isWaitingForToken: Bool { self.state.withLock { $0.awaitingToken } }

    /// Stored events that still wait to be sent: the store's count without the events already
    /// delivered (or dropped) whose delete failed.
    package func sendableCount() -> Int {
        max(0, ((try? self.store.count()) ?? 0) - self.pendingDeletes.count)
    }

    // MARK: - Commands

    /// Holds sending while collection is not allowed (consent pending, CONSENT-3): events stay
    /// queued; allowing it again sends everything held.
    package func setCollectionAllowed(_ allowed: Bool) {
        let resume = self.state.withLock { state -> Bool in
            defer { state.collectionAllowed = allowed }
            return !state.collectionAllowed && allowed
        }
        if resume {
            self.trigger(.timer)
        }
    }

    /// A token was set: a send held by a rejected token goes again (AUTH-9).
    package func authorizationChanged() {
        let resume = self.state.withLock { state -> Bool in
            defer { state.awaitingToken = false }
            return state.awaitingToken
        }
        if resume {
            self.trigger(.timer)
        }
    }

    /// Called after events were stored; `queued` is the store's count afterwards.
    ///
    /// The flush-interval timer is armed even when the batch size triggers a send at once: a burst
    /// of 120 events sends two batches of 50 now, and the remaining 20 must still leave within
    /// `flushInterval`, not wait for the next event. Delivered events whose delete failed are in
    /// the store's count but not waiting.
    package func eventsStored(queued: Int) {
        let queued = max(0, queued - self.pendingDeletes.count)
        if !self.intervalTimer.isArmed, !self.isStopped {
            self.intervalTimer.replace(after: self.settings.flushInterval, now: self.dependencies.clock.now()) {
                [self] in
                self.trigger(.timer)
            }
        }
        if self.settings.sendImmediately || queued >= self.settings.batchSize {
            self.trigger(.size)
        }
    }

    /// Calls `done` once no request is on the wire: at once when none is, else after the answer to
    /// the last request of the current run (a drain's last batch, a split's last half, or the one
    /// that failed into a backoff or stopped sending). How the background task that wraps the send
    /// started at `didEnterBackground` knows when to end (issue 26).
    package func whenSettled(_ done: @escaping @Sendable () -> Void) {
        let now = self.state.withLock { state -> Bool in
            guard state.inFlight else { return true }
            state.whenSettled.append(done)
            return false
        }
        if now { done() }
    }

    /// Runs the ``whenSettled(_:)`` callbacks if no request is on the wire.
    func settleIfIdle() {
        let callbacks = self.state.withLock { state -> [@Sendable () -> Void] in
            guard !state.inFlight else { return [] }
            defer { state.whenSettled = [] }
            return state.whenSettled
        }
        callbacks.forEach { $0() }
    }

    /// Asks for a send. A flush or timer drains the whole queue, one request at a time.
    package func trigger(_ trigger: Trigger) {
        let now = self.dependencies.clock.now()
        let decision = self.state.withLock { state -> SendDecision in
            if state.stopped { return .idle }
            if trigger != .size { state.draining = true }
            let decision = state.gate(for: trigger).decision(at: now)
            switch decision {
            case .busy:
                // Keep the strongest trigger for when the answer arrives.
                if trigger.rank > (state.triggeredWhileBusy?.rank ?? 0) { state.triggeredWhileBusy = trigger }
            case .wait:
                // A flush skips the backoff, so only Retry-After holds it back.
                if trigger == .flush { state.flushWaiting = true }
            case .idle, .send:
                break
            }
            return decision
        }
        switch decision {
        case .idle, .busy: return
        case .wait(let until): self.armRetryTimer(at: until, now: now)
        case .send: self.sendNext()
        }
    }

    /// Triggers again at `due`, as a flush when a flush waits for `Retry-After`.
    func armRetryTimer(at due: Date, now: Date) {
        self.retryTimer.arm(at: due, now: now) { [self] in
            // A flush() that met Retry-After still skips the SDK's own (possibly longer) backoff.
            let flush = self.state.withLock { $0.flushWaiting }
            self.trigger(flush ? .flush : .timer)
        }
    }
}
