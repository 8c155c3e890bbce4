import Foundation
import JoryioCore
import JoryioDelivery
import JoryioTesting
import JoryioTransport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Building blocks of the seeded simulation (SimulationTests.swift): helpers over the seeded
// generator, a spy over the real queue store that keeps the ledger of accepted events, and an
// in-process server that answers on the manual scheduler.

extension SplitMix64 {
    /// A uniform integer in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    /// A uniform double in `range`.
    mutating func double(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &self) }

    /// `true` with probability `p`.
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }

    /// One of `weighted`, chosen in proportion to its weight.
    mutating func pick<T>(_ weighted: [(Int, T)]) -> T {
        var roll = self.int(0...(weighted.map(\.0).reduce(0, +) - 1))
        for (weight, value) in weighted {
            if roll < weight { return value }
            roll -= weight
        }
        return weighted[weighted.count - 1].1
    }
}

/// What the simulation knows about events on the device: every event the SDK committed
/// ("accepted", the only events it promises not to lose) and every one capacity evicted.
final class SimLedger: Sendable {
    struct State {
        /// messageId → the event's `properties.k` tag.
        var accepted: [String: Int] = [:]
        var acceptedTags: Set<Int> = []
        /// Accepted since the simulation last looked.
        var newlyAccepted: [String] = []
        var evicted: Set<String> = []
        /// Queue record id → messageId (ids are never reused within one SQLite file).
        var recordIDs: [Int64: String] = [:]
        var problems: [String] = []
    }

    let state = Locked(State())

    /// The messageId and `properties.k` tag of a stored payload.
    ///
    /// A byte scan, not a JSON parse (the simulation reads every payload): stored events are compact
    /// JSON, and the raw text `"messageId":"` or `"k":` can only be a key, because a `"` inside a
    /// string is always escaped. The simulation never uses `k` as a nested key.
    static func describe(_ payload: Data) -> (id: String, tag: Int?)? {
        payload.withUnsafeBytes { bytes -> (id: String, tag: Int?)? in
            guard let start = ByteScan.end(of: ByteScan.messageIDKey, in: bytes, from: 0),
                let quote = ByteScan.index(of: UInt8(ascii: "\""), in: bytes, from: start)
            else { return nil }
            let id = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<quote]), as: UTF8.self)
            guard var index = ByteScan.end(of: ByteScan.tagKey, in: bytes, from: quote) else { return (id, nil) }
            var tag = 0
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                tag = tag * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            return (id, tag)
        }
    }

    /// The messageId of `record`, from the cache or its payload.
    func messageID(of record: QueueRecord) -> String? {
        if let known = self.state.withLock({ $0.recordIDs[record.id] }) { return known }
        guard let id = Self.describe(record.payload)?.id else { return nil }
        self.state.withLock { $0.recordIDs[record.id] = id }
        return id
    }
}

/// The real queue store, watched: appends are "accepted", evictions are noted (the oldest records,
/// as the contract says; if the store evicted others, the missing events show up as lost).
final class SpyQueueStore: QueueStore {
    let inner: any QueueStore
    private let capacity: Int
    private let ledger: SimLedger

    init(inner: any QueueStore, capacity: Int, ledger: SimLedger) {
        self.inner = inner
        self.capacity = max(1, capacity)
        self.ledger = ledger
    }

    func append(_ payloads: [Data]) throws(StorageError) -> QueueAppendResult {
        let before = try self.inner.count()
        let overflow = before + payloads.count - self.capacity
        let oldest = overflow > 0 ? try self.inner.peek(limit: min(overflow, before), maxBytes: .max) : []
        let result = try self.inner.append(payloads)
        let described = payloads.map(SimLedger.describe)
        var evicted = oldest.prefix(result.evicted).compactMap(self.ledger.messageID(of:))
        if result.evicted > oldest.count {
            evicted += described.prefix(result.evicted - oldest.count).compactMap { $0?.id }
        }
        self.ledger.state.withLock { state in
            for (recordID, event) in zip(result.ids, described) {
                guard let event else {
                    state.problems.append("a stored payload is not an event with a messageId")
                    continue
                }
                state.recordIDs[recordID] = event.id
                state.accepted[event.id] = event.tag ?? -1
                state.newlyAccepted.append(event.id)
                if let tag = event.tag { state.acceptedTags.insert(tag) }
            }
            state.evicted.formUnion(evicted)
        }
        return result
    }

