#if os(Linux) || os(macOS)
public import Foundation
internal import JoryioCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: - Control API (`/_sandbox/…`)

extension SandboxServer {
    /// One request the sandbox received on an SDK route, as `GET /_sandbox/requests` reports it.
    public struct RecordedRequest: Sendable, Equatable {
        /// The sandbox's sequence number (1, 2, …).
        public var seq: Int
        /// `GET`, `POST`, …
        public var method: String
        /// The path without the query, such as `/api/v1/events`.
        public var path: String
        /// The raw query string (empty when there is none).
        public var query: String
        /// Request headers with lowercased names.
        public var headers: [String: String]
        /// Whether the body arrived with `Content-Encoding: gzip` (and was decoded).
        public var gzip: Bool
        /// Body size on the wire.
        public var rawBytes: Int
        /// Body size after gzip decoding.
        public var bodyBytes: Int
        /// The decoded JSON body, re-serialised with sorted keys; `nil` when the body was not JSON.
        public var bodyJSON: Data?
        /// The body as text, when it was not valid JSON.
        public var bodyText: String?
        /// The status the sandbox answered with; `nil` when it dropped the connection.
        public var status: Int?
        /// The fault applied, such as `delay+status`, or `nil`.
        public var fault: String?
        /// The `sub` claimed by the request's `Authorization: Bearer` token (its payload read without
        /// checking the signature or expiry, as the SDK reads it), or `nil` when it carried none.
        public var authSub: String?

        /// The value of header `name` (case-insensitive).
        public func header(_ name: String) -> String? {
            self.headers[name.lowercased()]
        }

        /// The decoded body as `JSONSerialization` objects (`[String: Any]`, `[Any]`, …).
        public var body: Any? {
            self.bodyJSON.flatMap { try? JSONSerialization.jsonObject(with: $0, options: .fragmentsAllowed) }
        }
    }

    /// The requests recorded on SDK routes, oldest first; only those matching `path` (a trailing `*`
    /// matches a prefix) when given. Blocks the calling thread.
    public func requests(path: String? = nil) throws(SandboxError) -> [RecordedRequest] {
        try self.perform(Self.requestsCall(path: path))
    }

    /// The requests recorded on SDK routes, oldest first; only those matching `path` (a trailing `*`
    /// matches a prefix) when given.
    public func requests(path: String? = nil) async throws(SandboxError) -> [RecordedRequest] {
        try await self.perform(Self.requestsCall(path: path))
    }

    /// The events the sandbox accepted (deduplicated by `messageId`), as JSON objects. Blocks the calling
    /// thread.
    public func events() throws(SandboxError) -> [[String: Any]] {
        try self.perform(Self.eventsCall())
    }

    /// The events the sandbox accepted (deduplicated by `messageId`), as JSON objects.
    public func events() async throws(SandboxError) -> [[String: Any]] {
        try await self.perform(Self.eventsCall())
    }

    /// The profiles the sandbox holds (protocol v2), oldest first, as `GET /_sandbox/profiles` reports
    /// them: `id`, `userId`, `anonymousIds`, `attributes`, `aliases`, `subscriptions`, `groups`,
    /// `operations`. Blocks the calling thread.
    public func profiles() throws(SandboxError) -> [[String: Any]] {
        try self.perform(Self.profilesCall())
    }

    /// The profiles the sandbox holds (protocol v2), oldest first, as `GET /_sandbox/profiles` reports
    /// them: `id`, `userId`, `anonymousIds`, `attributes`, `aliases`, `subscriptions`, `groups`,
    /// `operations`.
    public func profiles() async throws(SandboxError) -> [[String: Any]] {
        try await self.perform(Self.profilesCall())
    }

    /// The profile a request naming user `userId` resolves to, or `nil` when there is none. Blocks the
    /// calling thread.
    public func profile(userId: String) throws(SandboxError) -> [String: Any]? {
        try self.perform(Self.profileCall(URLQueryItem(name: "userId", value: userId)))
    }

