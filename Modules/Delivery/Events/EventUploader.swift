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
        package init(batchSize: Int, flushInterval: TimeInterval, sendImmediately: Bool, maxRetries: Int, backoff: BackoffPolicy) {
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
    }

    private struct State {
        var inFlight = false
        var splitHalves: [[QueueRecord]] = []
        var retry = RetryState()
        var stopped = false
        var paused = false
        var draining = false
        var triggeredWhileBusy: Trigger?
        var intervalTimer: (any Cancellable)?
        var retryTimer: (any Cancellable)?
        var retryTimerDue: Date?
        /// A `flush()` is waiting for `Retry-After` only: the retry timer sends as a flush.
        var flushWaiting = false
        /// The server rejected the current user's token: nothing is sent until a new token arrives.
        var authHeld = false
    }

    private let store: any QueueStore
    private let transport: any Transport
    private let scheduler: any Scheduler
    private let clock: any Clock
    private let jitter: any JitterSource
    private let logger: Logger
    private let builder: BatchRequestBuilder
    private let settings: Settings
    private let onResult: @Sendable (JoryioTransportError?) -> Void
    private let authorization: RequestAuthorization
    private let state = Locked(State())

    /// Creates an uploader; `onResult` hears every request's failure, or `nil` after a success.
    package init(
        store: any QueueStore,
        transport: any Transport,
        scheduler: any Scheduler,
        clock: any Clock,
        jitter: any JitterSource,
        logger: Logger,
        builder: BatchRequestBuilder,
        settings: Settings,
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
        self.onResult = onResult
    }

    /// Holds sending while consent is `.pending` (CONSENT-3): events stay queued; unpausing sends
    /// everything held.
    package func setPaused(_ paused: Bool) {
        let resume = self.state.withLock { state -> Bool in
            defer { state.paused = paused }
            return state.paused && !paused
        }
        if resume {
            self.trigger(.timer)
        }
    }

    /// Whether sending is held (consent pending).
    package var isPaused: Bool { self.state.withLock { $0.paused } }

    /// Whether 402/403 stopped event sending for this session.
    package var isStopped: Bool { self.state.withLock { $0.stopped } }

    /// Whether a request is on the wire.
    package var isSending: Bool { self.state.withLock { $0.inFlight } }

    /// Whether sending waits for a new SDK-auth token (the current user's was rejected).
    package var isWaitingForToken: Bool { self.state.withLock { $0.authHeld } }

    /// A token was set: a send held by a rejected token goes again (AUTH-9).
    package func authorizationChanged() {
        let resume = self.state.withLock { state -> Bool in
            defer { state.authHeld = false }
            return state.authHeld
        }
        if resume {
            self.trigger(.timer)
        }
    }

    /// Called after events were stored; `queued` is the store's count afterwards.
    ///
    /// The flush-interval timer is armed even when the batch size triggers a send at once: a burst
    /// of 120 events sends two batches of 50 now, and the remaining 20 must still leave within
    /// `flushInterval`, not wait for the next event.
    package func eventsStored(queued: Int) {
        let needsTimer = self.state.withLock { $0.intervalTimer == nil }
        if needsTimer {
            let timer = self.scheduler.schedule(after: self.settings.flushInterval) { [self] in
                self.state.withLock { $0.intervalTimer = nil }
                self.trigger(.timer)
            }
            self.state.withLock { $0.intervalTimer = timer }
        }
        if self.settings.sendImmediately || queued >= self.settings.batchSize {
            self.trigger(.size)
        }
    }

    /// Asks for a send. A flush or timer drains the whole queue, one request at a time.
    package func trigger(_ trigger: Trigger) {
        let now = self.clock.now()
        enum Decision { case ignore, wait(Date), send }
        let decision: Decision = self.state.withLock { state in
            if state.stopped { return .ignore }
            if trigger != .size { state.draining = true }
            if state.paused || state.authHeld { return .ignore }
            if state.inFlight {
                // Keep the strongest trigger: a flush beats a timer, which beats a size trigger.
                let rank: (Trigger?) -> Int = { $0 == .flush ? 3 : $0 == .timer ? 2 : $0 == .size ? 1 : 0 }
                if rank(trigger) > rank(state.triggeredWhileBusy) { state.triggeredWhileBusy = trigger }
                return .ignore
            }
            if let until = state.retry.retryAfterUntil, until > now {
                if trigger == .flush { state.flushWaiting = true }
                return .wait(until)
            }
            if trigger != .flush, let until = state.retry.backoffUntil, until > now { return .wait(until) }
            return .send
        }
        switch decision {
        case .ignore: return
        case .wait(let until): self.armRetryTimer(at: until, now: now)
        case .send: self.sendNext()
        }
    }

    // MARK: - Sending

    private func sendNext() {
        let halves = self.state.withLock { state -> [QueueRecord]? in
            state.splitHalves.isEmpty ? nil : state.splitHalves.removeFirst()
        }
        var records: [QueueRecord]
        if let halves {
            records = halves
        } else {
            do {
                records = try self.store.peek(
                    limit: self.settings.batchSize,
                    maxBytes: BatchRequestBuilder.payloadBudget(bodyBytes: self.settings.maxBatchBytes, limit: self.settings.batchSize)
                )
            } catch {
                self.logger.error("cannot read queued events: \(error)")
                return
            }
        }
        guard !records.isEmpty else {
            self.state.withLock { $0.draining = false }
            return
        }
        // With SDK authentication a batch never mixes two users (AUTH-7): it takes the run of
        // events that share the oldest event's user, and the token is that user's, read now.
        var userId: String?
        let authenticated = self.authorization.isEnabled()
        if authenticated {
            let owners = records.map { EventPayloadIdentity.userId(of: $0.payload) }
            userId = owners[0]
            if let other = owners.firstIndex(where: { $0 != userId }) {
                records = Array(records[..<other])
            }
        }
        let token = authenticated ? self.authorization.token(userId) : nil
        self.state.withLock {
            $0.inFlight = true
            $0.flushWaiting = false
        }
        let request = self.builder.request(for: records, sentAt: self.clock.now()).authorized(token.map { "Bearer " + $0 })
        self.logger.debug("sending \(records.count) events (\(request.body?.count ?? 0) bytes)")
        let sent = records
        let owner = userId
        self.transport.send(request) { [self] result in
            self.scheduler.enqueue {
                self.handle(result, records: sent, fromSplit: halves != nil, auth: authenticated ? (owner, token) : nil)
            }
        }
    }

    private func handle(
        _ result: Result<HTTPResponse, TransportError>,
        records: [QueueRecord],
        fromSplit: Bool,
        auth: (userId: String?, token: String?)? = nil
    ) {
        let now = self.clock.now()
        if let auth, case .success(let response) = result, response.status == 401 {
            self.handleUnauthorized(response, records: records, fromSplit: fromSplit, userId: auth.userId, token: auth.token)
            return
        }
        let outcome = BatchOutcome.classify(result, count: records.count, now: now)
        self.state.withLock { $0.inFlight = false }
        var continueNow = false
        switch outcome {
        case .delivered(let rejected, let failed):
            let remove = records.indices.filter { !failed.contains($0) }.map { records[$0].id }
            self.remove(remove)
            self.onResult(nil)
            if !rejected.isEmpty {
                self.logger.warning("dropped \(rejected.count) events the server rejected (rejectedIndices)")
            }
            if failed.isEmpty {
                self.state.withLock {
                    $0.retry.recordSuccess()
                }
                continueNow = true
            } else {
                self.logger.warning("\(failed.count) events failed on the server; kept for retry")
                self.backOff(retryAfter: nil, now: now)
            }
        case .split(let status):
            if records.count == 1, let only = records.first {
                self.logger.warning("dropped an event the server rejected on its own (HTTP \(status))")
                self.remove([only.id])
                self.onResult(.http(status: status, body: nil))
            } else {
                self.onResult(.http(status: status, body: nil))
                let middle = records.count / 2
                self.state.withLock { $0.splitHalves.insert(contentsOf: [Array(records[..<middle]), Array(records[middle...])], at: 0) }
                self.logger.info("HTTP \(status) for \(records.count) events; resending in halves")
            }
            continueNow = true
        case .retry(let error, let retryAfter):
            self.onResult(error)
            if fromSplit {
                self.state.withLock { $0.splitHalves.insert(records, at: 0) }
            }
            self.logger.warning("sending \(records.count) events failed (\(error)); all kept")
            self.backOff(retryAfter: retryAfter, now: now)
        case .stop(let status):
            self.onResult(.http(status: status, body: nil))
            self.state.withLock {
                $0.stopped = true
                $0.intervalTimer?.cancel()
                $0.retryTimer?.cancel()
            }
            self.logger.error("HTTP \(status): event sending stopped for this session; \(records.count)+ events kept")
            return
        }
        let next: Trigger? = self.state.withLock { state in
            defer { state.triggeredWhileBusy = nil }
            if continueNow, !state.splitHalves.isEmpty { return .timer }
            if let pending = state.triggeredWhileBusy { return pending }
            return continueNow && state.draining ? .timer : nil
        }
        if let next {
            // A size trigger that arrived mid-request counted the events on the wire; send only if a
            // full batch is still waiting now that they are gone.
            if next != .size || self.settings.sendImmediately
                || ((try? self.store.count()) ?? 0) >= self.settings.batchSize
            {
                self.trigger(next)
            }
        } else if continueNow {
            // A full batch is still waiting, or with sendImmediately any event at all.
            let queued = (try? self.store.count()) ?? 0
            if queued >= self.settings.batchSize || (self.settings.sendImmediately && queued > 0) {
                self.trigger(.size)
            }
        }
    }

    /// A 401 with SDK authentication on: a departed user's events are dropped so they never block
    /// the next user's (AUTH-8); the current user's wait for a new token (AUTH-9).
    private func handleUnauthorized(_ response: HTTPResponse, records: [QueueRecord], fromSplit: Bool, userId: String?, token: String?) {
        self.state.withLock { $0.inFlight = false }
        switch self.authorization.rejected(userId, token, response.body) {
        case .drop:
            self.logger.warning("dropped \(records.count) events of a user who is no longer current: the server rejected their SDK-auth token")
            self.remove(records.map(\.id))
            // Reported after the removal, so getQueueSize() no longer counts them.
            self.onResult(.http(status: 401, body: nil))
            self.trigger(.timer)
        case .hold:
            self.onResult(.http(status: 401, body: nil))
            self.state.withLock { state in
                state.authHeld = true
                if fromSplit { state.splitHalves.insert(records, at: 0) }
            }
            self.logger.warning("the server rejected the SDK-auth token; \(records.count)+ events wait for a new token")
            // A token set while the rejected request was on the wire: send again at once.
            if self.authorization.hasNewerToken(than: token, for: userId) {
                self.authorizationChanged()
            }
        }
    }

    private func remove(_ ids: [Int64]) {
        do {
            try self.store.remove(ids: ids)
        } catch {
            // They stay queued and are sent again; the server drops the duplicates by messageId.
            self.logger.error("cannot delete delivered events: \(error)")
        }
    }

    // MARK: - Backoff

    private func backOff(retryAfter: TimeInterval?, now: Date) {
        let (failures, due) = self.state.withLock { state in
            state.retry.recordFailure(policy: self.settings.backoff, jitter: self.jitter.next(), retryAfter: retryAfter, now: now)
        }
        if failures <= self.settings.maxRetries {
            self.armRetryTimer(at: due, now: now)
        } else {
            self.logger.info("\(failures) failures in a row; waiting for the next flush trigger")
        }
    }

    private func armRetryTimer(at due: Date, now: Date) {
        let alreadyArmed = self.state.withLock { state -> Bool in
            if let armed = state.retryTimerDue, armed <= due, armed > now { return true }
            state.retryTimer?.cancel()
            state.retryTimerDue = due
            return false
        }
        guard !alreadyArmed else { return }
        let timer = self.scheduler.schedule(after: due.timeIntervalSince(now)) { [self] in
            let flush = self.state.withLock { state -> Bool in
                state.retryTimer = nil
                state.retryTimerDue = nil
                return state.flushWaiting
            }
            // A flush() that met Retry-After still skips the SDK's own (possibly longer) backoff.
            self.trigger(flush ? .flush : .timer)
        }
        self.state.withLock { $0.retryTimer = timer }
    }
}