    func peek(limit: Int, maxBytes: Int) throws(StorageError) -> [QueueRecord] {
        try self.inner.peek(limit: limit, maxBytes: maxBytes)
    }

    func remove(ids: [Int64]) throws(StorageError) {
        try self.inner.remove(ids: ids)
    }

    func removeAll() throws(StorageError) {
        try self.inner.removeAll()
    }

    func count() throws(StorageError) -> Int {
        try self.inner.count()
    }

    /// The messageIds of every stored record, oldest first.
    func storedMessageIDs() throws(StorageError) -> [String] {
        try self.inner.peek(limit: .max, maxBytes: .max).compactMap(self.ledger.messageID(of:))
    }
}

/// How the server treats the next request.
enum SimFault: Sendable, CustomStringConvertible {
    /// Answer `status` without processing; optionally with `Retry-After` in seconds or as a date.
    case status(Int, retryAfter: Int?, asDate: Bool)
    /// 200 with `success: false`.
    case successFalse
    /// Connection refused.
    case refused
    /// No answer within the request's timeout; the server may have processed the batch.
    case timeout(processed: Bool)
    /// 400 or 413 for the whole batch.
    case invalid(Int)
    /// Process, but report about `rejected` and `failed` of the events in the index lists.
    case indices(rejected: Double, failed: Double)

    var description: String {
        switch self {
        case .status(let status, let retryAfter, let asDate):
            "HTTP \(status)" + (retryAfter.map { " Retry-After \($0) s" + (asDate ? " (date)" : "") } ?? "")
        case .successFalse: "success:false"
        case .refused: "refused"
        case .timeout(let processed): "timeout (\(processed ? "processed" : "not processed"))"
        case .invalid(let status): "HTTP \(status) (invalid)"
        case .indices(let rejected, let failed): "indices (rejected \(rejected), failed \(failed))"
        }
    }
}

/// The deterministic fake Joryio backend: dedups by messageId like the sandbox, answers 422 for a
/// batch holding a `poison` event (as the sandbox does for invalid events), and misbehaves as
/// scripted. Everything runs on the test thread (inside the manual scheduler).
final class SimServer: Sendable {
    struct State {
        var rng: SplitMix64
        var script: [SimFault] = []
        /// The messageIds of stored events.
        var stored: Set<String> = []
        /// Stored since the simulation last looked.
        var newlyStored: [String] = []
        /// messageId → how often the server acknowledged it (accepted or duplicate).
        var acks: [String: Int] = [:]
        /// Acknowledged since the simulation last looked.
        var newlyAcked: [String] = []
        /// messageId → acknowledgements the client never saw (timeouts, crashes).
        var lostAcks: [String: Int] = [:]
        /// Events the server refused on purpose: a batch of one answered 400/413/422, or rejectedIndices.
        var rejected: Set<String> = []
        var requests = 0
        /// The last path component of every durable-write request (`opt-out`, …).
        var writes: [String] = []
        var violations: [String] = []
        /// What happened, for the failure message of a seed.
        var trace: [String] = []

        // SDK authentication (protocol.md §2.1).
        /// Whether the workspace enables SDK authentication for this seed.
        var authEnabled = false
        /// Who the simulation's model says is current; a 401 for anyone else may drop their events.
        var currentUser: String?
        /// Events of a user who was not current when the SDK saw their batch's 401: the SDK may
        /// drop them (AUTH-8), so once they are no longer queued they are resolved.
        var authDropped: Set<String> = []
        /// 401 answers the client saw, by reason, for the report.
        var unauthorized: [String: Int] = [:]
        /// Handler calls, and token deliveries the handler scheduled.
        var handlerCalls = 0
        /// Users the handler was asked about with no token set for them since (single flight, GAP-36).
        var askedWithoutToken: Set<String> = []
        /// The end of the seed: the handler always answers, with long-lived tokens.
        var draining = false
        /// The "app backend's" randomness (handler delays, token lifetimes), its own stream.
        var authRng = SplitMix64(seed: 0)
        /// Distinct token ids.
        var nextTokenID = 0
        /// Known SDK bug (AuthDropQueueSizeTests): after a 401 drops a departed user's batch,
        /// `getQueueSize()` still counts it until the next answer or stored event. The size of that
        /// batch while its 401 is the last event answer the client saw; 0 otherwise.
    }

