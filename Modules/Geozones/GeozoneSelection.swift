/// Which zones to hand to the OS, and when to choose again (GAP-90).
///
/// iOS monitors at most 20 regions per app, so the SDK monitors the ``limit`` zones whose edges are
/// nearest the device, and chooses again once the device has moved ``refreshDistance`` from where
/// it chose. That distance is half the way to the edge of the nearest zone left out: no zone left
/// out can be reached before the device has passed it, so none is entered unseen (within the floor
/// of 500 m, the granularity of significant-change updates). Pure logic over positions; tested on
/// Linux with position sequences.
package struct GeozoneSelection: Sendable, Equatable {
    /// Zones monitored at most: iOS's per-app limit.
    package static let regionLimit = 20
    /// The default number of zones monitored: leaves the app 5 regions of its own (GAP-90).
    package static let defaultLimit = 15
    /// The refresh distance never goes below this (significant-change updates come every ~500 m).
    package static let minimumRefreshDistance = 500.0
    /// ... nor above this (also the distance when every zone is monitored).
    package static let maximumRefreshDistance = 50_000.0

    /// Where the device was when the zones were chosen.
    package var anchor: GeoPoint
    /// The zones to monitor, nearest edge first (ties by id).
    package var zones: [Geozone]
    /// Choose again once the device is this many metres from ``anchor``.
    package var refreshDistance: Double

    /// The nearest `limit` zones (clamped to 1 … 20) around `position`, or `nil` when `position`
    /// is not a valid point (NaN, out of range).
    package static func select(
        _ zones: [Geozone],
        around position: GeoPoint,
        limit: Int = defaultLimit
    )
        -> GeozoneSelection?
    {
        guard position.isValid else { return nil }
        let count = min(max(limit, 1), Self.regionLimit)
        let ranked =
            zones
            .map { (zone: $0, distance: $0.edgeDistance(from: position)) }
            .filter { $0.distance.isFinite }
            .sorted { $0.distance != $1.distance ? $0.distance < $1.distance : $0.zone.id < $1.zone.id }
        let chosen = ranked.prefix(count)
        let refresh: Double
        if ranked.count > count {
            refresh = min(
                max(ranked[count].distance / 2, Self.minimumRefreshDistance),
                Self.maximumRefreshDistance
            )
        } else {
            refresh = Self.maximumRefreshDistance
        }
        return GeozoneSelection(anchor: position, zones: chosen.map(\.zone), refreshDistance: refresh)
    }

    /// Whether the device at `position` has moved far enough to choose again. An invalid position
    /// never asks for a refresh.
    package func needsRefresh(at position: GeoPoint) -> Bool {
        guard position.isValid else { return false }
        return GreatCircle.distance(self.anchor, position) >= self.refreshDistance
    }
}
