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
    /// matches a prefix) when given.
    public func requests(path: String? = nil) throws(SandboxError) -> [RecordedRequest] {
        let query = path.map { [URLQueryItem(name: "path", value: $0)] } ?? []
        let object = try self.control("GET", "requests", query: query)
        guard let list = (object as? [String: Any])?["requests"] as? [[String: Any]] else {
            throw SandboxError("unexpected /_sandbox/requests response")
        }
        return try list.map { entry throws(SandboxError) in try Self.recordedRequest(entry) }
    }

    /// The events the sandbox accepted (deduplicated by `messageId`), as JSON objects.
    public func events() throws(SandboxError) -> [[String: Any]] {
        guard let events = (try self.control("GET", "events") as? [String: Any])?["events"] as? [[String: Any]] else {
            throw SandboxError("unexpected /_sandbox/events response")
        }
        return events
    }

    /// The profiles the sandbox holds (protocol v2), oldest first, as `GET /_sandbox/profiles` reports
    /// them: `id`, `userId`, `anonymousIds`, `attributes`, `aliases`, `subscriptions`, `groups`,
    /// `operations`.
    public func profiles() throws(SandboxError) -> [[String: Any]] {
        guard
            let profiles = (try self.control("GET", "profiles") as? [String: Any])?["profiles"] as? [[String: Any]]
        else {
            throw SandboxError("unexpected /_sandbox/profiles response")
        }
        return profiles
    }

    /// The profile a request naming user `userId` resolves to, or `nil` when there is none.
    public func profile(userId: String) throws(SandboxError) -> [String: Any]? {
        try self.profile(URLQueryItem(name: "userId", value: userId))
    }

    /// The profile a request naming only anonymous id `anonymousId` resolves to (the user's profile once
    /// `identify` linked the id), or `nil` when there is none.
    public func profile(anonymousId: String) throws(SandboxError) -> [String: Any]? {
        try self.profile(URLQueryItem(name: "anonymousId", value: anonymousId))
    }

    /// The push tokens unregistered through `POST /v1/push/unregister`, in the order they first arrived.
    public func pushUnregistered() throws(SandboxError) -> [String] {
        guard
            let tokens = (try self.control("GET", "push-unregistered") as? [String: Any])?["tokens"] as? [String]
        else {
            throw SandboxError("unexpected /_sandbox/push-unregistered response")
        }
        return tokens
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
    ) throws(SandboxError) -> Int {
        var spec: [String: Any] = ["path": path, "count": count, "delayMs": delayMs, "drop": drop]
        spec["status"] = status
        spec["retryAfter"] = retryAfter
        spec["body"] = body
        if !rejectedIndices.isEmpty { spec["rejectedIndices"] = rejectedIndices }
        if !failedIndices.isEmpty { spec["failedIndices"] = failedIndices }
        if dropAfterProcessing { spec["dropAfterProcessing"] = true }
        if !rejectAttributeKeys.isEmpty { spec["rejectAttributeKeys"] = rejectAttributeKeys }
        guard let id = (try self.control("POST", "faults", json: spec) as? [String: Any])?["id"] as? Int else {
            throw SandboxError("unexpected /_sandbox/faults response")
        }
        return id
    }

    /// Removes every scripted fault.
    public func clearFaults() throws(SandboxError) {
        _ = try self.control("DELETE", "faults")
    }

    /// Sets the sandbox's SDK authentication (protocol v3): whether it is `enabled`, the HS256 `secret`
    /// tokens are signed with, `strictIdentity` (anonymous requests need a valid token too), and `now`, a
    /// fixed clock for `exp` checks and ``mintToken(sub:expiresIn:secret:)`` (`nil`: real time).
    ///
    /// ``reset()`` turns authentication off again.
    public func configureAuth(
        enabled: Bool = true,
        secret: String = "sandbox-secret",
        strictIdentity: Bool = false,
        now: Date? = nil
    ) throws(SandboxError) {
        let spec: [String: Any] = [
            "enabled": enabled,
            "secret": secret,
            "strictIdentity": strictIdentity,
            "now": now.map { Self.seconds($0) } ?? NSNull(),
        ]
        _ = try self.control("POST", "auth", json: spec)
    }

    /// An HS256 token for user `sub` that expires `expiresIn` seconds after the sandbox's auth clock
    /// (negative: already expired), signed with the configured secret, or with `secret` (then the sandbox
    /// answers it `401 invalid`).
    public func mintToken(sub: String, expiresIn: TimeInterval = 3600, secret: String? = nil) throws(SandboxError)
        -> String
    {
        var spec: [String: Any] = ["sub": sub, "expiresIn": expiresIn]
        spec["secret"] = secret
        return try self.mintToken(spec)
    }

    /// An HS256 token for user `sub` with the absolute expiry `exp`, signed with the configured secret.
    public func mintToken(sub: String, exp: Date) throws(SandboxError) -> String {
        try self.mintToken(["sub": sub, "exp": Self.seconds(exp)])
    }

    /// Forgets recorded requests, events, seen message ids, faults, profiles, remembered Idempotency-Key
    /// answers, applied operation and write ids, and unregistered push tokens; turns SDK authentication off
    /// and clears its settings.
    public func reset() throws(SandboxError) {
        _ = try self.control("POST", "reset")
    }

    /// The canonical size in bytes of the JSON document `jsonData`, as the sandbox measures it.
    ///
    /// The bytes are sent exactly as given (never re-serialised here), so the answer reflects the
    /// server's own measurement of what the SDK produced.
    public func measure(_ jsonData: Data) throws(SandboxError) -> Int {
        guard let bytes = (try self.control("POST", "measure", rawJSON: jsonData) as? [String: Any])?["bytes"] as? Int
        else {
            throw SandboxError("unexpected /_sandbox/measure response")
        }
        return bytes
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
    // MARK: - Plumbing

    /// `POST /_sandbox/auth/token`.
    private func mintToken(_ spec: [String: Any]) throws(SandboxError) -> String {
        guard let token = (try self.control("POST", "auth/token", json: spec) as? [String: Any])?["token"] as? String
        else {
            throw SandboxError("unexpected /_sandbox/auth/token response")
        }
        return token
    }

    /// Seconds since 1970, as an integer when whole (JWT `exp` values usually are).
    private static func seconds(_ date: Date) -> Any {
        let seconds = date.timeIntervalSince1970
        return seconds.rounded(.towardZero) == seconds && abs(seconds) < 1e15 ? Int(seconds) : seconds
    }

    /// `GET /_sandbox/profile?…`: the profile, or `nil` on 404.
    private func profile(_ identity: URLQueryItem) throws(SandboxError) -> [String: Any]? {
        let answer = try self.control("GET", "profile", query: [identity], notFoundIsNil: true)
        guard let answer else {
            return nil
        }
        guard let profile = answer as? [String: Any] else {
            throw SandboxError("unexpected /_sandbox/profile response")
        }
        return profile
    }

    /// Sends `method /_sandbox/route` and returns the parsed JSON answer; bounded by 15 s.
    private func control(
        _ method: String,
        _ route: String,
        query: [URLQueryItem] = [],
        json: Any? = nil,
        rawJSON: Data? = nil
    ) throws(SandboxError) -> Any {
        guard
            let answer = try self.control(
                method,
                route,
                query: query,
                json: json,
                rawJSON: rawJSON,
                notFoundIsNil: false
            )
        else {
            throw SandboxError("\(method) /_sandbox/\(route) answered 404")
        }
        return answer
    }

    /// Sends `method /_sandbox/route` and returns the parsed JSON answer, or `nil` for a 404 when
    /// `notFoundIsNil`; bounded by 15 s.
    private func control(
        _ method: String,
        _ route: String,
        query: [URLQueryItem] = [],
        json: Any? = nil,
        rawJSON: Data? = nil,
        notFoundIsNil: Bool
    ) throws(SandboxError) -> Any? {
        var components = URLComponents(
            url: self.baseURL.appendingPathComponent("_sandbox/\(route)"),
            resolvingAgainstBaseURL: false
        )
        if !query.isEmpty {
            components?.queryItems = query
        }
        guard let url = components?.url else {
            throw SandboxError("cannot build a URL for /_sandbox/\(route)")
        }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 10)
        request.httpMethod = method
        if let json {
            guard JSONSerialization.isValidJSONObject(json),
                let body = try? JSONSerialization.data(withJSONObject: json)
            else {
                throw SandboxError("\(method) /_sandbox/\(route): the body is not representable as JSON")
            }
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        } else if let rawJSON {
            request.httpBody = rawJSON
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }

        let outcome = Locked<Result<Data?, SandboxError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let started = self.startTask(request) { data, response, error in
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
            outcome.withLock { $0 = result }
            done.signal()
        }
        guard let task = started else {
            throw SandboxError("\(method) /_sandbox/\(route): the sandbox is stopped")
        }
        guard done.wait(timeout: .now() + 15) == .success, let result = outcome.value else {
            task.cancel()
            throw SandboxError("\(method) /_sandbox/\(route) timed out")
        }
        guard let data = try result.get() else {
            return nil
        }
        do {
            return try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
        } catch {
            throw SandboxError("\(method) /_sandbox/\(route) returned invalid JSON")
        }
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
