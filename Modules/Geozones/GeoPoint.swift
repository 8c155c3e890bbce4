internal import Foundation

/// A position on the Earth in degrees (WGS 84), as the location source reports it. Pure value: the
/// zone logic never touches CoreLocation.
package struct GeoPoint: Sendable, Equatable, Hashable {
    /// Degrees north, −90 … 90.
    package var latitude: Double
    /// Degrees east, −180 … 180.
    package var longitude: Double

    /// A point; see ``isValid`` before using it.
    package init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Finite, latitude within ±90 and longitude within ±180 (both ends included). Anything else
    /// (NaN, infinities, a latitude of 91) is hostile input: ignored, never used to select zones.
    package var isValid: Bool {
        self.latitude.isFinite && self.longitude.isFinite && abs(self.latitude) <= 90 && abs(self.longitude) <= 180
    }
}

/// Distances on the sphere.
package enum GreatCircle {
    /// The mean Earth radius in metres (IUGG).
    package static let earthRadius = 6_371_008.8

    /// The great-circle (haversine) distance between `a` and `b` in metres, or `.infinity` when
    /// either point is invalid. Correct across the antimeridian and at the poles.
    package static func distance(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        guard a.isValid, b.isValid else { return .infinity }
        let lat1 = a.latitude * .pi / 180
        let lat2 = b.latitude * .pi / 180
        let dLat = lat2 - lat1
        let dLon = (b.longitude - a.longitude) * .pi / 180
        let sinLat = sin(dLat / 2)
        let sinLon = sin(dLon / 2)
        let h = min(1, max(0, sinLat * sinLat + cos(lat1) * cos(lat2) * sinLon * sinLon))
        return 2 * Self.earthRadius * asin(sqrt(h))
    }
}
