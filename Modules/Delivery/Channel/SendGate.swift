package import Foundation

/// Whether a channel may start a request now: the one send decision of the event uploader, the
/// attribute channel and the durable-write channel, as a pure value.
///
/// A channel fills it from its own state each time something may let a request go (a write, a
/// trigger, an answer, a timer) and acts on ``decision(at:)``:
///
/// 1. ``stopped``, ``held`` or ``awaitingToken``: ``SendDecision/idle``; nothing goes until that
///    changes, and the change itself asks again.
/// 2. ``inFlight``: ``SendDecision/busy``; the answer asks again (one request at a time).
/// 3. Nothing to send (``hasWork`` is false): ``SendDecision/idle``.
/// 4. The latest of ``retryAfterUntil``, ``backoffUntil`` and ``notBefore`` still ahead (by more
///    than ``tolerance``): ``SendDecision/wait(until:)`` that date; a timer then asks again.
/// 5. Otherwise ``SendDecision/send``.
package struct SendGate: Sendable, Equatable {
    /// How far ahead a date must be to be waited for: timers fire at sums of floating-point
    /// intervals, which may land a few ulps short of the date they aimed at.
    package static let tolerance: TimeInterval = 0.000_001

    /// The server stopped this channel for the instance's life (402 or 403, as the channel's
    /// table says).
    package var stopped = false
    /// Nothing of this channel may go now: collection is not allowed (consent pending), or the
    /// channel has not loaded its stored items yet.
    package var held = false
    /// The server rejected the current user's SDK-auth token: nothing goes until a new one
    /// arrives (AUTH-9).
    package var awaitingToken = false
    /// A request is on the wire.
    package var inFlight = false
    /// Something waits to be sent.
    package var hasWork = true
    /// The server's `Retry-After`: nothing goes before it, whatever the trigger (BATCH-11).
    package var retryAfterUntil: Date?
    /// The SDK's own backoff (BATCH-18); `nil` when the trigger skips it (`flush()`).
    package var backoffUntil: Date?
    /// The channel's own pacing, such as the attribute coalescing window (ATTR-9).
    package var notBefore: Date?

    /// Creates a gate; every input defaults to "free to send, something waits".
    package init(
        stopped: Bool = false,
        held: Bool = false,
        awaitingToken: Bool = false,
        inFlight: Bool = false,
        hasWork: Bool = true,
        retryAfterUntil: Date? = nil,
        backoffUntil: Date? = nil,
        notBefore: Date? = nil
    ) {
        self.stopped = stopped
        self.held = held
        self.awaitingToken = awaitingToken
        self.inFlight = inFlight
        self.hasWork = hasWork
        self.retryAfterUntil = retryAfterUntil
        self.backoffUntil = backoffUntil
        self.notBefore = notBefore
    }

    /// What the channel does at `now`.
    package func decision(at now: Date) -> SendDecision {
        if self.stopped || self.held || self.awaitingToken { return .idle }
        if self.inFlight { return .busy }
        if !self.hasWork { return .idle }
        let latest = [self.retryAfterUntil, self.backoffUntil, self.notBefore].compactMap { $0 }.max()
        if let latest, latest.timeIntervalSince(now) > Self.tolerance {
            return .wait(until: latest)
        }
        return .send
    }
}

/// What ``SendGate/decision(at:)`` tells a channel to do.
package enum SendDecision: Sendable, Equatable {
    /// Nothing: the channel is stopped, held, waiting for a token, or has nothing to send.
    case idle
    /// A request is on the wire; its answer decides again.
    case busy
    /// Arm the channel's timer for this date and decide again when it fires.
    case wait(until: Date)
    /// Start a request now.
    case send
}
