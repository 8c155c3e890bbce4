import Foundation
import JoryioAnalytics
import JoryioTesting

// An app's own test, written with public API only: a Joryio instance on virtual time over a
// recording transport, tracked, identified, flushed; the request is checked and the process exits
// non-zero when anything is off.
var failures: [String] = []
@MainActor func check(_ condition: Bool, _ message: String) {
    if !condition { failures.append(message) }
}

let scheduler = ManualScheduler()
let transport = RecordingTransport()
let logs = InMemoryLogSink()
let joryio = Joryio.testing(scheduler: scheduler, transport: transport)
joryio.track("Before Init")
joryio.initialize(
    sdkKey: "jry_sdk_ios_consumer",
    apiHost: "https://api.example.com/api",
    config: JoryioConfig(trackSessionStart: false, logLevel: .debug, logSink: logs)
)
joryio.identify("user-1")
check(joryio.getUserId() == "user-1", "getUserId() right after identify")
joryio.track("Signed Up", properties: ["plan": "pro", "seats": 3])
joryio.setAttribute("plan", value: "pro")
joryio.flush()
scheduler.runUntilIdle()

let events = transport.requests.filter { $0.url.path.hasSuffix("/v1/events") }
check(events.count == 1, "one event batch, got \(events.count)")
check(transport.requests.contains { $0.url.path.hasSuffix("/v1/attributes") }, "an attribute request")
check(transport.requests.contains { $0.url.path.hasSuffix("/v1/identify") }, "an identify request")
check(joryio.getQueueSize() == 0, "the queue drained")
check(joryio.lastTransportError == nil, "no transport error")
check(logs.records.allSatisfy { $0.level < .warning }, "no warnings: \(logs.records.map(\.message))")

if failures.isEmpty {
    print("analytics-consumer: OK (\(transport.requests.count) requests)")
} else {
    for failure in failures { print("analytics-consumer: FAILED: \(failure)") }
    exit(1)
}
