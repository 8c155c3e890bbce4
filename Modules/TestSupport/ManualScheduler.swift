public import Foundation
public import JoryioCore

/// A `Scheduler` and `Clock` on virtual time: nothing runs until the test says so.
///
/// Immediate work and timers share one ordered list (by due time, then submission order). Work
/// runs only inside ``runUntilIdle()`` and ``advance(by:)``, on the calling thread, so a test sees
/// exactly what happened at each instant:
///
/// ```swift
/// let scheduler = ManualScheduler()
/// scheduler.schedule(after: 5) { flushed = true }
/// scheduler.advance(by: 4.999)   // nothing yet
/// scheduler.advance(by: 0.001)   // runs the flush at exactly t = 5 s
/// ```
///
/// Work may be enqueued from other threads (an HTTP completion, say); `waitForWork(timeout:)` waits
/// until some arrives, without advancing virtual time. It comes in two forms: one that blocks the
/// calling thread, and an `async` one that suspends instead (the one the compiler picks in `async` code,
/// such as Swift Testing's `async` tests, so the test holds no thread while it waits).
public final class ManualScheduler: Scheduler, Clock {
    private struct Job {
        var due: Date
        var sequence: UInt64
        var flag: CancellationFlag?
        var work: @Sendable () -> Void
    }

    private struct State {
        var now: Date
        var nextSequence: UInt64 = 0
        var jobs: [Job] = []
    }

    private let state: Locked<State>
    private let arrival = NSCondition()
    /// The thread running jobs right now, if any (for ``isRunningJob``).
    private let runner = Locked<Thread?>(nil)
    /// Suspended `waitForWork(timeout:)` calls (the `async` form), resumed by every new job.
    private let waiters = Locked<[UInt64: CheckedContinuation<Void, Never>]>([:])
    private let nextWaiter = Locked<UInt64>(0)

    /// Creates a scheduler whose clock starts at `start` (by default 2026-01-01T00:00:00Z).
    public init(start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        self.state = Locked(State(now: start))
    }

    // MARK: - Clock

    /// The current virtual time.
    public func now() -> Date {
        self.state.withLock { $0.now }
    }

    // MARK: - Scheduler

    /// Queues `work` to run at the current virtual time, after everything already due.
    public func enqueue(_ work: @escaping @Sendable () -> Void) {
        self.add(delay: 0, flag: nil, work)
    }

    /// Queues `work` to run once virtual time has advanced by `delay` seconds.
    @discardableResult
    public func schedule(after delay: TimeInterval, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let flag = CancellationFlag()
        self.add(delay: delay, flag: flag, work)
        return flag
    }

    /// Whether the caller is a job this scheduler is running (confinement checks assert it).
    public var isRunningJob: Bool {
        self.runner.withLock { $0 } === Thread.current
    }

    // MARK: - Driving time

    /// Runs everything due at the current virtual time, including work that running work enqueues.
    /// Returns how many jobs ran.
    @discardableResult
    public func runUntilIdle() -> Int {
        self.run(until: nil)
    }

    /// Runs only the next job due at the current virtual time; `false` when none is due. Tests that
    /// stop the engine between two jobs (a kill at that instant) use it.
    @discardableResult
    public func runNext() -> Bool {
        let outer = self.runner.withLock { runner -> Thread? in
            defer { runner = Thread.current }
            return runner
        }
        defer { self.runner.withLock { $0 = outer } }
        while let job = self.takeNext(until: nil) {
            guard !(job.flag?.isCancelled ?? false) else { continue }
            job.work()
            return true
        }
        return false
    }

    /// Moves virtual time forward by `seconds`, running each job at its own due time, in order.
    /// Returns how many jobs ran.
    @discardableResult
    public func advance(by seconds: TimeInterval) -> Int {
        let target = self.now().addingTimeInterval(max(0, seconds))
        return self.advance(to: target)
    }