    /// The profile a request naming user `userId` resolves to, or `nil` when there is none.
    public func profile(userId: String) async throws(SandboxError) -> [String: Any]? {
        try await self.perform(Self.profileCall(URLQueryItem(name: "userId", value: userId)))
    }

    /// The profile a request naming only anonymous id `anonymousId` resolves to (the user's profile once
    /// `identify` linked the id), or `nil` when there is none. Blocks the calling thread.
    public func profile(anonymousId: String) throws(SandboxError) -> [String: Any]? {
        try self.perform(Self.profileCall(URLQueryItem(name: "anonymousId", value: anonymousId)))
    }

    /// The profile a request naming only anonymous id `anonymousId` resolves to (the user's profile once
    /// `identify` linked the id), or `nil` when there is none.
    public func profile(anonymousId: String) async throws(SandboxError) -> [String: Any]? {
        try await self.perform(Self.profileCall(URLQueryItem(name: "anonymousId", value: anonymousId)))
    }

    /// The push tokens unregistered through `POST /v1/push/unregister`, in the order they first arrived.
    /// Blocks the calling thread.
    public func pushUnregistered() throws(SandboxError) -> [String] {
        try self.perform(Self.pushUnregisteredCall())
    }

    /// The push tokens unregistered through `POST /v1/push/unregister`, in the order they first arrived.
    public func pushUnregistered() async throws(SandboxError) -> [String] {
        try await self.perform(Self.pushUnregisteredCall())
    }

    /// Scripts a fault for the next `count` requests whose path matches `path` (a trailing `*` matches a
    /// prefix; `count` -1 means forever). Blocks the calling thread.
    ///
    /// `dropAfterProcessing` processes (applies) the request, then closes the connection without an answer;
    /// `rejectAttributeKeys` makes `/v1/attributes` operations on those keys fail with `rejected_key`.
    /// - Returns: The fault's id.
    @discardableResult
    public func addFault(
        path: String,
        count: Int = 1,
        status: Int? = nil,
        retryAfter: String? = nil,
        delayMs: Int = 0,
        drop: Bool = false,
        body: [String: Any]? = nil,
        rejectedIndices: [Int] = [],
        failedIndices: [Int] = [],
        dropAfterProcessing: Bool = false,
        rejectAttributeKeys: [String] = []
    ) throws(SandboxError) -> Int {
        try self.perform(
            Self.addFaultCall(
                path: path,
                count: count,
                status: status,
                retryAfter: retryAfter,
                delayMs: delayMs,
                drop: drop,
                body: body,
                rejectedIndices: rejectedIndices,
                failedIndices: failedIndices,
                dropAfterProcessing: dropAfterProcessing,
                rejectAttributeKeys: rejectAttributeKeys
            )
        )
    }

    /// Scripts a fault for the next `count` requests whose path matches `path` (a trailing `*` matches a
    /// prefix; `count` -1 means forever).
    ///
    /// `dropAfterProcessing` processes (applies) the request, then closes the connection without an answer;
    /// `rejectAttributeKeys` makes `/v1/attributes` operations on those keys fail with `rejected_key`.
    /// - Returns: The fault's id.
    @discardableResult
    public func addFault(
        path: String,
        count: Int = 1,
        status: Int? = nil,
        retryAfter: String? = nil,
        delayMs: Int = 0,
        drop: Bool = false,
        body: [String: Any]? = nil,
        rejectedIndices: [Int] = [],
        failedIndices: [Int] = [],
        dropAfterProcessing: Bool = false,
        rejectAttributeKeys: [String] = []
    ) async throws(SandboxError) -> Int {
        try await self.perform(
            Self.addFaultCall(
                path: path,
                count: count,
                status: status,
                retryAfter: retryAfter,
                delayMs: delayMs,
                drop: drop,
                body: body,
                rejectedIndices: rejectedIndices,
                failedIndices: failedIndices,
                dropAfterProcessing: dropAfterProcessing,
                rejectAttributeKeys: rejectAttributeKeys
            )
        )
    }

