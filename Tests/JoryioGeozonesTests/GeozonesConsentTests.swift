import Foundation
import JoryioCore
import JoryioGeozones
import JoryioKit
import JoryioTesting
import Testing

/// GEO-4 / GEO-5 through the SDK: never started implicitly; location read only while collection is
/// allowed; zone events are events like any other.
@Suite("GEO-5: geozones and consent")
struct GeozonesConsentTests {
    enum Privacy: String, CaseIterable, Sendable {
        case optedOut, denied, pending, granted
    }

    private func apply(_ privacy: Privacy, to rig: GeoRig) {
        switch privacy {
        case .optedOut: rig.joryio.optOut()
        case .denied: rig.joryio.updateConsent(.denied)
        case .pending: rig.joryio.updateConsent(.pending)
        case .granted: rig.joryio.updateConsent(.granted)
        }
        rig.scheduler.runUntilIdle()
    }

    @Test("GEO-4: linking and reading geozones starts nothing: no location source, no zone fetch, no event")
    func neverImplicit() {
        let rig = GeoRig()
        rig.start()
        #expect(rig.source.starts == 0)
        #expect(!rig.feed(.position(berlin, rig.scheduler.now())))
        rig.inject(.position(berlin, rig.scheduler.now()))
        rig.flush()
        #expect(rig.transport.zoneFetches == 0)
        #expect(rig.transport.zoneEvents.isEmpty)
        #expect(rig.feature?.isRunning == false)
    }

    /// When the privacy decision is made relative to `startLocationTracking()`.
    enum Order: String, CaseIterable, Sendable {
        /// Both before `initialize()` (pre-init calls, replayed in order).
        case bothBeforeInitialize
        /// Decided, then started.
        case decideThenStart
        /// Started, then decided.
        case startThenDecide
    }

    @Test(
        "GEO-5 / GAP-93 consent matrix: only granted (and not opted out) reads location and records zone events",
        arguments: Privacy.allCases,
        Order.allCases
    )
    func consentMatrix(privacy: Privacy, order: Order) {
        let rig = GeoRig()
        switch order {
        case .bothBeforeInitialize:
            self.apply(privacy, to: rig)
            rig.geozones.startLocationTracking()
            rig.start()
        case .decideThenStart:
            rig.start()
            self.apply(privacy, to: rig)
            rig.geozones.startLocationTracking()
        case .startThenDecide:
            rig.start()
            rig.geozones.startLocationTracking()
            rig.scheduler.runUntilIdle()
            self.apply(privacy, to: rig)
        }
        rig.scheduler.runUntilIdle()
        rig.visitShop()
        if privacy == .granted {
            #expect(rig.source.isStarted && rig.source.starts == 1)
            #expect(rig.transport.zoneFetches == 1)
            #expect(rig.source.lastMonitored == ["shop"])
            #expect(rig.transport.zoneEvents == ["Geozone Entered:shop", "Geozone Exited:shop"])
        } else {
            // Hostile: a callback that arrives anyway is dropped unread.
            rig.inject(.entered(zoneId: "shop", rig.scheduler.now()))
            rig.inject(.position(berlin, rig.scheduler.now()))
            rig.flush()
            #expect(!rig.source.isStarted)
            if order != .startThenDecide {
                #expect(rig.source.starts == 0, "never started")
                #expect(rig.transport.zoneFetches == 0)
            }
            #expect(rig.transport.zoneEvents.isEmpty)
            #expect(rig.feature?.insideZoneIds.isEmpty == true)
            #expect(rig.feature?.monitoredZoneIds.isEmpty == true)
        }
    }

    @Test(
        "GEO-5: withdrawing stops the source and forgets the zones; granting again resumes",
        arguments: [Privacy.optedOut, .denied, .pending]
    )
    func withdrawAndResume(privacy: Privacy) {
        let rig = GeoRig()
        rig.start()
        rig.geozones.startLocationTracking()
        rig.scheduler.runUntilIdle()
        rig.feed(.position(berlin, rig.scheduler.now()))
        #expect(rig.feature?.insideZoneIds == ["shop"])
        self.apply(privacy, to: rig)
        #expect(!rig.source.isStarted && rig.source.stops == 1)
        #expect(rig.feature?.insideZoneIds.isEmpty == true)
        #expect(rig.feature?.monitoredZoneIds.isEmpty == true)
        if privacy == .optedOut { rig.joryio.optIn() } else { rig.joryio.updateConsent(.granted) }
        rig.scheduler.runUntilIdle()
        #expect(rig.source.isStarted && rig.source.starts == 2)
        rig.feed(.position(berlin, rig.scheduler.now()))
        rig.flush()
        // Entered once before the withdrawal, once after (the state was forgotten); no exit in between.
        #expect(rig.transport.zoneEvents.filter { $0.hasPrefix("Geozone Exited") }.isEmpty)
        #expect(rig.transport.zoneEvents.last == "Geozone Entered:shop")
    }

