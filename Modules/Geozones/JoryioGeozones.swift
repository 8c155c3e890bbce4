internal import JoryioCore
internal import JoryioFeature
public import JoryioKit

/// Geozones: zone-entry events for apps that want zone-triggered pushes, in their own product.
///
/// The `Joryio` product never reads the device's location (PRIVACY-4). This product does, and only
/// after the app calls ``startLocationTracking()`` (GEO-4): linking it or reading
/// `Joryio.shared.geozones` starts nothing. It monitors the zones the server sends for the app,
/// at most 15 at a time (the nearest), and records `Geozone Entered` and `Geozone Exited` events
/// with the zone's `zoneId` and `name`. No coordinates are sent.
///
/// Location is used only while collection is allowed: with the person opted out, or consent
/// denied or still pending, the location services are stopped and nothing is read (GEO-5);
/// `wipeData()` and `reset()` forget which zones the device was in.
///
/// The app's `Info.plist` needs `NSLocationWhenInUseUsageDescription` and
/// `NSLocationAlwaysAndWhenInUseUsageDescription` (GEO-2); the product ships its own privacy
/// manifest declaring precise location.
///
/// ```swift
/// import Joryio
/// import JoryioGeozones
///
/// Joryio.shared.geozones.startLocationTracking()
/// ```
public final class JoryioGeozones: Sendable {
    /// The instance it belongs to, through the facade seam.
    private let facade: FacadeContext

    init(facade: FacadeContext) {
        self.facade = facade
    }

    /// Starts location tracking: asks for location permission if the app has not yet, fetches the
    /// app's zones and monitors the nearest. Safe from any thread, before `initialize()` too (it
    /// waits for it). Collection must be allowed for anything to be read.
    public func startLocationTracking() {
        self.facade.submit(to: GeozonesFeature.self) { $0.setTracking(true) }
    }

    /// Stops location tracking: no more location updates, no region monitored, zone state forgotten.
    public func stopLocationTracking() {
        self.facade.submit(to: GeozonesFeature.self) { $0.setTracking(false) }
    }
}

extension Joryio {
    private static let geozonesSlot = InstanceSlot<JoryioGeozones>("geozones")
    private static let attachedSlot = InstanceSlot<Bool>("geozones.attached")

    /// This instance's geozones (issue 19): made and attached on first use, started only by
    /// ``JoryioGeozones/startLocationTracking()``.
    public var geozones: JoryioGeozones {
        self.geozones(source: { GeozonesLive.makeSource() }, settings: GeozonesFeature.Settings())
    }

    /// This instance's geozones with an explicit location source and settings (tests). The first
    /// call on an instance decides; later calls return the same object.
    package func geozones(
        source: @escaping @Sendable () -> any GeozoneLocationSource,
        settings: GeozonesFeature.Settings
    ) -> JoryioGeozones {
        let (geozones, made) = self.facade.update(Self.geozonesSlot) { slot -> (JoryioGeozones, Bool) in
            if let existing = slot { return (existing, false) }
            let made = JoryioGeozones(facade: self.facade)
            slot = made
            return (made, true)
        }
        if made {
            self.facade.attachFeature(once: Self.attachedSlot) { setup, context in
                GeozonesFeature(setup: setup, context: context, source: source(), settings: settings)
            }
        }
        return geozones
    }
}

/// The live location source of this platform.
enum GeozonesLive {
    static func makeSource() -> any GeozoneLocationSource {
        #if canImport(CoreLocation) && !os(watchOS) && !os(tvOS) && !os(visionOS)
        CoreLocationGeozoneSource()
        #else
        NoLocationSource()
        #endif
    }
}
