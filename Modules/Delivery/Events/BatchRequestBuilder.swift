package import Foundation
package import JoryioCore

/// Builds the `POST /v1/events` request for stored events (protocol.md, "Event batch").
///
/// Stored payloads are already the compact JSON of each event, so the body is assembled by
/// concatenation: nothing is decoded or re-encoded on the way out.
package struct BatchRequestBuilder: Sendable {
    /// The shared part of every request: `apiHost` + `/v1/events`, the key, the
    /// `User-Agent`, the timeout and gzip.
    package var post: JSONPost

    /// Creates a builder.
    package init(
        endpoint: URL,
        sdkKey: String,
        userAgent: String,
        timeout: TimeInterval,
        gzip: @escaping @Sendable (Data) -> Data?
    ) {
        self.post = JSONPost(endpoint: endpoint, sdkKey: sdkKey, userAgent: userAgent, timeout: timeout, gzip: gzip)
    }

    /// The request carrying `records`, sent at `sentAt`.
    package func request(for records: [QueueRecord], sentAt: Date) -> HTTPRequest {
        var body: [UInt8] = []
        body.reserveCapacity(records.reduce(64) { $0 + $1.payload.count + 1 })
        body += Self.prefix
        JSONValue.encode(string: JSONTimestamp.string(from: sentAt), into: &body)
        body += Self.batchKey
        for (index, record) in records.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body += record.payload
        }
        body += Self.suffix
        return self.post.request(body: body)
    }

    /// The uncompressed size of the envelope around the records (`{"sentAt":…,"batch":[` and `]}`).
    package static func overhead() -> Int {
        Self.prefix.count + 26 + Self.batchKey.count + Self.suffix.count
    }

    /// How many payload bytes a request of at most `limit` records may carry so that its
    /// uncompressed body stays within `bodyBytes`: the envelope and the commas between records
    /// (one fewer than `limit`) come off the budget.
    package static func payloadBudget(bodyBytes: Int, limit: Int) -> Int {
        bodyBytes - Self.overhead() - max(0, limit - 1)
    }

    private static let prefix = Array(#"{"sentAt":"#.utf8)
    private static let batchKey = Array(#","batch":["#.utf8)
    private static let suffix = Array("]}".utf8)
}