    @Test(
        "Attached after initialize(): the feature hears the privacy state at once and works",
        arguments: [true, false]
    )
    func attachedAfterStart(granted: Bool) {
        let scheduler = ManualScheduler()
        let transport = ZoneServingTransport(zones: [Geozone(id: "shop", name: "Shop", center: berlin, radius: 200)])
        let joryio = Joryio.testing(scheduler: scheduler, transport: transport)
        var config = JoryioConfig()
        config.trackSessionStart = false
        config.trackingConsent = granted ? .granted : .denied
        joryio.initialize(sdkKey: "jry_sdk_ios_test", apiHost: "https://api.example.com", config: config)
        scheduler.runUntilIdle()
        let source = ScriptedLocationSource()
        let geozones = joryio.geozones(source: { source }, settings: GeozonesFeature.Settings())
        #expect(
            joryio.geozones(source: { ScriptedLocationSource() }, settings: GeozonesFeature.Settings()) === geozones
        )
        geozones.startLocationTracking()
        scheduler.runUntilIdle()
        #expect(source.isStarted == granted)
        _ = source.deliver(.position(berlin, scheduler.now()))
        scheduler.runUntilIdle()
        joryio.flush()
        scheduler.runUntilIdle()
        #expect(transport.zoneEvents == (granted ? ["Geozone Entered:shop"] : []))
    }

    @Test(
        "GEO-3: startLocationTracking() starts; stopLocationTracking() stops the source and monitoring; start again starts anew"
    )
    func stopAndRestart() {
        let rig = GeoRig()
        rig.start()
        rig.geozones.startLocationTracking()
        rig.scheduler.runUntilIdle()
        #expect(rig.source.isStarted)
        rig.geozones.stopLocationTracking()
        rig.scheduler.runUntilIdle()
        #expect(!rig.source.isStarted && rig.feature?.isRunning == false)
        #expect(!rig.feed(.position(berlin, rig.scheduler.now())))
        rig.geozones.startLocationTracking()
        rig.scheduler.runUntilIdle()
        #expect(rig.source.starts == 2)
    }

    @Test(
        "WIPE / reset: zone state is forgotten without an exit event, and the zones are fetched again",
        arguments: [true, false]
    )
    func wipeAndReset(wipe: Bool) {
        let rig = GeoRig()
        rig.start()
        rig.geozones.startLocationTracking()
        rig.scheduler.runUntilIdle()
        rig.feed(.position(berlin, rig.scheduler.now()))
        #expect(rig.feature?.insideZoneIds == ["shop"])
        if wipe { rig.joryio.wipeData() } else { rig.joryio.reset() }
        rig.scheduler.runUntilIdle()
        #expect(rig.feature?.insideZoneIds.isEmpty == true)
        #expect(rig.source.lastMonitored == [], "nothing monitored until a fresh position")
        #expect(rig.source.positionRequests == 1)
        #expect(rig.transport.zoneFetches == 2)
        rig.scheduler.advance(by: 120)
        rig.flush()
        #expect(!rig.transport.zoneEvents.contains("Geozone Exited:shop"))
        rig.feed(.position(berlin, rig.scheduler.now()))
        rig.flush()
        #expect(rig.source.lastMonitored == ["shop"])
        #expect(rig.transport.zoneEvents.last == "Geozone Entered:shop", "entered anew, under the new identity")
    }

    @Test("Zone events carry zoneId and name only: no coordinates")
    func eventShape() throws {
        let rig = GeoRig()
        rig.start()
        rig.geozones.startLocationTracking()
        rig.scheduler.runUntilIdle()
        rig.feed(.entered(zoneId: "shop", rig.scheduler.now()))
        rig.feed(.entered(zoneId: "unknown", rig.scheduler.now()))
        rig.flush()
        #expect(rig.transport.zoneEvents == ["Geozone Entered:shop"], "an unknown zone id is ignored")
        let properties = try #require(rig.transport.zoneEventProperties.first)
        #expect(properties == ["zoneId": .string("shop"), "name": .string("Shop")])
        let fetch = try #require(rig.transport.requests.first { $0.url.path.hasSuffix("/v1/geozones") })
        #expect(fetch.method == "GET" && fetch.header("X-Joryio-Sdk-Key") == "jry_sdk_ios_test")
        #expect(fetch.url.query == nil, "the device's position never goes to the server")
    }
}
