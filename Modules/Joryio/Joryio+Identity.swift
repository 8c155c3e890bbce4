public import Foundation
internal import JoryioCore

/// Identity and sessions (IDENT, SESS).
extension Joryio {
    /// Identifies the user: joins the device's anonymous history to `userId` on the server. An
    /// empty id logs a warning and does nothing (IDENT-2).
    public func identify(_ userId: String) {
        guard !userId.isEmpty else {
            self.warn("identify: the user id is empty; nothing changed")
            return
        }
        self.state.withLock { state in
            if state.engine != nil {
                self.snapshot.withLock { $0.userId = userId }
            }
        }
        let now = self.environment.clock.now()
        self.submit { $0.identify(userId, at: now) }
    }

    /// Logs the user out: a new anonymous id, no user id and a new session, at once (IDENT-6, IDENT-7).
    public func reset() {
        let anonymousId = self.environment.identifiers.next()
        let now = self.environment.clock.now()
        self.state.withLock { state in
            if state.engine != nil {
                self.snapshot.withLock {
                    $0.userId = nil
                    $0.anonymousId = anonymousId
                }
            }
        }
        self.submit { $0.reset(newAnonymousId: anonymousId, at: now) }
    }

    /// The current user id, or `nil` (also before `initialize()`).
    public func getUserId() -> String? {
        self.snapshot.withLock { $0.userId }
    }

    /// The current anonymous id, or `""` before `initialize()`.
    public func getAnonymousId() -> String {
        self.snapshot.withLock { $0.anonymousId }
    }

    /// The current user id and anonymous id.
    public func getIdentity() -> (userId: String?, anonymousId: String) {
        self.snapshot.withLock { ($0.userId, $0.anonymousId) }
    }

    /// The current session id, or `nil` when no session has started.
    public func getSessionId() -> String? {
        self.snapshot.withLock { $0.session?.id }
    }

    /// The current session's id, start and duration so far (SESS-8); `(nil, nil, 0)` without one.
    public func getSessionInfo() -> (sessionId: String?, sessionStart: Date?, duration: TimeInterval) {
        let session = self.snapshot.withLock { $0.session }
        guard let session else { return (nil, nil, 0) }
        return (session.id, session.start, max(0, self.environment.clock.now().timeIntervalSince(session.start)))
    }

    /// Logs a warning through the engine's logger, in order with the other calls.
    private func warn(_ message: String) {
        self.submit { $0.log.warning(message) }
    }
}
