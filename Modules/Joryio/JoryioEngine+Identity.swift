package import Foundation
internal import JoryioConsent
internal import JoryioCore
internal import JoryioIdentity

/// How the identity changed, for the features that follow it (push re-registration, in-app
/// re-sync, per-user auth tokens).
package enum IdentityChange: Sendable, Equatable {
    /// `identify` with a user id; `previous` is the user before it, if any.
    case identified(previous: String?, current: String)
    /// `reset()`: a new anonymous identity.
    case reset
    /// `wipeData()`: every id deleted.
    case wiped
}

/// Identity and sessions on the engine (IDENT, SESS).
extension JoryioEngine {
    /// Registers a handler for identity changes (run on the engine).
    package func observeIdentity(_ handler: @escaping @Sendable (IdentityChange) -> Void) {
        self.identityObservers.withLock { $0.append(handler) }
    }

    func notifyIdentity(_ change: IdentityChange) {
        for observer in self.identityObservers.value {
            observer(change)
        }
    }

    /// `identify(_:)`: later events carry `userId`. While opted out or denied the id is only kept
    /// on the device (IDENT-5); identifying someone else is a logout plus a login (IDENT-4).
    package func identify(_ userId: String, at now: Date) {
        let previous = self.identity.withLock { identity -> String? in
            defer { identity.userId = userId }
            return identity.userId
        }
        self.stores.secure.save(userId, forKey: StoreKey.userId, logger: self.logger)
        self.publishIdentity()
        guard previous != userId else { return }
        if self.privacy.value.state.gate(.identify) == .keepLocally {
            self.logger.debug("identify: user id kept on the device only (opted out or consent denied)")
        }
        self.sendIdentify(userId, timestamp: now)
        self.authUserChanged(previous: previous, reason: .identified(previous: previous, current: userId))
        self.notifyIdentity(.identified(previous: previous, current: userId))
    }

    /// `reset()`: a new anonymous id (made on the caller's thread, IDENT-7), no user id, and a new
    /// session announced at once (IDENT-6, SESS-4). Queued events keep their ids (IDENT-9).
    package func reset(newAnonymousId: String, at now: Date) {
        let previous = self.identity.value.userId
        self.identity.withLock {
            $0.anonymousId = newAnonymousId
            $0.userId = nil
        }
        self.stores.keyValue.save(newAnonymousId, forKey: StoreKey.anonymousId, logger: self.logger)
        self.stores.secure.save(nil, forKey: StoreKey.userId, logger: self.logger)
        // Unconfirmed attribute writes are purged (ATTR-15); durable writes stay (IDENT-11).
        self.attributes.discardCollected()
        self.forgetKeptIdentify()
        self.sessions.withLock { $0.startNew(at: now, id: self.environment.identifiers.next()) }
        self.persistSession()
        self.announceSessionIfAllowed()
        self.publishIdentity()
        self.authUserChanged(previous: previous, reason: .reset)
        self.notifyIdentity(.reset)
    }

    /// Records activity for the session rules and returns the session id the event belongs to;
    /// a new session is announced first when collection allows (SESS-1, SESS-2).
    func touchSession(at now: Date) -> String? {
        let started = self.sessions.withLock { $0.touch(at: now, newID: self.environment.identifiers.next) }
        if started != nil {
            self.persistSession()
            self.announceSessionIfAllowed()
            self.publishIdentity()
        }
        return self.sessions.value.current?.id
    }

    /// Sends `Session Start` for the current session if it was not announced yet and collection is
    /// allowed now (SESS-2, SESS-6, SESS-7).
    func announceSessionIfAllowed() {
        guard self.config.trackSessionStart, let session = self.sessions.value.current, !session.announced,
            self.privacy.value.state.gate(.sessionStart) == .accept
        else { return }
        self.sessions.withLock { $0.markAnnounced() }
        self.persistSession()
        var properties = self.environment.sessionStartFacts()
        properties["$device_id"] = .string(self.identity.value.deviceId)
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
        let data = self.sessions.value.current.flatMap { try? JSONEncoder().encode($0) }
        do {
            try self.stores.keyValue.set(data, forKey: StoreKey.session)
        } catch {
            self.logger.error("cannot store the session: \(error)")
        }
    }

    /// Publishes ids and session for the getters (privacy getters read the facade's shadow).
    func publishIdentity() {
        let identity = self.identity.value
        let session = self.sessions.value.current
        self.snapshot.withLock {
            $0.userId = identity.userId
            $0.anonymousId = identity.anonymousId
            $0.session = session.map { ($0.id, $0.start) }
        }
    }
}
