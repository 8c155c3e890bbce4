import Foundation
import JoryioPush
import Testing

@Suite struct PushDecisionTests {
    private func decide(
        _ name: String,
        _ arrival: PushArrival,
        active: Bool = true,
        hook: Bool = false
    ) throws -> PushDecision {
        PushDecision.decide(
            try Payloads.payload(name),
            PushContext(arrival: arrival, appIsActive: active, hasLinkHook: hook)
        )
    }

    @Test("a foreign payload is forwarded unchanged, and .noData in the background (PUSH-22, PUSH-24)")
    func foreign() throws {
        for arrival in [PushArrival.willPresent, .remoteNotification, .response(action: .open)] {
            let decision = try self.decide("foreign", arrival)
            #expect(!decision.isJoryio)
            #expect(decision.actions == [.forwardToApp])
            #expect(decision.presentation.isEmpty)
            #expect(decision.backgroundResult == (arrival == .remoteNotification ? .noData : nil))
        }
    }

    @Test("foreground: receipt, and banner + list + sound + badge (PUSH-21, PUSH-27, GAP-37)")
    func foreground() throws {
        let decision = try self.decide("deep-link", .willPresent)
        #expect(decision.isJoryio)
        #expect(decision.actions == [.reportReceipt(trackingId: "trk_01HF8ZQ4V7")])
        #expect(decision.presentation == [.banner, .list, .sound, .badge])
        #expect(decision.backgroundResult == nil)
        #expect(decision.sound == .named("chime.caf"))
    }

    @Test("foreground without sound or badge: banner + list only")
    func foregroundPlain() throws {
        let decision = try self.decide("plain", .willPresent)
        #expect(decision.presentation == [.banner, .list])
    }

    @Test("an invalid sound name still presents with the default sound (SOUND-5)")
    func foregroundBadSound() throws {
        let decision = try self.decide("bad-sound", .willPresent)
        #expect(decision.presentation == [.banner, .list, .sound])
        #expect(decision.sound == .defaultSound)
        #expect(decision.warnings == [.soundIgnored("alarm.mp3")])
    }

    @Test("background silent sync: receipt, then sync; the completion follows the sync (PUSH-25, GAP-16)")
    func silentSync() throws {
        let decision = try self.decide("silent-sync", .remoteNotification, active: false)
        #expect(decision.actions == [.reportReceipt(trackingId: "trk_sync_1"), .sync])
        #expect(decision.backgroundResult == .afterSync)
    }

    @Test("background Joryio push without the marker: receipt and .noData")
    func backgroundNoSync() throws {
        let decision = try self.decide("plain", .remoteNotification, active: false)
        #expect(decision.actions == [.reportReceipt(trackingId: "trk_plain")])
        #expect(decision.backgroundResult == .noData)
    }

    @Test("tap on a deep link: click first, then the link, then the sync (DEEPLINK-5, PUSH-26)")
    func tapDeepLink() throws {
        let decision = try self.decide("deep-link", .response(action: .open))
        let link = try #require(try Payloads.payload("deep-link").link)
        #expect(
            decision.actions == [
                .reportClick(trackingId: "trk_01HF8ZQ4V7"),
                .followLink(PushLinkPlan(link: link, askHookFirst: false, waitForActive: false)),
                .sync,
            ]
        )
        #expect(decision.presentation.isEmpty && decision.backgroundResult == nil)
    }

    @Test(
        "cold start: the link waits until the app is active; the hook is asked first (DEEPLINK-6, DEEPLINK-7, GAP-73)"
    )
    func tapColdStartWithHook() throws {
        let decision = try self.decide("universal-link", .response(action: .open), active: false, hook: true)
        guard case .followLink(let plan) = decision.actions[1] else {
            Issue.record("no link: \(decision.actions)")
            return
        }
        #expect(decision.actions.first == .reportClick(trackingId: "trk_ulink_7"))
        #expect(plan.link.route == .universalLink)
        #expect(plan.askHookFirst && plan.waitForActive)
    }

    @Test("an action button counts as a tap; dismissing does nothing")
    func actions() throws {
        let custom = try self.decide("plain", .response(action: .custom("reply")))
        #expect(custom.actions == [.reportClick(trackingId: "trk_plain"), .sync])
        let dismissed = try self.decide("deep-link", .response(action: .dismiss))
        #expect(dismissed.isJoryio && dismissed.actions.isEmpty)
    }

    @Test("tap on a silent-sync push: click, sync")
    func tapSync() throws {
        let decision = try self.decide("silent-sync", .response(action: .open))
        #expect(decision.actions == [.reportClick(trackingId: "trk_sync_1"), .sync])
    }

    @Test("hostile payloads: no click without a tracking id, no refused link, still ours")
    func hostile() throws {
        for name in ["hostile-javascript", "hostile-file", "hostile-types", "hostile-nested", "hostile-missing"] {
            let decision = try self.decide(name, .response(action: .open))
            #expect(decision.isJoryio, "\(name)")
            #expect(!decision.actions.contains { if case .followLink = $0 { true } else { false } }, "\(name)")
            #expect(!decision.warnings.isEmpty, "\(name)")
        }
        #expect(try self.decide("hostile-types", .response(action: .open)).actions == [.sync])
        #expect(
            try self.decide("hostile-javascript", .response(action: .open)).actions.first
                == .reportClick(trackingId: "trk_js")
        )
    }

    @Test("a Joryio notification without an alert is not presented in the foreground")
    func noAlertNoPresentation() throws {
        #expect(try self.decide("silent-sync", .willPresent).presentation.isEmpty)
        #expect(try self.decide("hostile-joryio-not-object", .willPresent).presentation == [.banner, .list])
    }

    @Test("universal-link fallback: open the URL only when the app did not handle it (ULINK-8, GAP-72)")
    func universalLinkFallback() {
        #expect(!PushDecision.openAfterUniversalLink(.scene))
        #expect(!PushDecision.openAfterUniversalLink(.appDelegate(handled: true)))
        #expect(PushDecision.openAfterUniversalLink(.appDelegate(handled: false)))
        #expect(PushDecision.openAfterUniversalLink(.noHandler))
    }

    @Test("every payload file decides without a crash in every arrival")
    func allFiles() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Payloads.directory.path)
        #expect(names.count >= 12)
        for file in names where file.hasSuffix(".json") {
            let payload = try Payloads.payload(String(file.dropLast(5)))
            for arrival in [PushArrival.willPresent, .remoteNotification, .response(action: .open)] {
                _ = PushDecision.decide(payload, PushContext(arrival: arrival, appIsActive: false))
            }
        }
    }
}
