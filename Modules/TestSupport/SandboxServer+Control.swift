#if os(Linux) || os(macOS)
public import Foundation

// MARK: - Control API (`/_sandbox/…`)

extension SandboxServer {
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

    /// The push receipts and clicks recorded (`POST /v1/push/receipt`, `/v1/push/click`), each in
    /// arrival order with the fields as sent; only those of `trackingId` when given. Blocks the
    /// calling thread.
    public func pushReports(
        trackingId: String? = nil
    ) throws(SandboxError) -> (receipts: [[String: Any]], clicks: [[String: Any]]) {
        try self.perform(Self.pushReportsCall(trackingId: trackingId))
    }

    /// The push receipts and clicks recorded (`POST /v1/push/receipt`, `/v1/push/click`), each in
    /// arrival order with the fields as sent; only those of `trackingId` when given.
    public func pushReports(
        trackingId: String? = nil
    ) async throws(SandboxError) -> (receipts: [[String: Any]], clicks: [[String: Any]]) {
        try await self.perform(Self.pushReportsCall(trackingId: trackingId))
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

    /// Scripts the fault `rule`, a JSON object with any fields of `POST /_sandbox/faults`
    /// (docs/protocol.md §6.2), including those ``addFault(path:count:status:retryAfter:delayMs:drop:body:rejectedIndices:failedIndices:dropAfterProcessing:rejectAttributeKeys:)``
    /// has no parameter for (`bodyText`, `contentType`, `statusAfterProcessing`).
    /// - Returns: The fault's id.
    @discardableResult
    package func addFault(rule: [String: Any]) async throws(SandboxError) -> Int {
        try await self.perform(Self.addFaultCall(rule))
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
        try self.perform(
            Self.configureAuthCall(enabled: enabled, secret: secret, strictIdentity: strictIdentity, now: now)
        )
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
    public func mintToken(
        sub: String,
        expiresIn: TimeInterval = 3600,
        secret: String? = nil
    ) throws(SandboxError)
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
#endif
