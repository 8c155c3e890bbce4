#if os(Linux) || os(macOS)
public import Foundation

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
}

extension SandboxServer.RecordedRequest {
    /// One entry of `GET /_sandbox/requests`.
    init(_ entry: [String: Any]) throws(SandboxError) {
        guard let seq = entry["seq"] as? Int, let method = entry["method"] as? String,
            let path = entry["path"] as? String
        else {
            throw SandboxError("a recorded request lacks seq, method or path")
        }
        var bodyJSON: Data?
        if let body = entry["body"], !(body is NSNull) {
            bodyJSON = try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys, .fragmentsAllowed])
        }
        self.init(
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
