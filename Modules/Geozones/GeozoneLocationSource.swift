package import Foundation
package import JoryioCore

/// What the location source tells the geozones feature. Delivered on any thread.
package enum GeozoneLocationInput: Sendable, Equatable {
    /// A position fix (significant location change, or a region's state on start).
    case position(GeoPoint, Date)
    /// The OS reports the device entered the monitored zone with this id.
    case entered(zoneId: String, Date)
    /// The OS reports the device left the monitored zone with this id.
    case exited(zoneId: String, Date)
    /// Location permission changed (logged; the OS stops delivering without it).
    case authorization(GeozoneAuthorization)
    /// A line for the SDK's log: a failure the source handled, a region dropped (issue 26).
    case log(LogLevel, String)
}

/// Location permission as the source reports it.
package enum GeozoneAuthorization: String, Sendable, Equatable {
    /// Not asked yet.
    case notDetermined
    /// Refused (or a status this SDK does not know): nothing is delivered.
    case denied
    /// Restricted (parental controls, device management): nothing is delivered.
    case restricted
    /// While the app is in use only: zones work in the foreground.
    case whenInUse
    /// Always: zones work in the background too.
    case always
}

/// The seam to the OS's location services: a thin adapter (``CoreLocationGeozoneSource`` on Apple
/// platforms), a no-op elsewhere, a scripted double in tests. The feature calls it on the engine's executor,
/// and only while the app started tracking and collection is allowed (GEO-4, GEO-5).
package protocol GeozoneLocationSource: AnyObject, Sendable {
    /// Starts location delivery (asks for permission when not determined; positions, regions and,
    /// at `.always`, significant location changes only once authorized) and reports to `handler`
    /// until ``stop()``.
    func start(_ handler: @escaping @Sendable (GeozoneLocationInput) -> Void)
    /// Monitors exactly `zones` (at most 20), replacing what was monitored.
    func monitor(_ zones: [Geozone])
    /// Asks for one fresh position (after zone state was forgotten: wipe, reset).
    func requestPosition()
    /// Stops every delivery and every region this source monitors.
    func stop()
}

/// The source where no location services exist (Linux): reports nothing.
package final class NoLocationSource: GeozoneLocationSource {
    /// A source that reports nothing.
    package init() {}
    /// Nothing to start.
    package func start(_ handler: @escaping @Sendable (GeozoneLocationInput) -> Void) {}
    /// Nothing to monitor.
    package func monitor(_ zones: [Geozone]) {}
    /// No position to ask for.
    package func requestPosition() {}
    /// Nothing to stop.
    package func stop() {}
}
