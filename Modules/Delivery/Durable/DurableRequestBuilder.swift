package import Foundation
package import JoryioCore

/// Builds the one request that carries a ``DurableWrite`` (wire v2, "Durable writes").
///
/// The request goes to the kind's ``DurableWrite/Kind/path`` with its
/// ``DurableWrite/Kind/method``. Every body has `writeId`, `timestamp` (when the write was made),
/// `sentAt` (this attempt) and the identity it is sent with (absent ids are left out), plus the
/// kind's ``DurableWrite/Kind/fields``. Bodies are a few hundred bytes at most, so they are never
/// compressed.
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

    /// The request for `write`, sent with the given ids at `sentAt`.
    package func request(for write: DurableWrite, userId: String?, anonymousId: String?, sentAt: Date) -> HTTPRequest {
        var body = write.kind.fields
        body["writeId"] = .string(write.id)
        body["timestamp"] = .string(JSONTimestamp.string(from: write.timestamp))
        body["sentAt"] = .string(JSONTimestamp.string(from: sentAt))
        body["userId"] = userId.map(JSONValue.string)
        body["anonymousId"] = anonymousId.map(JSONValue.string)
        return HTTPRequest(
            method: write.kind.method,
            url: self.apiHost.appendingPathComponent(write.kind.path),
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
