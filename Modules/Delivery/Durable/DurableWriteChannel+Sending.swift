import Foundation
import JoryioCore

/// Sending: the send decision, one request at a time, and what each answer does.
extension DurableWriteChannel {
    /// The ids a write is sent with (DURABLE-5): a write made while anonymous goes out with the
    /// current user id when the anonymous id it was made with is still this device's; otherwise it
    /// carries the ids it was made with.
    ///
    /// While an identify write still waits, the user's profile may not exist on the server yet, so
    /// an anonymous write keeps its anonymous id: the identify will join that history to the user.
    package static func sendingIds(
        for write: DurableWrite,
        current: (userId: String?, anonymousId: String?),
        identifyWaiting: Bool = false
    ) -> (userId: String?, anonymousId: String?) {
        if !identifyWaiting, write.userId == nil, let anonymousId = write.anonymousId,
            anonymousId == current.anonymousId,
            let userId = current.userId
        {
            return (userId, anonymousId)
        }
        return (write.userId, write.anonymousId)
    }

    /// Sends the next sendable write unless one is on the wire or the channel must wait.
    func sendIfDue() {
        let now = self.dependencies.clock.now()
        let (decision, next) = self.state.withLock { state -> (SendDecision, (DurableWrite, identifyWaiting: Bool)?) in
            let decision = state.gate.decision(at: now)
            guard decision == .send, let head = state.head else { return (decision, nil) }
            state.inFlight = head.write.id
            let identifyWaiting = state.entries.contains { $0.write.kind == .identify && $0.write.id != head.write.id }
            return (decision, (head.write, identifyWaiting))
        }
        switch decision {
        case .idle, .busy:
            return
        case .wait(let until):
            self.armRetryTimer(at: until, now: now)
        case .send:
            guard let next else { return }
            // A delete that failed is tried again first: the store may have room again.
            if !self.pendingDeletes.isEmpty { self.pendingDeletes.retry() }
            let (write, identifyWaiting) = next
            let ids = Self.sendingIds(for: write, current: self.currentIdentity(), identifyWaiting: identifyWaiting)
            // The token is the sending user's, read now (AUTH-5, AUTH-6).
            let credentials = self.dependencies.authorization.credentials(for: ids.userId)
            let request = self.builder.request(
                for: write,
                userId: ids.userId,
                anonymousId: ids.anonymousId,
                sentAt: now
            )
            self.dependencies.logger.debug("sending \(write.kind.name) write")
            self.dependencies.send(request, credentials: credentials) { [self] answer in
                switch answer {
                case .tokenRejected(let rejection): self.handle(rejection, write: write)
                case .result(let result): self.handle(result, write: write)
                }
            }
        }
    }

    /// Whether an answer lets the next write go at once, or the channel waits (timer or trigger).
    private enum Next { case sendNow, wait }

    /// Marks the request answered; returns whether its write is still queued.
    private func answered(_ write: DurableWrite) -> Bool {
        self.state.withLock { state -> Bool in
            state.inFlight = nil
            state.tokenRejected = false
            return state.entries.contains { $0.write.id == write.id }
        }
    }

    /// Applies the channel's table, with the write kind's rules, to an answer (DURABLE-6…10).
    private func handle(_ result: Result<HTTPResponse, TransportError>, write: DurableWrite) {
        let now = self.dependencies.clock.now()
        let outcome = DurableOutcome.classify(result, for: write, now: now)
        let stillQueued = self.answered(write)
        let name = write.kind.name
        let logger = self.dependencies.logger
        let onResult = self.dependencies.onResult
        let next: Next
        switch outcome {
        case .delivered:
            onResult(nil)
            self.remove(write)
            self.state.withLock { $0.retry.recordSuccess() }
            next = .sendNow
        case .rejected(let status):
            onResult(.http(status: status, body: nil))
            logger.error("\(name) write rejected by the server (HTTP \(status)); dropped")
            self.remove(write)
            self.state.withLock { $0.retry.recordSuccess() }
            next = .sendNow
        case .counted(let error, let retryAfter):
            onResult(error)
            if stillQueued { self.countedFailure(write, reason: "\(error)") }
            next = self.backOff(retryAfter: retryAfter, now: now)
        case .profileNotFound(let retryAfter):
            onResult(.http(status: 404, body: nil))
            next = self.handleNotFound(write, stillQueued: stillQueued, retryAfter: retryAfter, now: now)
        case .paymentRequired(let retryAfter):
            onResult(.http(status: 402, body: nil))
            if write.isWithdrawal {
                logger.warning("\(name) write answered HTTP 402; kept for retry")
                self.removeIfSuperseded(write)
                next = self.backOff(retryAfter: retryAfter, now: now)
            } else {
                logger.warning(
                    "HTTP 402: identify, alias and subscription writes wait for the next launch; withdrawals still go"
                )
                self.state.withLock { state in
                    state.collectingStopped = true
                    if let retryAfter { state.retry.retryAfterUntil = now.addingTimeInterval(retryAfter) }
                }
                self.removeIfSuperseded(write)
                next = .sendNow
            }
        case .retry(let error, let retryAfter):
            onResult(error)
            logger.warning("\(name) write failed (\(error)); kept for retry")
            self.removeIfSuperseded(write)
            next = self.backOff(retryAfter: retryAfter, now: now)
        case .unconfirmed(let error, let retryAfter):
            onResult(error)
            let first = self.state.withLock { $0.retry.noteUnconfirmed() }
            logger.unconfirmedAnswer(error, to: "the \(name) write", first: first, note: " (not counted)")
            self.removeIfSuperseded(write)
            next = self.backOff(retryAfter: retryAfter, now: now)
        }
        if next == .sendNow {
            self.sendIfDue()
        }
    }

