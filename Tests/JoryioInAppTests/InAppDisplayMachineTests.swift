import Foundation
import JoryioInApp
import JoryioKit
import Testing

private let at = DisplayFixture.at
private let a = DisplayFixture.a
private let b = DisplayFixture.b
private let c = DisplayFixture.c

/// The dwell second on the SDK renderer and presenter paths (INAPP-30, INAPP-56 … INAPP-60,
/// INAPP-62, GAP-40, GAP-42), to the millisecond.
@Suite struct InAppDwellTests {
    @Test("INAPP-62: present returning true starts the dwell; a wake-up is asked for at exactly 1000 ms")
    func presentStartsDwell() {
        var machine = DisplayFixture.machine()
        #expect(machine.handle(.ready(a, at: at(0))).effects == ["present:a"])
        let shown = machine.handle(.presentResult(campaignId: "a", shown: true, at: at(0)))
        #expect(shown.effects.isEmpty)
        #expect(shown.wakeUps == [at(1000)])
    }

    // INAPP-50 / GAP-42: onMessageDisplay fires when the message counts (after the dwell), not when it appears.
    // GAP-57: the dwell the README's callback samples follow; the SDK applies it itself.
    @Test(
        "INAPP-56, INAPP-59: counted as displayed at 1000 ms on screen, not at 999",
        arguments: [(999, false), (1000, true), (1001, true)]
    )
    func dwellEdge(milliseconds: Int, counted: Bool) {
        var machine = DisplayFixture.shown()
        let actions = machine.handle(.tick(at: at(milliseconds)))
        if counted {
            // GAP-42: onMessageDisplay runs when the message counts, after the report.
            #expect(actions.effects == ["displayed:a", "onDisplay:a", "persist"])
            // The display is dated when the second was complete, even if the tick came late.
            #expect(machine.history.campaigns["a"]?.dates == [at(1000)])
        } else {
            #expect(actions.effects.isEmpty)
            #expect(machine.history.isEmpty)
        }
    }

    @Test("to the millisecond: a tick a rounding step early reaches the deadline; an early tick asks again")
    func millisecondResolution() {
        var machine = DisplayFixture.shown()
        // 0.1 ms early: the deadline is reached (a scheduler's own arithmetic may land there).
        #expect(machine.handle(.tick(at: at(1000).addingTimeInterval(-0.000_1))).reports == ["displayed:a"])
        var early = DisplayFixture.shown()
        let actions = early.handle(.tick(at: at(998)))
        #expect(actions.reports.isEmpty)
        #expect(actions.wakeUps == [at(1000)])  // re-armed: nothing waits for another input
        #expect(early.handle(.tick(at: at(1000))).reports == ["displayed:a"])
    }

    @Test("INAPP-59: backgrounded at 500 ms, the second starts over when the app returns")
    func backgroundRestartsTheSecond() {
        var machine = DisplayFixture.shown()
        #expect(machine.handle(.appActive(false, at: at(500))).effects.isEmpty)
        // While in the background nothing counts, however long.
        #expect(machine.handle(.tick(at: at(1000))).effects.isEmpty)
        #expect(machine.handle(.tick(at: at(60_000))).effects.isEmpty)
        let back = machine.handle(.appActive(true, at: at(61_000)))
        #expect(back.effects.isEmpty && back.wakeUps == [at(62_000)])
        #expect(machine.handle(.tick(at: at(61_999))).effects.isEmpty)
        #expect(machine.handle(.tick(at: at(62_000))).reports == ["displayed:a"])
    }

    @Test("INAPP-59: the 500 ms before the background do not carry over (back at 700: counted at 1700, not 1200)")
    func noCarryOver() {
        var machine = DisplayFixture.shown()
        _ = machine.handle(.appActive(false, at: at(500)))
        _ = machine.handle(.appActive(true, at: at(700)))
        #expect(machine.handle(.tick(at: at(1200))).reports.isEmpty)
        #expect(machine.handle(.tick(at: at(1699))).reports.isEmpty)
        #expect(machine.handle(.tick(at: at(1700))).reports == ["displayed:a"])
    }

