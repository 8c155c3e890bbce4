// The demo behind `make demo`: the SDK foundation doing its main job against the local sandbox.
//
// It starts the sandbox backend, records events into the SQLite queue, survives a scripted server
// outage (503 with Retry-After) without losing anything, delivers every event in gzip-compressed
// batches over real HTTP, and prints what the sandbox received. It grows with each issue.

import Foundation
import JoryioCore
import JoryioStorage
import JoryioTesting
import JoryioTransport

func run() throws {
    print("Joryio demo: the SDK foundation against the local sandbox backend\n")

    let sandbox = try SandboxServer()
    defer { sandbox.stop() }
    print("sandbox backend:  \(sandbox.baseURL.absoluteString)  (open it in a browser to watch requests)")
    print("SDK apiHost:      \(sandbox.apiHost.absoluteString)")

    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("joryio-demo-\(UUIDGenerator().next())", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let logger = Logger(sink: StandardErrorLogSink(), minimumLevel: .warning, module: "demo")
    let database = try SQLiteDatabase(
        fileURL: directory.appendingPathComponent("joryio.sqlite"),
        clock: SystemClock(),
        logger: logger
    )
    let queue = SQLiteQueueStore(database: database, queue: "events", capacity: 1000)
    print("queue store:      SQLite at \(directory.path)/joryio.sqlite (WAL: \(try database.journalMode()))\n")

    let warnings = InMemoryLogSink()
    let recorder = DemoEventRecorder(
        anonymousId: UUIDGenerator().next(),
        sessionId: UUIDGenerator().next(),
        logger: warnings.logger(minimumLevel: .warning, module: "track")
    )
    let payloads = recorder.sampleEvents(count: 120)
    let appended = try queue.append(payloads)
    print("1. tracked \(appended.ids.count) events; queued on disk: \(try queue.count())")
    if let first = warnings.records.first {
        print("   \(warnings.records.count) warnings logged, e.g. \"\(first.message)\" (EVT-4: the rest of the event is kept)")
    }

    try sandbox.addFault(path: "/api/v1/events", count: 1, status: 503, retryAfter: "1")
    print("2. the sandbox will answer the next batch with 503 and Retry-After: 1\n")

    let uploader = DemoUploader(
        queue: queue,
        transport: makeTransport(logger: logger),
        endpoint: sandbox.apiHost.appendingPathComponent("v1/events"),
        sdkKey: "jry_sdk_ios_demo_0123456789"
    )
    try uploader.drain()

    let requests = try sandbox.requests(path: "/api/v1/events")
    let events = try sandbox.events()
    print("\n3. what the sandbox received:")
    for request in requests {
        let count = ((request.body as? [String: Any])?["batch"] as? [Any])?.count ?? 0
        let gzip = request.gzip ? "gzip \(request.rawBytes) B of \(request.bodyBytes) B" : "\(request.bodyBytes) B"
        print("   #\(request.seq) POST \(request.path)  \(request.status ?? 0)  \(count) events  \(gzip)")
    }
    print("\n   events stored by the sandbox: \(events.count) of \(payloads.count) tracked (deduplicated by messageId)")
    print("   events left in the SQLite queue: \(try queue.count())")
    let example = events.first.flatMap { try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]) }
    print("   first event as received: \(example.map { String(decoding: $0, as: UTF8.self) } ?? "none")")
    guard events.count == payloads.count, try queue.count() == 0 else {
        throw DemoError("not every event arrived exactly once")
    }
    print("\nEvery event arrived exactly once, through an outage, from a durable queue.")
}

func makeTransport(logger: Logger) -> any Transport {
    #if os(Linux)
    return CurlTransport(logger: logger)
    #else
    return URLSessionTransport(logger: logger)
    #endif
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
