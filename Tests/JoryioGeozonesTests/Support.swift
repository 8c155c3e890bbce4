import Foundation
import JoryioCore
import JoryioGeozones
import JoryioKit
import JoryioTesting
import JoryioTransport

/// The location source in tests: records what the feature asked for and delivers what the test feeds.
final class ScriptedLocationSource: GeozoneLocationSource, Sendable {
    private struct State {
        var handler: (@Sendable (GeozoneLocationInput) -> Void)?
        var starts = 0
        var stops = 0
        var monitored: [[String]] = []
        var positionRequests = 0
    }

    private let state = Locked(State())

    func start(_ handler: @escaping @Sendable (GeozoneLocationInput) -> Void) {
        self.state.withLock {
            $0.handler = handler
            $0.starts += 1
        }
    }

    func monitor(_ zones: [Geozone]) {
        self.state.withLock { $0.monitored.append(zones.map(\.id)) }
    }

    func requestPosition() {
        self.state.withLock { $0.positionRequests += 1 }
    }

    func stop() {
        self.state.withLock {
            $0.handler = nil
            $0.stops += 1
        }
    }

    /// Delivers `input` as the OS would: only while started (a stopped source reports nothing).
    func deliver(_ input: GeozoneLocationInput) -> Bool {
        let handler = self.state.withLock { $0.handler }
        guard let handler else { return false }
        handler(input)
        return true
    }

    var isStarted: Bool { self.state.withLock { $0.handler != nil } }
    var starts: Int { self.state.withLock { $0.starts } }
    var stops: Int { self.state.withLock { $0.stops } }
    var lastMonitored: [String]? { self.state.withLock { $0.monitored.last } }
    var positionRequests: Int { self.state.withLock { $0.positionRequests } }
}

/// Answers `GET /v1/geozones` with `zones` and everything else with success; records all.
final class ZoneServingTransport: Transport {
    private let recording = RecordingTransport()
    private let zones: Locked<[Geozone]>

    init(zones: [Geozone]) {
        self.zones = Locked(zones)
    }

    var requests: [HTTPRequest] { self.recording.requests }

    func send(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void) {
        guard request.method == "GET", request.url.path.hasSuffix("/v1/geozones") else {
            self.recording.send(request, completion: completion)
            return
        }
        self.recording.send(request) { _ in }
        let items = self.zones.withLock { $0 }.map { zone -> String in
            #"{"id":"\#(zone.id)","name":"\#(zone.name)","latitude":\#(zone.center.latitude),"longitude":\#(zone.center.longitude),"radius":\#(zone.radius)}"#
        }
        let body = Data(#"{"zones":[\#(items.joined(separator: ","))]}"#.utf8)
        completion(.success(HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: body)))
    }

    /// Zone events sent, in order.
    var zoneEventValues: [JSONValue] {
        self.requests.filter { $0.url.path.hasSuffix("/v1/events") }.flatMap { request -> [JSONValue] in
            var body = request.body ?? Data()
            if request.header("Content-Encoding") == "gzip" {
                body = (try? Gzip.decompress(body, maxOutputBytes: 16 << 20)) ?? Data()
            }
            let batch = JSONValue.parse(body)?["batch"]?.arrayValue ?? []
            return batch.filter { $0["event"]?.stringValue?.hasPrefix("Geozone") == true }
        }
    }

    /// Zone events sent, as `Name:zoneId`.
    var zoneEvents: [String] {
        self.zoneEventValues.map {
            "\($0["event"]?.stringValue ?? "?"):\($0["properties"]?["zoneId"]?.stringValue ?? "?")"
        }
    }

    /// The zone events' properties.
    var zoneEventProperties: [[String: JSONValue]] {
        self.zoneEventValues.map { $0["properties"]?.objectValue ?? [:] }
    }

    var zoneFetches: Int { self.requests.filter { $0.url.path.hasSuffix("/v1/geozones") }.count }
}

/// One SDK instance with geozones over a scripted source and a zone-serving transport, on virtual time.
struct GeoRig {
    let scheduler = ManualScheduler()
    let transport: ZoneServingTransport
    let source = ScriptedLocationSource()
    let joryio: Joryio
    let geozones: JoryioGeozones

    init(zones: [Geozone] = [Geozone(id: "shop", name: "Shop", center: berlin, radius: 200)]) {
        self.transport = ZoneServingTransport(zones: zones)
        self.joryio = Joryio.testing(scheduler: self.scheduler, transport: self.transport)
        let source = self.source
        self.geozones = self.joryio.geozones(source: { source }, settings: GeozonesFeature.Settings())
    }

    func start(_ config: JoryioConfig = JoryioConfig()) {
        var config = config
        config.trackSessionStart = false
        self.joryio.initialize(sdkKey: "jry_sdk_ios_test", apiHost: "https://api.example.com", config: config)
        self.scheduler.runUntilIdle()
    }

    /// Feeds `input` through the source (if it is started) and runs everything due.
    @discardableResult
    func feed(_ input: GeozoneLocationInput) -> Bool {
        let delivered = self.source.deliver(input)
        self.scheduler.runUntilIdle()
        return delivered
    }

    /// Hands `input` to the feature on the engine's executor whether or not the source runs (a
    /// late OS callback), and runs everything due.
    func inject(_ input: GeozoneLocationInput) {
        self.joryio.facade.submit(to: GeozonesFeature.self) { $0.handle(input) }
        self.scheduler.runUntilIdle()
    }

    /// Walks into the shop, out of it, and waits past the exit delay.
    func visitShop() {
        let now = self.scheduler.now()
        self.feed(.position(berlin.moved(north: 1_000), now))
        self.feed(.position(berlin, now))
        self.feed(.position(berlin.moved(north: 1_000), now))
        self.scheduler.advance(by: 61)
        self.flush()
    }

    func flush() {
        self.joryio.flush()
        self.scheduler.runUntilIdle()
    }

    var feature: GeozonesFeature? { self.joryio.feature(GeozonesFeature.self) }
}
