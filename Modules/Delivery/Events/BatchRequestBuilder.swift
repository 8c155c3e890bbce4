package import Foundation
package import JoryioCore

/// Builds the `POST /v1/events` request for stored events (protocol.md, "Event batch").
///
/// Stored payloads are already the compact JSON of each event, so the body is assembled by
/// concatenation: nothing is decoded or re-encoded on the way out.
package struct BatchRequestBuilder: Sendable {
    /// `apiHost` + `/v1/events`.
    package var endpoint: URL
    /// The SDK key sent in `X-Joryio-Sdk-Key`.
    package var sdkKey: String
    /// `User-Agent` value.
    package var userAgent: String
    /// The per-request timeout.
    package var timeout: TimeInterval
    /// Bodies of at least this many bytes are gzip-encoded.
    package var gzipThreshold: Int = 1024
    /// Compresses a body; `nil` when compression failed (the body is then sent as is).
    package var gzip: @Sendable (Data) -> Data?

    /// Creates a builder.
    package init(
        endpoint: URL,
        sdkKey: String,
        userAgent: String,
        timeout: TimeInterval,
        gzip: @escaping @Sendable (Data) -> Data?
    ) {
        self.endpoint = endpoint
        self.sdkKey = sdkKey
        self.userAgent = userAgent
        self.timeout = timeout
        self.gzip = gzip
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
        var headers: [(name: String, value: String)] = [
            ("Content-Type", "application/json"),
            ("X-Joryio-Sdk-Key", self.sdkKey),
            ("User-Agent", self.userAgent),
        ]
        var wire = Data(body)
        if wire.count >= self.gzipThreshold, let compressed = self.gzip(wire) {
            wire = compressed
            headers.append(("Content-Encoding", "gzip"))
        }
        return HTTPRequest(method: "POST", url: self.endpoint, headers: headers, body: wire, timeout: self.timeout)
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
