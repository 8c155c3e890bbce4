public import Foundation

/// An HTTP request as the SDK hands it to a ``Transport``.
public struct HTTPRequest: Sendable, Equatable {
    /// `GET`, `POST`, `PUT`, `DELETE` …
    public var method: String
    /// The absolute URL.
    public var url: URL
    /// Header fields in the order they are sent.
    public var headers: [(name: String, value: String)]
    /// The body bytes (already gzip-encoded when `Content-Encoding: gzip` is set).
    public var body: Data?
    /// How long the whole exchange may take before it fails with ``TransportError/Code/timeout``.
    public var timeout: TimeInterval

    /// Creates a request.
    public init(
        method: String,
        url: URL,
        headers: [(name: String, value: String)] = [],
        body: Data? = nil,
        timeout: TimeInterval = 10
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// The first value of the header `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        self.headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Requests are equal when every field, including header order, is equal.
    public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        lhs.method == rhs.method && lhs.url == rhs.url && lhs.body == rhs.body && lhs.timeout == rhs.timeout
            && lhs.headers.elementsEqual(rhs.headers) { $0.name == $1.name && $0.value == $1.value }
    }
}

/// An HTTP response: any status, including 4xx and 5xx, is a response, not an error.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code, such as 200 or 503.
    public var status: Int
    /// Header fields with lowercased names; repeated fields are joined with `, `.
    public var headers: [String: String]
    /// The response body.
    public var body: Data

    /// Creates a response; header names are lowercased.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { first, second in
            first + ", " + second
        }
        self.body = body
    }

    /// The value of the header `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        self.headers[name.lowercased()]
    }

    /// How long the server asked the client to wait, from `Retry-After` (seconds or an HTTP date).
    public func retryAfter(now: Date) -> TimeInterval? {
        self.header("Retry-After").flatMap { RetryAfter.parse($0, now: now) }
    }
}

/// A request that got no HTTP response.
public struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why no response arrived. New codes may be added without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: String, Hashable, Sendable {
            case timeout, cannotConnect, connectionLost, tls, invalidRequest, cancelled, other
        }
        private let wrapped: Wrapped

        /// The request took longer than its timeout.
        public static let timeout = Code(wrapped: .timeout)
        /// The host could not be resolved or refused the connection.
        public static let cannotConnect = Code(wrapped: .cannotConnect)
        /// The connection closed before a complete response arrived.
        public static let connectionLost = Code(wrapped: .connectionLost)
        /// TLS negotiation or certificate verification failed.
        public static let tls = Code(wrapped: .tls)
        /// The request could not be built (bad URL, unsupported scheme).
        public static let invalidRequest = Code(wrapped: .invalidRequest)
        /// The transport was shut down before the request finished.
        public static let cancelled = Code(wrapped: .cancelled)
        /// Any other failure.
        public static let other = Code(wrapped: .other)

        /// The code's name, such as `timeout`.
        public var description: String { self.wrapped.rawValue }
    }

    /// The kind of failure.
    public var code: Code
    /// Details from the HTTP stack; never contains request bodies or credentials.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `TransportError(code): message`.
    public var description: String { "TransportError(\(self.code)): \(self.message)" }
}

/// Sends HTTP requests off the caller's thread.
///
/// `send` returns at once; `completion` runs exactly once, on a transport thread, with the response
/// or the reason there is none. The SDK never waits on the network from its engine.
public protocol Transport: Sendable {
    /// Starts `request` and reports its outcome to `completion`.
    func send(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void)
}
