import Foundation
import JoryioCore
import JoryioDelivery
import JoryioFeature

/// Storage and sending: the secure item, the send decision, and what each answer does.
extension PushReportsFeature {
    // MARK: - Storage

    /// Reads the stored reports. An item that cannot be read is logged and deleted; a store that
    /// fails is logged, and the feature runs with what it has in memory.
    func load() {
        let logger = self.dependencies.logger
        let secure = self.context.stores.secure
        var stored = PushReportBook()
        do {
            if let data = try secure.data(forKey: Self.storageKey) {
                if let book = PushReportBook.decode(data) {
                    stored = book
                } else {
                    logger.error("deleted stored push receipts and clicks that cannot be read")
                    try? secure.set(nil, forKey: Self.storageKey)
                }
            }
        } catch {
            logger.error("cannot read stored push receipts and clicks: \(error)")
        }
        self.state.withLock { state in
            let known = Set(stored.reports.map(\.messageId))
            stored.reports += state.book.reports.filter { !known.contains($0.messageId) }
            stored.recent += state.book.recent
            stored.recent.removeFirst(max(0, stored.recent.count - self.settings.recentKeys))
            state.book = stored
            state.loaded = true
        }
        if !stored.reports.isEmpty {
            logger.debug("loaded \(stored.reports.count) push receipts and clicks")
        }
        self.sendIfDue()
    }

    /// Writes the reports to the secure item (deleted when nothing is left to remember). On failure
    /// they stay in memory and are sent during this launch.
    func save() {
        let book = self.state.withLock { $0.book }
        let data = book.reports.isEmpty && book.recent.isEmpty ? nil : book.encoded()
        do {
            try self.context.stores.secure.set(data, forKey: Self.storageKey)
        } catch {
            self.dependencies.logger.error(
                "cannot store push receipts and clicks; they are kept in memory for this launch: \(error)"
            )
        }
    }

    /// Deletes every report and the memory of recent ones; a report on the wire is not kept,
    /// whatever its answer.
    func discardAll(reason: String) {
        let count = self.state.withLock { state -> Int in
            defer { state.book = PushReportBook() }
            return state.book.reports.count
        }
        if count > 0 {
            self.dependencies.logger.info("deleted \(count) push receipts and clicks: \(reason)")
        }
        self.save()
    }

    /// Removes `report` from memory and the store.
    private func remove(_ report: PushReport) {
        let removed = self.state.withLock { state -> Bool in
            guard let index = state.book.reports.firstIndex(where: { $0.messageId == report.messageId }) else {
                return false
            }
            state.book.reports.remove(at: index)
            return true
        }
        if removed { self.save() }
    }

    // MARK: - Sending

    /// Sends the oldest report unless one is on the wire or the feature must wait.
    func sendIfDue() {
        let now = self.dependencies.clock.now()
        let (decision, report) = self.state.withLock { state -> (SendDecision, PushReport?) in
            let decision = state.gate.decision(at: now)
            guard decision == .send, let head = state.book.reports.first else { return (decision, nil) }
            state.inFlight = head.messageId
            return (decision, head)
        }
        switch decision {
        case .idle, .busy:
            return
        case .wait(let until):
            self.retryTimer.arm(at: until, now: now) { [self] in self.sendIfDue() }
        case .send:
            guard let report else { return }
            // The token is that of the report's user, read now (AUTH-5).
            let credentials = self.dependencies.authorization.credentials(for: report.userId)
            let request = self.builder.request(for: report, sentAt: now)
            self.dependencies.logger.debug("sending push \(report.kind.rawValue)")
            self.dependencies.send(request, credentials: credentials) { [self] answer in
                self.state.withLock { $0.inFlight = nil }
                switch answer {
                case .tokenRejected(let rejection): self.handle(rejection, report: report)
                case .result(let result): self.handle(result, report: report)
                }
            }
        }
    }

    /// Applies the reports' table to an answer.
    private func handle(_ result: Result<HTTPResponse, TransportError>, report: PushReport) {
        let now = self.dependencies.clock.now()
        let logger = self.dependencies.logger
        let name = "push \(report.kind.rawValue)"
        switch PushReportOutcome.classify(result, now: now) {
        case .delivered:
            self.dependencies.onResult(nil)
            self.remove(report)
            self.state.withLock { $0.retry.recordSuccess() }
            self.sendIfDue()
        case .rejected(let status):
            self.dependencies.onResult(.http(status: status, body: nil))
            logger.error("\(name) rejected by the server (HTTP \(status)); dropped")
            self.remove(report)
            self.state.withLock { $0.retry.recordSuccess() }
            self.sendIfDue()
        case .stopped(let status, let retryAfter):
            self.dependencies.onResult(.http(status: status, body: nil))
            logger.warning(
                "HTTP \(status): push receipts and clicks are kept and not sent again until the next launch"
            )
            self.state.withLock { state in
                state.stopped = true
                if let retryAfter { state.retry.retryAfterUntil = now.addingTimeInterval(retryAfter) }
            }
        case .retry(let error, let retryAfter):
            self.dependencies.onResult(error)
            logger.warning("\(name) failed (\(error)); kept for retry")
            self.backOff(retryAfter: retryAfter, now: now)
        case .unconfirmed(let error, let retryAfter):
            self.dependencies.onResult(error)
            let first = self.state.withLock { $0.retry.noteUnconfirmed() }
            logger.unconfirmedAnswer(error, to: "the \(name)", first: first)
            self.backOff(retryAfter: retryAfter, now: now)
        }
    }

    /// The 401 flow's verdict: a departed user's report is dropped (AUTH-8); the current user's
    /// waits for a new token (AUTH-9), or goes again at once when one arrived meanwhile.
    private func handle(_ rejection: TokenRejection, report: PushReport) {
        self.dependencies.onResult(.http(status: 401, body: nil))
        switch rejection {
        case .drop:
            self.dependencies.logger.warning(
                "push \(report.kind.rawValue) of a user who is no longer current dropped: the server rejected their SDK-auth token"
            )
            self.remove(report)
            self.sendIfDue()
        case .hold(let tokenArrived):
            self.dependencies.logger.warning(
                "the server rejected the SDK-auth token; push receipts and clicks wait for a new token"
            )
            self.state.withLock { $0.awaitingToken = true }
            if tokenArrived { self.authorizationChanged() }
        }
    }

    /// Records a failure; arms the retry timer unless `maxRetries` failures in a row were reached.
    private func backOff(retryAfter: TimeInterval?, now: Date) {
        let (failures, due) = self.state.withLock { state in
            state.retry.recordFailure(
                policy: self.settings.backoff,
                jitter: self.dependencies.jitter.next(),
                retryAfter: retryAfter,
                now: now
            )
        }
        if failures <= self.settings.maxRetries {
            self.retryTimer.arm(at: due, now: now) { [self] in self.sendIfDue() }
        } else {
            self.dependencies.logger.info(
                "\(failures) push report failures in a row; waiting for the next trigger"
            )
        }
    }
}
