package import Foundation
internal import JoryioCore

/// One zone the server sends (protocol.md "Geozones"): a circle with an id and a name.
package struct Geozone: Sendable, Equatable, Hashable {
    /// The server's id, unique within the app; sent back as `zoneId`.
    package var id: String
    /// The display name, sent back as `name`.
    package var name: String
    /// The centre.
    package var center: GeoPoint
    /// The radius in metres, within ``radiusRange``.
    package var radius: Double

    /// Radii the SDK monitors: below 100 m iOS region monitoring is not reliable, so smaller radii
    /// are raised to 100 m; above 50 km a zone is refused (GAP-92).
    package static let radiusRange: ClosedRange<Double> = 100...50_000

    /// A zone as given (tests); ``GeozoneList/parse(_:)`` checks what the server sends.
    package init(id: String, name: String, center: GeoPoint, radius: Double) {
        self.id = id
        self.name = name
        self.center = center
        self.radius = radius
    }

    /// How far `point` is from the zone's edge, in metres: 0 inside.
    package func edgeDistance(from point: GeoPoint) -> Double {
        max(0, GreatCircle.distance(self.center, point) - self.radius)
    }
}

/// The body of `GET /v1/geozones`, checked (protocol.md "Geozones").
package struct GeozoneList: Sendable, Equatable {
    /// At most this many zones are kept, in the server's order; the rest are ignored (GAP-92).
    package static let maxZones = 1000
    /// Bounds of `refreshAfter` in seconds, and its default (GAP-92).
    package static let refreshAfterRange: ClosedRange<Double> = 3600...604_800
    /// `refreshAfter` when the server sends none.
    package static let defaultRefreshAfter: TimeInterval = 86_400

    /// The valid zones, in the server's order, ids unique (the first wins).
    package var zones: [Geozone]
    /// Seconds until the list should be fetched again.
    package var refreshAfter: TimeInterval
    /// Zones left out, with why (for one log line).
    package var skipped: Int

    /// A list.
    package init(zones: [Geozone], refreshAfter: TimeInterval = Self.defaultRefreshAfter, skipped: Int = 0) {
        self.zones = zones
        self.refreshAfter = refreshAfter
        self.skipped = skipped
    }

    /// Parses a response body: `nil` when it is not a JSON object with a `zones` array. Zones with
    /// a missing or empty `id`, a non-string `name`, an invalid centre (NaN, out of range) or a
    /// radius that is not a finite number ≤ 50 km are skipped one by one; radii under 100 m become
    /// 100 m.
    package static func parse(_ body: Data) -> GeozoneList? {
        guard let object = JSONValue.parse(body)?.objectValue, let items = object["zones"]?.arrayValue else {
            return nil
        }
        var zones: [Geozone] = []
        var seen = Set<String>()
        var skipped = 0
        for item in items {
            guard zones.count < Self.maxZones, let zone = Self.zone(item), seen.insert(zone.id).inserted else {
                skipped += 1
                continue
            }
            zones.append(zone)
        }
        var refreshAfter = Self.defaultRefreshAfter
        if let value = object["refreshAfter"]?.doubleValue, value.isFinite {
            refreshAfter = min(max(value, Self.refreshAfterRange.lowerBound), Self.refreshAfterRange.upperBound)
        }
        return GeozoneList(zones: zones, refreshAfter: refreshAfter, skipped: skipped)
    }

    private static func zone(_ value: JSONValue) -> Geozone? {
        guard let fields = value.objectValue,
            let id = fields["id"]?.stringValue, !id.isEmpty, id.utf8.count <= 128,
            let latitude = fields["latitude"]?.doubleValue,
            let longitude = fields["longitude"]?.doubleValue,
            let radius = fields["radius"]?.doubleValue, radius.isFinite, radius > 0,
            radius <= Geozone.radiusRange.upperBound
        else { return nil }
        let name: String
        switch fields["name"] {
        case nil, .null?: name = ""
        case .string(let text)?: name = text
        default: return nil
        }
        let center = GeoPoint(latitude: latitude, longitude: longitude)
        guard center.isValid else { return nil }
        return Geozone(id: id, name: name, center: center, radius: max(radius, Geozone.radiusRange.lowerBound))
    }
}