    let state: Locked<State>

    init(seed: UInt64) {
        self.state = Locked(State(rng: SplitMix64(seed: seed), authRng: SplitMix64(seed: seed ^ 0xA07B_0000_0000_0001)))
    }

    /// A fresh token for `sub` expiring `lifetime` seconds after `now`.
    func mintToken(sub: String, now: Date, lifetime: TimeInterval, signed: Bool = true) -> String {
        let id = self.state.withLock { state in
            defer { state.nextTokenID += 1 }
            return state.nextTokenID
        }
        return SimJWT.mint(sub: sub, exp: now.addingTimeInterval(lifetime), id: id, signed: signed)
    }

    /// The server's answer to one request.
    struct Answer {
        var result: Result<HTTPResponse, TransportError>
        /// How long until the client sees it.
        var latency: TimeInterval
        /// The messageIds acknowledged (accepted or duplicate) in it.
        var acked: [String]
        var fault: SimFault?
        var events: Int
        /// A 401: the batch's user and its events' messageIds.
        var unauthorized: (user: String?, ids: [String], reason: String)? = nil
        /// The SDK-authentication check, for the trace.
        var auth: String? = nil
    }

    /// Answers one request arriving at `now`.
    func receive(_ request: HTTPRequest, now: Date) -> Answer {
        let answer = self.answer(request, now: now)
        self.state.withLock { state in
            let outcome: String
            switch answer.result {
            case .success(let response): outcome = "HTTP \(response.status)"
            case .failure(let error): outcome = "\(error.code)"
            }
            state.trace.append(
                "  request \(state.requests): \(answer.events) events, \(answer.auth.map { "\($0), " } ?? "")"
                    + "\(answer.fault.map { "fault \($0) → " } ?? "")\(outcome)"
            )
        }
        return answer
    }

