package import Foundation
internal import JoryioCore
package import JoryioDelivery

/// Sends the token machine's requests, one at a time (PUSH-17, DURABLE-16), and tells it how each
/// ended, classified by the durable-write rules (protocol.md "SDK handling of the version 2
/// endpoints"; DURABLE-6 … DURABLE-9, DURABLE-15).
///
/// The machine owns what to send and when; this type owns the wire: the request body (a durable
/// write with a `writeId`), the SDK-auth header and its 401 flow, the counted-retry budget and the
/// backoff timer. A retry of the same request keeps its `writeId` and `timestamp`, so the server's
/// "newest change of a token wins" rule orders changes by when they were made, not sent.
///
/// Runs on the engine's executor.
package final class PushRegistrationSender: Sendable {
    /// Retry settings, shared with the other channels.
    package struct Settings: Sendable, Equatable {
        /// The backoff after a retryable failure.
        package var backoff: BackoffPolicy
        /// Retryable failures in a row after which the timer is no longer armed: the next trigger
        /// (foreground, a new token, an explicit call, new SDK-auth token) sends again.
        package var maxRetries: Int
        /// `success: false` answers and current-user 401s one request may get before it is dropped
        /// (DURABLE-8).
        package var maxCountedRetries: Int

        /// Creates settings.
        package init(backoff: BackoffPolicy, maxRetries: Int, maxCountedRetries: Int = 10) {
            self.backoff = backoff
            self.maxRetries = maxRetries
            self.maxCountedRetries = maxCountedRetries
        }
    }

    /// What a registration carries besides the token (GAP-15).
    package struct Device: Sendable, Equatable {
        /// `sandbox` or `production`: the APNs gateway (``APNsEnvironment``).
        package var environment: APNsEnvironment
        /// The app's bundle identifier (the APNs topic), if known.
        package var bundleId: String?

        /// Creates a description.
        package init(environment: APNsEnvironment, bundleId: String?) {
            self.environment = environment
            self.bundleId = bundleId
        }
    }

    private struct Attempt: Sendable {
        var request: PushTokenMachine.Request
        var write: DurableWrite
        var counted: Int
    }

    private struct State: Sendable {
        var attempt: Attempt?
        var retry = RetryState()
        /// The last failure was the server refusing the SDK-auth token: a new token retries at once.
        var heldForToken = false
        /// A newer token had arrived by the time the 401 came back: the retry goes at once.
        var retryNow = false
    }

    private let builder: DurableRequestBuilder
    private let settings: Settings
    private let device: Device
    private let dependencies: ChannelDependencies
    private let timer: ChannelTimer
    private let state = Locked(State())

    /// A sender that builds requests with `builder` and sends them with `dependencies`.
    package init(builder: DurableRequestBuilder, settings: Settings, device: Device, dependencies: ChannelDependencies)
    {
        self.builder = builder
        self.settings = settings
        self.device = device
        self.dependencies = dependencies
        self.timer = ChannelTimer(scheduler: dependencies.scheduler)
    }

    /// The write that carries `request`: the one already tried for it (same `writeId` and
    /// `timestamp`), or a new one.
    private func write(
        for request: PushTokenMachine.Request,
        permission: String?,
        current: (userId: String?, anonymousId: String)
    ) -> DurableWrite {
        self.state.withLock { state in
            if let attempt = state.attempt, attempt.request == request { return attempt.write }
            let kind: DurableWrite.Kind
            let ids: (userId: String?, anonymousId: String)
            switch request {
            case .register(let registration):
                kind = .pushRegister(
                    token: registration.token,
                    environment: self.device.environment,
                    bundleId: self.device.bundleId,
                    permission: permission
                )
                ids = (registration.owner.userId, registration.owner.anonymousId)
            case .unregister(let token):
                kind = .pushUnregister(token: token)
                ids = current
            }
            let write = DurableWrite(
                id: self.dependencies.identifiers.next(),
                kind: kind,
                userId: ids.userId,
                anonymousId: ids.anonymousId,
                timestamp: self.dependencies.clock.now()
            )
            state.attempt = Attempt(request: request, write: write, counted: 0)
            return write
        }
    }

    /// Sends `request`; `finished` gets its outcome on the executor. The unregister goes with the
    /// `current` identity (no profile is needed for it); a registration with its owner's ids.
    package func send(
        _ request: PushTokenMachine.Request,
        permission: String?,
        current: (userId: String?, anonymousId: String),
        finished: @escaping @Sendable (PushTokenMachine.Outcome, _ retryAfter: TimeInterval?) -> Void
    ) {
        self.timer.cancel()
        let now = self.dependencies.clock.now()
        // A server's Retry-After holds every request, an explicit call's too.
        if let until = self.state.withLock({ $0.retry.retryAfterUntil }), until > now {
            self.timer.arm(at: until, now: now) { [self] in
                self.send(request, permission: permission, current: current, finished: finished)
            }
            return
        }
        let write = self.write(for: request, permission: permission, current: current)
        let credentials = self.dependencies.authorization.credentials(for: write.userId)
        let httpRequest = self.builder.request(
            for: write,
            userId: write.userId,
            anonymousId: write.anonymousId,
            sentAt: now
        )
        self.dependencies.logger.debug("sending \(write.kind.name)")
        self.dependencies.send(httpRequest, credentials: credentials) { [self] answer in
            switch answer {
            case .tokenRejected(let rejection):
                self.dependencies.onResult(.http(status: 401, body: nil))
                finished(self.rejected(rejection, write: write), nil)
            case .result(let result):
                let (outcome, retryAfter) = self.classify(result, write: write)
                finished(outcome, retryAfter)
            }
        }
    }

    /// The machine backs off after a retryable failure: arms the timer that ends the backoff (never
    /// before `Retry-After`), unless the streak reached ``Settings/maxRetries``.
    package func backOff(retryAfter: TimeInterval?, onDue: @escaping @Sendable () -> Void) {
        let now = self.dependencies.clock.now()
        let (failures, due, retryNow) = self.state.withLock { state in
            let (failures, due) = state.retry.recordFailure(
                policy: self.settings.backoff,
                jitter: self.dependencies.jitter.next(),
                retryAfter: retryAfter,
                now: now
            )
            defer { state.retryNow = false }
            return (failures, due, state.retryNow)
        }
        if retryNow {
            // The 401 was for a token already replaced: the new one goes now (counted, DURABLE-8).
            self.dependencies.scheduler.enqueue(onDue)
            return
        }
        guard failures <= self.settings.maxRetries else {
            self.dependencies.logger.info(
                "\(failures) push registration failures in a row; waiting for the next trigger"
            )
            return
        }
        self.timer.arm(at: due, now: now, onDue)
    }

    /// Whether the last failure was an SDK-auth rejection of the current user's token, so a new
    /// token should end the backoff now (AUTH-9).
    package var isHeldForToken: Bool { self.state.withLock { $0.heldForToken } }

    /// Ends the SDK's own backoff: the next request goes now (an explicit call, a new SDK-auth
    /// token, the app returning to the foreground). A server's `Retry-After` still stands.
    package func resetBackoff() {
        self.timer.cancel()
        self.state.withLock { state in
            state.retry.recordSuccess()
            state.heldForToken = false
        }
    }

    /// Forgets everything (``EngineFeature/wipe()``): the attempt and the streak.
    package func reset() {
        self.timer.cancel()
        self.state.withLock { $0 = State() }
    }

    // MARK: - Classifying

    private func classify(
        _ result: Result<HTTPResponse, TransportError>,
        write: DurableWrite
    ) -> (PushTokenMachine.Outcome, TimeInterval?) {
        let now = self.dependencies.clock.now()
        let name = write.kind.name
        switch DurableOutcome.classify(result, for: write, now: now) {
        case .delivered:
            self.dependencies.onResult(nil)
            self.finish(success: true)
            return (.confirmed, nil)
        case .rejected(let status):
            self.dependencies.onResult(.http(status: status, body: nil))
            self.finish(success: false)
            return (.failed(.init(message: "\(name) rejected by the server (HTTP \(status))", isRetryable: false)), nil)
        case .counted(let error, let retryAfter):
            self.dependencies.onResult(error)
            return (self.counted(write, message: "\(name) failed: \(error)", unauthorized: false), retryAfter)
        case .paymentRequired(let retryAfter):
            self.dependencies.onResult(.http(status: 402, body: nil))
            return (self.retryable("\(name) answered HTTP 402 (ingestion paused)"), retryAfter)
        case .profileNotFound(let retryAfter):
            self.dependencies.onResult(.http(status: 404, body: nil))
            return (self.retryable("\(name) answered HTTP 404"), retryAfter)
        case .retry(let error, let retryAfter):
            self.dependencies.onResult(error)
            return (self.retryable("\(name) failed: \(error)"), retryAfter)
        case .unconfirmed(let error, let retryAfter):
            self.dependencies.onResult(error)
            return (self.retryable("\(name) got an answer that is not a Joryio success: \(error)"), retryAfter)
        }
    }

    /// The 401 flow's verdict (AUTH-9, DURABLE-15).
    private func rejected(_ rejection: TokenRejection, write: DurableWrite) -> PushTokenMachine.Outcome {
        let name = write.kind.name
        switch rejection {
        case .drop:
            self.finish(success: false)
            return .failed(
                .init(
                    message:
                        "\(name) of a user who is no longer current dropped: the server rejected their SDK-auth token",
                    isRetryable: false,
                    isUnauthorized: true
                )
            )
        case .hold(let tokenArrived):
            let outcome = self.counted(
                write,
                message: "\(name) failed: the server rejected the SDK-auth token",
                unauthorized: true
            )
            self.state.withLock { state in
                state.heldForToken = !tokenArrived
                state.retryNow = tokenArrived
            }
            return outcome
        }
    }

    /// A `success: false` answer or a current-user 401, counted against the request (DURABLE-8).
    private func counted(
        _ write: DurableWrite,
        message: String,
        unauthorized: Bool
    ) -> PushTokenMachine.Outcome {
        let counted = self.state.withLock { state -> Int in
            guard var attempt = state.attempt, attempt.write.id == write.id else { return 1 }
            attempt.counted += 1
            state.attempt = attempt
            return attempt.counted
        }
        if counted > self.settings.maxCountedRetries {
            self.finish(success: false)
            return .failed(
                .init(
                    message: "\(message); dropped after \(counted) failed attempts",
                    isRetryable: false,
                    isUnauthorized: unauthorized
                )
            )
        }
        return .failed(.init(message: message, isRetryable: true, isUnauthorized: unauthorized))
    }

    private func retryable(_ message: String) -> PushTokenMachine.Outcome {
        return .failed(.init(message: message, isRetryable: true))
    }

    /// The request ended for good: the next one is a new write.
    private func finish(success: Bool) {
        self.state.withLock { state in
            state.attempt = nil
            if success { state.retry.recordSuccess() }
        }
    }
}
