import Foundation
import JoryioCore
import JoryioTesting
import Testing

@Suite struct ManualSchedulerTests {
    @Test func immediateWorkRunsInSubmissionOrderOnlyWhenDriven() {
        let scheduler = ManualScheduler()
        let log = Locked<[Int]>([])
        for index in 0..<5 {
            scheduler.enqueue { log.withLock { $0.append(index) } }
        }
        #expect(log.value.isEmpty)
        #expect(scheduler.runUntilIdle() == 5)
        #expect(log.value == [0, 1, 2, 3, 4])
    }

    @Test func timersFireAtTheirExactVirtualTime() {
        let scheduler = ManualScheduler()
        let start = scheduler.now()
        let fired = Locked<[TimeInterval]>([])
        scheduler.schedule(after: 5) { fired.withLock { $0.append(scheduler.now().timeIntervalSince(start)) } }
        scheduler.schedule(after: 1.5) { fired.withLock { $0.append(scheduler.now().timeIntervalSince(start)) } }
        scheduler.advance(by: 4.999)
        #expect(fired.value == [1.5])
        scheduler.advance(by: 0.001)
        #expect(fired.value == [1.5, 5])
        #expect(scheduler.now().timeIntervalSince(start) == 5)
    }

    @Test func workScheduledByWorkRunsInTheSameAdvance() {
        let scheduler = ManualScheduler()
        let log = Locked<[String]>([])
        scheduler.schedule(after: 1) {
            log.withLock { $0.append("first") }
            scheduler.schedule(after: 1) { log.withLock { $0.append("second") } }
            scheduler.enqueue { log.withLock { $0.append("now") } }
        }
        scheduler.advance(by: 10)
        #expect(log.value == ["first", "now", "second"])
    }

    @Test func cancelledTimersNeverRun() {
        let scheduler = ManualScheduler()
        let ran = Locked(false)
        let handle = scheduler.schedule(after: 1) { ran.withLock { $0 = true } }
        #expect(scheduler.pendingCount == 1)
        handle.cancel()
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: 2)
        #expect(ran.value == false)
    }

    @Test func equalDueTimesKeepSubmissionOrder() {
        let scheduler = ManualScheduler()
        let log = Locked<[Int]>([])
        scheduler.schedule(after: 2) { log.withLock { $0.append(1) } }
        scheduler.schedule(after: 2) { log.withLock { $0.append(2) } }
        scheduler.schedule(after: 1) { log.withLock { $0.append(0) } }
        #expect(scheduler.nextDueDate == scheduler.now().addingTimeInterval(1))
        scheduler.advance(by: 2)
        #expect(log.value == [0, 1, 2])
    }

    @Test func waitForWorkSeesWorkFromAnotherThread() {
        let scheduler = ManualScheduler()
        let ran = Locked(false)
        Thread.detachNewThread {
            scheduler.enqueue { ran.withLock { $0 = true } }
        }
        #expect(scheduler.waitForWork(timeout: 10))
        scheduler.runUntilIdle()
        #expect(ran.value)
    }

    @Test func asyncWaitForWorkSeesWorkFromAnotherThreadWithoutBlocking() async {
        let scheduler = ManualScheduler()
        let ran = Locked(false)
        Thread.detachNewThread {
            scheduler.enqueue { ran.withLock { $0 = true } }
        }
        #expect(await scheduler.waitForWork(timeout: 10))
        scheduler.runUntilIdle()
        #expect(ran.value)
    }

    @Test func asyncWaitForWorkIgnoresTimersThatAreNotDue() async {
        let scheduler = ManualScheduler()
        scheduler.schedule(after: 1) {}
        #expect(await scheduler.waitForWork(timeout: 0) == false)
        scheduler.enqueue {}
        #expect(await scheduler.waitForWork(timeout: 0))
    }
}

@Suite struct SerialQueueSchedulerTests {
    @Test func runsWorkInOrderOffTheCallersThread() {
        let scheduler = SerialQueueScheduler(label: "test")
        let log = Locked<[Int]>([])
        for index in 0..<100 {
            scheduler.enqueue { log.withLock { $0.append(index) } }
        }
        let snapshot = scheduler.sync { log.value }
        #expect(snapshot == Array(0..<100))
    }

    @Test("a scheduler over a given serial queue runs its work there and knows when it does")
    func overAGivenQueue() {
        let queue = DispatchQueue(label: "given")
        let scheduler = SerialQueueScheduler(queue: queue)
        #expect(!scheduler.isRunningJob)
        let seen = Locked<[Bool]>([])
        scheduler.enqueue { seen.withLock { $0.append(scheduler.isRunningJob) } }
        queue.sync {}
        #expect(seen.value == [true])
    }

    @Test func cancelledDelayedWorkDoesNotRun() {
        let scheduler = SerialQueueScheduler(label: "test")
        let ran = Locked(false)
        let gate = DispatchSemaphore(value: 0)
        scheduler.enqueue { gate.wait() }  // hold the queue so the timer cannot fire before cancel()
        scheduler.schedule(after: 0) { ran.withLock { $0 = true } }.cancel()
        gate.signal()
        let done = DispatchSemaphore(value: 0)
        scheduler.schedule(after: 0.01) { done.signal() }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(ran.value == false)
    }
}

@Suite struct IdentifierTests {
    @Test func sequentialIdentifiersAreUUIDShapedAndOrdered() {
        let generator = SequentialIdentifierGenerator()
        #expect(generator.next() == "00000000-0000-4000-8000-000000000001")
        #expect(generator.next() == "00000000-0000-4000-8000-000000000002")
        #expect(UUID(uuidString: generator.next()) != nil)
    }

    @Test func uuidGeneratorIsLowercaseAndUnique() {
        let generator = UUIDGenerator()
        let ids = (0..<1000).map { _ in generator.next() }
        #expect(Set(ids).count == 1000)
        #expect(ids.allSatisfy { $0 == $0.lowercased() && UUID(uuidString: $0) != nil })
    }

    @Test func lockedSerialisesConcurrentWriters() {
        let counter = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 1000) { _ in counter.withLock { $0 += 1 } }
        #expect(counter.value == 1000)
    }
}
