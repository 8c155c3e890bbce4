import Foundation
import JoryioCore
import JoryioDelivery
import JoryioTesting

/// A secure store in memory that can be told to fail.
final class TestSecureStore: SecureStore {
    private struct State {
        var items: [String: Data] = [:]
        var failReads = false
        var failWrites = false
        var writes = 0
    }

    private let state = Locked(State())

    var items: [String: Data] { self.state.withLock { $0.items } }
    var writeCount: Int { self.state.withLock { $0.writes } }

    func preload(_ data: Data?, forKey key: String) {
        self.state.withLock { $0.items[key] = data }
    }

    func setFailReads(_ fail: Bool) {
        self.state.withLock { $0.failReads = fail }
    }

    /// Writes throw `.full` (a full disk) and change nothing.
    func setFailWrites(_ fail: Bool) {
        self.state.withLock { $0.failWrites = fail }
    }

    func data(forKey key: String) throws(StorageError) -> Data? {
        let (fail, data) = self.state.withLock { ($0.failReads, $0.items[key]) }
        if fail { throw StorageError(.io, "scripted read failure") }
        return data
    }

    func set(_ data: Data?, forKey key: String) throws(StorageError) {
        let failed = self.state.withLock { state -> Bool in
            state.writes += 1
            if !state.failWrites { state.items[key] = data }
            return state.failWrites
        }
        if failed { throw StorageError(.full, "scripted: disk full") }
    }

    func removeAll() throws(StorageError) {
        self.state.withLock { $0.items.removeAll() }
    }
}

/// A channel wired to virtual time, a holding transport and an in-memory store.
final class AttributeHarness: Sendable {
    static let storageKey = "jry_attribute_writes"
    static let endpoint = URL(string: "https://api.test.joryio.com/v1/attributes") ?? URL(fileURLWithPath: "/")

    let scheduler: ManualScheduler
    let transport: HoldingTransport
    let store: TestSecureStore
    let logs = InMemoryLogSink()
    let keys: SequentialIdentifierGenerator
    let results = Locked<[JoryioTransportError?]>([])
    let channel: AttributeChannel
    let start: Date

    init(
        maxPending: Int = 1000,
        maxRetries: Int = 10,
        backoffBase: TimeInterval = 1,
        maxOperations: Int = 500,
        maxUnsets: Int = 200,
        maxBodyBytes: Int = 921_600,
        scheduler: ManualScheduler = ManualScheduler(),
        store: TestSecureStore = TestSecureStore(),
        transport: HoldingTransport = HoldingTransport(),
        firstKey: UInt64 = 1
    ) {
        self.scheduler = scheduler
        self.transport = transport
        self.store = store
        self.start = scheduler.now()
        self.keys = SequentialIdentifierGenerator(first: firstKey)
        let results = self.results
        self.channel = AttributeChannel(
            secureStore: store,
            builder: AttributeRequestBuilder(
                endpoint: Self.endpoint,
                sdkKey: "jry_sdk_ios_k",
                userAgent: "joryio-swift/t (Linux)",
                timeout: 7,
                gzip: { Data("GZ".utf8) + $0 }
            ),
            settings: AttributeChannel.Settings(
                maxPending: maxPending,
                backoff: BackoffPolicy(base: backoffBase, cap: 300),
                maxRetries: maxRetries,
                maxOperationsPerRequest: maxOperations,
                maxUnsetsPerRequest: maxUnsets,
                maxBodyBytes: maxBodyBytes
            ),
            dependencies: ChannelDependencies(
                transport: transport,
                scheduler: scheduler,
                clock: scheduler,
                jitter: DeterministicJitter.none,
                identifiers: self.keys,
                logger: self.logs.logger(),
                onResult: { error in results.withLock { $0.append(error) } }
            )
        )
    }

    static func key(_ number: UInt64) -> String {
        let hex = String(number, radix: 16)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - hex.count) + hex
    }

    // MARK: - Writes

    func write(
        _ id: String,
        _ key: String,
        _ operation: AttributeWrite.Operation,
        user: String? = "u1",
        anonymous: String = "a1"
    ) -> AttributeWrite {
        .test(id, key, operation, user: user, anonymous: anonymous, at: self.scheduler.now())
    }

    /// Enqueues on the scheduler, as the engine does, and runs what is due.
    func enqueue(_ writes: AttributeWrite...) {
        self.channel.enqueue(writes)
        self.scheduler.runUntilIdle()
    }

    // MARK: - Time and answers

    var elapsed: TimeInterval { self.scheduler.now().timeIntervalSince(self.start) }

    func advance(to offset: TimeInterval) {
        self.scheduler.advance(to: self.start.addingTimeInterval(offset))
    }

    func answer(status: Int, body: String = #"{"success":true}"#, headers: [String: String] = [:]) {
        self.transport.answer(.success(HTTPResponse(status: status, headers: headers, body: Data(body.utf8))))
        self.scheduler.runUntilIdle()
    }

    func answerSuccess() { self.answer(status: 200) }

    func fail(_ code: TransportError.Code = .timeout) {
        self.transport.answer(.failure(TransportError(code, "scripted")))
        self.scheduler.runUntilIdle()
    }

    // MARK: - Inspecting requests

    var requests: [HTTPRequest] { self.transport.requests }

    /// The parsed body of request `index` (the test gzip marker removed).
    func body(_ index: Int) -> JSONValue? {
        guard let data = self.requests[index].body else { return nil }
        let plain =
            data.starts(with: Data("GZ".utf8)) && self.requests[index].header("Content-Encoding") == "gzip"
            ? data.dropFirst(2) : data
        return JSONValue.parse(Data(plain))
    }

    func operations(_ index: Int) -> [JSONValue] {
        self.body(index)?["operations"]?.arrayValue ?? []
    }

    /// The write ids of request `index`, in order.
    func ids(_ index: Int) -> [String] {
        self.operations(index).compactMap { $0["id"]?.stringValue }
    }

    func idempotencyKey(_ index: Int) -> String? {
        self.requests[index].header("Idempotency-Key")
    }

    /// When request `index` left, from its `sentAt`.
    func sentAt(_ index: Int) -> String? {
        self.body(index)?["sentAt"]?.stringValue
    }

    // MARK: - Store and logs

    var stored: Data? { self.store.items[Self.storageKey] }

    var storedQueue: AttributeQueue? {
        guard let stored = self.stored else { return nil }
        return try? AttributeWriteCodec.decode(stored)
    }

    func messages(_ level: LogLevel) -> [String] {
        self.logs.records(at: level).map(\.message)
    }
}

extension AttributeWrite {
    /// A write of user `u1` / anonymous `a1` unless told otherwise, made at `date`.
    static func test(
        _ id: String,
        _ key: String,
        _ operation: Operation,
        user: String? = "u1",
        anonymous: String = "a1",
        at date: Date
    ) -> AttributeWrite {
        AttributeWrite(id: id, key: key, operation: operation, userId: user, anonymousId: anonymous, timestamp: date)
    }
}