    /// Removes every scripted fault. Blocks the calling thread.
    public func clearFaults() throws(SandboxError) {
        try self.perform(Self.clearFaultsCall())
    }

    /// Removes every scripted fault.
    public func clearFaults() async throws(SandboxError) {
        try await self.perform(Self.clearFaultsCall())
    }

    /// Sets the sandbox's SDK authentication (protocol v3): whether it is `enabled`, the HS256 `secret`
    /// tokens are signed with, `strictIdentity` (anonymous requests need a valid token too), and `now`, a
    /// fixed clock for `exp` checks and minted tokens (`nil`: real time). Blocks the calling thread.
    ///
    /// `reset()` turns authentication off again.
    public func configureAuth(
        enabled: Bool = true,
        secret: String = "sandbox-secret",
        strictIdentity: Bool = false,
        now: Date? = nil
    ) throws(SandboxError) {
        try self.perform(Self.configureAuthCall(enabled: enabled, secret: secret, strictIdentity: strictIdentity, now: now))
    }

    /// Sets the sandbox's SDK authentication (protocol v3): whether it is `enabled`, the HS256 `secret`
    /// tokens are signed with, `strictIdentity` (anonymous requests need a valid token too), and `now`, a
    /// fixed clock for `exp` checks and minted tokens (`nil`: real time).
    ///
    /// `reset()` turns authentication off again.
    public func configureAuth(
        enabled: Bool = true,
        secret: String = "sandbox-secret",
        strictIdentity: Bool = false,
        now: Date? = nil
    ) async throws(SandboxError) {
        try await self.perform(
            Self.configureAuthCall(enabled: enabled, secret: secret, strictIdentity: strictIdentity, now: now)
        )
    }

    /// An HS256 token for user `sub` that expires `expiresIn` seconds after the sandbox's auth clock
    /// (negative: already expired), signed with the configured secret, or with `secret` (then the sandbox
    /// answers it `401 invalid`). Blocks the calling thread.
    public func mintToken(sub: String, expiresIn: TimeInterval = 3600, secret: String? = nil) throws(SandboxError)
        -> String
    {
        try self.perform(Self.mintTokenCall(sub: sub, expiresIn: expiresIn, secret: secret))
    }

    /// An HS256 token for user `sub` that expires `expiresIn` seconds after the sandbox's auth clock
    /// (negative: already expired), signed with the configured secret, or with `secret` (then the sandbox
    /// answers it `401 invalid`).
    public func mintToken(
        sub: String,
        expiresIn: TimeInterval = 3600,
        secret: String? = nil
    ) async throws(SandboxError) -> String {
        try await self.perform(Self.mintTokenCall(sub: sub, expiresIn: expiresIn, secret: secret))
    }

    /// An HS256 token for user `sub` with the absolute expiry `exp`, signed with the configured secret.
    /// Blocks the calling thread.
    public func mintToken(sub: String, exp: Date) throws(SandboxError) -> String {
        try self.perform(Self.mintTokenCall(["sub": sub, "exp": Self.seconds(exp)]))
    }

    /// An HS256 token for user `sub` with the absolute expiry `exp`, signed with the configured secret.
    public func mintToken(sub: String, exp: Date) async throws(SandboxError) -> String {
        try await self.perform(Self.mintTokenCall(["sub": sub, "exp": Self.seconds(exp)]))
    }

    /// Forgets recorded requests, events, seen message ids, faults, profiles, remembered Idempotency-Key
    /// answers, applied operation and write ids, and unregistered push tokens; turns SDK authentication off
    /// and clears its settings. Blocks the calling thread.
    public func reset() throws(SandboxError) {
        try self.perform(Self.resetCall())
    }

    /// Forgets recorded requests, events, seen message ids, faults, profiles, remembered Idempotency-Key
    /// answers, applied operation and write ids, and unregistered push tokens; turns SDK authentication off
    /// and clears its settings.
    public func reset() async throws(SandboxError) {
        try await self.perform(Self.resetCall())
    }

