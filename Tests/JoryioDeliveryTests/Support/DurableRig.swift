import Foundation
import JoryioCore
import JoryioDelivery
import JoryioStorage
import JoryioTesting

/// A store that fails on demand, around a real in-memory store.
final class FaultyStore: QueueStore {
    struct Faults {
        var append = false
        var peek = false
        var remove = false
    }

    let inner = InMemoryQueueStore()
    let faults = Locked(Faults())

    func append(_ payloads: [Data]) throws(StorageError) -> QueueAppendResult {
        if self.faults.value.append { throw StorageError(.full, "scripted: disk full") }
        return try self.inner.append(payloads)
    }

    func peek(limit: Int, maxBytes: Int) throws(StorageError) -> [QueueRecord] {
        if self.faults.value.peek { throw StorageError(.io, "scripted: read failed") }
        return try self.inner.peek(limit: limit, maxBytes: maxBytes)
    }

    func remove(ids: [Int64]) throws(StorageError) {
        if self.faults.value.remove { throw StorageError(.io, "scripted: delete failed") }
        try self.inner.remove(ids: ids)
    }

    func removeAll() throws(StorageError) {
        try self.inner.removeAll()
    }

    func count() throws(StorageError) -> Int {
        try self.inner.count()
    }
}

extension HTTPResponse {
    static func json(_ status: Int, _ body: String, headers: [String: String] = [:]) -> HTTPResponse {
        HTTPResponse(
            status: status,
            headers: headers.merging(["Content-Type": "application/json"]) { first, _ in first },
            body: Data(body.utf8)
        )
    }

    static let ok = HTTPResponse.json(200, #"{"success":true}"#)
    static let notOK = HTTPResponse.json(200, #"{"success":false,"error":"storage_unavailable"}"#)
}

/// A channel on virtual time with a held transport, a log sink and scripted engine callbacks.
final class DurableRig: Sendable {
    let scheduler = ManualScheduler()
    let transport = HoldingTransport()
    let sink = InMemoryLogSink()
    let store: any QueueStore
    let identity = Locked<(userId: String?, anonymousId: String?)>((nil, "anon-1"))
    let eventsWaiting = Locked(false)
    let results = Locked<[JoryioTransportError?]>([])
    let channel: DurableWriteChannel

    static let apiHost = URL(string: "https://api.test.joryio.com") ?? URL(fileURLWithPath: "/")

    init(
        store: any QueueStore = InMemoryQueueStore(),
        maxRetries: Int = 50,
        maxWrites: Int = 1000,
        collectionAllowed: Bool = true,
        load: Bool = true,
        authorization: RequestAuthorization = .disabled
    ) {
        self.store = store
        let identity = self.identity
        let eventsWaiting = self.eventsWaiting
        let results = self.results
        self.channel = DurableWriteChannel(
            store: store,
            builder: DurableRequestBuilder(
                apiHost: Self.apiHost,
                sdkKey: "jry_sdk_test",
                userAgent: "joryio-swift/t",
                timeout: 7
            ),
            settings: DurableWriteChannel.Settings(
                backoff: BackoffPolicy(base: 1, cap: 60),
                maxRetries: maxRetries,
                maxWrites: maxWrites
            ),
            dependencies: ChannelDependencies(
                transport: self.transport,
                scheduler: self.scheduler,
                clock: self.scheduler,
                jitter: DeterministicJitter.none,
                identifiers: SequentialIdentifierGenerator(),
                logger: self.sink.logger(module: "durable"),
                authorization: authorization,
                onResult: { error in results.withLock { $0.append(error) } }
            ),
            currentIdentity: { identity.value },
            eventsWaiting: { eventsWaiting.value }
        )
        if collectionAllowed { self.channel.setCollectionAllowed(true) }
        if load { self.channel.load() }
    }

    /// Answers the request on the wire and runs what the answer triggers.
    @discardableResult
    func answer(_ result: Result<HTTPResponse, TransportError>) -> Bool {
        let answered = self.transport.answer(result)
        self.scheduler.runUntilIdle()
        return answered
    }

    func answer(_ response: HTTPResponse) {
        self.answer(.success(response))
    }

    /// Answers `.ok` until nothing is on the wire.
    func drain() {
        while self.transport.inFlight > 0 {
            self.answer(.ok)
        }
    }

    /// The endpoint paths of every request sent, oldest first.
    var paths: [String] { self.transport.requests.map(\.url.path) }

    /// The `sentAt` of every request sent, as seconds after `origin`, oldest first: when each left.
    func sentAt(after origin: Date) -> [TimeInterval] {
        self.transport.requests.map { request in
            let text = Self.body(request)["sentAt"]?.stringValue ?? ""
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let date = formatter.date(from: text) ?? .distantPast
            return (date.timeIntervalSince(origin) * 1000).rounded() / 1000
        }
    }

    /// The writeIds of every request sent, oldest first.
    var sentIds: [String] { self.transport.requests.map { Self.body($0)["writeId"]?.stringValue ?? "?" } }

    /// The write ids the store holds, oldest first.
    func storedIds() throws -> [String] {
        try self.store.peek(limit: 10_000, maxBytes: .max).map { DurableWriteCodec.decode($0.payload)?.id ?? "?" }
    }

    /// The messages logged at `level`.
    func messages(_ level: LogLevel) -> [String] {
        self.sink.records(at: level).map(\.message)
    }

    static func body(_ request: HTTPRequest) -> JSONValue {
        request.body.flatMap(JSONValue.parse) ?? .null
    }
}

/// A write made at 2026-01-01T00:00:00.250Z.
func write(
    _ id: String,
    _ kind: DurableWrite.Kind,
    user: String? = nil,
    anon: String? = "anon-1",
    at timestamp: Date = Date(timeIntervalSince1970: 1_767_225_600.25)
) -> DurableWrite {
    DurableWrite(id: id, kind: kind, userId: user, anonymousId: anon, timestamp: timestamp)
}