    @Test(
        "INAPP-59: leaving the active state at 999 ms pauses; at 1000 ms the second was already complete",
        arguments: [(999, false), (1000, true)]
    )
    func backgroundAtTheEdge(milliseconds: Int, counted: Bool) {
        var machine = DisplayFixture.shown()
        let actions = machine.handle(.appActive(false, at: at(milliseconds)))
        #expect(actions.reports == (counted ? ["displayed:a"] : []))
    }

    @Test("INAPP-57: a message shown while the app is not active starts its dwell when it becomes active")
    func shownWhileInactive() {
        var machine = DisplayFixture.machine()
        _ = machine.handle(.ready(a, at: at(0)))
        _ = machine.handle(.appActive(false, at: at(10)))
        _ = machine.handle(.presentResult(campaignId: "a", shown: true, at: at(20)))
        #expect(machine.handle(.tick(at: at(5000))).reports.isEmpty)
        _ = machine.handle(.appActive(true, at: at(6000)))
        #expect(machine.handle(.tick(at: at(6999))).reports.isEmpty)
        #expect(machine.handle(.tick(at: at(7000))).reports == ["displayed:a"])
    }

    @Test(
        "INAPP-58: a tap before the second reports displayed first, then the click (0, 500, 999 ms)",
        arguments: [0, 500, 999]
    )
    func clickBeforeDwell(milliseconds: Int) {
        var machine = DisplayFixture.shown()
        let actions = machine.handle(.clicked(campaignId: "a", elementId: "buy", at: at(milliseconds)))
        #expect(actions.effects == ["displayed:a", "onDisplay:a", "clicked:a:buy", "onClick:a:buy", "persist"])
        #expect(machine.history.campaigns["a"]?.dates == [at(milliseconds)])
        // The message stays on screen; the dwell does not count it again.
        #expect(machine.handle(.tick(at: at(5000))).reports.isEmpty)
        #expect(machine.history.count(of: "a") == 1)
    }

    @Test("INAPP-58: a click at exactly 1000 ms, before the tick: displayed (at 1000) then clicked, once")
    func clickAtTheEdge() {
        var machine = DisplayFixture.shown()
        let actions = machine.handle(.clicked(campaignId: "a", elementId: nil, at: at(1000)))
        #expect(actions.effects == ["displayed:a", "onDisplay:a", "clicked:a", "onClick:a:", "persist"])
        #expect(machine.handle(.tick(at: at(1000))).reports.isEmpty)
        #expect(machine.history.count(of: "a") == 1)
    }

    @Test("INAPP-58: a close before the second reports displayed, then dismissed, and frees the slot")
    func closeBeforeDwell() {
        var machine = DisplayFixture.shown()
        let actions = machine.handle(.closed(campaignId: "a", at: at(999)))
        #expect(actions.effects == ["displayed:a", "onDisplay:a", "dismissed:a", "onDismiss:a", "persist"])
        #expect(machine.slot == .free)
        #expect(machine.handle(.tick(at: at(2000))).reports.isEmpty)
    }

    @Test("a close after the dwell reports only dismissed")
    func closeAfterDwell() {
        var machine = DisplayFixture.shown()
        #expect(machine.handle(.tick(at: at(1000))).reports == ["displayed:a"])
        let actions = machine.handle(.closed(campaignId: "a", at: at(4000)))
        #expect(actions.effects == ["dismissed:a", "onDismiss:a"])
        #expect(machine.history.count(of: "a") == 1)
    }

    @Test("a click then a close after the dwell: clicked, then dismissed")
    func clickThenClose() {
        var machine = DisplayFixture.shown()
        _ = machine.handle(.tick(at: at(1500)))
        #expect(machine.handle(.clicked(campaignId: "a", elementId: "x", at: at(2000))).reports == ["clicked:a:x"])
        #expect(machine.handle(.closed(campaignId: "a", at: at(2001))).reports == ["dismissed:a"])
    }

