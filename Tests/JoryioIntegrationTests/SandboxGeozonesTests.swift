import Foundation
import JoryioCore
import JoryioGeozones
import JoryioKit
import JoryioTestLanes
import JoryioTesting
import Testing

/// Geozones against the sandbox over libcurl (issue 19): the zones of this app are fetched from
/// `GET /v1/geozones`, the nearest monitored, and an entry arrives as a `Geozone Entered` event
/// (protocol.md "Geozones").
@Suite("Geozones against the sandbox", .tags(.sandbox))
struct SandboxGeozonesTests {
    /// The location source: records what is monitored, delivers what the test feeds.
    final class ScriptedSource: GeozoneLocationSource, Sendable {
        private let handler = Locked<(@Sendable (GeozoneLocationInput) -> Void)?>(nil)
        private let monitoredIds = Locked<[String]>([])

        func start(_ handler: @escaping @Sendable (GeozoneLocationInput) -> Void) {
            self.handler.withLock { $0 = handler }
        }
        func monitor(_ zones: [Geozone]) { self.monitoredIds.withLock { $0 = zones.map(\.id) } }
        func requestPosition() {}
        func stop() { self.handler.withLock { $0 = nil } }

        var monitored: [String] { self.monitoredIds.value }
        func deliver(_ input: GeozoneLocationInput) { self.handler.value?(input) }
    }

    @Test("GEO-4 / GEO-5: zones are fetched for this app and an entry is delivered as an event")
    func fetchAndEnter() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        let here = GeoPoint(latitude: 52.52, longitude: 13.405)
        try await rig.sandbox.setGeozones(
            [
                .init(id: "shop", name: "Shop", latitude: here.latitude, longitude: here.longitude, radius: 200),
                .init(id: "far", name: "Far", latitude: 48.8566, longitude: 2.3522, radius: 200),
            ],
            sdkKey: SandboxRig.sdkKey
        )
        let source = ScriptedSource()
        let sdk = rig.launch { joryio in
            joryio.geozones(source: { source }, settings: GeozonesFeature.Settings()).startLocationTracking()
        }
        let outside = GeoPoint(latitude: 52.53, longitude: 13.405)
        source.deliver(.position(outside, rig.time.now()))
        #expect(await rig.drive(sdk) { source.monitored == ["shop", "far"] })
        let fetches = try await rig.sandbox.requests(path: "/api/v1/geozones")
        #expect(fetches.count == 1)
        #expect(fetches.first?.header("X-Joryio-Sdk-Key") == SandboxRig.sdkKey)

        source.deliver(.position(here, rig.time.now()))
        sdk.joryio.flush()
        #expect(
            try await rig.drive(sdk) { !(try await rig.sandbox.geozoneEvents()).isEmpty }
        )
        let events = try await rig.sandbox.geozoneEvents()
        #expect(events.compactMap { $0["event"] as? String } == ["Geozone Entered"])
        let properties = try #require(events.first?["properties"] as? [String: Any])
        #expect(properties["zoneId"] as? String == "shop" && properties["name"] as? String == "Shop")
        #expect(properties.count == 2, "no coordinates")
    }
}