    private func answer(
        _ request: HTTPRequest,
        now: Date
    ) -> Answer {
        let body = Self.decodedBody(of: request)
        let decodedBytes = body?.count ?? 0
        let batch = body.flatMap(Self.batch(in:))
        let count = batch?.count ?? 0
        return self.state.withLock { state in
            state.requests += 1
            let fault = state.script.isEmpty ? nil : state.script.removeFirst()
            let latency = state.rng.double(0.005...0.4)
            guard let batch else {
                state.violations.append("request \(state.requests) has no readable batch")
                return Answer(
                    result: .success(HTTPResponse(status: 400)),
                    latency: latency,
                    acked: [],
                    fault: fault,
                    events: count
                )
            }
            // The protocol's limits (protocol.md §3.3); the SDK must stay within them by itself.
            if batch.count > 500 || decodedBytes > 1_000_000 {
                state.violations.append("request \(state.requests) has \(batch.count) events, \(decodedBytes) bytes")
                return Answer(
                    result: .success(.simJSON(413, #"{"success":false,"error":"payload_too_large"}"#)),
                    latency: latency,
                    acked: [],
                    fault: fault,
                    events: count
                )
            }
            let ids = batch.map(\.id)
            let poisoned = batch.contains(where: \.poisoned)
            // SDK authentication is checked before everything else the application does (§2.1);
            // the faults of the network and the front end (status codes, refusals, timeouts) come first.
            let check = SimAuthCheck(
                userIds: batch.map(\.userId),
                authorization: request.header("Authorization"),
                now: now,
                enabled: state.authEnabled
            )
            state.violations += check.violations.map { "request \(state.requests): \($0)" }
            if let unauthorized = check.response {
                var frontEnd = false
                switch fault {
                case .status?, .refused?, .timeout?: frontEnd = true
                case nil, .successFalse?, .invalid?, .indices?: break
                }
                if !frontEnd {
                    var answer = Answer(
                        result: .success(unauthorized),
                        latency: latency,
                        acked: [],
                        fault: fault,
                        events: count
                    )
                    answer.unauthorized = (check.users.first, ids, check.reason ?? "")
                    answer.auth = check.summary
                    return answer
                }
            }
            var answer = Self.answer(
                batch: batch,
                ids: ids,
                poisoned: poisoned,
                fault: fault,
                latency: latency,
                request: request,
                now: now,
                count: count,
                authorized: check.reason == nil,
                state: &state
            )
            if state.authEnabled || request.header("Authorization") != nil { answer.auth = check.summary }
            return answer
        }
    }

    /// The answer to a batch that passed SDK authentication (or met a front-end fault first).
    private static func answer(
        batch: [(id: String, poisoned: Bool, userId: String?)],
        ids: [String],
        poisoned: Bool,
        fault: SimFault?,
        latency: TimeInterval,
        request: HTTPRequest,
        now: Date,
        count: Int,
        authorized: Bool,
        state: inout State
    ) -> Answer {
        do {
            func reject422() -> HTTPResponse {
                if batch.count == 1 { state.rejected.insert(ids[0]) }
                return .simJSON(422, #"{"success":false,"error":"invalid_event"}"#)
            }
            func process(skipping rejected: Set<Int>, _ failed: Set<Int>) -> (HTTPResponse, [String]) {
                var acked: [String] = []
                var accepted = 0
                for (index, id) in ids.enumerated() where !rejected.contains(index) && !failed.contains(index) {
                    if state.stored.insert(id).inserted {
                        state.newlyStored.append(id)
                        accepted += 1
                    }
                    state.acks[id, default: 0] += 1
                    state.newlyAcked.append(id)
                    acked.append(id)
                }
                for index in rejected { state.rejected.insert(ids[index]) }
                let body =
                    #"{"success":true,"accepted":\#(accepted),"duplicates":\#(acked.count - accepted),"#
                    + #""rejectedIndices":\#(rejected.sorted()),"failedIndices":\#(failed.sorted())}"#
                return (.simJSON(200, body), acked)
            }

            switch fault {
            case nil:
                if poisoned {
                    return Answer(result: .success(reject422()), latency: latency, acked: [], fault: nil, events: count)
                }
                let (response, acked) = process(skipping: [], [])
                return Answer(result: .success(response), latency: latency, acked: acked, fault: nil, events: count)
            case .status(let status, let retryAfter, let asDate)?:
                var headers: [String: String] = [:]
                if let retryAfter {
                    headers["Retry-After"] =
                        asDate
                        ? Self.httpDate(now.addingTimeInterval(latency + Double(retryAfter))) : String(retryAfter)
                }
                return Answer(
                    result: .success(
                        .simJSON(status, #"{"success":false,"error":"injected_fault"}"#, headers: headers)
                    ),
                    latency: latency,
                    acked: [],
                    fault: fault,
                    events: count
                )
            case .successFalse?:
                return Answer(
                    result: .success(.simJSON(200, #"{"success":false,"error":"busy"}"#)),
                    latency: latency,
                    acked: [],
                    fault: fault,
                    events: count
                )
            case .refused?:
                return Answer(
                    result: .failure(TransportError(.cannotConnect, "refused (simulated)")),
                    latency: 0.001,
                    acked: [],
                    fault: fault,
                    events: count
                )
            case .timeout(let processed)?:
                var acked: [String] = []
                if processed, !poisoned, authorized {
                    acked = process(skipping: [], []).1
                    for id in acked { state.lostAcks[id, default: 0] += 1 }
                }
                return Answer(
                    result: .failure(TransportError(.timeout, "timed out (simulated)")),
                    latency: request.timeout,
                    acked: [],
                    fault: fault,
                    events: count
                )
            case .invalid(let status)?:
                if batch.count == 1 { state.rejected.insert(ids[0]) }
                return Answer(
                    result: .success(.simJSON(status, #"{"success":false,"error":"invalid_body"}"#)),
                    latency: latency,
                    acked: [],
                    fault: fault,
                    events: count
                )
            case .indices(let rejectedShare, let failedShare)?:
                if poisoned {
                    return Answer(
                        result: .success(reject422()),
                        latency: latency,
                        acked: [],
                        fault: fault,
                        events: count
                    )
                }
                var rejected: Set<Int> = []
                var failed: Set<Int> = []
                for index in batch.indices {
                    let roll = state.rng.double(0...1)
                    if roll < rejectedShare {
                        rejected.insert(index)
                    } else if roll < rejectedShare + failedShare {
                        failed.insert(index)
                    }
                }
                let (response, acked) = process(skipping: rejected, failed)
                return Answer(result: .success(response), latency: latency, acked: acked, fault: fault, events: count)
            }
        }
    }

    /// The events of a decoded event-request body: messageId, whether it is poison, and its `userId`.
    static func batch(in body: Data) -> [(id: String, poisoned: Bool, userId: String?)]? {
        // A byte scan, like SimLedger.describe: each event's keys are sorted, so its properties
        // (and a `poison` key in them) and its `userId` come after its messageId and before the
        // next event's (the simulation never uses `userId` as a property key).
        return body.withUnsafeBytes { bytes -> [(id: String, poisoned: Bool, userId: String?)]? in
            guard ByteScan.end(of: ByteScan.batchKey, in: bytes, from: 0) != nil else { return nil }
            var starts: [(id: String, end: Int)] = []
            var cursor = 0
            while let start = ByteScan.end(of: ByteScan.messageIDKey, in: bytes, from: cursor),
                let quote = ByteScan.index(of: UInt8(ascii: "\""), in: bytes, from: start)
            {
                starts.append(
                    (String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<quote]), as: UTF8.self), quote)
                )
                cursor = quote
            }
            return starts.enumerated().map { index, start in
                let end = index + 1 < starts.count ? starts[index + 1].end : bytes.count
                let event = UnsafeRawBufferPointer(rebasing: bytes[..<end])
                let poison = ByteScan.end(of: ByteScan.poisonKey, in: event, from: start.end)
                var userId: String?
                if let user = ByteScan.end(of: ByteScan.userIDKey, in: event, from: start.end),
                    let quote = ByteScan.index(of: UInt8(ascii: "\""), in: event, from: user)
                {
                    userId = String(decoding: UnsafeRawBufferPointer(rebasing: event[user..<quote]), as: UTF8.self)
                }
                return (start.id, poison != nil, userId)
            }
        }
    }

    /// The request body, gunzipped when needed.
    static func decodedBody(of request: HTTPRequest) -> Data? {
        guard let body = request.body else { return nil }
        guard request.header("Content-Encoding") == "gzip" else { return body }
        return try? Gzip.decompress(body, maxOutputBytes: 16 << 20)
    }

    /// An IMF-fixdate, rounded up to the next whole second (the format has no fractions).
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.up)))
    }
}

/// One SDK instance's connection to the ``SimServer``: completes on the instance's scheduler and
/// checks the rules a client must keep: one request at a time, nothing before `Retry-After` has
/// passed, nothing after 402.
final class SimTransport: Transport {
    struct State {
        var inFlight: [UInt64: [String]] = [:]
        var nextToken: UInt64 = 0
        var notBefore: Date?
        var stopped = false
        var crashed = false
        /// Failures in a row as the client saw them, mirroring the SDK's count: a retryable
        /// failure adds one, a clean success resets it, 400/413/422 leave it alone.
        var consecutiveFailures = 0
    }

