package import Foundation
internal import JoryioConsent
internal import JoryioCore
internal import JoryioFeature
internal import JoryioIdentity

/// Identity and sessions on the engine (IDENT, SESS).
extension JoryioEngine {
    /// `identify(_:)`: later events carry `userId`. While opted out or denied the id is only kept
    /// on the device (IDENT-5); identifying someone else is a logout plus a login (IDENT-4).
    package func identify(_ userId: String, at now: Date) {
        if self.identifyGate == .keepLocally, self.state.value.identity.userId != userId {
            self.logger.debug("identify: user id kept on the device only (opted out or consent denied)")
        }
        self.identity(.identify(userId: userId, gate: self.identifyGate), at: now)
    }

    /// `reset()`: a new anonymous id (made on the caller's thread, IDENT-7), no user id, and a new
    /// session announced at once (IDENT-6, SESS-4). Queued events keep their ids (IDENT-9); features
    /// follow (unconfirmed attribute writes are purged, ATTR-15; durable writes stay, IDENT-11).
    package func reset(newAnonymousId: String, at now: Date) {
        self.identity(.reset(newAnonymousId: newAnonymousId), at: now)
    }

    /// The identify gate of the consent × opt-out matrix, as the identity machine reads it.
    var identifyGate: IdentityStateMachine.Gate {
        switch self.state.value.privacy.state.gate(.identify) {
        case .accept: .accept
        case .hold: .hold
        case .keepLocally: .keepLocally
        case .drop: .drop
        }
    }

    /// Runs `input` through the identity machine and carries out its actions, in order.
    ///
    /// The identify write is queued last, once the token book and every feature know the new
    /// user: a token kept for the next identified user (AUTH-6) is then already theirs when the
    /// write leaves, which may be at once.
    func identity(_ input: IdentityStateMachine.Input, at now: Date) {
        let actions = self.state.withValue { $0.identityMachine.handle(input) }
        var identifies: [String] = []
        defer {
            for userId in identifies {
                self.enqueueDurable(.identify, timestamp: now, userId: .some(userId))
            }
        }
        for action in actions {
            if Self.store(action, stores: self.stores, logger: self.logger) { continue }
            switch action {
            case .enqueueIdentify(let userId):
                identifies.append(userId)
            case .startNewSession:
                let sessionId = self.environment.identifiers.next()
                self.state.withValue { _ = $0.sessions.startNew(at: now, id: sessionId) }
                self.persistSession()
                self.announceSessionIfAllowed()
            case .discardQueuedEvents:
                self.discardQueuedEvents()
            case .wipeFeatures:
                self.features.each { $0.wipe() }
            case .clearSession:
                self.state.withValue { $0.sessions.clear() }
                self.persistSession()
            case .userChanged(let previous, let current, let reason):
                switch reason {
                case .identified: self.identityChanged(.identified(previous: previous, current: current ?? ""))
                case .reset: self.identityChanged(.reset(previous: previous))
                case .wiped: self.identityChanged(.wiped(previous: previous))
                }
            case .publish, .clearSecureStore, .writeInstallMarker, .persistAnonymousId, .persistDeviceId,
                .persistUserId, .setKeptMarker:
                break  // the engine publishes after every command; storage was handled above
            }
        }
    }

    /// Tells auth and every feature, in registration order, that the identity changed.
    func identityChanged(_ change: IdentityChange) {
        self.authUserChanged(change)
        self.features.each { $0.identityChanged(change) }
        self.pruneAuthTokens()
    }

    /// Records activity for the session rules and returns the session id the event belongs to;
    /// a new session is announced first when collection allows (SESS-1, SESS-2).
    func touchSession(at now: Date) -> String? {
        let identifiers = self.environment.identifiers
        let started = self.state.withValue { $0.sessions.touch(at: now, newID: identifiers.next) }
        if started != nil {
            self.persistSession()
            self.announceSessionIfAllowed()
            self.publish()
        }
        return self.state.value.sessions.current?.id
    }

    /// Sends `Session Start` for the current session if it was not announced yet and collection is
    /// allowed now (SESS-2, SESS-6, SESS-7).
    func announceSessionIfAllowed() {
        let state = self.state.value
        guard self.config.trackSessionStart, let session = state.sessions.current, !session.announced,
            state.privacy.state.gate(.sessionStart) == .accept
        else { return }
        self.state.withValue { $0.sessions.markAnnounced() }
        self.persistSession()
        var properties = self.environment.sessionStartFacts()
        properties["$device_id"] = .string(state.identity.deviceId)
        self.record(
            name: "Session Start",
            conversion: JSONValue.Conversion(value: properties, dropped: []),
            timestamp: session.start,
            session: .fixed(session.id)
        )
    }

    /// The stored session, if any (SESS-9).
    static func loadSession(from store: any KeyValueStore) -> Session? {
        store.data(forKey: StoreKey.session).flatMap { try? JSONDecoder().decode(Session.self, from: $0) }
    }

    /// Writes the current session (or removes it) to the key-value store.
    ///
    /// A group commit (`force: false`) skips the write (a file replaced and synced) when only the
    /// session's last activity moved, by less than ``sessionActivityGranularity``: a burst does not
    /// pay one sync per transaction. The activity a kill leaves unwritten comes back with the
    /// journal's replay, and the background and terminate paths always write.
    func persistSession(force: Bool = true) {
        let current = self.state.value.sessions.current
        if !force, let current, let stored = self.state.value.storedSession, stored.id == current.id,
            stored.start == current.start, stored.announced == current.announced,
            current.lastActivity.timeIntervalSince(stored.lastActivity) < Self.sessionActivityGranularity
        {
            return
        }
        let data = current.flatMap { try? JSONEncoder().encode($0) }
        do {
            try self.stores.keyValue.set(data, forKey: StoreKey.session)
            self.state.value.storedSession = current
        } catch {
            self.logger.error("cannot store the session: \(error)")
        }
    }

    /// How far a session's last activity may move before a group commit writes it again.
    static let sessionActivityGranularity: TimeInterval = 5
}
