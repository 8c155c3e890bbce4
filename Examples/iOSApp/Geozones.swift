#if canImport(UIKit)
import Joryio
import JoryioGeozones

/// Geozones, started and stopped explicitly, as the README ("Geozones") and the DocC article
/// `JoryioGeozones` say: nothing starts by itself. The app's `Info.plist` carries
/// `NSLocationWhenInUseUsageDescription` and `NSLocationAlwaysAndWhenInUseUsageDescription`.
enum Geozones {
    /// Starts zone tracking (asks for location permission if needed), for example after the app
    /// explained why.
    static func start() {
        Joryio.shared.geozones.startLocationTracking()
    }

    /// Stops it: no location read, no region monitored.
    static func stop() {
        Joryio.shared.geozones.stopLocationTracking()
    }
}
#endif
