import Foundation
import JoryioCore
import JoryioGeozones
import Testing

/// Issue 26: the CoreLocation source's decisions, as a value. Each bug test also runs
/// ``LegacySource``, the rules the adapter had before, and shows they give the wrong answer.
@Suite("Issue 26: the CoreLocation source's state machine")
struct SourceStateMachineTests {
    typealias Machine = GeozoneSourceStateMachine
    typealias Action = GeozoneSourceStateMachine.Action

    static let t0 = Date(timeIntervalSince1970: 1_767_225_600)
    static let shop = Geozone(id: "shop", name: "Shop", center: berlin, radius: 200)
    static let cafe = Geozone(id: "cafe", name: "Cafe", center: berlin.moved(north: 800), radius: 150)
    static let shopRegion = Machine.Region(
        identifier: "io.joryio.geozone.shop",
        latitude: berlin.latitude,
        longitude: berlin.longitude,
        radius: 200
    )
    static let cafeRegion = Machine.regions(for: [cafe], capabilities: .init())[0]
    static let statuses: [GeozoneAuthorization] = [.notDetermined, .denied, .restricted, .whenInUse, .always]

    /// A machine started at `status`, and the actions of the start.
    static func started(
        _ status: GeozoneAuthorization,
        capabilities: Machine.Capabilities = .init(),
        monitored: [Machine.Region] = []
    ) -> (Machine, [Action]) {
        var machine = Machine()
        let actions = machine.start(authorization: status, capabilities: capabilities, monitoredRegions: monitored)
        return (machine, actions)
    }

    /// The actions without the reports (what CoreLocation is asked to do).
    static func calls(_ actions: [Action]) -> [Action] {
        actions.filter {
            if case .report = $0 { false } else { true }
        }
    }

    /// The log lines among the actions, as `level: text`.
    static func logs(_ actions: [Action]) -> [String] {
        actions.compactMap {
            if case .report(.log(let level, let text)) = $0 { "\(level): \(text)" } else { nil }
        }
    }

    static func running(_ machine: Machine) -> Machine.Running? {
        if case .running(let running) = machine.state { running } else { nil }
    }

    // MARK: - Bug 1: a position before permission