    /// Moves virtual time forward to `date` (never backward), running due jobs in order.
    @discardableResult
    public func advance(to date: Date) -> Int {
        let count = self.run(until: date)
        self.state.withLock { $0.now = max($0.now, date) }
        return count + self.run(until: nil)
    }

    /// Blocks until work is queued that is due now, or `timeout` real seconds pass. Virtual time
    /// does not move. Returns whether such work is queued.
    public func waitForWork(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        self.arrival.lock()
        defer { self.arrival.unlock() }
        while !self.hasDueWork() {
            if !self.arrival.wait(until: deadline) {
                return self.hasDueWork()
            }
        }
        return true
    }

    /// Suspends until work is queued that is due now, or `timeout` real seconds pass, without blocking
    /// a thread. Virtual time does not move. Returns whether such work is queued.
    public func waitForWork(timeout: TimeInterval) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !self.hasDueWork() {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return false }
            await self.nextArrival(within: remaining)
        }
        return true
    }

    /// The number of jobs waiting, due or not (cancelled timers excluded).
    public var pendingCount: Int {
        self.state.withLock { state in state.jobs.filter { !($0.flag?.isCancelled ?? false) }.count }
    }

    /// When the earliest waiting job is due, or `nil` when nothing waits.
    public var nextDueDate: Date? {
        self.state.withLock { state in state.jobs.filter { !($0.flag?.isCancelled ?? false) }.map(\.due).min() }
    }

    // MARK: - Private

    private func add(delay: TimeInterval, flag: CancellationFlag?, _ work: @escaping @Sendable () -> Void) {
        self.state.withLock { state in
            let job = Job(
                due: state.now.addingTimeInterval(max(0, delay)),
                sequence: state.nextSequence,
                flag: flag,
                work: work
            )
            state.nextSequence += 1
            state.jobs.append(job)
        }
        self.arrival.lock()
        self.arrival.broadcast()
        self.arrival.unlock()
        let waiting = self.waiters.withLock { waiters in
            defer { waiters = [:] }
            return waiters.values
        }
        for waiter in waiting { waiter.resume() }
    }

    /// Returns when the next job is added, or after `seconds` (real time), whichever comes first.
    private func nextArrival(within seconds: TimeInterval) async {
        let id = self.nextWaiter.withLock { next in
            defer { next += 1 }
            return next
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            self.waiters.withLock { $0[id] = continuation }
            // Work that arrived before the registration would otherwise wait for the timeout.
            if self.hasDueWork() { self.resumeWaiter(id) }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in self?.resumeWaiter(id) }
        }
    }

    /// Resumes waiter `id` unless something resumed it already.
    private func resumeWaiter(_ id: UInt64) {
        self.waiters.withLock { $0.removeValue(forKey: id) }?.resume()
    }

    private func hasDueWork() -> Bool {
        self.state.withLock { state in state.jobs.contains { $0.due <= state.now } }
    }

    /// Runs jobs due by `limit` (or by the current time when `nil`) in (due, sequence) order.
    private func run(until limit: Date?) -> Int {
        var count = 0
        let outer = self.runner.withLock { runner -> Thread? in
            defer { runner = Thread.current }
            return runner
        }
        defer { self.runner.withLock { $0 = outer } }
        while let job = self.takeNext(until: limit) {
            if !(job.flag?.isCancelled ?? false) {
                job.work()
                count += 1
            }
        }
        return count
    }

    private func takeNext(until limit: Date?) -> Job? {
        self.state.withLock { state in
            let horizon = limit.map { max($0, state.now) } ?? state.now
            var best: Int?
            for index in state.jobs.indices where state.jobs[index].due <= horizon {
                if let current = best {
                    let candidate = state.jobs[index]
                    let chosen = state.jobs[current]
                    if (candidate.due, candidate.sequence) < (chosen.due, chosen.sequence) { best = index }
                } else {
                    best = index
                }
            }
            guard let index = best else { return nil }
            let job = state.jobs.remove(at: index)
            state.now = max(state.now, job.due)
            return job
        }
    }
}
