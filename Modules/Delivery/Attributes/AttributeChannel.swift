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

        var limits: AttributeQueue.Limits {
            AttributeQueue.Limits(
                maxOperations: self.maxOperationsPerRequest,
                maxUnsets: self.maxUnsetsPerRequest,
                maxBodyBytes: self.maxBodyBytes
            )
        }
    }

    private struct State {
        var queue = AttributeQueue()
        /// The key of the request on the wire; it may no longer be in the queue after ``purge()``.
        var inFlightKey: String?
        var lastSendStart: Date?
        var retry = RetryState()
        var paused = false
        var stopped = false
        /// The server rejected the current user's token: nothing is sent until a new one arrives.
        var authHeld = false
        /// The stored item could not be read at ``load()``; it is left as it is until a change
        /// must be stored.
        var storedItemUnreadable = false
        /// ``load()`` has run (or was made unnecessary by ``purge()``).
        var loaded = false
        var timer: (any Cancellable)?
        var timerDue: Date?
    }

    private let secureStore: any SecureStore
    private let storageKey: String
    private let transport: any Transport
    private let scheduler: any Scheduler
    private let clock: any Clock
    private let jitter: any JitterSource
    private let logger: Logger
    private let identifiers: any IdentifierGenerator
    private let builder: AttributeRequestBuilder
    private let settings: Settings
    private let onResult: @Sendable (JoryioTransportError?) -> Void
    private let authorization: RequestAuthorization
    private let state = Locked(State())

    /// Tolerance when comparing a timer's due time with the clock (floating-point sums).
    private static let epsilon: TimeInterval = 0.000_001

    /// Creates a channel; call ``load()`` next. `onResult` hears every request's failure, or `nil`
    /// after a success.
    package init(
        secureStore: any SecureStore,
        storageKey: String = "jry_attribute_writes",
        transport: any Transport,
        scheduler: any Scheduler,
        clock: any Clock,
        jitter: any JitterSource,
        logger: Logger,
        identifiers: any IdentifierGenerator,
        builder: AttributeRequestBuilder,
        settings: Settings,
        authorization: RequestAuthorization = .disabled,
        onResult: @escaping @Sendable (JoryioTransportError?) -> Void
    ) {
        self.authorization = authorization
        self.secureStore = secureStore
        self.storageKey = storageKey
        self.transport = transport
        self.scheduler = scheduler
        self.clock = clock
        self.jitter = jitter
        self.logger = logger
        self.identifiers = identifiers
        self.builder = builder
        self.settings = settings
        self.onResult = onResult
    }

    // MARK: - State

    /// Unconfirmed writes: those waiting and those in frozen batches (including the one in flight).
    package var pendingCount: Int { self.state.withLock { $0.queue.count } }

    /// Whether a request is on the wire.
    package var isSending: Bool { self.state.withLock { $0.inFlightKey != nil } }

    /// Whether sending is held (consent pending).
    package var isPaused: Bool { self.state.withLock { $0.paused } }

    /// Whether a 402 stopped attribute sending for this instance's life.
    package var isStopped: Bool { self.state.withLock { $0.stopped } }

    /// A copy of the unconfirmed writes (frozen batches first).
    package var queue: AttributeQueue { self.state.withLock { $0.queue } }

    // MARK: - Commands

    /// Reads the stored writes and sends what waits (the stored in-flight batch first, unchanged).
    ///
    /// Runs once: later calls do nothing. ``enqueue(_:)`` and ``purge()`` load first when the
    /// engine has not, so a write can never overwrite stored writes that were not read yet.
    /// Unreadable data is logged as an error and the channel goes on empty; the stored item is
    /// left untouched until the next write (or ``purge()``) replaces it. Call ``setPaused(_:)``
    /// before `load()` when consent is pending.
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
            self.logger.error("cannot read stored attribute writes; starting without them: \(error)")
            self.state.withLock { $0.storedItemUnreadable = true }
            return
        }
        guard let loaded, !loaded.isEmpty else { return }
        self.state.withLock { $0.queue = loaded }
        self.logger.debug("loaded \(loaded.count) unconfirmed attribute writes")
        self.kick()
    }

    /// Stores `writes` (compacted with those waiting) before returning, then sends or schedules.
    package func enqueue(_ writes: [AttributeWrite]) {
        var accepted: [AttributeWrite] = []
        for write in writes {
            if case .increment(let delta) = write.operation, !delta.isFinite {
                self.logger.warning("dropped an increment of \"\(write.key)\": the delta is not a finite number")
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
            self.logger.warning(
                "dropped the \(evicted.count) oldest waiting attribute writes: more than \(self.settings.maxPending) unconfirmed"
            )
        }
        if replacesUnreadable {
            self.logger.warning("replacing the unreadable stored attribute writes")
        }
        self.persist(queue)
        self.kick()
    }

    /// Holds sending while consent is `.pending` (ATTR-19): writes are stored, nothing is sent.
    /// Unpausing sends what waits.
    package func setPaused(_ paused: Bool) {
        let resume = self.state.withLock { state -> Bool in
            defer { state.paused = paused }
            if paused { Self.cancelTimer(&state) }
            return state.paused && !paused
        }
        if resume { self.kick() }
    }

    /// A token was set: writes held by a rejected token are sent again (AUTH-9).
    package func authorizationChanged() {
        let resume = self.state.withLock { state -> Bool in
            defer { state.authHeld = false }
            return state.authHeld
        }
        if resume { self.kick() }
    }

    /// Whether sending waits for a new SDK-auth token.
    package var isWaitingForToken: Bool { self.state.withLock { $0.authHeld } }

    /// A retry trigger (foreground, `optIn()`, consent granted; ATTR-8): skips the channel's own
    /// backoff, never `Retry-After`, the window or a request in flight.
    package func retry() {
        // A fresh retry budget too, so a trigger that arrives while a request is on the wire still
        // counts if that request fails after `maxRetries` failures in a row.
        self.state.withLock {
            $0.retry.recordSuccess()
        }
        self.kick()
    }

    /// Drops every unconfirmed write and forgets the in-flight batch, whatever its outcome
    /// (ATTR-15: `optOut()`, `reset()`, `wipeData()`, consent denied). The stored item is deleted.
    package func purge() {
        self.state.withLock { $0.loaded = true }
        let count = self.state.withLock { state in
            defer {
                state.queue = AttributeQueue()
                state.storedItemUnreadable = false
                Self.cancelTimer(&state)
            }
            return state.queue.count
        }
        self.persist(AttributeQueue())
        if count > 0 { self.logger.info("purged \(count) unconfirmed attribute writes") }
    }

    // MARK: - Sending

    /// Sends now, arms the timer for the earliest allowed start, or does nothing.
    private func kick() {
        let now = self.clock.now()
        enum Decision { case idle, wait(Date), send }
        let decision = self.state.withLock { state -> Decision in
            if state.stopped || state.paused || state.authHeld || state.inFlightKey != nil || state.queue.isEmpty {
                return .idle
            }
            var earliest = state.lastSendStart.map { $0.addingTimeInterval(self.settings.window) } ?? now
            if let until = state.retry.backoffUntil { earliest = max(earliest, until) }
            if let until = state.retry.retryAfterUntil { earliest = max(earliest, until) }
            return earliest.timeIntervalSince(now) > Self.epsilon ? .wait(earliest) : .send
        }
        switch decision {
        case .idle: return
        case .wait(let due): self.armTimer(at: due, now: now)
        case .send: self.send(now: now)
        }
    }

    private func send(now: Date) {
        let (batch, queue, froze) = self.state.withLock { state -> (AttributeBatch?, AttributeQueue, Bool) in
            Self.cancelTimer(&state)
            var froze = false
            if state.queue.batches.isEmpty {
                froze =
                    state.queue.freezeNext(limits: self.settings.limits, idempotencyKey: self.identifiers.next()) != nil
            }
            guard let batch = state.queue.batches.first else { return (nil, state.queue, false) }
            state.inFlightKey = batch.idempotencyKey
            state.lastSendStart = now
            return (batch, state.queue, froze)
        }
        guard let batch else { return }
        // The batch and its key are stored before the request leaves, so a restart repeats it.
        if froze { self.persist(queue) }
        // The token is read now, for the batch's own user (AUTH-5): never frozen with the batch.
        let authenticated = self.authorization.isEnabled()
        let token = authenticated ? self.authorization.token(batch.writes.first?.userId) : nil
        let request = self.builder.request(for: batch, sentAt: now).authorized(token.map { "Bearer " + $0 })
        self.logger.debug("sending \(batch.writes.count) attribute writes (\(request.body?.count ?? 0) bytes)")
        self.transport.send(request) { [self] result in
            self.scheduler.enqueue { self.handle(result, batch: batch, authenticated: authenticated, token: token) }
        }
    }

    private func handle(
        _ result: Result<HTTPResponse, TransportError>,
        batch: AttributeBatch,
        authenticated: Bool = false,
        token: String? = nil
    ) {
        let now = self.clock.now()
        if authenticated, case .success(let response) = result, response.status == 401 {
            self.handleUnauthorized(response, batch: batch, token: token)
            return
        }
        let outcome = AttributeOutcome.classify(result, now: now)
        // After purge() the batch is forgotten: its outcome changes no write, only the timing.
        let current = self.state.withLock { state -> Bool in
            state.inFlightKey = nil
            return state.queue.batches.first?.idempotencyKey == batch.idempotencyKey
        }
        let count = batch.writes.count
        switch outcome {
        case .confirmed:
            self.update(if: current) { $0.removeFirstBatch() }
            self.state.withLock { state in
                state.retry = RetryState()
            }
            self.logger.debug("the server confirmed \(count) attribute writes")
            self.onResult(nil)
        case .split(let status):
            if count == 1, let only = batch.writes.first {
                self.update(if: current) { $0.removeFirstBatch() }
                self.logger.warning(
                    "dropped the attribute write of \"\(only.key)\": the server rejected it (HTTP \(status))"
                )
            } else {
                self.update(if: current) { $0.splitFirst(newKey: self.identifiers.next) }
                self.logger.info("HTTP \(status) for \(count) attribute writes; resending them in halves")
            }
            self.onResult(.http(status: status, body: nil))
        case .forbidden:
            self.update(if: current) { $0.removeFirstBatch() }
            let keys = Set(batch.writes.map(\.key)).sorted().joined(separator: ", ")
            self.logger.error("HTTP 403: dropped \(count) attribute writes the server refused (keys: \(keys))")
            self.onResult(.http(status: 403, body: nil))
        case .stop:
            // The server answered, so it applied nothing: a new key keeps the next launch's resend
            // from being answered with the remembered 402.
            self.update(if: current) { $0.rekeyFirst(self.identifiers.next()) }
            self.state.withLock { state in
                state.stopped = true
                Self.cancelTimer(&state)
            }
            self.logger.error("HTTP 402: attribute sending stopped until the next launch; writes kept")
            self.onResult(.http(status: 402, body: nil))
            return
        case .retry(let error, let retryAfter, let sameKey):
            if !sameKey { self.update(if: current) { $0.rekeyFirst(self.identifiers.next()) } }
            self.onResult(error)
            self.logger.warning("sending \(count) attribute writes failed (\(error)); kept for retry")
            let failures = self.backOff(retryAfter: retryAfter, now: now)
            guard failures <= self.settings.maxRetries else {
                self.logger.info("\(failures) attribute failures in a row; waiting for the next trigger")
                return
            }
        }
        self.kick()
    }

    /// A 401 with SDK authentication on: a departed user's writes are dropped (AUTH-8); the current
    /// user's wait for a new token (AUTH-9).
    private func handleUnauthorized(_ response: HTTPResponse, batch: AttributeBatch, token: String?) {
        let userId = batch.writes.first?.userId
        let current = self.state.withLock { state -> Bool in
            state.inFlightKey = nil
            return state.queue.batches.first?.idempotencyKey == batch.idempotencyKey
        }
        self.onResult(.http(status: 401, body: nil))
        switch self.authorization.rejected(userId, token, response.body) {
        case .drop:
            self.update(if: current) { $0.removeFirstBatch() }
            self.logger.warning("dropped \(batch.writes.count) attribute writes of a user who is no longer current: the server rejected their SDK-auth token")
            self.kick()
        case .hold:
            self.state.withLock { $0.authHeld = true }
            self.logger.warning("the server rejected the SDK-auth token; \(batch.writes.count) attribute writes wait for a new token")
            if self.authorization.hasNewerToken(than: token, for: userId) {
                self.authorizationChanged()
            }
        }
    }

    /// Applies `change` to the queue and stores it, when the answered batch is still the first.
    private func update(if current: Bool, _ change: (inout AttributeQueue) -> Void) {
        guard current else { return }
        let queue = self.state.withLock { state in
            change(&state.queue)
            return state.queue
        }
        self.persist(queue)
    }

    private func persist(_ queue: AttributeQueue) {
        do {
            try self.secureStore.set(queue.isEmpty ? nil : AttributeWriteCodec.encode(queue), forKey: self.storageKey)
        } catch {
            // The writes stay in memory and are still sent; only a crash before then loses them.
            self.logger.error("cannot store attribute writes: \(error)")
        }
    }

    // MARK: - Backoff

    private func backOff(retryAfter: TimeInterval?, now: Date) -> Int {
        self.state.withLock { state in
            state.retry.recordFailure(policy: self.settings.backoff, jitter: self.jitter.next(), retryAfter: retryAfter, now: now)
                .failures
        }
    }

    private func armTimer(at due: Date, now: Date) {
        let armed = self.state.withLock { state -> Bool in
            if state.timerDue == due { return true }
            Self.cancelTimer(&state)
            state.timerDue = due
            return false
        }
        guard !armed else { return }
        let timer = self.scheduler.schedule(after: due.timeIntervalSince(now)) { [self] in
            self.state.withLock { state in
                state.timer = nil
                state.timerDue = nil
            }
            self.kick()
        }
        self.state.withLock { $0.timer = timer }
    }

    private static func cancelTimer(_ state: inout State) {
        state.timer?.cancel()
        state.timer = nil
        state.timerDue = nil
    }
}