    /// The canonical size in bytes of the JSON document `jsonData`, as the sandbox measures it. Blocks the
    /// calling thread.
    ///
    /// The bytes are sent exactly as given (never re-serialised here), so the answer reflects the
    /// server's own measurement of what the SDK produced.
    public func measure(_ jsonData: Data) throws(SandboxError) -> Int {
        try self.perform(Self.measureCall(jsonData))
    }

    /// The canonical size in bytes of the JSON document `jsonData`, as the sandbox measures it.
    ///
    /// The bytes are sent exactly as given (never re-serialised here), so the answer reflects the
    /// server's own measurement of what the SDK produced.
    public func measure(_ jsonData: Data) async throws(SandboxError) -> Int {
        try await self.perform(Self.measureCall(jsonData))
    }

    /// `data` parsed and re-serialised with sorted keys, to compare JSON documents regardless of key order.
    public static func canonicalJSON(_ data: Data) throws(SandboxError) -> Data {
        do {
            let object = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
            return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
        } catch {
            throw SandboxError("not JSON: \(error)")
        }
    }
}

// MARK: - Control calls

extension SandboxServer {
    /// One control request, `method /_sandbox/route`, and how to read its answer.
    private struct ControlCall<Value> {
        var method: String
        var route: String
        var query: [URLQueryItem] = []
        /// A JSON object to send (serialised here), or ``rawJSON``.
        var json: [String: Any]?
        /// JSON bytes to send exactly as given.
        var rawJSON: Data?
        /// A 404 answer is `nil` (handed to ``decode``) rather than an error.
        var notFoundIsNil = false
        /// Reads the parsed JSON answer (`nil` only for a 404 when ``notFoundIsNil``).
        var decode: (_ answer: Any?) throws(SandboxError) -> Value
    }

    private static func requestsCall(path: String?) -> ControlCall<[RecordedRequest]> {
        ControlCall(method: "GET", route: "requests", query: path.map { [URLQueryItem(name: "path", value: $0)] } ?? []) {
            answer throws(SandboxError) in
            guard let list = (answer as? [String: Any])?["requests"] as? [[String: Any]] else {
                throw SandboxError("unexpected /_sandbox/requests response")
            }
            return try list.map { entry throws(SandboxError) in try Self.recordedRequest(entry) }
        }
    }

    private static func eventsCall() -> ControlCall<[[String: Any]]> {
        ControlCall(method: "GET", route: "events") { answer throws(SandboxError) in
            guard let events = (answer as? [String: Any])?["events"] as? [[String: Any]] else {
                throw SandboxError("unexpected /_sandbox/events response")
            }
            return events
        }
    }

    private static func profilesCall() -> ControlCall<[[String: Any]]> {
        ControlCall(method: "GET", route: "profiles") { answer throws(SandboxError) in
            guard let profiles = (answer as? [String: Any])?["profiles"] as? [[String: Any]] else {
                throw SandboxError("unexpected /_sandbox/profiles response")
            }
            return profiles
        }
    }

    /// `GET /_sandbox/profile?…`: the profile, or `nil` on 404.
    private static func profileCall(_ identity: URLQueryItem) -> ControlCall<[String: Any]?> {
        ControlCall(method: "GET", route: "profile", query: [identity], notFoundIsNil: true) {
            answer throws(SandboxError) in
            guard let answer else { return nil }
            guard let profile = answer as? [String: Any] else {
                throw SandboxError("unexpected /_sandbox/profile response")
            }
            return profile
        }
    }

    private static func pushUnregisteredCall() -> ControlCall<[String]> {
        ControlCall(method: "GET", route: "push-unregistered") { answer throws(SandboxError) in
            guard let tokens = (answer as? [String: Any])?["tokens"] as? [String] else {
                throw SandboxError("unexpected /_sandbox/push-unregistered response")
            }
            return tokens
        }
    }

