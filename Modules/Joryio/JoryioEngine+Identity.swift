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
        let previous = self.state.withValue { state -> String? in
            defer { state.identity.userId = userId }
            return state.identity.userId
        }
        self.stores.secure.save(userId, forKey: StoreKey.userId, logger: self.logger)
        guard previous != userId else { return }
        if self.state.value.privacy.state.gate(.identify) == .keepLocally {
            self.logger.debug("identify: user id kept on the device only (opted out or consent denied)")
        }
        self.sendIdentify(userId, timestamp: now)
        self.identityChanged(.identified(previous: previous, current: userId))
    }

    /// `reset()`: a new anonymous id (made on the caller's thread, IDENT-7), no user id, and a new
    /// session announced at once (IDENT-6, SESS-4). Queued events keep their ids (IDENT-9).
    package func reset(newAnonymousId: String, at now: Date) {
        let previous = self.state.value.identity.userId
        self.state.withValue {
            $0.identity.anonymousId = newAnonymousId
            $0.identity.userId = nil
        }
        self.stores.keyValue.save(newAnonymousId, forKey: StoreKey.anonymousId, logger: self.logger)
        self.stores.secure.save(nil, forKey: StoreKey.userId, logger: self.logger)
        self.forgetKeptIdentify()
        let sessionId = self.environment.identifiers.next()
        self.state.withValue { _ = $0.sessions.startNew(at: now, id: sessionId) }
        self.persistSession()
        self.announceSessionIfAllowed()
        // Features follow: unconfirmed attribute writes are purged (ATTR-15); durable writes stay (IDENT-11).
        self.identityChanged(.reset(previous: previous))
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
    func persistSession() {
        let data = self.state.value.sessions.current.flatMap { try? JSONEncoder().encode($0) }
        do {
            try self.stores.keyValue.set(data, forKey: StoreKey.session)
        } catch {
            self.logger.error("cannot store the session: \(error)")
        }
    }
}
