#if canImport(CoreLocation) && !os(watchOS) && !os(tvOS) && !os(visionOS)
internal import CoreLocation
internal import Foundation

/// The thin CoreLocation adapter: it hands every call and every delegate callback to
/// ``GeozoneSourceStateMachine`` (permission, positions, significant location changes, regions,
/// failures; tested on Linux) and performs the actions it returns. CoreLocation wants its manager
/// made and used on a thread with a run loop, so every call hops to the main queue.
// Confined: the CLLocationManager handle, the machine and the handler are touched on the main queue
// only (every method hops there; CoreLocation calls the delegate on the thread that made the
// manager, the main one).
final class CoreLocationGeozoneSource: NSObject, GeozoneLocationSource, CLLocationManagerDelegate, @unchecked Sendable {
    // Touched on the main queue only.
    private var manager: CLLocationManager?
    private var handler: (@Sendable (GeozoneLocationInput) -> Void)?
    private var machine = GeozoneSourceStateMachine()

    func start(_ handler: @escaping @Sendable (GeozoneLocationInput) -> Void) {
        DispatchQueue.main.async {
            let manager = self.manager ?? CLLocationManager()
            self.manager = manager
            self.handler = handler
            manager.delegate = self
            let capabilities = GeozoneSourceStateMachine.Capabilities(
                significantChanges: CLLocationManager.significantLocationChangeMonitoringAvailable(),
                regionMonitoring: CLLocationManager.isMonitoringAvailable(for: CLCircularRegion.self),
                maximumRegionRadius: manager.maximumRegionMonitoringDistance
            )
            self.perform(
                self.machine.start(
                    authorization: GeozoneAuthorization(coreLocationStatus: manager.authorizationStatus.rawValue),
                    capabilities: capabilities,
                    monitoredRegions: manager.monitoredRegions.map(Self.region)
                )
            )
        }
    }

    func monitor(_ zones: [Geozone]) {
        DispatchQueue.main.async { self.perform(self.machine.monitor(zones)) }
    }

    func requestPosition() {
        DispatchQueue.main.async { self.perform(self.machine.requestPosition()) }
    }

    func stop() {
        DispatchQueue.main.async {
            self.perform(self.machine.stop())
            self.handler = nil
        }
    }

    // MARK: - CLLocationManagerDelegate (main queue)

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        let status = GeozoneAuthorization(coreLocationStatus: manager.authorizationStatus.rawValue)
        self.perform(self.machine.authorizationChanged(status))
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        guard let location = locations.last else { return }
        let point = GeoPoint(latitude: location.coordinate.latitude, longitude: location.coordinate.longitude)
        self.perform(self.machine.located(point, at: location.timestamp))
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        self.perform(self.machine.failed(code: Self.code(error)))
    }

    func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion) {
        let state = GeozoneSourceStateMachine.RegionState(coreLocationValue: state.rawValue)
        self.perform(self.machine.determinedState(state, identifier: region.identifier, at: Date()))
    }

    func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion) {
        self.perform(self.machine.monitoringStarted(identifier: region.identifier))
    }

    func locationManager(
        _ manager: CLLocationManager,
        monitoringDidFailFor region: CLRegion?,
        withError error: any Error
    ) {
        self.perform(self.machine.monitoringFailed(identifier: region?.identifier, code: Self.code(error)))
    }

    // MARK: - Performing

    private func perform(_ actions: [GeozoneSourceStateMachine.Action]) {
        for action in actions {
            switch action {
            case .report(let input):
                self.handler?(input)
            case .requestAuthorization:
                self.manager?.requestAlwaysAuthorization()
            case .requestLocation:
                self.manager?.requestLocation()
            case .startSignificantChanges:
                self.manager?.startMonitoringSignificantLocationChanges()
            case .stopSignificantChanges:
                self.manager?.stopMonitoringSignificantLocationChanges()
            case .startMonitoring(let region):
                let circle = CLCircularRegion(
                    center: CLLocationCoordinate2D(latitude: region.latitude, longitude: region.longitude),
                    radius: region.radius,
                    identifier: region.identifier
                )
                circle.notifyOnEntry = true
                circle.notifyOnExit = true
                self.manager?.startMonitoring(for: circle)
            case .stopMonitoring(let identifier):
                guard let manager = self.manager else { continue }
                for region in manager.monitoredRegions where region.identifier == identifier {
                    manager.stopMonitoring(for: region)
                }
            case .requestState(let identifier):
                guard let manager = self.manager else { continue }
                for region in manager.monitoredRegions where region.identifier == identifier {
                    manager.requestState(for: region)
                }
            }
        }
    }

    /// A monitored region as the machine compares it; one that is not a circle gets a NaN
    /// geometry, so it never equals a wanted region and is replaced.
    private static func region(_ region: CLRegion) -> GeozoneSourceStateMachine.Region {
        guard let circle = region as? CLCircularRegion else {
            return .init(identifier: region.identifier, latitude: .nan, longitude: .nan, radius: .nan)
        }
        return .init(
            identifier: region.identifier,
            latitude: circle.center.latitude,
            longitude: circle.center.longitude,
            radius: circle.radius
        )
    }

    /// The `CLError` code of `error`, `nil` for another error.
    private static func code(_ error: any Error) -> Int? {
        let error = error as NSError
        return error.domain == kCLErrorDomain ? error.code : nil
    }
}
#endif
