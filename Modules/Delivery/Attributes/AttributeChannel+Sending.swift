import Foundation
import JoryioCore

/// Sending: the send decision, one request at a time, and what each answer does.
extension AttributeChannel {
    /// Sends now, arms the timer for the earliest allowed start, or does nothing.
    func sendIfDue() {
        let now = self.dependencies.clock.now()
        let decision = self.state.withLock { $0.gate(window: self.settings.window).decision(at: now) }
        switch decision {
        case .idle, .busy: return
        case .wait(let due): self.timer.arm(at: due, now: now) { [self] in self.sendIfDue() }
        case .send: self.send(now: now)
        }
    }

    /// Freezes the next batch (unless a frozen one waits), stores it, and sends it.
    private func send(now: Date) {
        self.timer.cancel()
        let (batch, queue, froze) = self.state.withLock { state -> (AttributeBatch?, AttributeQueue, Bool) in
            var froze = false
            if state.queue.batches.isEmpty {
                froze =
                    state.queue.freezeNext(
                        limits: self.settings.limits,
                        idempotencyKey: self.dependencies.identifiers.next()
                    )
                    != nil
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
        let credentials = self.dependencies.authorization.credentials(for: batch.writes.first?.userId)
        let request = self.builder.request(for: batch, sentAt: now)
        self.dependencies.logger.debug(
            "sending \(batch.writes.count) attribute writes (\(request.body?.count ?? 0) bytes)"
        )
        self.dependencies.send(request, credentials: credentials) { [self] answer in
            switch answer {
            case .tokenRejected(let rejection): self.handle(rejection, batch: batch)
            case .result(let result): self.handle(result, batch: batch)
            }
        }
    }

    /// Marks the request answered; returns whether its batch is still the first (after
    /// ``discardCollected()`` it is forgotten: its outcome changes no write, only the timing).
    private func answered(_ batch: AttributeBatch) -> Bool {
        self.state.withLock { state -> Bool in
            state.inFlightKey = nil
            return state.queue.batches.first?.idempotencyKey == batch.idempotencyKey
        }
    }

    /// Applies the channel's table to an answer (wire-v2, "SDK handling summary").
    private func handle(_ result: Result<HTTPResponse, TransportError>, batch: AttributeBatch) {
        let now = self.dependencies.clock.now()
        let outcome = AttributeOutcome.classify(result, count: batch.writes.count, now: now)
        let current = self.answered(batch)
        let count = batch.writes.count
        let logger = self.dependencies.logger
        switch outcome {
        case .confirmed:
            self.update(if: current) { $0.removeFirstBatch() }
            self.state.withLock { $0.retry = RetryState() }
            logger.debug("the server confirmed \(count) attribute writes")
            self.dependencies.onResult(nil)
        case .split(let status):
            if count == 1, let only = batch.writes.first {
                self.update(if: current) { $0.removeFirstBatch() }
                logger.warning(
                    "dropped the attribute write of \"\(only.key)\": the server rejected it (HTTP \(status))"
                )
            } else {
                self.update(if: current) { $0.splitFirst(newKey: self.dependencies.identifiers.next) }
                logger.info("HTTP \(status) for \(count) attribute writes; resending them in halves")
            }
            self.dependencies.onResult(.http(status: status, body: nil))
        case .forbidden:
            self.update(if: current) { $0.removeFirstBatch() }
            let keys = Set(batch.writes.map(\.key)).sorted().joined(separator: ", ")
            logger.error("HTTP 403: dropped \(count) attribute writes the server refused (keys: \(keys))")
            self.dependencies.onResult(.http(status: 403, body: nil))
        case .stop:
            // The server answered, so it applied nothing: a new key keeps the next launch's resend
            // from being answered with the remembered 402.
            self.update(if: current) { $0.rekeyFirst(self.dependencies.identifiers.next()) }
            self.state.withLock { $0.stopped = true }
            self.timer.cancel()
            logger.error("HTTP 402: attribute sending stopped until the next launch; writes kept")
            self.dependencies.onResult(.http(status: 402, body: nil))
            return
        case .retry(let error, let retryAfter, let sameKey):
            logger.warning("sending \(count) attribute writes failed (\(error)); kept for retry")
            guard self.retryLater(error, retryAfter: retryAfter, newKey: !sameKey, current: current, now: now) else {
                return
            }
        case .unconfirmed(let error, let retryAfter):
            let first = self.state.withLock { $0.retry.noteUnconfirmed() }
            logger.unconfirmedAnswer(error, to: "\(count) attribute writes", first: first)
            guard self.retryLater(error, retryAfter: retryAfter, newKey: true, current: current, now: now) else {
                return
            }
        }
        self.sendIfDue()
    }

    /// Keeps the first batch for a retry (under a new idempotency key when `newKey`) and records the
    /// failure; returns whether the channel may go on (false once `maxRetries` failures in a row
    /// were reached: it waits for the next trigger).
    private func retryLater(
        _ error: JoryioTransportError,
        retryAfter: TimeInterval?,
        newKey: Bool,
        current: Bool,
        now: Date
    ) -> Bool {
        if newKey { self.update(if: current) { $0.rekeyFirst(self.dependencies.identifiers.next()) } }
        self.dependencies.onResult(error)
        let failures = self.state.withLock { state in
            state.retry.recordFailure(
                policy: self.settings.backoff,
                jitter: self.dependencies.jitter.next(),
                retryAfter: retryAfter,
                now: now
            ).failures
        }
        guard failures <= self.settings.maxRetries else {
            self.dependencies.logger.info("\(failures) attribute failures in a row; waiting for the next trigger")
            return false
        }
        return true
    }

    /// The 401 flow's verdict: a departed user's writes are dropped (AUTH-8); the current user's
    /// wait for a new token (AUTH-9).
    private func handle(_ rejection: TokenRejection, batch: AttributeBatch) {
        let current = self.answered(batch)
        self.dependencies.onResult(.http(status: 401, body: nil))
        switch rejection {
        case .drop:
            self.update(if: current) { $0.removeFirstBatch() }
            self.dependencies.logger.warning(
                "dropped \(batch.writes.count) attribute writes of a user who is no longer current: the server rejected their SDK-auth token"
            )
            self.sendIfDue()
        case .hold(let tokenArrived):
            self.state.withLock { $0.awaitingToken = true }
            self.dependencies.logger.warning(
                "the server rejected the SDK-auth token; \(batch.writes.count) attribute writes wait for a new token"
            )
            if tokenArrived {
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

    /// Stores `queue` in the secure store (deletes the item when empty).
    ///
    /// A failure (a full disk) changes nothing in memory: the writes are still sent, and confirmed
    /// ones are never sent again during this launch. The item is stale until a write works, so it
    /// is written again, with the queue as it is then, on a timer with backoff
    /// (``PendingDeletes/retryPolicy(from:)``) and with every change; one error is logged while
    /// writes fail, and one info line when one works again.
    func persist(_ queue: AttributeQueue) {
        let logger = self.dependencies.logger
        do {
            try self.secureStore.set(queue.isEmpty ? nil : AttributeWriteCodec.encode(queue), forKey: self.storageKey)
        } catch {
            let failures = self.state.withLock { state -> Int in
                state.persistFailures += 1
                return state.persistFailures
            }
            let delay = PendingDeletes.retryPolicy(from: self.settings.backoff)
                .delay(afterFailures: failures, jitter: self.dependencies.jitter.next(), retryAfter: nil)
            if failures == 1 {
                // Only a crash before a write works loses writes (or resends confirmed ones).
                logger.error(
                    "cannot store attribute writes (\(error)); they are kept in memory and still sent; retrying with backoff"
                )
            } else {
                logger.debug("still cannot store attribute writes (\(error)); next attempt in \(delay) s")
            }
            self.persistTimer.replace(after: delay, now: self.dependencies.clock.now()) { [self] in
                self.persist(self.queue)
            }
            return
        }
        let recovered = self.state.withLock { state -> Bool in
            defer { state.persistFailures = 0 }
            return state.persistFailures > 0
        }
        if recovered {
            self.persistTimer.cancel()
            logger.info("stored the attribute writes again; storage works again")
        }
    }
}