    @Test(
        "INAPP-60: leaving the screen earlier reports nothing, consumes nothing, and the message stays eligible",
        arguments: [0, 999]
    )
    func leftEarly(milliseconds: Int) {
        var machine = DisplayFixture.shown(DisplayFixture.campaign("a", caps: InAppCaps(maxImpressions: 1)))
        let actions = machine.handle(.removed(campaignId: "a", at: at(milliseconds)))
        #expect(actions.effects.isEmpty)
        #expect(machine.history.isEmpty && machine.slot == .free)
        // Still eligible: ready again, it is presented again.
        let again = machine.handle(
            .ready(DisplayFixture.campaign("a", caps: InAppCaps(maxImpressions: 1)), at: at(milliseconds + 1))
        )
        #expect(again.effects == ["present:a"])
    }

    @Test("a message removed after its dwell second reports dismissed")
    func removedAfterDwell() {
        var machine = DisplayFixture.shown()
        _ = machine.handle(.tick(at: at(1000)))
        #expect(machine.handle(.removed(campaignId: "a", at: at(3000))).reports == ["dismissed:a"])
    }

    @Test("INAPP-58: a user change before the second takes the message down and reports nothing")
    func userChangeBeforeDwell() {
        var machine = DisplayFixture.shown()
        let actions = machine.handle(.userChanged(at: at(999)))
        #expect(actions.effects == ["takeDown:a"])
        #expect(machine.history.isEmpty && machine.slot == .free)
        // Late delegate calls for it are ignored.
        #expect(machine.handle(.clicked(campaignId: "a", elementId: nil, at: at(1000))).effects.isEmpty)
        #expect(machine.handle(.closed(campaignId: "a", at: at(1001))).effects.isEmpty)
    }

    @Test("INAPP-58: an opt-out before the second takes it down and reports nothing, then or later")
    func optOutBeforeDwell() {
        var machine = DisplayFixture.shown()
        #expect(machine.handle(.privacyChanged(allowed: false, at: at(500))).effects == ["takeDown:a"])
        #expect(machine.handle(.tick(at: at(5000))).effects.isEmpty)
        #expect(machine.history.isEmpty)
    }

    @Test("a user change while present is in flight: a true answer is taken down, nothing reported")
    func userChangeWhilePresenting() {
        var machine = DisplayFixture.machine()
        _ = machine.handle(.ready(a, at: at(0)))
        _ = machine.handle(.ready(b, at: at(0)))
        #expect(machine.handle(.userChanged(at: at(10))).effects.isEmpty)
        #expect(machine.handle(.presentResult(campaignId: "a", shown: true, at: at(20))).effects == ["takeDown:a"])
        // b was dropped with the user change.
        #expect(machine.slot == .free && machine.queue.isEmpty)
        #expect(machine.handle(.tick(at: at(5000))).effects.isEmpty)
    }

    // RMQ-2: what the guide's presenting delegate does by hand (a failure treated as a close) is built in.
    @Test("RMQ-5, GAP-40: present returning false releases the slot, consumes nothing, and the next one goes")
    func presentFailure() {
        var machine = DisplayFixture.machine()
        _ = machine.handle(.ready(a, at: at(0)))
        _ = machine.handle(.ready(b, at: at(1)))
        let failed = machine.handle(.presentResult(campaignId: "a", shown: false, at: at(2)))
        #expect(failed.effects == ["present:b"])
        #expect(machine.history.isEmpty)
        // a stays eligible.
        _ = machine.handle(.presentResult(campaignId: "b", shown: false, at: at(3)))
        #expect(machine.handle(.ready(a, at: at(4))).effects == ["present:a"])
    }

    @Test("INAPP-57: the SDK renderer presents only while the app is active")
    func presentsOnlyWhenActive() {
        var machine = DisplayFixture.machine(active: false)
        #expect(machine.handle(.ready(a, at: at(0))).effects.isEmpty)
        #expect(machine.queue.count == 1)
        #expect(machine.handle(.appActive(true, at: at(5000))).effects == ["present:a"])
    }