    @Test("No position, no significant changes, no region before permission: start asks for it and waits")
    func noPositionBeforePermission() {
        let (_, actions) = Self.started(.notDetermined)
        #expect(Self.calls(actions) == [.requestAuthorization])
        #expect(actions.first == .report(.authorization(.notDetermined)))
        // The old adapter asked for permission, started significant changes and asked for a
        // position at once, before any answer.
        #expect(
            LegacySource.start(.notDetermined) == [.requestAuthorization, .startSignificantChanges, .requestLocation]
        )
        for status in [GeozoneAuthorization.denied, .restricted] {
            let (_, actions) = Self.started(status)
            #expect(Self.calls(actions).isEmpty, "\(status)")
            #expect(Self.logs(actions).contains { $0.contains("no position or region until it is granted") })
            #expect(LegacySource.start(status).contains(.requestLocation), "the old rule asked at \(status)")
        }
    }

    @Test("After a grant the source asks for a position again (and, at always, starts significant changes)")
    func askAgainAfterGrant() {
        for (grant, expected) in [
            (GeozoneAuthorization.whenInUse, [Action.requestLocation]),
            (.always, [.requestLocation, .startSignificantChanges]),
        ] {
            for before in [GeozoneAuthorization.notDetermined, .denied, .restricted] {
                var (machine, _) = Self.started(before)
                let actions = machine.authorizationChanged(grant)
                #expect(actions.first == .report(.authorization(grant)))
                #expect(Self.calls(actions) == expected, "\(before) → \(grant)")
                // The old adapter only reported the change: the position it asked for before the
                // grant was lost, and nothing asked again.
                #expect(LegacySource.authorizationChanged(grant) == [.report(.authorization(grant))])
            }
        }
    }

    @Test("The same status again (CoreLocation's first callback after start) changes nothing")
    func sameStatusIgnored() {
        for status in Self.statuses {
            var (machine, _) = Self.started(status)
            #expect(machine.authorizationChanged(status).isEmpty, "\(status)")
        }
    }

    @Test("A position asked for while not authorized is owed and asked for at the grant, once")
    func positionOwedUntilGrant() {
        var (machine, _) = Self.started(.denied)
        #expect(machine.requestPosition().isEmpty)
        #expect(Self.calls(machine.authorizationChanged(.whenInUse)) == [.requestLocation])
        #expect(machine.requestPosition() == [.requestLocation])
    }

    // MARK: - Bug 2: significant changes at any authorization

    @Test("Significant location changes run only at always: at start, at the upgrade; stopped at a downgrade")
    func significantChangesOnlyAtAlways() {
        for status in Self.statuses {
            let (machine, actions) = Self.started(status)
            let starts = actions.contains(.startSignificantChanges)
            #expect(starts == (status == .always), "\(status)")
            #expect(Self.running(machine)?.significantChanges == (status == .always))
            // The old rule started them at every status (whenever the device had them).
            #expect(LegacySource.start(status).contains(.startSignificantChanges))
        }
        var (machine, _) = Self.started(.whenInUse)
        #expect(Self.calls(machine.authorizationChanged(.always)) == [.startSignificantChanges])
        #expect(Self.calls(machine.authorizationChanged(.whenInUse)) == [.stopSignificantChanges])
        // A device without them: never started.
        let (_, bareStart) = Self.started(.always, capabilities: .init(significantChanges: false))
        #expect(Self.calls(bareStart) == [.requestLocation])
    }

    @Test("A denial stops significant changes and every region; a later grant starts them again")
    func denialStopsEverything() {
        var (machine, _) = Self.started(.always)
        _ = machine.monitor([Self.shop])
        let denied = machine.authorizationChanged(.denied)
        #expect(
            Self.calls(denied) == [.stopSignificantChanges, .stopMonitoring(identifier: Self.shopRegion.identifier)]
        )
        #expect(Self.running(machine)?.monitored.isEmpty == true)
        let granted = machine.authorizationChanged(.always)
        #expect(Self.calls(granted) == [.requestLocation, .startSignificantChanges, .startMonitoring(Self.shopRegion)])
    }

    @Test("Allow Once expiring (back to not determined) asks for permission again, once per run")
    func backToNotDetermined() {
        var (machine, _) = Self.started(.whenInUse)
        #expect(Self.calls(machine.authorizationChanged(.notDetermined)) == [.requestAuthorization])
        _ = machine.authorizationChanged(.whenInUse)
        #expect(Self.calls(machine.authorizationChanged(.notDetermined)) == [])
    }

    // MARK: - Bug 3: didFailWithError ignored

    @Test("kCLErrorLocationUnknown is transient: logged, nothing stops, the next update asks again")
    func locationUnknownIsTransient() {
        var (machine, _) = Self.started(.always)
        _ = machine.monitor([Self.shop])
        let failed = machine.failed(code: Machine.ErrorCode.locationUnknown)
        #expect(Self.calls(failed).isEmpty, "nothing stops")
        #expect(
            Self.logs(failed) == [
                "debug: position unknown for now (kCLErrorLocationUnknown); asked again at the next update"
            ]
        )
        #expect(Self.running(machine)?.significantChanges == true)
        // The next update from CoreLocation (here the region's state) asks for the position again.
        let update = machine.determinedState(.outside, identifier: Self.shopRegion.identifier, at: Self.t0)
        #expect(update == [.report(.exited(zoneId: "shop", Self.t0)), .requestLocation])
        // A position settles it: the next update asks nothing.
        #expect(machine.located(berlin, at: Self.t0) == [.report(.position(berlin, Self.t0))])
        #expect(Self.calls(machine.determinedState(.inside, identifier: Self.shopRegion.identifier, at: Self.t0)) == [])
        // The old adapter's didFailWithError was empty: no log, no retry.
        #expect(LegacySource.failed(code: Machine.ErrorCode.locationUnknown).isEmpty)
    }

    @Test("kCLErrorDenied stops every service as a denial does, until the permission changes")
    func deniedErrorStops() {
        var (machine, _) = Self.started(.always)
        _ = machine.monitor([Self.shop, Self.cafe])
        let failed = machine.failed(code: Machine.ErrorCode.denied)
        #expect(Self.logs(failed).first?.hasPrefix("warning: location denied (kCLErrorDenied)") == true)
        #expect(failed.contains(.report(.authorization(.denied))))
        #expect(
            Self.calls(failed) == [
                .stopSignificantChanges, .stopMonitoring(identifier: Self.cafeRegion.identifier),
                .stopMonitoring(identifier: Self.shopRegion.identifier),
            ]
        )
        #expect(machine.requestPosition().isEmpty, "no position while denied")
        #expect(LegacySource.failed(code: Machine.ErrorCode.denied).isEmpty, "the old adapter kept everything running")
        // CoreLocation's status callback then changes nothing; a grant restarts.
        #expect(machine.authorizationChanged(.denied).isEmpty)
        #expect(Self.calls(machine.authorizationChanged(.always)).first == .requestLocation)
    }

    @Test("Other failures are logged; nothing stops; a non-CoreLocation error says so")
    func otherFailuresLogged() {
        var (machine, _) = Self.started(.whenInUse)
        #expect(
            Self.logs(machine.failed(code: 2)) == [
                "info: location update failed (CLError 2); waiting for the next update"
            ]
        )
        #expect(Self.logs(machine.failed(code: nil)).first?.contains("not a CoreLocation error") == true)
        #expect(Self.calls(machine.failed(code: 2)).isEmpty)
    }

    // MARK: - Bug 4: monitoringDidFailFor and didStartMonitoringFor missing

    @Test("didStartMonitoringFor asks for the region's state, so a zone the device is already in is seen")
    func startedRegionAsksForState() {
        var (machine, _) = Self.started(.always)
        #expect(machine.monitor([Self.shop]) == [.startMonitoring(Self.shopRegion)])
        let started = machine.monitoringStarted(identifier: Self.shopRegion.identifier)
        #expect(started == [.requestState(identifier: Self.shopRegion.identifier)])
        #expect(
            machine.determinedState(.inside, identifier: Self.shopRegion.identifier, at: Self.t0)
                == [.report(.entered(zoneId: "shop", Self.t0))]
        )
        // The old adapter had no didStartMonitoringFor: nothing asked once monitoring had started
        // (its requestState right after startMonitoring came before monitoring was set up).
        #expect(LegacySource.monitoringStarted(identifier: Self.shopRegion.identifier).isEmpty)
        // Not ours, or not monitored (any more): nothing.
        #expect(machine.monitoringStarted(identifier: "app.region").isEmpty)
        #expect(machine.monitoringStarted(identifier: Self.cafeRegion.identifier).isEmpty)
    }

    @Test("monitoringDidFailFor logs and drops the region; it is tried again only when the zones are monitored again")
    func monitoringFailureDropsRegion() {
        var (machine, _) = Self.started(.always)
        _ = machine.monitor([Self.shop, Self.cafe])
        let failed = machine.monitoringFailed(identifier: Self.shopRegion.identifier, code: 5)
        #expect(Self.calls(failed) == [.stopMonitoring(identifier: Self.shopRegion.identifier)])
        #expect(Self.logs(failed).first?.hasPrefix("warning: zone shop: region monitoring failed (CLError 5)") == true)
        #expect(Self.running(machine)?.monitored.keys.sorted() == [Self.cafeRegion.identifier])
        // The old adapter had no monitoringDidFailFor: the failure went unseen.
        #expect(LegacySource.monitoringFailed(identifier: Self.shopRegion.identifier, code: 5).isEmpty)
        // No retry loop: a failed region's late callbacks ask nothing.
        #expect(machine.monitoringStarted(identifier: Self.shopRegion.identifier).isEmpty)
        // The next monitor call (a new selection) tries it again; the kept one is left alone.
        #expect(machine.monitor([Self.shop, Self.cafe]) == [.startMonitoring(Self.shopRegion)])
        // A delayed response keeps the region; a failure without a region, or on the app's, is
        // only logged or ignored.
        let delayed = machine.monitoringFailed(identifier: Self.cafeRegion.identifier, code: 7)
        #expect(Self.calls(delayed).isEmpty && Self.logs(delayed).first?.contains("kept") == true)
        #expect(Self.calls(machine.monitoringFailed(identifier: nil, code: 5)).isEmpty)
        #expect(machine.monitoringFailed(identifier: "app.region", code: 5).isEmpty)
    }

    // MARK: - Regions

    @Test("Regions are monitored only while authorized: wanted before the grant, started at it")
    func regionsOnlyWhileAuthorized() {
        var (machine, _) = Self.started(.notDetermined)
        #expect(machine.monitor([Self.shop]).isEmpty)
        // The old adapter started (and asked the state of) regions whatever the permission.
        #expect(LegacySource.monitor([Self.shop]).contains(.startMonitoring(Self.shopRegion)))
        #expect(
            Self.calls(machine.authorizationChanged(.whenInUse)) == [
                .requestLocation, .startMonitoring(Self.shopRegion),
            ]
        )
        #expect(machine.monitor([]) == [.stopMonitoring(identifier: Self.shopRegion.identifier)])
    }

    @Test("Regions an earlier launch left: kept ones have their state asked once, others stopped, the app's untouched")
    func regionsFromAnEarlierLaunch() {
        let app = Machine.Region(identifier: "com.example.store", latitude: 1, longitude: 2, radius: 100)
        var moved = Self.cafeRegion
        moved.radius = 300
        let gone = Machine.Region(identifier: "io.joryio.geozone.gone", latitude: 1, longitude: 2, radius: 100)
        var (machine, _) = Self.started(.always, monitored: [app, Self.shopRegion, moved, gone])
        let actions = machine.monitor([Self.shop, Self.cafe])
        #expect(
            actions == [
                .stopMonitoring(identifier: Self.cafeRegion.identifier),
                .stopMonitoring(identifier: gone.identifier),
                .requestState(identifier: Self.shopRegion.identifier),
                .startMonitoring(Self.cafeRegion),
            ]
        )
        #expect(machine.monitor([Self.shop, Self.cafe]).isEmpty, "the state is asked once per run")
        // Stop stops ours only.
        #expect(
            machine.stop() == [
                .stopSignificantChanges, .stopMonitoring(identifier: Self.cafeRegion.identifier),
                .stopMonitoring(identifier: Self.shopRegion.identifier),
            ]
        )
    }

    @Test("At most 20 regions, ids unique, radii capped at the device's maximum; no monitoring device logs once")
    func regionLimits() {
        let zones = (0..<25).map { Geozone(id: "z\($0)", name: "", center: berlin, radius: 5_000) }
        let regions = Machine.regions(for: zones + zones, capabilities: .init(maximumRegionRadius: 1_000))
        #expect(regions.count == 20)
        #expect(Set(regions.map(\.identifier)).count == 20)
        #expect(regions.allSatisfy { $0.radius == 1_000 })
        #expect(Machine.regions(for: zones, capabilities: .init(maximumRegionRadius: .nan)).first?.radius == 5_000)
        var (machine, _) = Self.started(.always, capabilities: .init(regionMonitoring: false))
        #expect(Self.logs(machine.monitor([Self.shop])).count == 1)
        #expect(machine.monitor([Self.shop]).isEmpty)
    }

    @Test("Region identifiers: ours carry the prefix; the app's, and the bare prefix, are not zones")
    func identifiers() {
        #expect(Machine.regionIdentifier(zoneId: "shop") == "io.joryio.geozone.shop")
        #expect(Machine.zoneId(regionIdentifier: "io.joryio.geozone.shop") == "shop")
        #expect(Machine.zoneId(regionIdentifier: "io.joryio.geozone.") == nil)
        #expect(Machine.zoneId(regionIdentifier: "com.example.shop") == nil)
        var (machine, _) = Self.started(.always)
        #expect(machine.determinedState(.inside, identifier: "com.example.shop", at: Self.t0).isEmpty)
        #expect(machine.determinedState(.unknown, identifier: Self.shopRegion.identifier, at: Self.t0).isEmpty)
    }

    @Test("CoreLocation's raw values: statuses (an unknown one counts as denied) and region states")
    func rawValues() {
        let statuses: [(Int32, GeozoneAuthorization)] = [
            (0, .notDetermined), (1, .restricted), (2, .denied), (3, .always), (4, .whenInUse), (99, .denied),
        ]
        for (raw, status) in statuses {
            #expect(GeozoneAuthorization(coreLocationStatus: raw) == status)
        }
        #expect(Machine.RegionState(coreLocationValue: 0) == .unknown)
        #expect(Machine.RegionState(coreLocationValue: 1) == .inside)
        #expect(Machine.RegionState(coreLocationValue: 2) == .outside)
        #expect(Machine.RegionState(coreLocationValue: 7) == .unknown)
    }

    @Test("A stopped machine ignores every callback; start twice does nothing the second time")
    func stoppedIgnoresEverything() {
        var machine = Machine()
        #expect(machine.stop().isEmpty)
        #expect(machine.located(berlin, at: Self.t0).isEmpty)
        #expect(machine.authorizationChanged(.always).isEmpty)
        #expect(machine.monitor([Self.shop]).isEmpty)
        _ = machine.start(authorization: .always, capabilities: .init(), monitoredRegions: [])
        #expect(machine.start(authorization: .always, capabilities: .init(), monitoredRegions: []).isEmpty)
        _ = machine.stop()
        #expect(machine.determinedState(.inside, identifier: Self.shopRegion.identifier, at: Self.t0).isEmpty)
        #expect(machine.failed(code: 1).isEmpty)
    }

    // MARK: - Exhaustive

    /// Every input the machine takes.
    enum Input: Sendable, CustomStringConvertible {
        case authorization(GeozoneAuthorization)
        case position, unknownError, deniedError, networkError, requestPosition
        case monitor, monitorNone, started, failedRegion, inside

        static let all: [Input] =
            SourceStateMachineTests.statuses.map(Input.authorization) + [
                .position, .unknownError, .deniedError, .networkError, .requestPosition, .monitor, .monitorNone,
                .started, .failedRegion, .inside,
            ]

        var description: String {
            switch self {
            case .authorization(let status): "auth:\(status.rawValue)"
            case .position: "position"
            case .unknownError: "unknownError"
            case .deniedError: "deniedError"
            case .networkError: "networkError"
            case .requestPosition: "requestPosition"
            case .monitor: "monitor"
            case .monitorNone: "monitorNone"
            case .started: "started"
            case .failedRegion: "failedRegion"
            case .inside: "inside"
            }
        }

        func apply(to machine: inout Machine) -> [Action] {
            let shop = SourceStateMachineTests.shopRegion.identifier
            switch self {
            case .authorization(let status): return machine.authorizationChanged(status)
            case .position: return machine.located(berlin, at: SourceStateMachineTests.t0)
            case .unknownError: return machine.failed(code: Machine.ErrorCode.locationUnknown)
            case .deniedError: return machine.failed(code: Machine.ErrorCode.denied)
            case .networkError: return machine.failed(code: 2)
            case .requestPosition: return machine.requestPosition()
            case .monitor: return machine.monitor([SourceStateMachineTests.shop, SourceStateMachineTests.cafe])
            case .monitorNone: return machine.monitor([])
            case .started: return machine.monitoringStarted(identifier: shop)
            case .failedRegion: return machine.monitoringFailed(identifier: shop, code: 5)
            case .inside: return machine.determinedState(.inside, identifier: shop, at: SourceStateMachineTests.t0)
            }
        }
    }

    /// What must hold after every step, given the permission before and after it.
    static func violations(_ actions: [Action], before: GeozoneAuthorization, after machine: Machine) -> [String] {
        guard let running = Self.running(machine) else { return ["stopped while running"] }
        var found: [String] = []
        let authorized = running.authorization.isAuthorized
        if actions.contains(.requestLocation), !authorized { found.append("position asked while not authorized") }
        if actions.contains(.startSignificantChanges), running.authorization != .always {
            found.append("significant changes started at \(running.authorization)")
        }
        if running.significantChanges, running.authorization != .always { found.append("significant changes kept") }
        if actions.contains(where: { if case .startMonitoring = $0 { true } else { false } }), !authorized {
            found.append("region started while not authorized")
        }
        if !running.monitored.isEmpty, !authorized { found.append("regions kept while not authorized") }
        if actions.filter({ $0 == .requestLocation }).count > 1 { found.append("two position requests at once") }
        if running.authorization != before, running.authorization.isAuthorized, !before.isAuthorized,
            !actions.contains(.requestLocation)
        {
            found.append("no position asked after the grant")
        }
        return found
    }

    @Test("Exhaustive: every sequence of 3 inputs from every status keeps the rules", arguments: Self.statuses)
    func exhaustive(start: GeozoneAuthorization) {
        let inputs = Input.all
        var checked = 0
        var problems: [String] = []
        for a in inputs {
            for b in inputs {
                for c in inputs where problems.isEmpty {
                    var (machine, actions) = Self.started(start)
                    var trail = ["start:\(start.rawValue)"]
                    problems = Self.violations(actions, before: start, after: machine)
                    for input in [a, b, c] where problems.isEmpty {
                        trail.append("\(input)")
                        let before = Self.running(machine)?.authorization ?? start
                        actions = input.apply(to: &machine)
                        problems = Self.violations(actions, before: before, after: machine)
                    }
                    // Stop undoes exactly what runs.
                    if problems.isEmpty, let running = Self.running(machine) {
                        let stopped = machine.stop()
                        let expected =
                            (running.significantChanges ? [Action.stopSignificantChanges] : [])
                            + running.monitored.keys.sorted().map { Action.stopMonitoring(identifier: $0) }
                        if stopped != expected { problems = ["stop gave \(stopped), not \(expected)"] }
                    }
                    if !problems.isEmpty { problems = ["\(trail.joined(separator: " → ")): \(problems)"] }
                    checked += 1
                }
            }
        }
        #expect(problems.isEmpty, "\(problems)")
        #expect(checked == inputs.count * inputs.count * inputs.count)
    }

    @Test("The old rules break them at once: a position and significant changes before permission")
    func legacyBreaksTheRules() {
        var (machine, _) = Self.started(.notDetermined)
        let old = LegacySource.start(.notDetermined)
        #expect(
            Self.violations(old, before: .notDetermined, after: machine) == [
                "position asked while not authorized", "significant changes started at notDetermined",
            ]
        )
        _ = machine.authorizationChanged(.always)
        #expect(
            Self.violations(LegacySource.authorizationChanged(.always), before: .notDetermined, after: machine)
                == ["no position asked after the grant"]
        )
    }
}

