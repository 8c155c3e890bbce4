package import JoryioCore

/// Why the most recent request failed (``Joryio/lastTransportError``, BATCH-16, GAP-47).
public enum JoryioTransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No response arrived: the host was unreachable, the connection dropped or TLS failed.
    case network(String)
    /// No response arrived within `requestTimeout`.
    case timeout
    /// The server answered with a non-success status; `body` is its text, cut to 512 characters.
    case http(status: Int, body: String?)
    /// The answer was 2xx without confirming the request: the server's `success: false`, or a 2xx
    /// that is not the protocol's success shape (as from a proxy or gateway). What was sent is kept.
    ///
    /// `message` is the server's `error`, or what was wrong with the answer: another 2xx status, a
    /// body that is not a JSON object, `success` missing or not `true`, index lists or counts that
    /// do not fit the request.
    case server(message: String?)

    /// Whether the SDK retries after this failure (everything except permanent rejections).
    public var isRetryable: Bool {
        switch self {
        case .network, .timeout, .server: true
        case .http(let status, _): !(status == 400 || status == 402 || status == 403 || status == 413 || status == 422)
        }
    }

    /// A short description such as `HTTP 503`.
    public var description: String {
        switch self {
        case .network(let message): "network error: \(message)"
        case .timeout: "request timed out"
        case .http(let status, _): "HTTP \(status)"
        case .server(let message): "server reported failure\(message.map { ": \($0)" } ?? "")"
        }
    }
}

extension JoryioTransportError {
    /// A request that got no answer: a timeout, or any other network failure.
    package init(unanswered error: TransportError) {
        self = error.code == .timeout ? .timeout : .network(error.description)
    }

    /// A 200 whose body is not a JSON object did not come from a Joryio server (a captive portal, a
    /// misconfigured proxy): nothing says the request was processed.
    package static let notJoryioResponse = Self.unconfirmed("HTTP 200 with a body that is not a JSON object")

    /// A 2xx that is not the protocol's success shape, for `reason` (which starts `HTTP <status>`).
    package static func unconfirmed(_ reason: String) -> Self {
        .server(message: reason)
    }
}

extension HTTPResponse {
    /// The body as a JSON object, or `nil` when it is not one (see ``JoryioTransportError/notJoryioResponse``).
    package var jsonObject: JSONValue? {
        guard let body = JSONValue.parse(self.body), body.objectValue != nil else { return nil }
        return body
    }
}