    @Test("INAPP-30: the app's own displayed/clicked/dismissed for a message the SDK shows are not sent")
    func appReportsForSDKMessage() {
        var machine = DisplayFixture.shown()
        for action in [InAppReportAction.displayed, .clicked, .dismissed] {
            let actions = machine.handle(.appReport(action, campaign: a, elementId: nil, at: at(10)))
            #expect(actions.reports.isEmpty)
        }
        #expect(machine.history.isEmpty)
        #expect(
            machine.handle(.appReport(.converted, campaign: a, elementId: nil, at: at(20))).reports == ["converted:a"]
        )
    }

    @Test("INAPP-63: every report carries the campaign, so its delivery token")
    func reportsCarryTheCampaign() {
        var machine = DisplayFixture.shown()
        let actions = machine.handle(.clicked(campaignId: "a", elementId: "x", at: at(1)))
        for action in actions {
            if case .report(_, let campaign, _) = action {
                #expect(campaign.message.deliveryToken == "token-a")
            }
        }
    }
}

/// Callback mode (INAPP-32 … INAPP-35, INAPP-61, GAP-41), to the millisecond.
@Suite struct InAppCallbackTests {
    @Test("INAPP-32: the message is handed to the callback; no hooks, nothing reported by the SDK")
    func handedOver() {
        var machine = DisplayFixture.machine(callback: .native)
        let actions = machine.handle(.ready(a, at: at(0)))
        #expect(actions.effects == ["deliver:a"])
        #expect(actions.wakeUps == [at(30_000)])
    }

    @Test(
        "INAPP-35: with no report at all the slot frees itself at 30 s, not at 29.999 s",
        arguments: [(29_999, false), (30_000, true)]
    )
    func thirtySeconds(milliseconds: Int, released: Bool) {
        var machine = DisplayFixture.handed()
        _ = machine.handle(.ready(b, at: at(1)))
        let actions = machine.handle(.tick(at: at(milliseconds)))
        #expect(actions.effects == (released ? ["deliver:b"] : []))
        #expect(actions.reports.isEmpty)
        #expect(machine.history.isEmpty)  // INAPP-34: handed over but never shown consumes nothing
    }

    @Test("INAPP-34: the app's displayed is the only one sent and consumes the cap")
    func appDisplayedCounts() {
        var machine = DisplayFixture.handed()
        #expect(machine.handle(.tick(at: at(5000))).reports.isEmpty)
        let actions = machine.handle(.appReport(.displayed, campaign: a, elementId: nil, at: at(10_000)))
        #expect(actions.effects == ["displayed:a", "persist"])
        #expect(machine.history.campaigns["a"]?.dates == [at(10_000)])
        // The wake-up at 30 s is still pending; at it, the next one is asked for: 5 min after displayed.
        #expect(actions.wakeUps.isEmpty)
        #expect(machine.handle(.tick(at: at(30_000))).wakeUps == [at(310_000)])
    }

    @Test(
        "INAPP-35: displayed without dismissed holds the slot at most 5 minutes (299.999 s held, 300 s freed)",
        arguments: [(309_999, false), (310_000, true)]
    )
    func fiveMinutes(milliseconds: Int, released: Bool) {
        var machine = DisplayFixture.handed()
        _ = machine.handle(.ready(b, at: at(1)))
        _ = machine.handle(.appReport(.displayed, campaign: a, elementId: nil, at: at(10_000)))
        // The 30 s release no longer applies once displayed.
        #expect(machine.handle(.tick(at: at(30_000))).effects.isEmpty)
        // b, queued at 1 ms, waited longer than the queue expiry: dropped, not delivered.
        #expect(machine.handle(.tick(at: at(milliseconds))).effects.isEmpty)
        #expect((machine.slot == .free) == released)
        let next = machine.handle(.ready(c, at: at(milliseconds)))
        #expect(next.effects == (released ? ["deliver:c"] : []))
    }

    @Test("INAPP-35: dismissed frees the slot at once for the next message")
    func dismissedFrees() {
        var machine = DisplayFixture.handed()
        _ = machine.handle(.ready(b, at: at(1)))
        _ = machine.handle(.appReport(.displayed, campaign: a, elementId: nil, at: at(100)))
        let actions = machine.handle(.appReport(.dismissed, campaign: a, elementId: nil, at: at(2000)))
        #expect(actions.effects == ["dismissed:a", "deliver:b"])
    }