/// The CoreLocation adapter's rules before issue 26, in the machine's vocabulary, for the tests to
/// show where they were wrong.
enum LegacySource {
    typealias Action = GeozoneSourceStateMachine.Action

    /// `start`: asked at not determined, then started significant changes and asked for a position
    /// whatever the answer would be.
    static func start(_ status: GeozoneAuthorization) -> [Action] {
        (status == .notDetermined ? [.requestAuthorization] : []) + [.startSignificantChanges, .requestLocation]
    }

    /// `locationManagerDidChangeAuthorization`: reported the status, nothing else.
    static func authorizationChanged(_ status: GeozoneAuthorization) -> [Action] {
        [.report(.authorization(status == .restricted ? .denied : status))]
    }

    /// `didFailWithError` was empty.
    static func failed(code: Int?) -> [Action] { [] }

    /// `monitor`: started every wanted region and asked its state at once, at any permission.
    static func monitor(_ zones: [Geozone]) -> [Action] {
        GeozoneSourceStateMachine.regions(for: zones, capabilities: .init()).flatMap {
            [Action.startMonitoring($0), .requestState(identifier: $0.identifier)]
        }
    }

    /// `didStartMonitoringFor` was not implemented.
    static func monitoringStarted(identifier: String) -> [Action] { [] }

    /// `monitoringDidFailFor` was not implemented.
    static func monitoringFailed(identifier: String?, code: Int?) -> [Action] { [] }
}