    /// The 401 flow's verdict: a departed user's write is dropped (DURABLE-15); the current user's
    /// is a counted failure retried with backoff, at most 10 times (DURABLE-8). The engine has
    /// asked the error handler already (AUTH-9); a new token sends the write again at once
    /// (``authorizationChanged()``), and without one it still goes at the end of its backoff, so
    /// the channel never parks for good behind a token that may never come.
    private func handle(_ rejection: TokenRejection, write: DurableWrite) {
        let stillQueued = self.answered(write)
        let name = write.kind.name
        let logger = self.dependencies.logger
        self.dependencies.onResult(.http(status: 401, body: nil))
        switch rejection {
        case .drop:
            logger.warning(
                "\(name) write of a user who is no longer current dropped: the server rejected their SDK-auth token"
            )
            self.remove(write)
            self.sendIfDue()
        case .hold(let tokenArrived):
            if stillQueued, self.countedFailure(write, reason: "the server rejected the SDK-auth token") {
                self.sendIfDue()
                return
            }
            self.state.withLock { $0.tokenRejected = true }
            _ = self.backOff(retryAfter: nil, now: self.dependencies.clock.now())
            if tokenArrived {
                self.authorizationChanged()
            }
        }
    }

    /// Counts a `success: false` or current-user 401 answer against `write` (DURABLE-8): returns
    /// `true` when that was its last retry and it was dropped, `false` when it is kept for a retry
    /// (or was superseded by a newer write, DURABLE-4).
    @discardableResult
    private func countedFailure(_ write: DurableWrite, reason: String) -> Bool {
        let name = write.kind.name
        let logger = self.dependencies.logger
        let failures = self.count(write, notFound: false)
        let retries = self.settings.maxCountedRetries
        if failures > retries {
            logger.error(
                "\(name) write dropped after \(failures) failed attempts, \(retries) of them retries (\(reason))"
            )
            self.remove(write)
            return true
        }
        logger.warning("\(name) write failed (\(reason)); retry \(failures) of \(retries) follows with backoff")
        self.removeIfSuperseded(write)
        return false
    }

    /// No profile yet (DURABLE-7): counted; waits for the queued events, or backs off when none wait.
    private func handleNotFound(_ write: DurableWrite, stillQueued: Bool, retryAfter: TimeInterval?, now: Date) -> Next
    {
        let name = write.kind.name
        let logger = self.dependencies.logger
        guard stillQueued else { return .sendNow }
        let failures = self.count(write, notFound: true)
        if failures > self.settings.max404Retries {
            logger.error(
                "\(name) write dropped after \(failures) answers of HTTP 404 (no profile), \(self.settings.max404Retries) of them to retries"
            )
            self.remove(write)
            if let retryAfter { self.state.withLock { $0.retry.retryAfterUntil = now.addingTimeInterval(retryAfter) } }
            return .sendNow
        }
        if self.removeIfSuperseded(write) {
            return .sendNow
        }
        guard self.eventsWaiting() else {
            logger.info("\(name) write answered HTTP 404 (no profile yet); retrying after backoff")
            return self.backOff(retryAfter: retryAfter, now: now)
        }
        logger.info("\(name) write answered HTTP 404 (no profile yet); resending after the queued events")
        self.eventsWaitTimer.replace(after: self.settings.eventsWaitLimit, now: now) { [self] in
            let fire = self.state.withLock { state -> Bool in
                guard state.waitingForEvents == write.id else { return false }
                state.waitingForEvents = nil
                return true
            }
            if fire { self.sendIfDue() }
        }
        self.state.withLock { state in
            state.waitingForEvents = write.id
            if let retryAfter { state.retry.retryAfterUntil = now.addingTimeInterval(retryAfter) }
        }
        return .wait
    }

    // MARK: - Backoff

    /// Records a failure; arms the retry timer unless `maxRetries` failures in a row were reached.
    private func backOff(retryAfter: TimeInterval?, now: Date) -> Next {
        let (failures, due) = self.state.withLock { state in
            state.retry.recordFailure(
                policy: self.settings.backoff,
                jitter: self.dependencies.jitter.next(),
                retryAfter: retryAfter,
                now: now
            )
        }
        if failures <= self.settings.maxRetries {
            self.armRetryTimer(at: due, now: now)
        } else {
            self.dependencies.logger.info("\(failures) durable-write failures in a row; waiting for the next trigger")
        }
        return .wait
    }

    /// Decides again at `due`.
    private func armRetryTimer(at due: Date, now: Date) {
        self.retryTimer.arm(at: due, now: now) { [self] in self.sendIfDue() }
    }
}