    // swift-format-ignore: a parameter list mirroring addFault's
    private static func addFaultCall(
        path: String,
        count: Int,
        status: Int?,
        retryAfter: String?,
        delayMs: Int,
        drop: Bool,
        body: [String: Any]?,
        rejectedIndices: [Int],
        failedIndices: [Int],
        dropAfterProcessing: Bool,
        rejectAttributeKeys: [String]
    ) -> ControlCall<Int> {
        var spec: [String: Any] = ["path": path, "count": count, "delayMs": delayMs, "drop": drop]
        spec["status"] = status
        spec["retryAfter"] = retryAfter
        spec["body"] = body
        if !rejectedIndices.isEmpty { spec["rejectedIndices"] = rejectedIndices }
        if !failedIndices.isEmpty { spec["failedIndices"] = failedIndices }
        if dropAfterProcessing { spec["dropAfterProcessing"] = true }
        if !rejectAttributeKeys.isEmpty { spec["rejectAttributeKeys"] = rejectAttributeKeys }
        return ControlCall(method: "POST", route: "faults", json: spec) { answer throws(SandboxError) in
            guard let id = (answer as? [String: Any])?["id"] as? Int else {
                throw SandboxError("unexpected /_sandbox/faults response")
            }
            return id
        }
    }

    private static func clearFaultsCall() -> ControlCall<Void> {
        ControlCall(method: "DELETE", route: "faults") { _ in }
    }

    private static func configureAuthCall(
        enabled: Bool,
        secret: String,
        strictIdentity: Bool,
        now: Date?
    ) -> ControlCall<Void> {
        let spec: [String: Any] = [
            "enabled": enabled,
            "secret": secret,
            "strictIdentity": strictIdentity,
            "now": now.map { Self.seconds($0) } ?? NSNull(),
        ]
        return ControlCall(method: "POST", route: "auth", json: spec) { _ in }
    }

    private static func mintTokenCall(sub: String, expiresIn: TimeInterval, secret: String?) -> ControlCall<String> {
        var spec: [String: Any] = ["sub": sub, "expiresIn": expiresIn]
        spec["secret"] = secret
        return Self.mintTokenCall(spec)
    }

    /// `POST /_sandbox/auth/token`.
    private static func mintTokenCall(_ spec: [String: Any]) -> ControlCall<String> {
        ControlCall(method: "POST", route: "auth/token", json: spec) { answer throws(SandboxError) in
            guard let token = (answer as? [String: Any])?["token"] as? String else {
                throw SandboxError("unexpected /_sandbox/auth/token response")
            }
            return token
        }
    }

    private static func resetCall() -> ControlCall<Void> {
        ControlCall(method: "POST", route: "reset") { _ in }
    }

    private static func measureCall(_ jsonData: Data) -> ControlCall<Int> {
        ControlCall(method: "POST", route: "measure", rawJSON: jsonData) { answer throws(SandboxError) in
            guard let bytes = (answer as? [String: Any])?["bytes"] as? Int else {
                throw SandboxError("unexpected /_sandbox/measure response")
            }
            return bytes
        }
    }

    /// Seconds since 1970, as an integer when whole (JWT `exp` values usually are).
    private static func seconds(_ date: Date) -> Any {
        let seconds = date.timeIntervalSince1970
        return seconds.rounded(.towardZero) == seconds && abs(seconds) < 1e15 ? Int(seconds) : seconds
    }

    // MARK: - Plumbing

    /// Sends `call` and blocks the calling thread until it is answered; bounded by 15 s.
    private func perform<Value>(_ call: ControlCall<Value>) throws(SandboxError) -> Value {
        let outcome = Locked<Result<Data?, SandboxError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = try self.send(call) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        guard done.wait(timeout: .now() + 15) == .success, let result = outcome.value else {
            task.cancel()
            throw SandboxError("\(call.method) /_sandbox/\(call.route) timed out")
        }
        return try Self.read(result, of: call)
    }

