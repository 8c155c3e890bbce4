import Foundation
import JoryioGeozones
import Testing

/// Zones on a line north of `origin`: zone `i` has its centre `i × spacing` metres north, radius `radius`.
func zonesNorth(
    of origin: GeoPoint,
    count: Int,
    spacing: Double,
    radius: Double = 100,
    prefix: String = "z"
)
    -> [Geozone]
{
    (0..<count).map { index in
        Geozone(
            id: "\(prefix)\(String(format: "%03d", index))",
            name: "Zone \(index)",
            center: origin.moved(north: Double(index) * spacing),
            radius: radius
        )
    }
}

extension GeoPoint {
    /// The point `metres` north (negative: south) along the meridian.
    func moved(north metres: Double) -> GeoPoint {
        GeoPoint(latitude: self.latitude + metres / GreatCircle.earthRadius * 180 / .pi, longitude: self.longitude)
    }

    /// The point `metres` east along the parallel (small distances).
    func moved(east metres: Double) -> GeoPoint {
        let degrees = metres / (GreatCircle.earthRadius * cos(self.latitude * .pi / 180)) * 180 / .pi
        var longitude = self.longitude + degrees
        if longitude > 180 { longitude -= 360 }
        if longitude < -180 { longitude += 360 }
        return GeoPoint(latitude: self.latitude, longitude: longitude)
    }
}

let berlin = GeoPoint(latitude: 52.5200, longitude: 13.4050)

@Suite("GAP-90: zone selection and refresh")
struct ZoneSelectionTests {
    @Test(
        "Great-circle distance: known pairs, the antimeridian, the poles, NaN",
        arguments: [
            // Berlin – Paris ≈ 877.5 km
            (
                GeoPoint(latitude: 52.52, longitude: 13.405), GeoPoint(latitude: 48.8566, longitude: 2.3522), 877_500.0,
                1_500.0
            ),
            // Across the antimeridian: 0.2° of longitude on the equator ≈ 22.24 km, not 40 000 km
            (GeoPoint(latitude: 0, longitude: 179.9), GeoPoint(latitude: 0, longitude: -179.9), 22_239.0, 10.0),
            // Pole to pole: half the circumference
            (
                GeoPoint(latitude: 90, longitude: 0), GeoPoint(latitude: -90, longitude: 0),
                .pi * GreatCircle.earthRadius, 1.0
            ),
            // At the pole every longitude is the same point
            (GeoPoint(latitude: 90, longitude: -120), GeoPoint(latitude: 90, longitude: 45), 0.0, 0.001),
            // Antipodes
            (
                GeoPoint(latitude: 10, longitude: 20), GeoPoint(latitude: -10, longitude: -160),
                .pi * GreatCircle.earthRadius, 1.0
            ),
        ]
    )
    func distances(a: GeoPoint, b: GeoPoint, expected: Double, tolerance: Double) {
        let distance = GreatCircle.distance(a, b)
        #expect(abs(distance - expected) <= tolerance, "\(distance)")
        #expect(GreatCircle.distance(b, a) == distance)
    }

    @Test(
        "Hostile coordinates are invalid and never selected around",
        arguments: [
            GeoPoint(latitude: .nan, longitude: 0), GeoPoint(latitude: 0, longitude: .nan),
            GeoPoint(latitude: .infinity, longitude: 0), GeoPoint(latitude: 90.0001, longitude: 0),
            GeoPoint(latitude: 0, longitude: -180.5), GeoPoint(latitude: -.greatestFiniteMagnitude, longitude: 0),
        ]
    )
    func hostilePositions(point: GeoPoint) {
        #expect(!point.isValid)
        #expect(GreatCircle.distance(point, berlin) == .infinity)
        #expect(GeozoneSelection.select(zonesNorth(of: berlin, count: 3, spacing: 1000), around: point) == nil)
        let selection = GeozoneSelection.select(zonesNorth(of: berlin, count: 3, spacing: 1000), around: berlin)
        #expect(selection?.needsRefresh(at: point) == false)
    }

    @Test("Dense city: 200 zones 50 m apart keep the 15 nearest; refresh at the 500 m floor")
    func denseCity() throws {
        let zones = zonesNorth(of: berlin, count: 200, spacing: 50, radius: 100)
        let selection = try #require(GeozoneSelection.select(zones.shuffled(), around: berlin))
        #expect(selection.zones.count == 15)
        // z000 … z002 contain the device (edge distance 0): ties go by id; then by distance.
        #expect(selection.zones.map(\.id) == (0..<15).map { String(format: "z%03d", $0) })
        #expect(selection.refreshDistance == GeozoneSelection.minimumRefreshDistance)
        #expect(!selection.needsRefresh(at: berlin.moved(north: 499)))
        #expect(selection.needsRefresh(at: berlin.moved(north: 501)))
    }

