import Foundation
import JoryioCore
import JoryioTesting
import Testing

/// Confinement: which code runs as a job of which scheduler (what `ExecutorBound` asserts).
@Suite struct ExecutorBoundTests {
    @Test("a serial-queue scheduler knows its own jobs, and only its own")
    func serialQueue() {
        let scheduler = SerialQueueScheduler(label: "test.a")
        let other = SerialQueueScheduler(label: "test.b")
        #expect(!scheduler.isRunningJob)
        #expect(scheduler.sync { scheduler.isRunningJob })
        #expect(!scheduler.sync { other.isRunningJob })
    }

    @Test("a manual scheduler knows its jobs while it runs them on the test's thread")
    func manual() {
        let scheduler = ManualScheduler()
        let other = ManualScheduler()
        let seen = Locked<[Bool]>([])
        scheduler.enqueue { seen.withLock { $0 += [scheduler.isRunningJob, other.isRunningJob] } }
        scheduler.schedule(after: 1) { seen.withLock { $0.append(scheduler.isRunningJob) } }
        #expect(!scheduler.isRunningJob)
        scheduler.runUntilIdle()
        scheduler.advance(by: 1)
        #expect(seen.value == [true, false, true])
        #expect(!scheduler.isRunningJob, "not after the run")
    }

    @Test("the state box reads and writes in place on its executor")
    func boxOnItsExecutor() {
        let scheduler = ManualScheduler()
        let box = ExecutorBound([1, 2], on: scheduler)
        let read = Locked<[Int]>([])
        scheduler.enqueue {
            box.value.append(3)
            box.withValue { $0.append(4) }
            read.withLock { $0 = box.value }
        }
        scheduler.runUntilIdle()
        #expect(read.value == [1, 2, 3, 4])
    }
}
