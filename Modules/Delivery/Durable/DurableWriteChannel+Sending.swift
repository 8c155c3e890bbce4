import Foundation
import JoryioCore

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
        if !identifyWaiting, write.userId == nil, let anonymousId = write.anonymousId, anonymousId == current.anonymousId,
            let userId = current.userId
        {
            return (userId, anonymousId)
        }
        return (write.userId, write.anonymousId)
    }

    /// Sends the next sendable write unless one is on the wire or the channel must wait.
    func kick() {
        let now = self.clock.now()
        enum Decision { case idle, wait(Date), send(DurableWrite, identifyWaiting: Bool) }
        let decision = self.state.withLock { state -> Decision in
            guard state.loaded, state.inFlight == nil, !state.authHeld else { return .idle }
            guard let entry = state.entries.first(where: { state.isSendable($0.write) }) else { return .idle }
            if state.waitingForEvents == entry.write.id { return .idle }
            if let until = state.retry.retryAfterUntil, until > now { return .wait(until) }
            if let until = state.retry.backoffUntil, until > now { return .wait(until) }
            state.inFlight = entry.write.id
            let identifyWaiting = state.entries.contains { $0.write.kind == .identify && $0.write.id != entry.write.id }
            return .send(entry.write, identifyWaiting: identifyWaiting)
        }
        switch decision {
        case .idle:
            return
        case .wait(let until):
            self.armRetryTimer(at: until, now: now)
        case .send(let write, let identifyWaiting):
            let ids = Self.sendingIds(for: write, current: self.currentIdentity(), identifyWaiting: identifyWaiting)
            // The token is the sending user's, read now (AUTH-5, AUTH-6).
            let authenticated = self.authorization.isEnabled()
            let token = authenticated ? self.authorization.token(ids.userId) : nil
            let request = self.builder.request(
                for: write,
                userId: ids.userId,
                anonymousId: ids.anonymousId,
                sentAt: now
            ).authorized(token.map { "Bearer " + $0 })
            self.logger.debug("sending \(Self.name(write.kind)) write")
            self.transport.send(request) { [self] result in
                self.scheduler.enqueue {
                    if authenticated, case .success(let response) = result, response.status == 401 {
                        self.handleUnauthorized(response, write: write, userId: ids.userId, token: token)
                    } else {
                        self.handle(result, write: write)
                    }
                }
            }
        }
    }

    private enum Next { case sendNow, wait }

    private func handle(_ result: Result<HTTPResponse, TransportError>, write: DurableWrite) {
        let now = self.clock.now()
        let outcome = DurableOutcome.classify(result, for: write, now: now)
        let stillQueued = self.state.withLock { state -> Bool in
            state.inFlight = nil
            return state.entries.contains { $0.write.id == write.id }
        }
        let name = Self.name(write.kind)
        let next: Next
        switch outcome {
        case .delivered:
            self.onResult(nil)
            self.remove(write)
            self.state.withLock {
                $0.retry.recordSuccess()
            }
            next = .sendNow
        case .rejected(let status):
            self.onResult(.http(status: status, body: nil))
            self.logger.error("\(name) write rejected by the server (HTTP \(status)); dropped")
            self.remove(write)
            self.state.withLock {
                $0.retry.recordSuccess()
            }
            next = .sendNow
        case .counted(let error, let retryAfter):
            self.onResult(error)
            if stillQueued {
                let failures = self.count(write, notFound: false)
                if failures >= self.settings.maxCountedAttempts {
                    self.logger.error("\(name) write dropped after \(failures) failed attempts (\(error))")
                    self.remove(write)
                } else {
                    self.logger.warning(
                        "\(name) write failed (\(error)); attempt \(failures) of \(self.settings.maxCountedAttempts)"
                    )
                    self.removeIfSuperseded(write)
                }
            }
            next = self.backOff(retryAfter: retryAfter, now: now)
        case .profileNotFound(let retryAfter):
            self.onResult(.http(status: 404, body: nil))
            next = self.handleNotFound(write, stillQueued: stillQueued, retryAfter: retryAfter, now: now)
        case .paymentRequired(let retryAfter):
            self.onResult(.http(status: 402, body: nil))
            if write.isWithdrawal {
                self.logger.warning("\(name) write answered HTTP 402; kept for retry")
                self.removeIfSuperseded(write)
                next = self.backOff(retryAfter: retryAfter, now: now)
            } else {
                self.logger.warning(
                    "HTTP 402: identify, alias and subscription writes wait for the next launch; withdrawals still go"
                )
                self.state.withLock { state in
                    state.paymentHeld = true
                    if let retryAfter { state.retry.retryAfterUntil = now.addingTimeInterval(retryAfter) }
                }
                self.removeIfSuperseded(write)
                next = .sendNow
            }
        case .retry(let error, let retryAfter):
            self.onResult(error)
            self.logger.warning("\(name) write failed (\(error)); kept for retry")
            self.removeIfSuperseded(write)
            next = self.backOff(retryAfter: retryAfter, now: now)
        }
        if next == .sendNow {
            self.kick()
        }
    }

    /// A 401 with SDK authentication on: a departed user's write is dropped (DURABLE-15); the
    /// current user's is a counted attempt (at most 10) that waits for a new token (DURABLE-8).
    private func handleUnauthorized(_ response: HTTPResponse, write: DurableWrite, userId: String?, token: String?) {
        let stillQueued = self.state.withLock { state -> Bool in
            state.inFlight = nil
            return state.entries.contains { $0.write.id == write.id }
        }
        let name = Self.name(write.kind)
        self.onResult(.http(status: 401, body: nil))
        switch self.authorization.rejected(userId, token, response.body) {
        case .drop:
            self.logger.warning("\(name) write of a user who is no longer current dropped: the server rejected their SDK-auth token")
            self.remove(write)
            self.kick()
        case .hold:
            if stillQueued {
                let failures = self.count(write, notFound: false)
                if failures >= self.settings.maxCountedAttempts {
                    self.logger.error("\(name) write dropped after \(failures) rejected SDK-auth tokens")
                    self.remove(write)
                    self.kick()
                    return
                }
            }
            self.state.withLock { $0.authHeld = true }
            self.logger.warning("the server rejected the SDK-auth token; \(name) write waits for a new token")
            if self.authorization.hasNewerToken(than: token, for: userId) {
                self.authorizationChanged()
            }
        }
    }

    private func handleNotFound(_ write: DurableWrite, stillQueued: Bool, retryAfter: TimeInterval?, now: Date) -> Next
    {
        let name = Self.name(write.kind)
        guard stillQueued else { return .sendNow }
        let failures = self.count(write, notFound: true)
        if failures >= self.settings.max404Attempts {
            self.logger.error("\(name) write dropped after \(failures) answers of HTTP 404 (no profile)")
            self.remove(write)
            if let retryAfter { self.state.withLock { $0.retry.retryAfterUntil = now.addingTimeInterval(retryAfter) } }
            return .sendNow
        }
        if self.removeIfSuperseded(write) {
            return .sendNow
        }
        guard self.eventsWaiting() else {
            self.logger.info("\(name) write answered HTTP 404 (no profile yet); retrying after backoff")
            return self.backOff(retryAfter: retryAfter, now: now)
        }
        self.logger.info("\(name) write answered HTTP 404 (no profile yet); resending after the queued events")
        let timer = self.scheduler.schedule(after: self.settings.eventsWaitLimit) { [self] in
            let fire = self.state.withLock { state -> Bool in
                guard state.waitingForEvents == write.id else { return false }
                state.waitingForEvents = nil
                state.eventsWaitTimer = nil
                return true
            }
            if fire { self.kick() }
        }
        self.state.withLock { state in
            state.eventsWaitTimer?.cancel()
            state.eventsWaitTimer = timer
            state.waitingForEvents = write.id
            if let retryAfter { state.retry.retryAfterUntil = now.addingTimeInterval(retryAfter) }
        }
        return .wait
    }

    /// Adds a failure to the write's counter and returns the new count.
    private func count(_ write: DurableWrite, notFound: Bool) -> Int {
        self.state.withLock { state in
            guard let index = state.entries.firstIndex(where: { $0.write.id == write.id }) else { return 0 }
            if notFound {
                state.entries[index].notFoundFailures += 1
                return state.entries[index].notFoundFailures
            }
            state.entries[index].countedFailures += 1
            return state.entries[index].countedFailures
        }
    }

    /// Removes the write from memory and the store.
    private func remove(_ write: DurableWrite) {
        let entry = self.state.withLock { state -> Entry? in
            guard let index = state.entries.firstIndex(where: { $0.write.id == write.id }) else { return nil }
            return state.entries.remove(at: index)
        }
        if let recordId = entry?.recordId {
            self.deleteRecords([recordId])
        }
    }

    /// A write that failed is not retried when a newer write with the same key waits behind it
    /// (DURABLE-4): the newer one carries the change. Returns whether it was removed.
    @discardableResult
    private func removeIfSuperseded(_ write: DurableWrite) -> Bool {
        let key = write.replacementKey
        let superseded = self.state.withLock { state in
            // As in enqueue: only a withdrawal supersedes a failed withdrawal.
            state.entries.contains {
                $0.write.id != write.id && $0.write.replacementKey == key && ($0.write.isWithdrawal || !write.isWithdrawal)
            } && state.entries.contains { $0.write.id == write.id }
        }
        if superseded {
            self.logger.debug("a failed \(Self.name(write.kind)) write is superseded by a newer one; not retried")
            self.remove(write)
        }
        return superseded
    }

    // MARK: - Backoff

    private func backOff(retryAfter: TimeInterval?, now: Date) -> Next {
        let (failures, due) = self.state.withLock { state in
            state.retry.recordFailure(policy: self.settings.backoff, jitter: self.jitter.next(), retryAfter: retryAfter, now: now)
        }
        if failures <= self.settings.maxRetries {
            self.armRetryTimer(at: due, now: now)
        } else {
            self.logger.info("\(failures) durable-write failures in a row; waiting for the next trigger")
        }
        return .wait
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
            self.state.withLock { state in
                state.retryTimer = nil
                state.retryTimerDue = nil
            }
            self.kick()
        }
        self.state.withLock { $0.retryTimer = timer }
    }
}
