#if canImport(CoreLocation) && !os(watchOS) && !os(tvOS) && !os(visionOS)
internal import CoreLocation
internal import Foundation

/// The thin CoreLocation adapter: permission, significant location changes and region monitoring.
/// Every decision (which zones, when to choose again, debouncing) is in the pure types; this only
/// forwards. CoreLocation wants its manager made and used on a thread with a run loop, so every
/// call hops to the main queue.
// Confined: the CLLocationManager handle and the handler are touched on the main queue only (every
// method hops there; CoreLocation calls the delegate on the thread that made the manager, the main one).
final class CoreLocationGeozoneSource: NSObject, GeozoneLocationSource, CLLocationManagerDelegate, @unchecked Sendable {
    /// Regions this source made carry this prefix, so the app's own regions are never touched.
    private static let prefix = "io.joryio.geozone."

    // Touched on the main queue only.
    private var manager: CLLocationManager?
    private var handler: (@Sendable (GeozoneLocationInput) -> Void)?

    func start(_ handler: @escaping @Sendable (GeozoneLocationInput) -> Void) {
        DispatchQueue.main.async {
            let manager = self.manager ?? CLLocationManager()
            self.manager = manager
            self.handler = handler
            manager.delegate = self
            if manager.authorizationStatus == .notDetermined {
                manager.requestAlwaysAuthorization()
            }
            if CLLocationManager.significantLocationChangeMonitoringAvailable() {
                manager.startMonitoringSignificantLocationChanges()
            }
            manager.requestLocation()
        }
    }

    func monitor(_ zones: [Geozone]) {
        DispatchQueue.main.async {
            guard let manager = self.manager,
                CLLocationManager.isMonitoringAvailable(for: CLCircularRegion.self)
            else { return }
            let wanted = Dictionary(zones.prefix(20).map { (Self.prefix + $0.id, $0) }, uniquingKeysWith: { a, _ in a })
            for region in manager.monitoredRegions where region.identifier.hasPrefix(Self.prefix) {
                if wanted[region.identifier] == nil { manager.stopMonitoring(for: region) }
            }
            let monitored = Set(manager.monitoredRegions.map(\.identifier))
            for (identifier, zone) in wanted where !monitored.contains(identifier) {
                let region = CLCircularRegion(
                    center: CLLocationCoordinate2D(latitude: zone.center.latitude, longitude: zone.center.longitude),
                    radius: min(zone.radius, manager.maximumRegionMonitoringDistance),
                    identifier: identifier
                )
                region.notifyOnEntry = true
                region.notifyOnExit = true
                manager.startMonitoring(for: region)
                manager.requestState(for: region)
            }
        }
    }

    func requestPosition() {
        DispatchQueue.main.async { self.manager?.requestLocation() }
    }

    func stop() {
        DispatchQueue.main.async {
            guard let manager = self.manager else { return }
            manager.stopMonitoringSignificantLocationChanges()
            for region in manager.monitoredRegions where region.identifier.hasPrefix(Self.prefix) {
                manager.stopMonitoring(for: region)
            }
            self.handler = nil
        }
    }

    // MARK: - CLLocationManagerDelegate (main queue)

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        let status: GeozoneAuthorization
        switch manager.authorizationStatus {
        case .notDetermined: status = .notDetermined
        case .authorizedAlways: status = .always
        case .authorizedWhenInUse: status = .whenInUse
        default: status = .denied
        }
        self.handler?(.authorization(status))
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        guard let location = locations.last else { return }
        let point = GeoPoint(latitude: location.coordinate.latitude, longitude: location.coordinate.longitude)
        self.handler?(.position(point, location.timestamp))
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {}

    func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion) {
        guard let id = Self.zoneId(region) else { return }
        switch state {
        case .inside: self.handler?(.entered(zoneId: id, Date()))
        case .outside: self.handler?(.exited(zoneId: id, Date()))
        default: break
        }
    }

    private static func zoneId(_ region: CLRegion) -> String? {
        guard region.identifier.hasPrefix(Self.prefix) else { return nil }
        return String(region.identifier.dropFirst(Self.prefix.count))
    }
}
#endif
