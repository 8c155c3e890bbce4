/// State owned by one serial executor: every access is checked, in debug builds, to run there.
///
/// The engine keeps all of its mutable state in one `ExecutorBound` value instead of a lock per
/// field. Locks hide a wrong thread; this box reports it (the way swift-nio's `NIOLoopBound`
/// does), and because the executor runs one job at a time, a job sees and changes the whole state
/// atomically without any lock.
///
/// ```swift
/// let state = ExecutorBound(EngineState(), on: scheduler)
/// scheduler.enqueue { state.value.count += 1 }   // fine: runs as a scheduler job
/// state.value.count += 1                          // asserts in debug builds: not on the executor
/// ```
package final class ExecutorBound<Value>: @unchecked Sendable {
    // Confined: `storage` is read and written only by jobs of `executor`, a serial scheduler that
    // runs one job at a time (asserted in debug builds on every access). The value lives behind a
    // pointer this box owns, so an access costs no dynamic exclusivity check: the executor already
    // guarantees what that check would.
    private let storage: UnsafeMutablePointer<Value>
    private let executor: any Scheduler

    /// Wraps `value`, owned from now on by `executor`.
    package init(_ value: Value, on executor: any Scheduler) {
        self.storage = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        self.storage.initialize(to: value)
        self.executor = executor
    }

    deinit {
        self.storage.deinitialize(count: 1)
        self.storage.deallocate()
    }

    /// The value; read and written on the executor only.
    package var value: Value {
        _read {
            self.checkConfinement()
            yield self.storage.pointee
        }
        _modify {
            self.checkConfinement()
            yield &self.storage.pointee
        }
    }

    /// Runs `body` with the value, on the executor only.
    @discardableResult
    package func withValue<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        self.checkConfinement()
        return try body(&self.storage.pointee)
    }

    private func checkConfinement() {
        assert(self.executor.isRunningJob, "engine state touched off its executor")
    }
}
