import Foundation
import JoryioCore
import JoryioDelivery
import JoryioTesting
import Testing

@Suite struct ChannelTimerTests {
    @Test("arm fires once at its date and forgets itself before the work runs")
    func armFires() {
        let scheduler = ManualScheduler()
        let timer = ChannelTimer(scheduler: scheduler)
        let start = scheduler.now()
        let fired = Locked<[Bool]>([])
        timer.arm(at: start.addingTimeInterval(5), now: start) { fired.withLock { $0.append(timer.isArmed) } }
        #expect(timer.isArmed)
        #expect(timer.due == start.addingTimeInterval(5))
        scheduler.advance(by: 4.999)
        #expect(fired.value.isEmpty)
        scheduler.advance(by: 0.001)
        #expect(fired.value == [false])
        #expect(!timer.isArmed)
        scheduler.advance(by: 60)
        #expect(fired.value == [false])
    }

    @Test("arming for a later date keeps an earlier pending timer; an earlier date replaces it")
    func armKeepsEarlier() {
        let scheduler = ManualScheduler()
        let timer = ChannelTimer(scheduler: scheduler)
        let start = scheduler.now()
        let fired = Locked<[String]>([])
        timer.arm(at: start.addingTimeInterval(5), now: start) { fired.withLock { $0.append("five") } }
        timer.arm(at: start.addingTimeInterval(9), now: start) { fired.withLock { $0.append("nine") } }
        #expect(timer.due == start.addingTimeInterval(5))
        timer.arm(at: start.addingTimeInterval(2), now: start) { fired.withLock { $0.append("two") } }
        #expect(timer.due == start.addingTimeInterval(2))
        scheduler.advance(by: 60)
        #expect(fired.value == ["two"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test("replace always re-arms; cancel disarms and the work never runs")
    func replaceAndCancel() {
        let scheduler = ManualScheduler()
        let timer = ChannelTimer(scheduler: scheduler)
        let start = scheduler.now()
        let fired = Locked<[String]>([])
        timer.replace(after: 2, now: start) { fired.withLock { $0.append("first") } }
        timer.replace(after: 7, now: start) { fired.withLock { $0.append("second") } }
        #expect(timer.due == start.addingTimeInterval(7))
        scheduler.advance(by: 60)
        #expect(fired.value == ["second"])

        timer.replace(after: 1, now: scheduler.now()) { fired.withLock { $0.append("third") } }
        timer.cancel()
        timer.cancel()
        #expect(!timer.isArmed)
        scheduler.advance(by: 60)
        #expect(fired.value == ["second"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test("work may arm the timer again")
    func rearmFromWork() {
        let scheduler = ManualScheduler()
        let timer = ChannelTimer(scheduler: scheduler)
        let count = Locked(0)
        @Sendable func tick() {
            let now = scheduler.now()
            timer.arm(at: now.addingTimeInterval(1), now: now) {
                let runs = count.withLock { count -> Int in
                    count += 1
                    return count
                }
                if runs < 3 { tick() }
            }
        }
        tick()
        scheduler.advance(by: 10)
        #expect(count.value == 3)
        #expect(!timer.isArmed)
    }
}
