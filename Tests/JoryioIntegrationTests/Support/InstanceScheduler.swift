import Foundation
import JoryioCore
import JoryioTesting

/// One SDK instance's view of a shared ``ManualScheduler``, so several instances (a "restart") share
/// one virtual timeline.
///
/// ``crash()`` forgets every job of this instance that has not run yet: pending commits, timers and
/// transport completions vanish, as they do when a process dies. The shared scheduler keeps only
/// empty shells that run as no-ops, so a crashed engine (and its SQLite connection) is released.
final class InstanceScheduler: Scheduler, Clock {
    private struct State {
        var alive = true
        var nextID: UInt64 = 0
        var work: [UInt64: @Sendable () -> Void] = [:]
    }

    /// A timer handle that also releases the work it guards.
    private struct Handle: Cancellable {
        let inner: any Cancellable
        let owner: InstanceScheduler
        let id: UInt64

        func cancel() {
            self.inner.cancel()
            self.owner.forget(self.id)
        }
    }

    private struct Inert: Cancellable {
        func cancel() {}
    }

    /// The shared virtual time.
    let base: ManualScheduler
    private let state = Locked(State())

    init(_ base: ManualScheduler) {
        self.base = base
    }

    /// Whether ``crash()`` has not been called.
    var isAlive: Bool { self.state.withLock { $0.alive } }

    func now() -> Date { self.base.now() }

    func enqueue(_ work: @escaping @Sendable () -> Void) {
        guard let id = self.register(work) else { return }
        self.base.enqueue { self.run(id) }
    }

    @discardableResult
    func schedule(after delay: TimeInterval, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        guard let id = self.register(work) else { return Inert() }
        let inner = self.base.schedule(after: delay) { self.run(id) }
        return Handle(inner: inner, owner: self, id: id)
    }

    /// Drops every job of this instance that has not run, and every later one.
    func crash() {
        let dropped = self.state.withLock { state -> [UInt64: @Sendable () -> Void] in
            state.alive = false
            defer { state.work = [:] }
            return state.work
        }
        _ = dropped  // released here, outside the lock
    }

    private func register(_ work: @escaping @Sendable () -> Void) -> UInt64? {
        self.state.withLock { state in
            guard state.alive else { return nil }
            defer { state.nextID += 1 }
            state.work[state.nextID] = work
            return state.nextID
        }
    }

    private func forget(_ id: UInt64) {
        _ = self.state.withLock { $0.work.removeValue(forKey: id) }
    }

    private func run(_ id: UInt64) {
        let work = self.state.withLock { $0.work.removeValue(forKey: id) }
        work?()
    }
}