    @Test("INAPP-35: dismissed without displayed frees the slot and consumes nothing")
    func dismissedWithoutDisplayed() {
        var machine = DisplayFixture.handed()
        let actions = machine.handle(.appReport(.dismissed, campaign: a, elementId: nil, at: at(100)))
        #expect(actions.reports == ["dismissed:a"])
        #expect(machine.slot == .free && machine.history.isEmpty)
    }

    @Test("INAPP-61: displayed just before an earlier click: both sent in the app's order, counted once")
    func displayedThenClick() {
        var machine = DisplayFixture.handed()
        let first = machine.handle(.appReport(.displayed, campaign: a, elementId: nil, at: at(300)))
        let second = machine.handle(.appReport(.clicked, campaign: a, elementId: "cta", at: at(300)))
        #expect(first.reports + second.reports == ["displayed:a", "clicked:a:cta"])
        #expect(machine.history.count(of: "a") == 1)
        // A click does not free the slot (INAPP-35: apps report dismissed after a click too).
        #expect(machine.slot.campaign?.id == "a")
    }

    @Test("a second displayed for the same delivery is sent once and counted once")
    func displayedTwice() {
        var machine = DisplayFixture.handed()
        _ = machine.handle(.appReport(.displayed, campaign: a, elementId: nil, at: at(300)))
        #expect(machine.handle(.appReport(.displayed, campaign: a, elementId: nil, at: at(400))).reports.isEmpty)
        #expect(machine.history.count(of: "a") == 1)
    }

    @Test("GAP-41: converted does not free the slot")
    func convertedKeepsTheSlot() {
        var machine = DisplayFixture.handed()
        #expect(
            machine.handle(.appReport(.converted, campaign: a, elementId: nil, at: at(10))).reports == ["converted:a"]
        )
        #expect(machine.slot.campaign?.id == "a")
    }

    @Test("INAPP-34: displayed for a message after its slot was released is still sent and counted")
    func displayedAfterRelease() {
        var machine = DisplayFixture.handed()
        _ = machine.handle(.tick(at: at(30_000)))
        #expect(
            machine.handle(.appReport(.displayed, campaign: a, elementId: nil, at: at(31_000))).reports == [
                "displayed:a"
            ]
        )
        #expect(machine.history.count(of: "a") == 1)
    }

    @Test("GAP-41: a form the callback did not declare is skipped, not drawn by the SDK")
    func undeclaredForm() {
        var machine = DisplayFixture.machine(allowHtml: true, callback: .native)
        let actions = machine.handle(.ready(DisplayFixture.campaign("h", html: true), at: at(0)))
        #expect(actions.effects.isEmpty)
        #expect(actions.logs.contains { $0.contains("capabilities") })
        #expect(machine.slot == .free)
    }

    @Test("INAPP-23: a callback declaring content.html receives HTML whatever allowHtmlJsInAppMessages says")
    func htmlToCallback() {
        var machine = DisplayFixture.machine(allowHtml: false, callback: [.html])
        #expect(machine.handle(.ready(DisplayFixture.campaign("h", html: true), at: at(0))).effects == ["deliver:h"])
    }

    @Test(
        "INAPP-22: without a callback, HTML campaigns are skipped and logged unless allowed",
        arguments: [false, true]
    )
    func htmlToRenderer(allowHtml: Bool) {
        var machine = DisplayFixture.machine(allowHtml: allowHtml)
        let actions = machine.handle(.ready(DisplayFixture.campaign("h", html: true), at: at(0)))
        #expect(actions.effects == (allowHtml ? ["present:h"] : []))
        #expect(allowHtml || actions.logs.contains { $0.contains("HTML campaign skipped") })
    }

    @Test("the callback receives its message whether or not the app is active (the app's UI decides)")
    func callbackWhileInactive() {
        var machine = DisplayFixture.machine(active: false, callback: .native)
        #expect(machine.handle(.ready(a, at: at(0))).effects == ["deliver:a"])
    }

    @Test("INAPP-21, INAPP-37: the settings follow InAppConfig; the queue numbers are the decided ones (GAP-75)")
    func settingsFromConfig() {
        let settings = InAppDisplayMachine.Settings(
            InAppConfig(allowHtmlJsInAppMessages: true, holdInAppMessagesForHandler: true)
        )
        #expect(settings.allowHtml && settings.holdForHandler)
        #expect(settings.queueCapacity == 10 && settings.queueExpiry == 60)
        #expect(InAppDisplayMachine.Settings.dwell == 1.0)
        #expect(InAppDisplayMachine.Settings.callbackRelease == 30)
        #expect(InAppDisplayMachine.Settings.displayedHold == 300)
        let defaults = InAppDisplayMachine.Settings(InAppConfig())
        #expect(!defaults.allowHtml && !defaults.holdForHandler)
    }

    @Test("INAPP-32: capabilities parse from the documented strings")
    func capabilities() {
        let parsed = InAppCallbackCapabilities.parse(["content.native", "content.html", "content.video"])
        #expect(parsed.capabilities == [.native, .html])
        #expect(parsed.unknown == ["content.video"])
    }
}

