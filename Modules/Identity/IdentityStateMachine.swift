internal import JoryioCore

/// The identity as a value: anonymous id, user id, device id and the kept identify, inputs in,
/// actions out (IDENT, STORE-8, GAP-22, GAP-52, WIPE-1, WIPE-7).
///
/// The engine reads the stores and the privacy gate, feeds an ``Input`` and carries out the
/// returned ``Action``s in order; the machine does no I/O and makes no ids, so every path is
/// tested as plain values.
///
/// ```swift
/// var machine = IdentityStateMachine()
/// let atLaunch = machine.handle(.launch(launch))
/// let atStart = machine.handle(.start(identifyGate: .accept))
/// let onIdentify = machine.handle(.identify(userId: "u1", gate: .accept))
/// ```
package struct IdentityStateMachine: Sendable, Equatable {
    /// The current identity.
    package private(set) var state: State

    /// Creates a machine before launch: no ids (INIT-7); only `.launch` is applied.
    package init() {
        self.state = .unloaded
    }

    /// Applies `input` and returns what the engine must do, in order.
    ///
    /// Inputs other than `.launch` are ignored before the launch, and a second launch is ignored
    /// (INIT-2, INIT-6).
    package mutating func handle(_ input: Input) -> [Action] {
        if case .launch(let launch) = input {
            return self.state.isLoaded ? [] : self.launch(launch)
        }
        guard self.state.isLoaded else { return [] }
        switch input {
        case .launch: return []
        case .start(let gate): return self.start(gate: gate)
        case .identify(let userId, let gate): return self.identify(userId, gate: gate)
        case .reset(let anonymousId): return self.reset(newAnonymousId: anonymousId)
        case .wipe(let anonymousId, let deviceId): return self.wipe(newAnonymousId: anonymousId, newDeviceId: deviceId)
        case .collectionStopped(let identifyPending): return self.collectionStopped(identifyPending: identifyPending)
        case .collectionResumed: return self.sendKeptIdentify(gate: .accept)
        }
    }

    // MARK: - Launch and start

    /// Resolves the ids (STORE-1, STORE-3): after a reinstall the secure items are deleted first,
    /// so the stored user is gone (STORE-8, GAP-52); configured ids win over stored ones, and a
    /// configured user other than the stored one is owed an identify at start (GAP-22). Only
    /// what changed is persisted; the kept marker is taken as stored.
    private mutating func launch(_ launch: Launch) -> [Action] {
        var actions: [Action] = []
        var storedUser = launch.storedUserId.nonEmpty
        if !launch.installMarker {
            actions += [.clearSecureStore, .writeInstallMarker]
            storedUser = nil
        }
        let storedAnonymous = launch.storedAnonymousId.nonEmpty
        let anonymousId = launch.configAnonymousId.nonEmpty ?? storedAnonymous ?? launch.freshAnonymousId
        if storedAnonymous != anonymousId {
            actions.append(.persistAnonymousId(anonymousId))
        }
        let storedDevice = launch.storedDeviceId.nonEmpty
        let deviceId = storedDevice ?? launch.freshDeviceId
        if storedDevice != deviceId {
            actions.append(.persistDeviceId(deviceId))
        }
        let configUser = launch.configUserId.nonEmpty
        let userId = configUser ?? storedUser
        if let userId, userId != storedUser {
            actions.append(.persistUserId(userId))
        }
        self.state = State(
            isLoaded: true,
            anonymousId: anonymousId,
            userId: userId,
            deviceId: deviceId,
            identifyKept: launch.identifyKept,
            identifyAtStart: configUser == storedUser ? nil : configUser
        )
        return actions
    }

    /// Startup identity work, after the launch's privacy decisions (INIT-10): the configured user's
    /// identify, gated like `identify(_:)` (GAP-22), then a kept identify if collection is allowed
    /// (IDENT-5); then the ids are published. Nothing here counts as a user change: the user was
    /// already current when the SDK-auth tokens were loaded.
    private mutating func start(gate: Gate) -> [Action] {
        var actions: [Action] = []
        if let userId = self.state.identifyAtStart {
            self.state.identifyAtStart = nil
            actions += self.sendIdentify(userId, gate: gate)
        }
        actions += self.sendKeptIdentify(gate: gate)
        actions.append(.publish)
        return actions
    }

    // MARK: - Calls

    /// `identify(_:)`: the user id is stored and published at once; identifying the current user
    /// again stops there. Someone else is a logout plus a login (IDENT-4): their identify is
    /// queued, or only kept while opted out or denied (IDENT-5), and the user change is reported.
    private mutating func identify(_ userId: String, gate: Gate) -> [Action] {
        guard !userId.isEmpty else { return [] }
        let previous = self.state.userId
        self.state.userId = userId
        var actions: [Action] = [.persistUserId(userId), .publish]
        guard previous != userId else { return actions }
        // This identify replaces whatever was owed for the previous user.
        self.state.identifyAtStart = nil
        actions += self.sendIdentify(userId, gate: gate)
        actions.append(.userChanged(previous: previous, current: userId, reason: .identified))
        return actions
    }

    /// `reset()`: a new anonymous id, no user, no unconfirmed attribute writes (ATTR-15), the kept
    /// identify forgotten (IDENT-5) and a new session (IDENT-6, SESS-4). Durable writes and the
    /// device id stay (IDENT-11, IDENT-21).
    private mutating func reset(newAnonymousId: String) -> [Action] {
        let previous = self.state.userId
        self.state.anonymousId = newAnonymousId
        self.state.userId = nil
        self.state.identifyAtStart = nil
        var actions: [Action] = [.persistAnonymousId(newAnonymousId), .persistUserId(nil)]
        actions += self.setKept(false)
        actions += [.startNewSession, .publish, .userChanged(previous: previous, current: nil, reason: .reset)]
        return actions
    }

    /// `wipeData()`: queued events, unconfirmed attribute writes, collecting durable writes, the
    /// kept identify, the session and every secure item are deleted, then fresh ids are stored
    /// (WIPE-1, WIPE-6, WIPE-7, SESS-5). Withdrawals, the opt-out and a denial stay (WIPE-3).
    private mutating func wipe(newAnonymousId: String, newDeviceId: String) -> [Action] {
        let previous = self.state.userId
        var actions: [Action] = [.discardQueuedEvents, .wipeFeatures]
        actions += self.setKept(false)
        actions += [
            .clearSession,
            .clearSecureStore,
            .persistAnonymousId(newAnonymousId),
            .persistDeviceId(newDeviceId),
        ]
        self.state = State(
            isLoaded: true,
            anonymousId: newAnonymousId,
            userId: nil,
            deviceId: newDeviceId,
            identifyKept: false,
            identifyAtStart: nil
        )
        actions += [.userChanged(previous: previous, current: nil, reason: .wiped), .publish]
        return actions
    }

    // MARK: - Collection switches

    /// Collection stops while the current user's identify still waits: it is dropped with the
    /// other collecting writes and owed again once collection is allowed (IDENT-5).
    private mutating func collectionStopped(identifyPending: Bool) -> [Action] {
        guard identifyPending, self.state.userId != nil else { return [] }
        return self.setKept(true)
    }

    // MARK: - Helpers

    /// The durable identify (IDENT-3): queued when collection is allowed or pending, which settles
    /// any kept identify; while opted out or denied only the marker is kept (IDENT-5).
    private mutating func sendIdentify(_ userId: String, gate: Gate) -> [Action] {
        guard gate.queuesWrite else { return self.setKept(true) }
        return self.setKept(false) + [.enqueueIdentify(userId: userId)]
    }

    /// Runs a kept identify once collection is allowed (IDENT-5, OPTOUT-8). While pending the
    /// marker stays, so a later denial cannot lose it. A marker without a user is only cleared.
    private mutating func sendKeptIdentify(gate: Gate) -> [Action] {
        guard self.state.identifyKept, gate == .accept else { return [] }
        var actions = self.setKept(false)
        if let userId = self.state.userId {
            actions.append(.enqueueIdentify(userId: userId))
        }
        return actions
    }

    /// Sets the kept marker; the action is emitted only when it changes.
    private mutating func setKept(_ kept: Bool) -> [Action] {
        guard self.state.identifyKept != kept else { return [] }
        self.state.identifyKept = kept
        return [.setKeptMarker(kept)]
    }
}
