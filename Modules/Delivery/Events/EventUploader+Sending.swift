import Foundation
import JoryioCore

/// Sending: batches, one request at a time, and what each answer does.
extension EventUploader {
    /// Sends the next batch: the first split half waiting, or the oldest events (one user's with SDK auth).
    func sendNext() {
        // A delete that failed is tried again first: a store that took new events may have room.
        if !self.pendingDeletes.isEmpty {
            self.pendingDeletes.retry()
        }
        let halves = self.state.withLock { state -> [QueueRecord]? in
            state.splitHalves.isEmpty ? nil : state.splitHalves.removeFirst()
        }
        var records: [QueueRecord]
        if let halves {
            records = halves
        } else {
            do {
                records = try self.peekSendable()
            } catch {
                self.dependencies.logger.error("cannot read queued events: \(error)")
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
        if self.dependencies.authorization.isEnabled() {
            let owners = records.map { EventPayloadIdentity.userId(of: $0.payload) }
            userId = owners[0]
            if let other = owners.firstIndex(where: { $0 != userId }) {
                records = Array(records[..<other])
            }
        }
        let credentials = self.dependencies.authorization.credentials(for: userId)
        self.state.withLock {
            $0.inFlight = true
            $0.flushWaiting = false
        }
        let request = self.builder.request(for: records, sentAt: self.dependencies.clock.now())
        self.dependencies.logger.debug("sending \(records.count) events (\(request.body?.count ?? 0) bytes)")
        let sent = records
        self.dependencies.send(request, credentials: credentials) { [self] answer in
            switch answer {
            case .tokenRejected(let rejection):
                self.handle(rejection, records: sent, fromSplit: halves != nil)
            case .result(let result):
                self.handle(result, records: sent, fromSplit: halves != nil)
            }
        }
    }

    /// Applies the event table to an answer (ARCHITECTURE §4).
    private func handle(_ result: Result<HTTPResponse, TransportError>, records: [QueueRecord], fromSplit: Bool) {
        defer { self.settleIfIdle() }
        let now = self.dependencies.clock.now()
        let outcome = BatchOutcome.classify(result, count: records.count, now: now)
        let logger = self.dependencies.logger
        self.state.withLock { $0.inFlight = false }
        var continueNow = false
        switch outcome {
        case .delivered(let rejected, let failed):
            self.remove(records.indices.filter { !failed.contains($0) }.map { records[$0] })
            self.dependencies.onResult(nil)
            if !rejected.isEmpty {
                logger.warning("dropped \(rejected.count) events the server rejected (rejectedIndices)")
            }
            if failed.isEmpty {
                self.state.withLock { $0.retry.recordSuccess() }
                continueNow = true
            } else {
                logger.warning("\(failed.count) events failed on the server; kept for retry")
                self.backOff(retryAfter: nil, now: now)
            }
        case .split(let status):
            if records.count == 1, let only = records.first {
                logger.warning("dropped an event the server rejected on its own (HTTP \(status))")
                self.remove([only])
                self.dependencies.onResult(.http(status: status, body: nil))
            } else {
                self.dependencies.onResult(.http(status: status, body: nil))
                let middle = records.count / 2
                self.state.withLock {
                    $0.splitHalves.insert(contentsOf: [Array(records[..<middle]), Array(records[middle...])], at: 0)
                }
                logger.info("HTTP \(status) for \(records.count) events; resending in halves")
            }
            continueNow = true
        case .retry(let error, let retryAfter):
            self.dependencies.onResult(error)
            if fromSplit {
                self.state.withLock { $0.splitHalves.insert(records, at: 0) }
            }
            logger.warning("sending \(records.count) events failed (\(error)); all kept")
            self.backOff(retryAfter: retryAfter, now: now)
        case .unconfirmed(let error, let retryAfter):
            // As a retry; logged once per failure streak.
            self.dependencies.onResult(error)
            let first = self.state.withLock { state in
                if fromSplit { state.splitHalves.insert(records, at: 0) }
                return state.retry.noteUnconfirmed()
            }
            logger.unconfirmedAnswer(error, to: "\(records.count) events", first: first)
            self.backOff(retryAfter: retryAfter, now: now)
        case .stop(let status):
            self.dependencies.onResult(.http(status: status, body: nil))
            self.state.withLock { $0.stopped = true }
            self.intervalTimer.cancel()
            self.retryTimer.cancel()
            logger.error("HTTP \(status): event sending stopped for this session; \(records.count)+ events kept")
            return
        }
        self.continueAfterAnswer(continueNow: continueNow)
    }

    /// After an answer: the trigger that arrived meanwhile, the rest of a drain, or a full batch.
    private func continueAfterAnswer(continueNow: Bool) {
        let next: Trigger? = self.state.withLock { state in
            defer { state.triggeredWhileBusy = nil }
            if continueNow, !state.splitHalves.isEmpty { return .timer }
            if let pending = state.triggeredWhileBusy { return pending }
            return continueNow && state.draining ? .timer : nil
        }
        if let next {
            // A size trigger that arrived mid-request counted the events on the wire; send only if a
            // full batch is still waiting now that they are gone.
            if next != .size || self.settings.sendImmediately || self.sendableCount() >= self.settings.batchSize {
                self.trigger(next)
            }
        } else if continueNow {
            // A full batch is still waiting, or with sendImmediately any event at all.
            let queued = self.sendableCount()
            if queued >= self.settings.batchSize || (self.settings.sendImmediately && queued > 0) {
                self.trigger(.size)
            }
        }
    }

    /// The 401 flow's verdict: a departed user's events are dropped so they never block the next
    /// user's (AUTH-8); the current user's wait for a new token (AUTH-9).
    private func handle(_ rejection: TokenRejection, records: [QueueRecord], fromSplit: Bool) {
        defer { self.settleIfIdle() }
        self.state.withLock { $0.inFlight = false }
        switch rejection {
        case .drop:
            self.dependencies.logger.warning(
                "dropped \(records.count) events of a user who is no longer current: the server rejected their SDK-auth token"
            )
            self.remove(records)
            // Reported after the removal, so getQueueSize() no longer counts them.
            self.dependencies.onResult(.http(status: 401, body: nil))
            self.trigger(.timer)
        case .hold(let tokenArrived):
            self.dependencies.onResult(.http(status: 401, body: nil))
            self.state.withLock { state in
                state.awaitingToken = true
                if fromSplit { state.splitHalves.insert(records, at: 0) }
            }
            self.dependencies.logger.warning(
                "the server rejected the SDK-auth token; \(records.count)+ events wait for a new token"
            )
            // A token set while the rejected request was on the wire: send again at once.
            if tokenArrived {
                self.authorizationChanged()
            }
        }
    }

    /// Deletes events the SDK is done with. When the store fails (a full disk) they are remembered
    /// in ``pendingDeletes``: never sent again, deleted again with backoff. Only a restart before
    /// the delete works sends them once more (the server drops the duplicates by `messageId`).
    private func remove(_ records: [QueueRecord]) {
        self.pendingDeletes.delete(records)
    }

    /// Records a failure; arms the retry timer unless `maxRetries` failures in a row were reached (GAP-18).
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
            self.armRetryTimer(at: due, now: now)
        } else {
            self.dependencies.logger.info("\(failures) failures in a row; waiting for the next flush trigger")
        }
    }
}