/// Hold for the handler (INAPP-36 … INAPP-39).
@Suite struct InAppHoldTests {
    @Test("INAPP-38: a message ready before the callback is set is held: not drawn, reported or counted")
    func held() {
        var machine = DisplayFixture.machine(hold: true)
        let actions = machine.handle(.ready(a, at: at(0)))
        #expect(actions.effects.isEmpty && actions.wakeUps.isEmpty)
        #expect(machine.slot == .held(.init(campaign: a, readyAt: at(0))))
        // Held as long as it takes: no 30 s release, no queue expiry (GAP-41).
        #expect(machine.handle(.tick(at: at(3_600_000))).effects.isEmpty)
        // Others wait behind it (RMQ-4).
        _ = machine.handle(.ready(b, at: at(3_600_000)))
        #expect(machine.queue.map(\.campaign.id) == ["b"])
        #expect(machine.history.isEmpty)
    }

    @Test("INAPP-38: handed to the callback the moment it is set")
    func handedWhenSet() {
        var machine = DisplayFixture.machine(hold: true)
        _ = machine.handle(.ready(a, at: at(0)))
        let actions = machine.handle(.callbackSet(.native, at: at(3_600_000)))
        #expect(actions.effects == ["deliver:a"])
    }

    @Test("INAPP-39: clearing the callback instead ends the hold and the SDK draws the held message")
    func clearedInstead() {
        var machine = DisplayFixture.machine(hold: true)
        _ = machine.handle(.ready(a, at: at(0)))
        #expect(machine.handle(.callbackCleared(at: at(100))).effects == ["present:a"])
        // No hold any more after a clear.
        _ = machine.handle(.presentResult(campaignId: "a", shown: false, at: at(101)))
        #expect(machine.handle(.ready(b, at: at(102))).effects == ["present:b"])
    }

    @Test("INAPP-36, INIT-5: a callback set before start receives the first message, nothing held")
    func callbackBeforeStart() {
        var machine = DisplayFixture.machine(hold: true, callback: .native)
        #expect(machine.handle(.ready(a, at: at(0))).effects == ["deliver:a"])
    }

    @Test("INAPP-37: without the hold and with no callback, the SDK draws the message itself")
    func noHold() {
        var machine = DisplayFixture.machine(hold: false)
        #expect(machine.handle(.ready(a, at: at(0))).effects == ["present:a"])
    }

    @Test("INAPP-39: clearInAppMessageCallback() hands display back to the SDK's renderer")
    func clearAfterSet() {
        var machine = DisplayFixture.machine(callback: .native)
        _ = machine.handle(.callbackCleared(at: at(0)))
        #expect(machine.handle(.ready(a, at: at(1))).effects == ["present:a"])
    }

    @Test("a user change drops the held message")
    func heldDroppedOnUserChange() {
        var machine = DisplayFixture.machine(hold: true)
        _ = machine.handle(.ready(a, at: at(0)))
        _ = machine.handle(.userChanged(at: at(1)))
        #expect(machine.handle(.callbackSet(.native, at: at(2))).effects.isEmpty)
    }
}