    /// Sends `call` and suspends until it is answered (the request's own 10 s timeout bounds the wait).
    private func perform<Value>(_ call: ControlCall<Value>) async throws(SandboxError) -> Value {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Data?, SandboxError>, Never>) in
            do throws(SandboxError) {
                _ = try self.send(call) { continuation.resume(returning: $0) }
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }
        return try Self.read(result, of: call)
    }

    /// Parses a control answer and hands it to the call's decoder.
    private static func read<Value>(_ result: Result<Data?, SandboxError>, of call: ControlCall<Value>) throws(SandboxError)
        -> Value
    {
        guard let data = try result.get() else {
            return try call.decode(nil)
        }
        let answer: Any
        do {
            answer = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
        } catch {
            throw SandboxError("\(call.method) /_sandbox/\(call.route) returned invalid JSON")
        }
        return try call.decode(answer)
    }

    /// Starts `method /_sandbox/route`; `completion` receives the answer's body exactly once (`nil` for a
    /// 404 when the call allows it), or the failure. Throws when the request cannot be built or the sandbox
    /// is stopped.
    private func send<Value>(
        _ call: ControlCall<Value>,
        completion: @escaping @Sendable (Result<Data?, SandboxError>) -> Void
    ) throws(SandboxError) -> URLSessionDataTask {
        let (method, route, notFoundIsNil) = (call.method, call.route, call.notFoundIsNil)
        var components = URLComponents(
            url: self.baseURL.appendingPathComponent("_sandbox/\(route)"),
            resolvingAgainstBaseURL: false
        )
        if !call.query.isEmpty {
            components?.queryItems = call.query
        }
        guard let url = components?.url else {
            throw SandboxError("cannot build a URL for /_sandbox/\(route)")
        }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 10)
        request.httpMethod = method
        if let json = call.json {
            guard JSONSerialization.isValidJSONObject(json),
                let body = try? JSONSerialization.data(withJSONObject: json)
            else {
                throw SandboxError("\(method) /_sandbox/\(route): the body is not representable as JSON")
            }
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        } else if let rawJSON = call.rawJSON {
            request.httpBody = rawJSON
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let task = self.startTask(request) { data, response, error in
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            let result: Result<Data?, SandboxError> =
                if let error {
                    .failure(SandboxError("\(method) /_sandbox/\(route) failed: \(error)"))
                } else if status == 404 && notFoundIsNil {
                    .success(nil)
                } else if status != 200 {
                    .failure(
                        SandboxError(
                            "\(method) /_sandbox/\(route) answered \(status): "
                                + String(decoding: data ?? Data(), as: UTF8.self)
                        )
                    )
                } else {
                    .success(data ?? Data())
                }
            completion(result)
        }
        guard let task else {
            throw SandboxError("\(method) /_sandbox/\(route): the sandbox is stopped")
        }
        return task
    }

    /// One entry of `GET /_sandbox/requests`.
    private static func recordedRequest(_ entry: [String: Any]) throws(SandboxError) -> RecordedRequest {
        guard let seq = entry["seq"] as? Int, let method = entry["method"] as? String,
            let path = entry["path"] as? String
        else {
            throw SandboxError("a recorded request lacks seq, method or path")
        }
        var bodyJSON: Data?
        if let body = entry["body"], !(body is NSNull) {
            bodyJSON = try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys, .fragmentsAllowed])
        }
        return RecordedRequest(
            seq: seq,
            method: method,
            path: path,
            query: entry["query"] as? String ?? "",
            headers: entry["headers"] as? [String: String] ?? [:],
            gzip: entry["gzip"] as? Bool ?? false,
            rawBytes: entry["rawBytes"] as? Int ?? 0,
            bodyBytes: entry["bodyBytes"] as? Int ?? 0,
            bodyJSON: bodyJSON,
            bodyText: entry["bodyText"] as? String,
            status: entry["status"] as? Int,
            fault: entry["fault"] as? String,
            authSub: entry["authSub"] as? String
        )
    }
}
#endif
