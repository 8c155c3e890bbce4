#if os(Linux) || os(macOS)
internal import Foundation

// MARK: - Geozones (issue 19): `/_sandbox/geozones` and `/_sandbox/geozone-events`

extension SandboxServer {
    /// One zone as `GET /v1/geozones` serves it (protocol.md "Geozones").
    public struct Zone: Sendable, Equatable {
        /// The zone's id (`zoneId` in zone events).
        public var id: String
        /// Its name.
        public var name: String
        /// Centre latitude in degrees.
        public var latitude: Double
        /// Centre longitude in degrees.
        public var longitude: Double
        /// Radius in metres (above 0, at most 50 km).
        public var radius: Double

        /// A zone.
        public init(id: String, name: String, latitude: Double, longitude: Double, radius: Double) {
            self.id = id
            self.name = name
            self.latitude = latitude
            self.longitude = longitude
            self.radius = radius
        }

        var json: [String: Any] {
            [
                "id": self.id, "name": self.name, "latitude": self.latitude, "longitude": self.longitude,
                "radius": self.radius,
            ]
        }
    }

    /// Serves `zones` to the app with `sdkKey` (every app without zones of its own when `nil`)
    /// from `GET /v1/geozones`. Blocks the calling thread.
    public func setGeozones(_ zones: [Zone], sdkKey: String? = nil) throws(SandboxError) {
        try self.perform(Self.setGeozonesCall(zones, sdkKey: sdkKey))
    }

    /// Serves `zones` to the app with `sdkKey` (every app without zones of its own when `nil`).
    public func setGeozones(_ zones: [Zone], sdkKey: String? = nil) async throws(SandboxError) {
        try await self.perform(Self.setGeozonesCall(zones, sdkKey: sdkKey))
    }

    /// The accepted `Geozone Entered` / `Geozone Exited` events, in arrival order. Blocks the
    /// calling thread.
    public func geozoneEvents() throws(SandboxError) -> [[String: Any]] {
        try self.perform(Self.geozoneEventsCall())
    }

    /// The accepted `Geozone Entered` / `Geozone Exited` events, in arrival order.
    public func geozoneEvents() async throws(SandboxError) -> [[String: Any]] {
        try await self.perform(Self.geozoneEventsCall())
    }

    static func setGeozonesCall(_ zones: [Zone], sdkKey: String?) -> ControlCall<Void> {
        var spec: [String: Any] = ["zones": zones.map(\.json)]
        spec["sdkKey"] = sdkKey
        return ControlCall(method: "POST", route: "geozones", json: spec) { _ in }
    }

    static func geozoneEventsCall() -> ControlCall<[[String: Any]]> {
        ControlCall(method: "GET", route: "geozone-events") { answer throws(SandboxError) in
            guard let events = (answer as? [String: Any])?["events"] as? [[String: Any]] else {
                throw SandboxError("unexpected /_sandbox/geozone-events response")
            }
            return events
        }
    }
}
#endif
