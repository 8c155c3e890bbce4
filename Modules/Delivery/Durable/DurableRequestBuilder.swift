package import Foundation
package import JoryioCore

/// Builds the one request that carries a ``DurableWrite`` (wire v2, "Durable writes").
///
/// Every body has `writeId`, `timestamp` (when the write was made), `sentAt` (this attempt) and the
/// identity it is sent with (absent ids are left out), plus the fields of its kind. Bodies are a
/// few hundred bytes at most, so they are never compressed.
package struct DurableRequestBuilder: Sendable {
    /// The normalised `apiHost` (no trailing slash); endpoints are appended to it.
    package var apiHost: URL
    /// The SDK key sent in `X-Joryio-Sdk-Key`.
    package var sdkKey: String
    /// `User-Agent` value.
    package var userAgent: String
    /// The per-request timeout.
    package var timeout: TimeInterval

    /// Creates a builder.
    package init(apiHost: URL, sdkKey: String, userAgent: String, timeout: TimeInterval) {
        self.apiHost = apiHost
        self.sdkKey = sdkKey
        self.userAgent = userAgent
        self.timeout = timeout
    }

    /// The endpoint path for a kind of write, relative to `apiHost`.
    package static func path(for kind: DurableWrite.Kind) -> String {
        switch kind {
        case .identify: "v1/identify"
        case .alias: "v1/alias"
        case .subscription, .subscriptionGroup: "v1/subscriptions"
        case .optOutRecord: "v1/opt-out"
        case .pushUnregister: "v1/push/unregister"
        }
    }

    /// The request for `write`, sent with the given ids at `sentAt`.
    package func request(for write: DurableWrite, userId: String?, anonymousId: String?, sentAt: Date) -> HTTPRequest {
        var body: [String: JSONValue] = [
            "writeId": .string(write.id),
            "timestamp": .string(JSONTimestamp.string(from: write.timestamp)),
            "sentAt": .string(JSONTimestamp.string(from: sentAt)),
        ]
        if let userId { body["userId"] = .string(userId) }
        if let anonymousId { body["anonymousId"] = .string(anonymousId) }
        switch write.kind {
        case .identify:
            break
        case .alias(let label, let name):
            body["label"] = .string(label)
            body["name"] = .string(name)
        case .subscription(let channel, let status):
            body["channel"] = .string(channel)
            body["status"] = .string(status)
        case .subscriptionGroup(let channel, let groupId, let join):
            body["channel"] = .string(channel)
            body["groupId"] = .string(groupId)
            body["action"] = join ? "join" : "leave"
        case .optOutRecord(let optedOut):
            body["optedOut"] = .bool(optedOut)
        case .pushUnregister(let token):
            body["token"] = .string(token)
        }
        return HTTPRequest(
            method: "POST",
            url: self.apiHost.appendingPathComponent(Self.path(for: write.kind)),
            headers: [
                ("Content-Type", "application/json"),
                ("X-Joryio-Sdk-Key", self.sdkKey),
                ("User-Agent", self.userAgent),
            ],
            body: JSONValue.object(body).encoded(),
            timeout: self.timeout
        )
    }
}
