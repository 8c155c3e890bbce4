// The demo behind `make demo`: the SDK doing its main job against the local sandbox backend.
//
// It starts the sandbox, initializes the SDK with SQLite as the store, tracks events through a
// scripted outage (503 with Retry-After) and through "ingestion paused" (402) followed by an app
// restart, and prints what the sandbox received: every event exactly once. Then it writes a
// profile (attributes through a lost answer, an alias, subscriptions) and shows a consent banner
// flow: a pending install sends nothing until updateConsent(.granted), and push: a token registered,
// a receipt and a click, an unregister that survives a relaunch. It grows with each issue.

import Foundation
import Joryio
import JoryioCore
import JoryioTesting

func run() throws {
    say("Joryio demo: the SDK against the local sandbox backend\n")
    let sandbox = try SandboxServer()
    defer { sandbox.stop() }
    say("sandbox backend: \(sandbox.baseURL.absoluteString)  (open it in a browser to watch requests)")

    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("joryio-demo-\(UUIDGenerator().next())", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let config = JoryioConfig(flushInterval: 1, logLevel: .warning, storage: .sqlite(directory: directory))
    let sdkKey = "jry_sdk_ios_demo_0123456789"
    say("queue store:     SQLite in \(directory.path)\n")

    // 1. An outage: the first batch gets 503 + Retry-After: 1; nothing is lost, nothing doubled.
    try sandbox.addFault(path: "/api/v1/events", count: 1, status: 503, retryAfter: "1")
    let app = Joryio()
    app.initialize(sdkKey: sdkKey, apiHost: sandbox.apiHost.absoluteString, config: config)
    say("1. tracking 120 events; the sandbox answers the first batch with 503 and Retry-After: 1")
    for index in 0..<120 {
        app.track(
            ["Product Viewed", "Added to Cart", "Feature Used"][index % 3],
            properties: ["index": index, "price": 9.99 + Double(index), "sku": "sku-\(index % 7)", "at": Date()]
        )
    }
    app.trackScreen("Checkout", properties: ["step": 2])
    say("   invalid calls are logged and dropped, never thrown:")
    app.track("")
    app.track("Rating", properties: ["score": Double.nan, "stars": 4])
    app.flush()
    try waitUntil("the sandbox has all 123 valid events") { (try? sandbox.events().count) == 123 }
    say(
        "   queue size now \(app.getQueueSize()); last transport error: \(app.lastTransportError.map { "\($0)" } ?? "none")"
    )

    say("   session \(app.getSessionId() ?? "none") announced with a Session Start event")

    // 2. Ingestion paused: 402 stops sending for the session; events wait on disk for the next launch.
    try sandbox.addFault(path: "/api/v1/events", count: 1, status: 402)
    app.identify("user-42")
    for index in 0..<30 {
        app.track("Offline Action", properties: ["index": index])
    }
    app.flush()
    try waitUntil("the 402 arrives") { app.lastTransportError == .http(status: 402, body: nil) }
    say("\n2. the sandbox answered 402 (ingestion paused): \(app.getQueueSize()) events kept on disk, sending stopped")
    // The app process ends (one SDK instance owns a storage directory at a time), and launches again.
    app.applicationWillTerminate(waitingAtMost: 5)
    app.relinquishStorage()
    let relaunched = Joryio()
    relaunched.initialize(sdkKey: sdkKey, apiHost: sandbox.apiHost.absoluteString, config: config)
    try waitUntil("the relaunched app delivers the backlog") { (try? sandbox.events().count) == 153 }
    say(
        "   after a relaunch over the same SQLite file: queue size \(relaunched.getQueueSize()), user \(relaunched.getUserId() ?? "none")"
    )

    // 3. Privacy: an opted-out person's events are never collected; the opt-out is stored.
    relaunched.optOut()
    relaunched.track("Not Collected")
    relaunched.flush()
    say(
        "\n3. after optOut(): isUserOptedOut() = \(relaunched.isUserOptedOut()); \"Not Collected\" is dropped at the call"
    )
    relaunched.optIn()

    let requests = try sandbox.requests(path: "/api/v1/events")
    let events = try sandbox.events()
    say("\n4. what the sandbox received:")
    for request in requests {
        let count = ((request.body as? [String: Any])?["batch"] as? [Any])?.count ?? 0
        let size = request.gzip ? "gzip \(request.rawBytes) B of \(request.bodyBytes) B" : "\(request.bodyBytes) B"
        say("   #\(request.seq) POST \(request.path)  \(request.status ?? 0)  \(count) events  \(size)")
    }
    let expected = 1 + 120 + 1 + 1 + 30  // Session Start, products, screen, rating, offline actions
    let unique = Set(events.compactMap { $0["messageId"] as? String })
    say(
        "\n   events stored by the sandbox: \(events.count) (\(unique.count) unique messageIds) of \(expected) valid events tracked"
    )
    if let first = events.first(where: { $0["event"] as? String == "Session Start" }),
        let json = try? JSONSerialization.data(withJSONObject: first, options: [.sortedKeys])
    {
        say("   the Session Start as received: \(String(decoding: json, as: UTF8.self))")
    }
    guard events.count == expected, unique.count == expected else {
        let names = Dictionary(grouping: events.compactMap { $0["event"] as? String }, by: { $0 }).mapValues(\.count)
        say("   received by name: \(names.sorted { $0.key < $1.key })")
        throw DemoError("expected \(expected) events exactly once")
    }
    say("\nEvery valid event arrived exactly once, through an outage, a pause and a restart.")

    try profileDemo(relaunched, sandbox: sandbox)
    try consentBannerDemo(sandbox: sandbox, sdkKey: sdkKey)
    try pushDemo(sandbox: sandbox, sdkKey: sdkKey)
    try inAppDemo(sandbox: sandbox, sdkKey: sdkKey)
}

/// 5. Attributes, an alias and subscriptions: durable writes through a timeout, read back from the
/// sandbox's profile.
func profileDemo(_ app: Joryio, sandbox: SandboxServer) throws {
    say("\n5. profile writes for user-42; the first attribute request is applied but its answer is lost")
    try sandbox.addFault(path: "/api/v1/attributes", count: 1, dropAfterProcessing: true)
    app.setAttributes(["plan": "pro", "seats": 3, "nickname": nil])
    app.incrementAttribute("logins", by: 1)
    app.incrementAttribute("logins", by: 2)
    app.addAlias("loyalty_id", name: "L-12345")
    app.setSubscription(channel: "email", status: "subscribed")
    app.addToSubscriptionGroup("list_abc123", channel: "email")
    app.setAttribute("score", value: Double.infinity)  // not a finite number: logged and dropped
    try waitUntil("the profile has every write") {
        guard let profile = try? sandbox.profile(userId: "user-42") else { return false }
        let attributes = profile["attributes"] as? [String: Any] ?? [:]
        return attributes["logins"] as? Int == 3
            && (profile["groups"] as? [String: [String]])?["email"] == ["list_abc123"]
    }
    let profile = try sandbox.profile(userId: "user-42") ?? [:]
    for field in ["attributes", "aliases", "subscriptions", "groups"] {
        let json =
            (try? JSONSerialization.data(withJSONObject: profile[field] ?? [:], options: [.sortedKeys])) ?? Data()
        say("   \(field): \(String(decoding: json, as: UTF8.self))")
    }
    let attributeRequests = try sandbox.requests(path: "/api/v1/attributes")
    say("   \(attributeRequests.count) attribute requests (a retry reuses its Idempotency-Key: logins counted once)")
    guard (profile["attributes"] as? [String: Any])?["logins"] as? Int == 3 else { throw DemoError("logins must be 3") }
}

/// 6. A consent banner: a fresh install starts with consent pending; nothing leaves the device
/// until the person accepts.
func consentBannerDemo(sandbox: SandboxServer, sdkKey: String) throws {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("joryio-demo-banner-\(UUIDGenerator().next())", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    say("\n6. consent banner: a new install launched with trackingConsent: .pending")
    let before = try sandbox.requests(path: "/api/v1/*").count
    let config = JoryioConfig(
        flushInterval: 1,
        trackingConsent: .pending,
        logLevel: .warning,
        storage: .sqlite(directory: directory)
    )
    let app = Joryio()
    app.initialize(sdkKey: sdkKey, apiHost: sandbox.apiHost.absoluteString, config: config)
    app.identify("user-77")
    app.track("Onboarding Viewed")
    app.setAttribute("plan", value: "trial")
    app.flush()
    Thread.sleep(forTimeInterval: 1.5)  // a demo may wait on real time; tests never do
    let held = try sandbox.requests(path: "/api/v1/*").count - before
    say(
        "   banner shown: consent \(app.getTrackingConsent()), \(app.getQueueSize()) event(s) held on the device, \(held) requests sent"
    )
    guard held == 0 else { throw DemoError("nothing may be sent while consent is pending") }
    say("   the person taps Accept: updateConsent(.granted)")
    app.updateConsent(.granted)
    app.flush()
    try waitUntil("the held event and writes arrive") {
        let profile = try? sandbox.profile(userId: "user-77")
        let attributes = profile?["attributes"] as? [String: Any] ?? [:]
        let events = (try? sandbox.events()) ?? []
        return attributes["plan"] as? String == "trial" && events.contains { $0["userId"] as? String == "user-77" }
    }
    say("   released: Session Start and \"Onboarding Viewed\" delivered, identify and plan=trial on user-77's profile")
}

/// Writes a line to standard output unbuffered, so the SDK's log lines (standard error) stay in
/// step with the story.
func say(_ line: String = "") {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Polls `condition` every 50 ms for up to 30 s (a demo may wait on real time; tests never do).
func waitUntil(_ what: String, _ condition: () -> Bool) throws {
    _ = try waitFor(what) { condition() ? true : nil }
}

struct DemoError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

do {
    try run()
} catch {
    FileHandle.standardError.write(Data("demo failed: \(error)\n".utf8))
    exit(1)
}
