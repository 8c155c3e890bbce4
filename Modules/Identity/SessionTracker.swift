package import Foundation

/// One analytics session (SESS rules), as stored in the key-value store (STORE-1).
package struct Session: Sendable, Equatable, Codable {
    /// The session id sent with every event.
    package var id: String
    /// When the session started.
    package var start: Date
    /// The last event or foreground in this session.
    package var lastActivity: Date
    /// Whether its `Session Start` was sent (SESS-6: announced once collection is allowed).
    package var announced: Bool

    /// Creates a session.
    package init(id: String, start: Date, lastActivity: Date, announced: Bool) {
        self.id = id
        self.start = start
        self.lastActivity = lastActivity
        self.announced = announced
    }
}

/// Decides when a session starts (SESS-1, GAP-21): at the first activity, and when an event or
/// foreground comes more than `timeout` after the last activity. A clock that jumps back before
/// the session's start also starts a new one, so durations are never negative.
package struct SessionTracker: Sendable, Equatable {
    /// Inactivity that ends a session, in seconds.
    package let timeout: TimeInterval
    /// The current session, if any.
    package private(set) var current: Session?

    /// Creates a tracker resuming `stored` (a session survives a relaunch within the timeout).
    package init(timeout: TimeInterval, stored: Session?) {
        self.timeout = timeout
        self.current = stored
    }

    /// Records activity at `now`; returns the new session when one started.
    package mutating func touch(at now: Date, newID: () -> String) -> Session? {
        if var session = self.current, now >= session.start, now.timeIntervalSince(session.lastActivity) <= self.timeout
        {
            session.lastActivity = max(session.lastActivity, now)
            self.current = session
            return nil
        }
        return self.startNew(at: now, id: newID())
    }

    /// Starts a new session at once (`reset()`, SESS-4).
    @discardableResult
    package mutating func startNew(at now: Date, id: String) -> Session {
        let session = Session(id: id, start: now, lastActivity: now, announced: false)
        self.current = session
        return session
    }

    /// Marks the current session as announced.
    package mutating func markAnnounced() {
        self.current?.announced = true
    }

    /// Forgets the session (`wipeData()`, SESS-5): the next activity starts a new one.
    package mutating func clear() {
        self.current = nil
    }
}
