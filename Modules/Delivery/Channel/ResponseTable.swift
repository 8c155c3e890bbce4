package import Foundation
package import JoryioCore

/// How a channel reads the answer to one of its requests: one skeleton for every channel, and a
/// table of what each class of answer means for that channel (wire v2, "SDK handling summary").
///
/// The skeleton:
/// - No answer (offline, timeout, TLS): ``retry`` with the transport error, no `Retry-After`, and
///   `mayHaveApplied: true` (the request may have reached the server).
/// - 2xx whose body is not a JSON object: not a Joryio server (a captive portal, a proxy), so
///   nothing says it was processed: ``retry`` with ``JoryioTransportError/notJoryioResponse`` and
///   `mayHaveApplied: false`.
/// - 2xx with `"success": false`: ``refused``, with the body's `error` as the message.
/// - Any other 2xx: ``accepted``, with the body for the channel to read.
/// - A status the channel lists (``on(_:rule:)``): that rule.
/// - Any other status (429, 5xx, 404 …): ``retry`` with `HTTP <status>` and `mayHaveApplied: true`.
///
/// Every class gets the answer's `Retry-After`, when it has one. The SDK-auth 401 never reaches
/// the table: ``RequestAuthorization/rejection(of:sentWith:)`` takes it first.
package struct ResponseTable<Outcome>: Sendable {
    /// A rule for a listed status: the status, `HTTP <status>` with the body's first 512
    /// characters, and `Retry-After`.
    package typealias StatusRule =
        @Sendable (_ status: Int, _ error: JoryioTransportError, _ retryAfter: TimeInterval?) ->
        Outcome

    /// A 2xx whose body is a JSON object without `"success": false`.
    package var accepted: @Sendable (_ body: JSONValue, _ retryAfter: TimeInterval?) -> Outcome
    /// A 2xx with `"success": false`: the server answered without applying the request.
    package var refused: @Sendable (_ error: JoryioTransportError, _ retryAfter: TimeInterval?) -> Outcome
    /// Everything else; `mayHaveApplied` is false only when a 2xx said nothing a Joryio server says.
    package var retry:
        @Sendable (_ error: JoryioTransportError, _ retryAfter: TimeInterval?, _ mayHaveApplied: Bool) -> Outcome
    /// The channel's rules for particular statuses (never 2xx).
    package var statuses: [Int: StatusRule] = [:]

    /// Creates a table with no status rules; add them with ``on(_:rule:)``.
    package init(
        accepted: @escaping @Sendable (_ body: JSONValue, _ retryAfter: TimeInterval?) -> Outcome,
        refused: @escaping @Sendable (_ error: JoryioTransportError, _ retryAfter: TimeInterval?) -> Outcome,
        retry:
            @escaping @Sendable (_ error: JoryioTransportError, _ retryAfter: TimeInterval?, _ mayHaveApplied: Bool) ->
            Outcome
    ) {
        self.accepted = accepted
        self.refused = refused
        self.retry = retry
    }

    /// This table with `rule` for each of `statuses` (replacing an earlier rule for the same status).
    package func on(_ statuses: Int..., rule: @escaping StatusRule) -> Self {
        var copy = self
        for status in statuses { copy.statuses[status] = rule }
        return copy
    }

    /// What `result`, answered at `now`, means.
    package func classify(_ result: Result<HTTPResponse, TransportError>, now: Date) -> Outcome {
        let response: HTTPResponse
        switch result {
        case .failure(let error):
            return self.retry(JoryioTransportError(unanswered: error), nil, true)
        case .success(let value):
            response = value
        }
        let retryAfter = response.retryAfter(now: now)
        if (200..<300).contains(response.status) {
            guard let body = response.jsonObject else {
                return self.retry(.notJoryioResponse, retryAfter, false)
            }
            if body["success"]?.boolValue == false {
                return self.refused(.server(message: body["error"]?.stringValue), retryAfter)
            }
            return self.accepted(body, retryAfter)
        }
        let error = JoryioTransportError.http(status: response.status, body: Self.text(response.body))
        if let rule = self.statuses[response.status] {
            return rule(response.status, error, retryAfter)
        }
        return self.retry(error, retryAfter, true)
    }

    /// An error body kept for diagnostics: its first 512 bytes as text, `nil` when empty.
    private static func text(_ body: Data) -> String? {
        body.isEmpty ? nil : String(decoding: body.prefix(512), as: UTF8.self)
    }
}
