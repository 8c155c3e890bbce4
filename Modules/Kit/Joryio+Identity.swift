public import Foundation
internal import JoryioCore

/// Identity and sessions (IDENT, SESS).
extension Joryio {
    /// Identifies the user: joins the device's anonymous history to `userId` on the server. An
    /// empty or whitespace-only id logs a warning and does nothing (IDENT-2).
    public func identify(_ userId: String) {
        guard !userId.isEmpty else {
            self.warn("identify: the user id is empty; nothing changed")
            return
        }
        // Only whitespace is as missing as empty, and would join everyone it reaches into one
        // profile (IDENT-2, docs/decisions.md "Hardening (issue 12)").
        if userId.unicodeScalars.allSatisfy(\.properties.isWhitespace) {
            self.warn(
                "identify: the user id is blank (\(userId.unicodeScalars.count) whitespace characters); nothing changed"
            )
            return
        }
        let now = self.environment.clock.now()
        self.submit(.identify, showing: .identify(userId)) { $0.identify(userId, at: now) }
    }

    /// Logs the user out: a new anonymous id, no user id and a new session, at once (IDENT-6, IDENT-7).
    public func reset() {
        let anonymousId = self.environment.identifiers.next()
        let now = self.environment.clock.now()
        self.submit(showing: .reset(anonymousId: anonymousId)) { $0.reset(newAnonymousId: anonymousId, at: now) }
    }

    /// The current user id, or `nil` (also before `initialize()`).
    public func getUserId() -> String? {
        self.board.current.userId
    }

    /// The current anonymous id, or `""` before `initialize()`.
    public func getAnonymousId() -> String {
        self.board.current.anonymousId
    }

    /// The current user id and anonymous id.
    public func getIdentity() -> (userId: String?, anonymousId: String) {
        let snapshot = self.board.current
        return (snapshot.userId, snapshot.anonymousId)
    }

    /// The current session id, or `nil` when no session has started.
    public func getSessionId() -> String? {
        self.board.current.session?.id
    }

    /// The current session's id, start and duration so far (SESS-8); `(nil, nil, 0)` without one.
    public func getSessionInfo() -> (sessionId: String?, sessionStart: Date?, duration: TimeInterval) {
        let session = self.board.current.session
        guard let session else { return (nil, nil, 0) }
        return (session.id, session.start, max(0, self.environment.clock.now().timeIntervalSince(session.start)))
    }

}
