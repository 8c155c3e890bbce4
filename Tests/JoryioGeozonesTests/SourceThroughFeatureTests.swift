import Foundation
import JoryioCore
import JoryioGeozones
import JoryioKit
import JoryioTesting
import Testing

/// A location source that decides like the CoreLocation adapter (through
/// ``GeozoneSourceStateMachine``) and records what it would ask CoreLocation; the test plays
/// CoreLocation with ``callback(_:)``.
final class MachineLocationSource: GeozoneLocationSource, Sendable {
    typealias Action = GeozoneSourceStateMachine.Action

    private struct State {
        var machine = GeozoneSourceStateMachine()
        var handler: (@Sendable (GeozoneLocationInput) -> Void)?
        var calls: [Action] = []
    }

    private let state = Locked(State())
    private let authorization: GeozoneAuthorization

    init(authorization: GeozoneAuthorization) {
        self.authorization = authorization
    }

    func start(_ handler: @escaping @Sendable (GeozoneLocationInput) -> Void) {
        self.state.withLock { $0.handler = handler }
        let authorization = self.authorization
        self.callback { $0.start(authorization: authorization, capabilities: .init(), monitoredRegions: []) }
    }

    func monitor(_ zones: [Geozone]) { self.callback { $0.monitor(zones) } }

    func requestPosition() { self.callback { $0.requestPosition() } }

    func stop() {
        self.callback { $0.stop() }
        self.state.withLock { $0.handler = nil }
    }

    /// What CoreLocation would be asked, in order (reports left out).
    var calls: [Action] { self.state.withLock { $0.calls } }

    /// Runs one machine input as the adapter does: records the calls, hands the reports on.
    func callback(_ body: (inout GeozoneSourceStateMachine) -> [Action]) {
        let (reports, handler) = self.state.withLock {
            state -> ([GeozoneLocationInput], (@Sendable (GeozoneLocationInput) -> Void)?) in
            let actions = body(&state.machine)
            var reports: [GeozoneLocationInput] = []
            for action in actions {
                if case .report(let input) = action { reports.append(input) } else { state.calls.append(action) }
            }
            return (reports, state.handler)
        }
        for report in reports { handler?(report) }
    }
}

@Suite("Issue 26: the source's decisions through the geozones feature")
struct SourceThroughFeatureTests {
    @Test(
        "Permission first, a position after the grant, a zone the device is already in seen when monitoring starts"
    )
    func permissionThenAlreadyInside() {
        let scheduler = ManualScheduler()
        let transport = ZoneServingTransport(zones: [Geozone(id: "shop", name: "Shop", center: berlin, radius: 200)])
        let joryio = Joryio.testing(scheduler: scheduler, transport: transport)
        let source = MachineLocationSource(authorization: .notDetermined)
        let geozones = joryio.geozones(source: { source }, settings: GeozonesFeature.Settings())
        let sink = InMemoryLogSink()
        var config = JoryioConfig()
        config.trackSessionStart = false
        config.logLevel = .debug
        config.logSink = sink
        joryio.initialize(sdkKey: "jry_sdk_ios_test", apiHost: "https://api.example.com", config: config)
        geozones.startLocationTracking()
        scheduler.runUntilIdle()

        // Not determined: permission is asked for, and nothing else (the old adapter also started
        // significant changes and asked for a position here).
        #expect(source.calls == [.requestAuthorization])
        #expect(sink.records.contains { $0.message.contains("no position or region until it is granted") })

        // The grant: a position is asked for again, significant changes start (always).
        source.callback { $0.authorizationChanged(.always) }
        scheduler.runUntilIdle()
        #expect(source.calls == [.requestAuthorization, .requestLocation, .startSignificantChanges])

        // CoreLocation answers with a position outside the zone: the feature monitors it.
        source.callback { $0.located(berlin.moved(north: 1_000), at: scheduler.now()) }
        scheduler.runUntilIdle()
        let shop = GeozoneSourceStateMachine.regions(
            for: [Geozone(id: "shop", name: "Shop", center: berlin, radius: 200)],
            capabilities: .init()
        )[0]
        #expect(source.calls.last == .startMonitoring(shop))

        // Monitoring starts: the state is asked for, and CoreLocation says the device is inside
        // (it walked in meanwhile). The old adapter had no didStartMonitoringFor.
        source.callback { $0.monitoringStarted(identifier: shop.identifier) }
        #expect(source.calls.last == .requestState(identifier: shop.identifier))
        source.callback { $0.determinedState(.inside, identifier: shop.identifier, at: scheduler.now()) }
        scheduler.runUntilIdle()
        joryio.flush()
        scheduler.runUntilIdle()
        #expect(transport.zoneEvents == ["Geozone Entered:shop"])

        // A region failure is logged by the feature (the old adapter dropped it unseen).
        source.callback { $0.monitoringFailed(identifier: shop.identifier, code: 5) }
        scheduler.runUntilIdle()
        #expect(sink.records(at: .warning).contains { $0.message.contains("zone shop: region monitoring failed") })
        #expect(source.calls.last == .stopMonitoring(identifier: shop.identifier))
    }
}
