#if os(Linux) || os(macOS)
import Foundation
internal import JoryioCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The plumbing of the control API: each control method builds a `ControlCall`, and one request path
// serves both its blocking and its `async` form.

extension SandboxServer {
    /// One control request, `method /_sandbox/route`, and how to read its answer.
    struct ControlCall<Value> {
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

    static func requestsCall(path: String?) -> ControlCall<[RecordedRequest]> {
        ControlCall(method: "GET", route: "requests", query: path.map { [URLQueryItem(name: "path", value: $0)] } ?? [])
        {
            answer throws(SandboxError) in
            guard let list = (answer as? [String: Any])?["requests"] as? [[String: Any]] else {
                throw SandboxError("unexpected /_sandbox/requests response")
            }
            return try list.map { entry throws(SandboxError) in try RecordedRequest(entry) }
        }
    }

    static func eventsCall() -> ControlCall<[[String: Any]]> {
        ControlCall(method: "GET", route: "events") { answer throws(SandboxError) in
            guard let events = (answer as? [String: Any])?["events"] as? [[String: Any]] else {
                throw SandboxError("unexpected /_sandbox/events response")
            }
            return events
        }
    }

    static func profilesCall() -> ControlCall<[[String: Any]]> {
        ControlCall(method: "GET", route: "profiles") { answer throws(SandboxError) in
            guard let profiles = (answer as? [String: Any])?["profiles"] as? [[String: Any]] else {
                throw SandboxError("unexpected /_sandbox/profiles response")
            }
            return profiles
        }
    }

    /// `GET /_sandbox/profile?…`: the profile, or `nil` on 404.
    static func profileCall(_ identity: URLQueryItem) -> ControlCall<[String: Any]?> {
        ControlCall(method: "GET", route: "profile", query: [identity], notFoundIsNil: true) {
            answer throws(SandboxError) in
            guard let answer else { return nil }
            guard let profile = answer as? [String: Any] else {
                throw SandboxError("unexpected /_sandbox/profile response")
            }
            return profile
        }
    }

    static func pushUnregisteredCall() -> ControlCall<[String]> {
        ControlCall(method: "GET", route: "push-unregistered") { answer throws(SandboxError) in
            guard let tokens = (answer as? [String: Any])?["tokens"] as? [String] else {
                throw SandboxError("unexpected /_sandbox/push-unregistered response")
            }
            return tokens
        }
    }

    /// `GET /_sandbox/push-reports[?trackingId=T]`: the receipts and clicks recorded.
    static func pushReportsCall(
        trackingId: String?
    ) -> ControlCall<(receipts: [[String: Any]], clicks: [[String: Any]])> {
        ControlCall(
            method: "GET",
            route: "push-reports",
            query: trackingId.map { [URLQueryItem(name: "trackingId", value: $0)] } ?? []
        ) { answer throws(SandboxError) in
            guard let object = answer as? [String: Any], let receipts = object["receipts"] as? [[String: Any]],
                let clicks = object["clicks"] as? [[String: Any]]
            else {
                throw SandboxError("unexpected /_sandbox/push-reports response")
            }
            return (receipts, clicks)
        }
    }

    // swift-format-ignore: a parameter list mirroring addFault's
    static func addFaultCall(
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
        return Self.addFaultCall(spec)
    }

    /// `POST /_sandbox/faults` with `spec` as given.
    static func addFaultCall(_ spec: [String: Any]) -> ControlCall<Int> {
        ControlCall(method: "POST", route: "faults", json: spec) { answer throws(SandboxError) in
            guard let id = (answer as? [String: Any])?["id"] as? Int else {
                throw SandboxError("unexpected /_sandbox/faults response")
            }
            return id
        }
    }

    static func clearFaultsCall() -> ControlCall<Void> {
        ControlCall(method: "DELETE", route: "faults") { _ in }
    }

    static func configureAuthCall(
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

    static func mintTokenCall(sub: String, expiresIn: TimeInterval, secret: String?) -> ControlCall<String> {
        var spec: [String: Any] = ["sub": sub, "expiresIn": expiresIn]
        spec["secret"] = secret
        return Self.mintTokenCall(spec)
    }

    /// `POST /_sandbox/auth/token`.
    static func mintTokenCall(_ spec: [String: Any]) -> ControlCall<String> {
        ControlCall(method: "POST", route: "auth/token", json: spec) { answer throws(SandboxError) in
            guard let token = (answer as? [String: Any])?["token"] as? String else {
                throw SandboxError("unexpected /_sandbox/auth/token response")
            }
            return token
        }
    }

    static func resetCall() -> ControlCall<Void> {
        ControlCall(method: "POST", route: "reset") { _ in }
    }

    static func measureCall(_ jsonData: Data) -> ControlCall<Int> {
        ControlCall(method: "POST", route: "measure", rawJSON: jsonData) { answer throws(SandboxError) in
            guard let bytes = (answer as? [String: Any])?["bytes"] as? Int else {
                throw SandboxError("unexpected /_sandbox/measure response")
            }
            return bytes
        }
    }

    /// Seconds since 1970, as an integer when whole (JWT `exp` values usually are).
    static func seconds(_ date: Date) -> Any {
        let seconds = date.timeIntervalSince1970
        return seconds.rounded(.towardZero) == seconds && abs(seconds) < 1e15 ? Int(seconds) : seconds
    }

    // MARK: - Plumbing

    /// Sends `call` and blocks the calling thread until it is answered; bounded by 15 s.
    func perform<Value>(_ call: ControlCall<Value>) throws(SandboxError) -> Value {
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
    func perform<Value>(_ call: ControlCall<Value>) async throws(SandboxError) -> Value {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Data?, SandboxError>, Never>) in
            do throws(SandboxError) {
                _ = try self.send(call) { continuation.resume(returning: $0) }
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }
        return try Self.read(result, of: call)
    }

    /// Parses a control answer and hands it to the call's decoder.
    private static func read<Value>(
        _ result: Result<Data?, SandboxError>,
        of call: ControlCall<Value>
    ) throws(SandboxError)
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
}
#endif