    @Test("Sparse: 5 zones far apart are all monitored; refresh at the 50 km ceiling")
    func sparse() throws {
        let zones = zonesNorth(of: berlin, count: 5, spacing: 40_000, radius: 500)
        let selection = try #require(GeozoneSelection.select(zones, around: berlin))
        #expect(selection.zones.count == 5)
        #expect(selection.refreshDistance == GeozoneSelection.maximumRefreshDistance)
        #expect(GeozoneSelection.select([], around: berlin)?.zones == [])
    }

    @Test("Refresh distance is half the way to the nearest zone left out")
    func refreshHalfway() throws {
        // 16 zones 2 km apart: the 16th (left out) has its edge 30 km − 100 m away.
        let zones = zonesNorth(of: berlin, count: 16, spacing: 2_000)
        let selection = try #require(GeozoneSelection.select(zones, around: berlin))
        #expect(selection.zones.map(\.id).last == "z014")
        #expect(abs(selection.refreshDistance - (30_000 - 100) / 2) < 1)
    }

    @Test(
        "> 20 zones: the limit is clamped to 1 … 20",
        arguments: [(0, 1), (1, 1), (15, 15), (20, 20), (21, 20), (500, 20), (-3, 1)]
    )
    func limits(limit: Int, expected: Int) throws {
        let zones = zonesNorth(of: berlin, count: 50, spacing: 300)
        let selection = try #require(GeozoneSelection.select(zones, around: berlin, limit: limit))
        #expect(selection.zones.count == expected)
    }

    @Test("Boundary: a device exactly on a zone's edge is at distance 0; equal distances order by id")
    func boundary() throws {
        let edge = Geozone(id: "b", name: "B", center: berlin.moved(north: 200), radius: 200)
        let twin = Geozone(id: "a", name: "A", center: berlin.moved(north: -200), radius: 200)
        let far = Geozone(id: "c", name: "C", center: berlin.moved(north: 1_000), radius: 200)
        #expect(edge.edgeDistance(from: berlin) < 0.001)
        let selection = try #require(GeozoneSelection.select([far, edge, twin], around: berlin, limit: 2))
        #expect(selection.zones.map(\.id) == ["a", "b"])
    }

    @Test("Moving across a field of zones: each refresh keeps the nearest, and no zone is entered unmonitored")
    func movingAcross() throws {
        let zones = zonesNorth(of: berlin, count: 100, spacing: 1_000, radius: 150)
        var position = berlin.moved(north: -5_000)
        var selection = try #require(GeozoneSelection.select(zones, around: position))
        var refreshes = 0
        // Walk 110 km north in 100 m steps, choosing again whenever the rule says so.
        for _ in 0..<1_100 {
            position = position.moved(north: 100)
            if selection.needsRefresh(at: position) {
                selection = try #require(GeozoneSelection.select(zones, around: position))
                refreshes += 1
            }
            for zone in zones where GreatCircle.distance(zone.center, position) <= zone.radius {
                #expect(selection.zones.contains(zone), "entered \(zone.id) while it was not monitored")
            }
        }
        #expect(refreshes > 5 && refreshes < 1_100)
    }

    @Test("Zones across the antimeridian and at a pole are as near as they are")
    func antimeridianAndPole() throws {
        let here = GeoPoint(latitude: -16.5, longitude: 179.99)
        let west = Geozone(id: "w", name: "W", center: GeoPoint(latitude: -16.5, longitude: -179.99), radius: 100)
        let farEast = Geozone(id: "e", name: "E", center: GeoPoint(latitude: -16.5, longitude: 179.0), radius: 100)
        let selection = try #require(GeozoneSelection.select([farEast, west], around: here, limit: 1))
        #expect(selection.zones.map(\.id) == ["w"])

        let pole = GeoPoint(latitude: 90, longitude: 0)
        let polar = Geozone(id: "p", name: "P", center: GeoPoint(latitude: 89.999, longitude: 170), radius: 200)
        #expect(try #require(GeozoneSelection.select([polar], around: pole)).zones == [polar])
        #expect(polar.edgeDistance(from: pole) == 0)
    }
}