/// The queue (INAPP-13, INAPP-48, RMQ-4 … RMQ-6, GAP-39, GAP-75) and the display delay (INAPP-31).
@Suite struct InAppQueueTests {
    @Test("INAPP-48, RMQ-1, RMQ-3, RMQ-4: one at a time, FIFO, without duplicates")
    func fifoWithoutDuplicates() {
        var machine = DisplayFixture.shown()
        #expect(machine.handle(.ready(b, at: at(1))).effects.isEmpty)
        #expect(machine.handle(.ready(c, at: at(2))).effects.isEmpty)
        _ = machine.handle(.ready(b, at: at(3)))  // duplicate
        _ = machine.handle(.ready(a, at: at(4)))  // on screen
        #expect(machine.queue.map(\.campaign.id) == ["b", "c"])
        #expect(machine.handle(.closed(campaignId: "a", at: at(5))).effects.suffix(2) == ["present:b", "persist"])
        _ = machine.handle(.presentResult(campaignId: "b", shown: true, at: at(6)))
        #expect(machine.handle(.closed(campaignId: "b", at: at(7))).effects.suffix(2) == ["present:c", "persist"])
    }

    @Test("RMQ-4, INAPP-13: each queued message is checked again: a cap reached meanwhile drops it")
    func recheckCaps() {
        var machine = DisplayFixture.machine(rules: InAppContactRules(maxImpressions: 1))
        _ = machine.handle(.ready(a, at: at(0)))
        _ = machine.handle(.presentResult(campaignId: "a", shown: true, at: at(0)))
        _ = machine.handle(.ready(b, at: at(10)))
        #expect(machine.queue.count == 1)
        _ = machine.handle(.tick(at: at(1000)))
        let closed = machine.handle(.closed(campaignId: "a", at: at(2000)))
        #expect(!closed.effects.contains("present:b"))
        #expect(closed.logs.contains { $0.contains("workspace's cap") })
        #expect(machine.queue.isEmpty)
    }

    @Test("RMQ-4: a queued campaign that expired meanwhile is dropped and the next goes")
    func recheckExpiry() {
        var machine = DisplayFixture.shown()
        _ = machine.handle(.ready(DisplayFixture.campaign("b", expiresAt: at(5000)), at: at(1)))
        _ = machine.handle(.ready(c, at: at(2)))
        #expect(machine.handle(.closed(campaignId: "a", at: at(5000))).effects.suffix(2) == ["present:c", "persist"])
    }

    @Test("GAP-39: a queued message held back only by the minimum delay waits for it, to the millisecond")
    func waitsForTheDelay() {
        var machine = DisplayFixture.machine(rules: InAppContactRules(minDelayBetweenMessages: 10))
        _ = machine.handle(.ready(a, at: at(0)))
        _ = machine.handle(.presentResult(campaignId: "a", shown: true, at: at(0)))
        _ = machine.handle(.ready(b, at: at(100)))
        _ = machine.handle(.tick(at: at(1000)))  // a counted at 1000: b may show from 11 000
        let closed = machine.handle(.closed(campaignId: "a", at: at(3000)))
        #expect(closed.effects == ["dismissed:a", "onDismiss:a"])
        #expect(closed.wakeUps == [at(11_000)])
        #expect(machine.handle(.tick(at: at(10_999))).effects.isEmpty)
        #expect(machine.handle(.tick(at: at(11_000))).effects == ["present:b"])
    }

    @Test("GAP-39: a message whose cap lifts only after its queue expiry is dropped at once")
    func tooLongToWait() {
        var machine = DisplayFixture.machine(rules: InAppContactRules(minDelayBetweenMessages: 120))
        _ = machine.handle(.ready(a, at: at(0)))
        _ = machine.handle(.presentResult(campaignId: "a", shown: true, at: at(0)))
        _ = machine.handle(.closed(campaignId: "a", at: at(10)))
        let actions = machine.handle(.ready(b, at: at(20)))
        #expect(actions.effects.isEmpty && machine.queue.isEmpty)
        #expect(actions.logs.contains { $0.contains("minimum delay") })
    }

