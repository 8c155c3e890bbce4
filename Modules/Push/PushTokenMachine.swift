internal import JoryioCore

/// The push token rules as a value: inputs in, actions out (PUSH-6 … PUSH-18, WIPE-5, INIT-13).
///
/// The engine feeds what happened (a token from iOS, an explicit call, a privacy change, an identity
/// change, the end of a request) and carries out the returned ``Action``s in order: it persists,
/// sends, answers and logs; the machine does no I/O, so every ordering is tested as plain values.
///
/// - One request at a time: a register or an unregister is in flight, never both (PUSH-17).
/// - Unregisters the server has not confirmed go first, whatever the privacy state (PUSH-17,
///   DURABLE-13); re-registering a token cancels its own unsent unregister.
/// - The stored token is registered for the current owner while registration is allowed and no
///   `unregisterPush()` / `wipeData()` is in force (PUSH-6, PUSH-15, PUSH-18, WIPE-5).
/// - Every `registerPushToken` call gets exactly one ``Action/answer(_:_:)`` (PUSH-12).
///
/// ```swift
/// var machine = PushTokenMachine()
/// _ = machine.handle(.tokenReceived(hex))              // before initialize(): kept (PUSH-8)
/// let atStart = machine.handle(.start(start))          // [.persist(…), .sendRegister(…)]
/// let done = machine.handle(.requestFinished(.confirmed))
/// ```
package struct PushTokenMachine: Sendable, Equatable {
    /// What is persisted (``Action/persist(_:)`` carries it).
    package private(set) var state: State
    /// Before `initialize()`, refused, or running.
    package private(set) var phase: Phase
    /// Whom registrations are for.
    package private(set) var owner: Owner
    /// Whether registration is allowed: opted in and consent granted (PUSH-6).
    package private(set) var isCollectionAllowed: Bool
    /// The request on its way to the server, if any (PUSH-17).
    package private(set) var inFlight: Request?
    /// The registration the server last confirmed in this process.
    package private(set) var confirmed: Registration?
    /// The registration the server last refused for good; not sent again until something changes.
    package private(set) var refused: Registration?
    /// A retryable failure happened: nothing is sent until ``Input/retryDue`` or an explicit call.
    package private(set) var isBackingOff: Bool
    /// Explicit calls still owed their answer, oldest first.
    package private(set) var waiters: [Waiter]

    /// Creates a machine before `initialize()`: push calls are kept until ``Input/start(_:)``.
    package init() {
        self.state = .empty
        self.phase = .waiting([])
        self.owner = Owner(anonymousId: "", userId: nil)
        self.isCollectionAllowed = false
        self.inFlight = nil
        self.confirmed = nil
        self.refused = nil
        self.isBackingOff = false
        self.waiters = []
    }

    /// The registration the rules want on the server now, or `nil` (PUSH-6, PUSH-15, WIPE-5).
    package var desired: Registration? {
        guard self.isCollectionAllowed, !self.state.isPushOff, let token = self.state.token else { return nil }
        return Registration(token: token, owner: self.owner)
    }

    /// Applies `input` and returns what the engine must do, in order.
    package mutating func handle(_ input: Input) -> [Action] {
        let before = self.state
        let wasRunning = self.phase == .running
        var actions: [Action] = []
        // A malformed token is refused whatever the phase: nothing to keep or wait for (PUSH-10).
        switch input {
        case .registerPushToken(let token, let request):
            if case .invalid(let reason) = PushTokenFormat.check(token) {
                return [
                    .log(.error, "registerPushToken: \(reason)"),
                    .answer(request, .refused(reason)),
                ]
            }
        case .tokenReceived(let token):
            if case .invalid(let reason) = PushTokenFormat.check(token) {
                return [.log(.error, "didRegisterForRemoteNotifications: \(reason)")]
            }
        default: break
        }
        switch self.phase {
        case .waiting(let kept), .refused(let kept):
            actions += self.handleBeforeStart(input, kept: kept)
        case .running:
            actions += self.apply(input)
        }
        guard self.phase == .running else { return actions }
        // At start the baseline is what the store holds, not the empty state before it was read.
        var baseline = before
        if !wasRunning, case .start(let start) = input {
            baseline = start.stored
        }
        // Sending may record the registered token: the state is stored before the request goes.
        let send = self.sendNext()
        let answers = self.settleWaiters()
        if self.state != baseline {
            actions.append(.persist(self.state))
        }
        return actions + send + answers
    }

    // MARK: - Before initialize()

    /// Before a successful start, push calls are kept in order and applied at start (PUSH-8,
    /// INIT-6); privacy, identity and request inputs are ignored: ``Start`` carries their resolved
    /// values and nothing is in flight. After a refused start, `registerPushToken` answers failure
    /// at once (INIT-13).
    private mutating func handleBeforeStart(_ input: Input, kept: [Input]) -> [Action] {
        let isRefused: Bool
        if case .refused = self.phase { isRefused = true } else { isRefused = false }
        switch input {
        case .start(let start):
            guard start.credentialsAccepted else { return self.refuseStart(kept: kept) }
            return self.start(start, kept: kept)
        case .registerPushToken(_, let request) where isRefused:
            return [.answer(request, .refused(Self.credentialsRefusedMessage))]
        case .tokenReceived, .registerPushToken, .permissionRequested, .unregisterPush, .wipe:
            self.phase = isRefused ? .refused(kept + [input]) : .waiting(kept + [input])
            return []
        case .collection, .identify, .reset, .requestFinished, .retryDue:
            return []
        }
    }

    /// The message of every `registerPushToken` answered because `initialize()` refused the SDK key
    /// or host (INIT-13).
    package static let credentialsRefusedMessage =
        "initialize() refused the SDK key or host; push registration cannot be sent"

    /// `initialize()` refused the key or host: the kept `registerPushToken` calls are answered now
    /// (INIT-13, including calls made before `initialize()`); the other push calls keep waiting for
    /// a correct `initialize()` (GAP-6).
    private mutating func refuseStart(kept: [Input]) -> [Action] {
        var actions: [Action] = []
        var rest: [Input] = []
        for input in kept {
            if case .registerPushToken(_, let request) = input {
                actions.append(.answer(request, .refused(Self.credentialsRefusedMessage)))
            } else {
                rest.append(input)
            }
        }
        self.phase = .refused(rest)
        return actions
    }

    /// Loads the stored state, applies the kept calls in order, then works under the identity and
    /// privacy the start resolved (INIT-10, INIT-17). The first ``handle(_:)`` step after this sends
    /// a pending unregister or registers the stored token (PUSH-8).
    private mutating func start(_ start: Start, kept: [Input]) -> [Action] {
        self.state = start.stored
        self.owner = start.owner
        self.isCollectionAllowed = start.collectionAllowed
        self.phase = .running
        var actions: [Action] = []
        for input in kept {
            actions += self.apply(input)
        }
        // A kept wipeData() changed the owner; the identity machine already applied it, and the
        // start's owner is the one in force now.
        self.owner = start.owner
        // An unregister that was in flight when the last process ended, of a token registered again
        // meanwhile, is moot: the stored token is registered again at start (PUSH-17, INIT-17).
        if !self.state.isPushOff, let token = self.state.token {
            self.cancelUnsentUnregister(of: token)
        }
        return actions
    }

    // MARK: - Running

    private mutating func apply(_ input: Input) -> [Action] {
        switch input {
        case .start:
            return []  // INIT-2: a second initialize() is ignored.
        case .tokenReceived(let token):
            return self.tokenReceived(token)
        case .registerPushToken(let token, let request):
            return self.registerPushToken(token, request: request)
        case .permissionRequested:
            return self.permissionRequested()
        case .unregisterPush:
            return self.unregisterPush()
        case .collection(let allowed):
            self.isCollectionAllowed = allowed
            return []
        case .identify(let userId):
            if !userId.isEmpty {
                self.owner.userId = userId
            }
            return []
        case .reset(let anonymousId):
            self.owner = Owner(anonymousId: anonymousId, userId: nil)
            return []
        case .wipe(let anonymousId):
            return self.wipe(anonymousId: anonymousId)
        case .requestFinished(let outcome):
            return self.requestFinished(outcome)
        case .retryDue:
            self.isBackingOff = false
            return []
        }
    }

    /// A token from iOS is stored; it is registered only if no unregister is in force (PUSH-7,
    /// PUSH-15, WIPE-5). A different token does not unregister the one it replaces.
    private mutating func tokenReceived(_ raw: String) -> [Action] {
        guard case .valid(let token) = PushTokenFormat.check(raw) else { return [] }
        self.replaceToken(with: token)
        guard self.state.isPushOff else {
            // Registering it again: its own unsent unregister is moot (PUSH-17).
            self.cancelUnsentUnregister(of: token)
            return []
        }
        return [
            .log(.info, "push token kept on the device but not registered: unregisterPush() or wipeData() is in force")
        ]
    }

    /// An explicit registration: cancels `unregisterPush()` (PUSH-13), cancels the token's own
    /// unsent unregister (PUSH-17), forces a fresh register of the token and waits for its answer.
    private mutating func registerPushToken(_ raw: String, request: RequestID) -> [Action] {
        guard case .valid(let token) = PushTokenFormat.check(raw) else { return [] }
        var actions = self.cancelPushOff(reason: "registerPushToken")
        self.replaceToken(with: token)
        self.cancelUnsentUnregister(of: token)
        if self.confirmed?.token == token {
            self.confirmed = nil
        }
        self.refused = nil
        self.isBackingOff = false
        self.waiters.append(Waiter(request: request, token: token))
        if !self.isCollectionAllowed {
            actions.append(
                .log(.info, "push token kept on the device; it is registered once opted in with consent granted")
            )
        }
        return actions
    }

    /// `requestPushPermission()`: cancels `unregisterPush()` (PUSH-3, PUSH-13) and re-registers the
    /// stored token, cancelling its unsent unregister (PUSH-17). A token already confirmed for the
    /// current owner is not sent again (GAP-37).
    private mutating func permissionRequested() -> [Action] {
        let actions = self.cancelPushOff(reason: "requestPushPermission()")
        if let token = self.state.token {
            self.cancelUnsentUnregister(of: token)
        }
        self.refused = nil
        self.isBackingOff = false
        return actions
    }

    /// `unregisterPush()`: the stored token's unregister is queued as a withdrawal, the token stays
    /// on the device, and push stays off across launches (PUSH-15).
    private mutating func unregisterPush() -> [Action] {
        self.state.isPushOff = true
        if let token = self.state.token {
            self.queueUnregister(of: token)
        }
        return [.unregisterWithSystem]
    }

    /// `wipeData()`: the token is unregistered on the server and deleted from the device; push stays
    /// off until an explicit call (WIPE-1, WIPE-2, WIPE-5).
    private mutating func wipe(anonymousId: String) -> [Action] {
        if let token = self.state.token {
            self.queueUnregister(of: token)
        }
        self.state.token = nil
        self.state.isPushOff = true
        self.owner = Owner(anonymousId: anonymousId, userId: nil)
        self.refused = nil
        return []
    }

    /// The request in flight ended (PUSH-12, PUSH-17, DURABLE-6).
    private mutating func requestFinished(_ outcome: Outcome) -> [Action] {
        guard let request = self.inFlight else {
            return [.log(.debug, "push: a request result arrived with no request in flight; ignored")]
        }
        self.inFlight = nil
        switch (request, outcome) {
        case (.register(let registration), .confirmed):
            self.confirmed = registration
            self.refused = nil
            return self.answerWaiters(for: registration.token, .succeeded)
        case (.register(let registration), .failed(let failure)):
            let result = PushRegistrationResult(
                success: false,
                message: failure.message,
                isUnauthorized: failure.isUnauthorized,
                isRetryable: failure.isRetryable
            )
            var actions: [Action]
            if failure.isRetryable {
                self.isBackingOff = true
                actions = [.log(.warning, "push token registration failed, retrying later: \(failure.message)")]
            } else {
                self.refused = registration
                actions = [.log(.error, "push token registration refused by the server: \(failure.message)")]
            }
            return actions + self.answerWaiters(for: registration.token, result)
        case (.unregister(let token), .confirmed):
            self.unregistered(token)
            return []
        case (.unregister(let token), .failed(let failure)):
            if !failure.isRetryable {
                // Dropped (DURABLE-6): the server does not hold it as far as this device can tell.
                self.unregistered(token)
                return [.log(.error, "push unregister refused by the server, dropped: \(failure.message)")]
            }
            if self.state.token == token, !self.state.isPushOff {
                // Re-registered while it was in flight, and it did not reach the server (PUSH-17).
                self.state.pendingUnregisters.removeAll { $0 == token }
                return []
            }
            self.isBackingOff = true
            return [.log(.warning, "push unregister failed, retrying later: \(failure.message)")]
        }
    }

    // MARK: - Sending and answering

    /// Starts the next request when none is in flight and no backoff runs: an unconfirmed
    /// unregister first, whatever the privacy state, then the wanted registration (PUSH-17).
    private mutating func sendNext() -> [Action] {
        guard self.inFlight == nil, !self.isBackingOff else { return [] }
        if let token = self.state.pendingUnregisters.first {
            self.inFlight = .unregister(token)
            return [.sendUnregister(token: token)]
        }
        guard let desired = self.desired, desired != self.confirmed, desired != self.refused else { return [] }
        self.inFlight = .register(desired)
        self.state.registeredToken = desired.token
        return [.sendRegister(token: desired.token, owner: desired.owner)]
    }

    /// Answers the calls whose token will not be registered by what is in flight or wanted now, so
    /// none waits for something that cannot come (PUSH-12).
    private mutating func settleWaiters() -> [Action] {
        var actions: [Action] = []
        var kept: [Waiter] = []
        for waiter in self.waiters {
            if case .register(let registration) = self.inFlight, registration.token == waiter.token {
                kept.append(waiter)
            } else if let reason = self.reasonNotRegistering(waiter.token) {
                actions.append(.answer(waiter.request, .refused(reason)))
            } else if self.desired == self.confirmed {
                actions.append(.answer(waiter.request, .succeeded))
            } else {
                kept.append(waiter)  // behind an unregister or a backoff: sent later (PUSH-17).
            }
        }
        self.waiters = kept
        return actions
    }

    /// Why `token` will not be registered now, or `nil` when it will be.
    private func reasonNotRegistering(_ token: String) -> String? {
        if self.state.isPushOff {
            return "push registration was cancelled by unregisterPush() or wipeData()"
        }
        if self.state.token != token {
            return "push registration was replaced by a newer token"
        }
        if !self.isCollectionAllowed {
            return "push registration is suspended until the user is opted in and consent is granted; "
                + "the token is kept and registered then"
        }
        return nil
    }

    /// Answers every call waiting for `token`.
    private mutating func answerWaiters(for token: String, _ result: PushRegistrationResult) -> [Action] {
        let answered = self.waiters.filter { $0.token == token }
        self.waiters.removeAll { $0.token == token }
        return answered.map { .answer($0.request, result) }
    }

    // MARK: - Helpers

    /// Stores `token`; a different token the server may hold is unregistered first (PUSH-17), so
    /// an unregisterPush() or wipeData() later leaves nothing registered (WIPE-2).
    private mutating func replaceToken(with token: String) {
        self.state.token = token
        if let old = self.state.registeredToken, old != token {
            self.queueUnregister(of: old)
        }
    }

    /// The server no longer holds `token`.
    private mutating func unregistered(_ token: String) {
        self.state.pendingUnregisters.removeAll { $0 == token }
        if self.state.registeredToken == token {
            self.state.registeredToken = nil
        }
        if self.confirmed?.token == token {
            self.confirmed = nil
        }
    }

    private mutating func cancelPushOff(reason: String) -> [Action] {
        guard self.state.isPushOff else { return [] }
        self.state.isPushOff = false
        return [.log(.info, "\(reason) cancelled unregisterPush()")]
    }

    /// Drops the token's unregister unless it is on its way (PUSH-17).
    private mutating func cancelUnsentUnregister(of token: String) {
        if self.inFlight == .unregister(token) { return }
        self.state.pendingUnregisters.removeAll { $0 == token }
    }

    private mutating func queueUnregister(of token: String) {
        if !self.state.pendingUnregisters.contains(token) {
            self.state.pendingUnregisters.append(token)
        }
    }
}
