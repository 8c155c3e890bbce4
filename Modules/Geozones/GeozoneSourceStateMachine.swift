package import Foundation
internal import JoryioCore

/// Every decision of the CoreLocation source (issue 26), as a value: the adapter feeds it what
/// CoreLocation says and performs the ``Action``s it returns, nothing else. Decisions:
/// docs/decisions.md, "Issue 26: geozones and StoreKit adapters".
///
/// - Positions are asked for only while authorized (when in use or always): at start, after every
///   grant (a status that was not authorized becoming one), and when the feature asks. Asked for
///   while not authorized, the position is owed and asked for at the grant.
/// - Significant location changes run only at `.always`: started at start or at the upgrade,
///   stopped at a downgrade to when-in-use, a denial or ``stop()``. At when-in-use the source asks
///   for one position per start or grant and monitors the zones (CoreLocation delivers their
///   events while the app is in use); it never asks for an upgrade by itself.
/// - Regions (ours carry ``regionPrefix``; the app's are never touched) are monitored only while
///   authorized: stopped at a denial, started again at the grant. A region that starts is asked
///   for its state, so a zone the device is already in is seen; so is a region an earlier launch
///   left monitored, once per start.
/// - Failures: `kCLErrorLocationUnknown` is transient (the position is owed and asked for again at
///   the next region event or grant; a position settles it); `kCLErrorDenied` stops everything as a
///   denial does, until the permission changes or tracking starts again; other codes are logged.
///   A region whose monitoring fails is logged and dropped, and tried again only when the zones
///   are monitored again or permission is granted (never in a loop); a delayed response keeps it.
package struct GeozoneSourceStateMachine: Sendable, Equatable {
    /// The identifier prefix of the regions this source makes.
    package static let regionPrefix = "io.joryio.geozone."
    /// CoreLocation monitors at most 20 regions per app.
    package static let maxRegions = 20

    /// `CLError.Code` raw values the machine tells apart (`CLError.h`).
    package enum ErrorCode {
        /// `kCLErrorLocationUnknown`: no position right now, CoreLocation keeps trying.
        package static let locationUnknown = 0
        /// `kCLErrorDenied`: the user denied location.
        package static let denied = 1
        /// `kCLErrorRegionMonitoringResponseDelayed`: events will come, late.
        package static let regionResponseDelayed = 7
    }

    /// A circular region as CoreLocation monitors it.
    package struct Region: Sendable, Equatable, Hashable {
        /// ``GeozoneSourceStateMachine/regionPrefix`` followed by the zone id for ours.
        package var identifier: String
        /// The centre's latitude in degrees.
        package var latitude: Double
        /// The centre's longitude in degrees.
        package var longitude: Double
        /// The radius in metres.
        package var radius: Double

        /// A region.
        package init(identifier: String, latitude: Double, longitude: Double, radius: Double) {
            self.identifier = identifier
            self.latitude = latitude
            self.longitude = longitude
            self.radius = radius
        }
    }

    /// What the device offers, read once at start.
    package struct Capabilities: Sendable, Equatable {
        /// `significantLocationChangeMonitoringAvailable()`.
        package var significantChanges: Bool
        /// `isMonitoringAvailable(for: CLCircularRegion.self)`.
        package var regionMonitoring: Bool
        /// `maximumRegionMonitoringDistance` in metres; not positive or not finite: no limit known.
        package var maximumRegionRadius: Double

        /// Capabilities; everything available by default.
        package init(significantChanges: Bool = true, regionMonitoring: Bool = true, maximumRegionRadius: Double = -1) {
            self.significantChanges = significantChanges
            self.regionMonitoring = regionMonitoring
            self.maximumRegionRadius = maximumRegionRadius
        }
    }

    /// A region's state as CoreLocation determines it (`CLRegionState`).
    package enum RegionState: Sendable, Equatable {
        /// Not known.
        case unknown
        /// The device is inside.
        case inside
        /// The device is outside.
        case outside

        /// From `CLRegionState.rawValue`: 1 inside, 2 outside, anything else unknown.
        package init(coreLocationValue: Int) {
            switch coreLocationValue {
            case 1: self = .inside
            case 2: self = .outside
            default: self = .unknown
            }
        }
    }

    /// What the adapter does, in order.
    package enum Action: Sendable, Equatable {
        /// `requestAlwaysAuthorization()`.
        case requestAuthorization
        /// `requestLocation()`.
        case requestLocation
        /// `startMonitoringSignificantLocationChanges()`.
        case startSignificantChanges
        /// `stopMonitoringSignificantLocationChanges()`.
        case stopSignificantChanges
        /// `startMonitoring(for:)` a circular region, notified on entry and exit.
        case startMonitoring(Region)
        /// `stopMonitoring(for:)` the monitored region with this identifier.
        case stopMonitoring(identifier: String)
        /// `requestState(for:)` the monitored region with this identifier.
        case requestState(identifier: String)
        /// Hands this to the feature's handler.
        case report(GeozoneLocationInput)
    }

    /// Where the machine is.
    package enum State: Sendable, Equatable {
        /// Not started, or stopped: every CoreLocation callback is ignored.
        case stopped
        /// Between ``start(authorization:capabilities:monitoredRegions:)`` and ``stop()``.
        case running(Running)
    }

    /// What a running source knows.
    package struct Running: Sendable, Equatable {
        /// The device's capabilities.
        package var capabilities: Capabilities
        /// The permission as last reported (or implied by `kCLErrorDenied`).
        package var authorization: GeozoneAuthorization
        /// Whether this run asked for permission already (CoreLocation ignores further asks).
        package var authorizationRequested = false
        /// Whether significant location changes were started.
        package var significantChanges = false
        /// A position was asked for (or failed transiently) and none arrived yet.
        package var positionOwed = false
        /// The regions the feature wants, in its order (at most ``maxRegions``).
        package var wanted: [Region] = []
        /// Our regions CoreLocation monitors (or is starting), by identifier.
        package var monitored: [String: Region] = [:]
        /// Regions whose state was asked for in this run (or will be, when their monitoring starts).
        package var stateRequested: Set<String> = []
        /// Whether "no region monitoring on this device" was logged.
        package var loggedNoMonitoring = false
    }

    /// The state.
    package private(set) var state: State = .stopped

    /// A stopped machine.
    package init() {}

    // MARK: - Identifiers

    /// The region identifier of zone `id`.
    package static func regionIdentifier(zoneId id: String) -> String { Self.regionPrefix + id }

    /// The zone id of region `identifier`, `nil` for a region that is not ours.
    package static func zoneId(regionIdentifier identifier: String) -> String? {
        guard identifier.hasPrefix(Self.regionPrefix), identifier.count > Self.regionPrefix.count else { return nil }
        return String(identifier.dropFirst(Self.regionPrefix.count))
    }

    /// The regions for `zones`: the first ``maxRegions`` distinct ids, radii capped at the device's
    /// maximum.
    package static func regions(for zones: [Geozone], capabilities: Capabilities) -> [Region] {
        var seen = Set<String>()
        var regions: [Region] = []
        let cap = capabilities.maximumRegionRadius
        for zone in zones where regions.count < Self.maxRegions && seen.insert(zone.id).inserted {
            let radius = cap.isFinite && cap > 0 ? min(zone.radius, cap) : zone.radius
            regions.append(
                Region(
                    identifier: Self.regionIdentifier(zoneId: zone.id),
                    latitude: zone.center.latitude,
                    longitude: zone.center.longitude,
                    radius: radius
                )
            )
        }
        return regions
    }

    // MARK: - The feature's calls

    /// Starts with the permission CoreLocation reports now and the regions it already monitors
    /// (ours among them are kept if still wanted, the rest of ours replaced).
    package mutating func start(
        authorization: GeozoneAuthorization,
        capabilities: Capabilities,
        monitoredRegions: [Region]
    ) -> [Action] {
        guard case .stopped = self.state else { return [] }
        var running = Running(capabilities: capabilities, authorization: authorization)
        for region in monitoredRegions where Self.zoneId(regionIdentifier: region.identifier) != nil {
            running.monitored[region.identifier] = region
        }
        var actions: [Action] = [.report(.authorization(authorization))]
        if authorization.isAuthorized {
            actions += Self.requestPosition(&running)
            actions += Self.significantChanges(&running)
        } else {
            running.positionOwed = true
            actions += Self.askIfUndetermined(&running)
            actions += Self.stopRegions(&running)
            actions.append(.report(.log(.info, Self.waiting(authorization))))
        }
        self.state = .running(running)
        return actions
    }

    /// Stops everything this source started; later callbacks are ignored.
    package mutating func stop() -> [Action] {
        guard case .running(var running) = self.state else { return [] }
        var actions: [Action] = []
        if running.significantChanges { actions.append(.stopSignificantChanges) }
        actions += Self.stopRegions(&running)
        self.state = .stopped
        return actions
    }

    /// Monitors exactly the regions of `zones` (while authorized; otherwise from the grant on).
    package mutating func monitor(_ zones: [Geozone]) -> [Action] {
        self.whileRunning { running in
            running.wanted = Self.regions(for: zones, capabilities: running.capabilities)
            guard running.capabilities.regionMonitoring else {
                guard !running.wanted.isEmpty, !running.loggedNoMonitoring else { return [] }
                running.loggedNoMonitoring = true
                return [
                    .report(
                        .log(.warning, "region monitoring is not available on this device; zones follow positions only")
                    )
                ]
            }
            guard running.authorization.isAuthorized else { return [] }
            return Self.reconcileRegions(&running)
        }
    }

    /// One fresh position: asked for now when authorized, else at the grant.
    package mutating func requestPosition() -> [Action] {
        self.whileRunning { running in
            guard running.authorization.isAuthorized else {
                running.positionOwed = true
                return []
            }
            return Self.requestPosition(&running)
        }
    }

    // MARK: - CoreLocation's callbacks

    /// `locationManagerDidChangeAuthorization`: the same status again changes nothing.
    package mutating func authorizationChanged(_ status: GeozoneAuthorization) -> [Action] {
        self.whileRunning { running in
            let old = running.authorization
            guard status != old else { return [] }
            running.authorization = status
            return [.report(.authorization(status))] + Self.apply(&running, from: old)
        }
    }

    /// `didUpdateLocations` (its last location).
    package mutating func located(_ point: GeoPoint, at time: Date) -> [Action] {
        self.whileRunning { running in
            running.positionOwed = false
            return [.report(.position(point, time))]
        }
    }

    /// `didFailWithError`, with the `CLError` code (`nil` for another error).
    package mutating func failed(code: Int?) -> [Action] {
        self.whileRunning { running in
            switch code {
            case ErrorCode.locationUnknown?:
                running.positionOwed = true
                return [
                    .report(
                        .log(
                            .debug,
                            "position unknown for now (kCLErrorLocationUnknown); asked again at the next update"
                        )
                    )
                ]
            case ErrorCode.denied?:
                let log: Action = .report(
                    .log(
                        .warning,
                        "location denied (kCLErrorDenied): location services stopped until permission changes"
                    )
                )
                guard running.authorization.isAuthorized else { return [log] }
                let old = running.authorization
                running.authorization = .denied
                return [log, .report(.authorization(.denied))] + Self.apply(&running, from: old)
            default:
                running.positionOwed = true
                let what = code.map { "CLError \($0)" } ?? "not a CoreLocation error"
                return [.report(.log(.info, "location update failed (\(what)); waiting for the next update"))]
            }
        }
    }

    /// `didDetermineState` for region `identifier` (a request's answer or a crossing).
    package mutating func determinedState(_ state: RegionState, identifier: String, at time: Date) -> [Action] {
        self.whileRunning { running in
            guard let zoneId = Self.zoneId(regionIdentifier: identifier) else { return [] }
            var actions: [Action] = []
            switch state {
            case .inside: actions.append(.report(.entered(zoneId: zoneId, time)))
            case .outside: actions.append(.report(.exited(zoneId: zoneId, time)))
            case .unknown: break
            }
            return actions + Self.retryOwedPosition(&running)
        }
    }

    /// `didStartMonitoringFor`: asks for the region's state, so a zone the device is in is seen.
    package mutating func monitoringStarted(identifier: String) -> [Action] {
        self.whileRunning { running in
            guard Self.zoneId(regionIdentifier: identifier) != nil, running.monitored[identifier] != nil else {
                return []
            }
            running.stateRequested.insert(identifier)
            return [.requestState(identifier: identifier)] + Self.retryOwedPosition(&running)
        }
    }

    /// `monitoringDidFailFor` region `identifier` (`nil`: CoreLocation named none) with a `CLError` code.
    package mutating func monitoringFailed(identifier: String?, code: Int?) -> [Action] {
        self.whileRunning { running in
            let what = code.map { "CLError \($0)" } ?? "not a CoreLocation error"
            guard let identifier else {
                return [.report(.log(.warning, "region monitoring failed (\(what))"))]
            }
            guard let zoneId = Self.zoneId(regionIdentifier: identifier) else { return [] }
            if code == ErrorCode.regionResponseDelayed {
                return [.report(.log(.info, "zone \(zoneId): region events will arrive late (\(what)); kept"))]
            }
            running.monitored[identifier] = nil
            running.stateRequested.remove(identifier)
            return [
                .report(
                    .log(
                        .warning,
                        "zone \(zoneId): region monitoring failed (\(what)); dropped until the zones are "
                            + "monitored again or permission is granted"
                    )
                ),
                .stopMonitoring(identifier: identifier),
            ]
        }
    }

    // MARK: - Rules

    private mutating func whileRunning(_ body: (inout Running) -> [Action]) -> [Action] {
        guard case .running(var running) = self.state else { return [] }
        let actions = body(&running)
        self.state = .running(running)
        return actions
    }

    /// The services for `running.authorization`, coming from `old`.
    private static func apply(_ running: inout Running, from old: GeozoneAuthorization) -> [Action] {
        let now = running.authorization
        var actions: [Action] = []
        switch (old.isAuthorized, now.isAuthorized) {
        case (false, true):
            // A grant: ask again, and start what waited for it.
            actions += Self.requestPosition(&running)
            actions += Self.significantChanges(&running)
            if running.capabilities.regionMonitoring { actions += Self.reconcileRegions(&running) }
        case (true, true):
            actions += Self.significantChanges(&running)
        case (true, false):
            running.positionOwed = true
            actions += Self.significantChanges(&running)
            actions += Self.stopRegions(&running)
            actions += Self.askIfUndetermined(&running)
            actions.append(.report(.log(.info, Self.waiting(now))))
        case (false, false):
            actions += Self.askIfUndetermined(&running)
        }
        return actions
    }

    /// Starts significant changes at `.always` (when the device has them), stops them otherwise.
    private static func significantChanges(_ running: inout Running) -> [Action] {
        let wanted = running.authorization == .always && running.capabilities.significantChanges
        guard wanted != running.significantChanges else { return [] }
        running.significantChanges = wanted
        return [wanted ? .startSignificantChanges : .stopSignificantChanges]
    }

    private static func requestPosition(_ running: inout Running) -> [Action] {
        running.positionOwed = false
        return [.requestLocation]
    }

    private static func retryOwedPosition(_ running: inout Running) -> [Action] {
        guard running.positionOwed, running.authorization.isAuthorized else { return [] }
        return Self.requestPosition(&running)
    }

    private static func askIfUndetermined(_ running: inout Running) -> [Action] {
        guard running.authorization == .notDetermined, !running.authorizationRequested else { return [] }
        running.authorizationRequested = true
        return [.requestAuthorization]
    }

    private static func waiting(_ status: GeozoneAuthorization) -> String {
        "location permission \(status.rawValue): no position or region until it is granted"
    }

    /// Stops regions no longer wanted (or whose geometry changed), starts the missing ones, and
    /// asks once per run for the state of the ones kept.
    private static func reconcileRegions(_ running: inout Running) -> [Action] {
        var wanted: [String: Region] = [:]
        for region in running.wanted { wanted[region.identifier] = region }
        var actions: [Action] = []
        for (identifier, region) in running.monitored.sorted(by: { $0.key < $1.key }) where wanted[identifier] != region
        {
            running.monitored[identifier] = nil
            running.stateRequested.remove(identifier)
            actions.append(.stopMonitoring(identifier: identifier))
        }
        for region in running.wanted {
            if running.monitored[region.identifier] == nil {
                // Its state is asked for when CoreLocation says monitoring started.
                running.monitored[region.identifier] = region
                running.stateRequested.insert(region.identifier)
                actions.append(.startMonitoring(region))
            } else if running.stateRequested.insert(region.identifier).inserted {
                actions.append(.requestState(identifier: region.identifier))
            }
        }
        return actions
    }

    private static func stopRegions(_ running: inout Running) -> [Action] {
        let identifiers = running.monitored.keys.sorted()
        running.monitored = [:]
        running.stateRequested = []
        return identifiers.map { .stopMonitoring(identifier: $0) }
    }
}

extension GeozoneAuthorization {
    /// When in use or always: positions and regions may be used.
    package var isAuthorized: Bool { self == .whenInUse || self == .always }

    /// From `CLAuthorizationStatus.rawValue` (`CLLocationManager.h`): 0 not determined,
    /// 1 restricted, 2 denied, 3 always, 4 when in use; an unknown value counts as denied.
    package init(coreLocationStatus value: Int32) {
        switch value {
        case 0: self = .notDetermined
        case 1: self = .restricted
        case 3: self = .always
        case 4: self = .whenInUse
        default: self = .denied
        }
    }
}
