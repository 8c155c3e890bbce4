package import Foundation
package import JoryioCore

/// What every channel's JSON `POST` shares (protocol.md §2): the endpoint, the SDK key in
/// `X-Joryio-Sdk-Key`, `User-Agent`, the per-request timeout, and gzip for bodies of at least
/// ``gzipThreshold`` bytes. Each channel's builder writes its own body and extra headers.
package struct JSONPost: Sendable {
    /// Where the request goes.
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

    /// Creates the shared part of a channel's requests.
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

    /// The request carrying `body`, with the common headers, then `extraHeaders`, compressed when
    /// large enough.
    package func request(body: [UInt8], extraHeaders: [(name: String, value: String)] = []) -> HTTPRequest {
        var headers: [(name: String, value: String)] = [
            ("Content-Type", "application/json"),
            ("X-Joryio-Sdk-Key", self.sdkKey),
            ("User-Agent", self.userAgent),
        ]
        headers += extraHeaders
        var wire = Data(body)
        if wire.count >= self.gzipThreshold, let compressed = self.gzip(wire) {
            wire = compressed
            headers.append(("Content-Encoding", "gzip"))
        }
        return HTTPRequest(method: "POST", url: self.endpoint, headers: headers, body: wire, timeout: self.timeout)
    }
}