    @Test(
        "RMQ-6, GAP-75: a queued message expires after 60 s of waiting (59.999 s shown, 60 s dropped)",
        arguments: [(59_999, true), (60_000, false)]
    )
    func queueExpiry(milliseconds: Int, shown: Bool) {
        var machine = DisplayFixture.shown()
        _ = machine.handle(.ready(b, at: at(0)))
        _ = machine.handle(.tick(at: at(1000)))
        let closed = machine.handle(.closed(campaignId: "a", at: at(milliseconds)))
        #expect(closed.effects.contains("present:b") == shown)
    }

    @Test("RMQ-6, GAP-75: at most 10 messages wait; the 11th is dropped with a warning")
    func queueCap() {
        var machine = DisplayFixture.shown()
        for index in 0..<10 {
            _ = machine.handle(.ready(DisplayFixture.campaign("q\(index)"), at: at(index)))
        }
        let actions = machine.handle(.ready(DisplayFixture.campaign("q10"), at: at(10)))
        #expect(machine.queue.count == 10)
        #expect(actions.logs.contains { $0.contains("10 messages already wait") })
        #expect(machine.queue.first?.campaign.id == "q0")
    }

    @Test(
        "INAPP-31: a delayed message is shown when its delay ends, not a millisecond before",
        arguments: [(4999, false), (5000, true)]
    )
    func displayDelay(milliseconds: Int, shown: Bool) {
        var machine = DisplayFixture.machine()
        let ready = machine.handle(.ready(DisplayFixture.campaign("d", delay: 5), at: at(0)))
        #expect(ready.effects.isEmpty && ready.wakeUps == [at(5000)])
        #expect(machine.handle(.tick(at: at(milliseconds))).effects == (shown ? ["present:d"] : []))
    }

    @Test(
        "INAPP-31, IDENT-19, CONSENT-14: a different identify, an opt-out or any consent change cancels it"
    )
    func delayCancelled() {
        let inputs: [DisplayInput] = [
            .userChanged(at: at(4999)),
            .privacyChanged(allowed: false, at: at(4999)),
            .privacyChanged(allowed: true, at: at(4999)),
        ]
        for input in inputs {
            var machine = DisplayFixture.machine()
            _ = machine.handle(.ready(DisplayFixture.campaign("d", delay: 5), at: at(0)))
            _ = machine.handle(input)
            #expect(machine.delayed.isEmpty)
            #expect(machine.handle(.tick(at: at(5000))).effects.isEmpty)
        }
    }

    @Test("INAPP-14, INAPP-53: while not allowed nothing is shown or reported")
    func notAllowed() {
        var machine = DisplayFixture.machine(allowed: false, callback: .native)
        #expect(machine.handle(.ready(a, at: at(0))).effects.isEmpty)
        #expect(machine.handle(.appReport(.converted, campaign: a, elementId: nil, at: at(1))).effects.isEmpty)
        _ = machine.handle(.privacyChanged(allowed: true, at: at(2)))
        #expect(machine.handle(.ready(a, at: at(3))).effects == ["deliver:a"])
    }

    @Test("INAPP-47: clearing the history makes capped campaigns eligible again and persists")
    func clearHistory() {
        let capped = DisplayFixture.campaign("a", caps: InAppCaps(maxImpressions: 1))
        var machine = DisplayFixture.shown(capped)
        _ = machine.handle(.tick(at: at(1000)))
        _ = machine.handle(.closed(campaignId: "a", at: at(2000)))
        #expect(machine.handle(.ready(capped, at: at(3000))).effects.isEmpty)
        #expect(machine.handle(.clearHistory(at: at(4000))).effects == ["persist"])
        #expect(machine.handle(.ready(capped, at: at(5000))).effects == ["present:a"])
    }

    @Test("wake-ups are not asked for twice while an earlier one is pending")
    func wakeUpsOnce() {
        var machine = DisplayFixture.machine()
        #expect(machine.handle(.ready(DisplayFixture.campaign("d", delay: 5), at: at(0))).wakeUps == [at(5000)])
        #expect(machine.handle(.ready(DisplayFixture.campaign("e", delay: 6), at: at(0))).wakeUps.isEmpty)
        #expect(machine.handle(.ready(DisplayFixture.campaign("f", delay: 2), at: at(0))).wakeUps == [at(2000)])
    }
}
