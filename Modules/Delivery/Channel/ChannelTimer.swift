package import Foundation
package import JoryioCore

/// One timer of a channel on its scheduler: armed for a date, replaced, or cancelled.
///
/// The channels' retry timers, the event uploader's flush-interval timer and the durable channel's
/// wait for events are each one of these. When the timer fires it forgets itself first, then runs
/// its work, so the work may arm it again. Like the channel that owns it, it is used from the
/// scheduler only; the lock keeps the getters safe from any thread.
package final class ChannelTimer: Sendable {
    /// The timer waiting to fire.
    private struct Armed {
        /// When it fires.
        var due: Date
        /// The scheduler's handle, attached right after scheduling.
        var handle: (any Cancellable)?
        /// Which arming this is: a replaced or cancelled timer's work finds another and does nothing.
        var generation: UInt64
    }

    /// The armed timer and the arming count.
    private struct State {
        /// The timer waiting to fire, if any.
        var armed: Armed?
        /// How many times the timer was armed.
        var generation: UInt64 = 0
    }

    /// The scheduler the work runs on.
    private let scheduler: any Scheduler
    /// The mutable state.
    private let state = Locked(State())

    /// Creates a timer that is not armed.
    package init(scheduler: any Scheduler) {
        self.scheduler = scheduler
    }

    /// Whether the timer waits to fire.
    package var isArmed: Bool { self.state.withLock { $0.armed != nil } }

    /// When the armed timer fires, or `nil`.
    package var due: Date? { self.state.withLock { $0.armed?.due } }

    /// Arms the timer to run `work` at `due`, unless it is already armed for a time between `now`
    /// and `due`: that earlier firing decides again anyway. A later (or overdue) timer is replaced.
    package func arm(at due: Date, now: Date, _ work: @escaping @Sendable () -> Void) {
        let keep = self.state.withLock { state -> Bool in
            guard let armed = state.armed else { return false }
            return armed.due <= due && armed.due > now
        }
        guard !keep else { return }
        self.replace(due: due, delay: due.timeIntervalSince(now), work)
    }

    /// Arms the timer to run `work` after `delay` seconds, replacing any armed one.
    package func replace(after delay: TimeInterval, now: Date, _ work: @escaping @Sendable () -> Void) {
        self.replace(due: now.addingTimeInterval(delay), delay: delay, work)
    }

    /// Disarms the timer; its work does not run. Harmless when not armed.
    package func cancel() {
        let armed = self.state.withLock { state -> Armed? in
            defer { state.armed = nil }
            return state.armed
        }
        armed?.handle?.cancel()
    }

    /// Cancels any armed timer and arms one for `due`, `delay` seconds from now.
    private func replace(due: Date, delay: TimeInterval, _ work: @escaping @Sendable () -> Void) {
        self.cancel()
        // Armed before it is scheduled, so the work finds itself armed whenever it runs.
        let generation = self.state.withLock { state -> UInt64 in
            state.generation &+= 1
            state.armed = Armed(due: due, handle: nil, generation: state.generation)
            return state.generation
        }
        let handle = self.scheduler.schedule(after: delay) { [self] in
            let current = self.state.withLock { state -> Bool in
                guard state.armed?.generation == generation else { return false }
                state.armed = nil
                return true
            }
            if current { work() }
        }
        let attached = self.state.withLock { state -> Bool in
            guard state.armed?.generation == generation else { return false }
            state.armed?.handle = handle
            return true
        }
        // Cancelled, replaced or already run meanwhile: make sure it never runs (again).
        if !attached { handle.cancel() }
    }
}