    private let server: SimServer
    private let scheduler: InstanceScheduler
    let state = Locked(State())

    init(server: SimServer, scheduler: InstanceScheduler) {
        self.server = server
        self.scheduler = scheduler
    }

    /// Whether a 402 stopped this instance.
    var isStopped: Bool { self.state.withLock { $0.stopped } }

    /// Requests whose answer the client has not seen yet.
    var inFlight: Int { self.state.withLock { $0.inFlight.count } }

    /// Retryable failures in a row, as the client saw them.
    var consecutiveFailures: Int { self.state.withLock { $0.consecutiveFailures } }

    func send(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void) {
        let now = self.scheduler.now()
        guard request.url.path.hasSuffix("/v1/events") else {
            // Durable writes (identify, the `tracking_opted_out` record of privacy calls) travel on
            // their own channel: recorded and confirmed, outside the event model. Their token must
            // still be their own user's.
            let userId = SimServer.decodedBody(of: request).flatMap { JSONValue.parse($0)?["userId"]?.stringValue }
            self.server.state.withLock { state in
                state.writes.append(request.url.lastPathComponent)
                let check = SimAuthCheck(
                    userIds: [userId],
                    authorization: request.header("Authorization"),
                    now: now,
                    enabled: state.authEnabled
                )
                state.violations += check.violations.map { "write \(request.url.lastPathComponent): \($0)" }
            }
            self.scheduler.schedule(after: 0.01) {
                completion(.success(.simJSON(200, #"{"success":true}"#)))
            }
            return
        }
        var problems: [String] = []
        self.state.withLock { state in
            if state.stopped { problems.append("a request after HTTP 402") }
            if !state.inFlight.isEmpty { problems.append("two requests in flight") }
            // A millisecond of slack for Date arithmetic; anything earlier ignores Retry-After.
            if let notBefore = state.notBefore, now.addingTimeInterval(0.001) < notBefore {
                problems.append("a request \(notBefore.timeIntervalSince(now)) s before Retry-After passed")
            }
        }
        let answer = self.server.receive(request, now: now)
        let (result, latency, acked) = (answer.result, answer.latency, answer.acked)
        let unauthorized = answer.unauthorized
        let token = self.state.withLock { state -> UInt64 in
            defer { state.nextToken += 1 }
            state.inFlight[state.nextToken] = acked
            if case .success(let response) = result {
                if response.status == 402 { state.stopped = true }
                if let delay = response.retryAfter(now: now.addingTimeInterval(latency)) {
                    state.notBefore = now.addingTimeInterval(latency + delay)
                }
            }
            return state.nextToken
        }
        if !problems.isEmpty {
            self.server.state.withLock { $0.violations += problems }
        }
        self.scheduler.schedule(after: latency) {
            self.state.withLock { state in
                _ = state.inFlight.removeValue(forKey: token)
                switch result {
                case .failure:
                    state.consecutiveFailures += 1
                case .success(let response) where [400, 401, 402, 403, 413, 422].contains(response.status):
                    break  // a 401 waits for a token (AUTH-14), or drops a departed user's events
                case .success(let response) where response.status == 200:
                    let body = JSONValue.parse(response.body)
                    let clean =
                        body?["success"]?.boolValue == true && (body?["failedIndices"]?.arrayValue ?? []).isEmpty
                    state.consecutiveFailures = clean ? 0 : state.consecutiveFailures + 1
                case .success:
                    state.consecutiveFailures += 1
                }
            }
            // The SDK decides now: the current user's events wait for a token after a 401 (AUTH-9:
            // kept, so still outstanding), anyone else's may be dropped (AUTH-8).
            self.server.state.withLock { state in
                guard let unauthorized else { return }
                state.unauthorized[unauthorized.reason, default: 0] += 1
                if unauthorized.user != state.currentUser {
                    state.authDropped.formUnion(unauthorized.ids)
                }
            }
            completion(result)
        }
    }

    /// The instance dies: answers on their way are lost, so their acknowledgements count as unseen.
    func crash() {
        let lost = self.state.withLock { state -> [String] in
            state.crashed = true
            defer { state.inFlight = [:] }
            return state.inFlight.values.flatMap { $0 }
        }
        self.server.state.withLock { state in
            for id in lost { state.lostAcks[id, default: 0] += 1 }
        }
    }
}

extension HTTPResponse {
    /// A JSON response.
    static func simJSON(_ status: Int, _ body: String, headers: [String: String] = [:]) -> HTTPResponse {
        var headers = headers
        headers["Content-Type"] = "application/json"
        return HTTPResponse(status: status, headers: headers, body: Data(body.utf8))
    }
}

/// Substring search over raw bytes (`memchr` + `memcmp`): the simulation scans every payload and
/// request, and generic `Data` searching is slow in debug builds.
enum ByteScan {
    static let messageIDKey = Array(#""messageId":""#.utf8)
    static let tagKey = Array(#""k":"#.utf8)
    static let poisonKey = Array(#""poison":"#.utf8)
    static let userIDKey = Array(#""userId":""#.utf8)
    static let batchKey = Array(#""batch":["#.utf8)

    /// The index just after the first `needle` at or after `from`.
    static func end(of needle: [UInt8], in bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        return needle.withUnsafeBytes { needleBytes -> Int? in
            var start = from
            while let candidate = Self.index(of: needle[0], in: bytes, from: start) {
                guard candidate + needle.count <= bytes.count else { return nil }
                if memcmp(base + candidate, needleBytes.baseAddress!, needle.count) == 0 {
                    return candidate + needle.count
                }
                start = candidate + 1
            }
            return nil
        }
    }

    /// The index of the first `byte` at or after `from`.
    static func index(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard let base = bytes.baseAddress, from < bytes.count,
            let found = memchr(base + from, Int32(byte), bytes.count - from)
        else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }
}
