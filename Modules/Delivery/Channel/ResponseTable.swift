package import Foundation
package import JoryioCore

/// How a channel reads the answer to one of its requests: one skeleton for every channel, and a
/// table of what each class of answer means for that channel (wire v2, "SDK handling summary").
///
/// The skeleton (docs/protocol.md §4, "What counts as a success"):
/// - No answer (offline, timeout, TLS): ``retry``, no `Retry-After`.
/// - HTTP 200 with a JSON object whose `success` is the JSON literal `true`: ``accepted``, with the
///   body for the channel to read (a channel may still find that the body does not fit its
///   request and answer its own "unconfirmed" outcome).
/// - HTTP 200 with `"success": false`: ``refused``, with the body's `error` as the message: the
///   server answered without applying the request.
/// - Any other 2xx (another status, a body that is not a JSON object, `success` missing or not a
///   boolean): ``unconfirmed``. No Joryio server answers that way (a proxy, a gateway, a captive
///   portal did), so nothing says the request was or was not applied: the channel keeps what it
///   sent and retries; the servers deduplicate the resend.
/// - A status the channel lists (``on(_:rule:)``): that rule.
/// - Any other status (429, 5xx, 404 …): ``retry`` with `HTTP <status>`.
///
/// Every class gets the answer's `Retry-After`, when it has one. The SDK-auth 401 never reaches
/// the table: ``RequestAuthorization/rejection(of:sentWith:)`` takes it first.
package struct ResponseTable<Outcome>: Sendable {
    /// A rule for a listed status: the status, `HTTP <status>` with the body's first 512
    /// characters, and `Retry-After`.
    package typealias StatusRule =
        @Sendable (_ status: Int, _ error: JoryioTransportError, _ retryAfter: TimeInterval?) ->
        Outcome

    /// HTTP 200 whose body is a JSON object with `"success": true`.
    package var accepted: @Sendable (_ body: JSONValue, _ retryAfter: TimeInterval?) -> Outcome
    /// HTTP 200 with `"success": false`: the server answered without applying the request.
    package var refused: @Sendable (_ error: JoryioTransportError, _ retryAfter: TimeInterval?) -> Outcome
    /// Any other 2xx: not an answer of the Joryio API, which neither confirms nor refuses anything.
    package var unconfirmed: @Sendable (_ error: JoryioTransportError, _ retryAfter: TimeInterval?) -> Outcome
    /// No answer, or a status without a rule: the request may have been applied.
    package var retry: @Sendable (_ error: JoryioTransportError, _ retryAfter: TimeInterval?) -> Outcome
    /// The channel's rules for particular statuses (never 2xx).
    package var statuses: [Int: StatusRule] = [:]

    /// Creates a table with no status rules; add them with ``on(_:rule:)``.
    package init(
        accepted: @escaping @Sendable (_ body: JSONValue, _ retryAfter: TimeInterval?) -> Outcome,
        refused: @escaping @Sendable (_ error: JoryioTransportError, _ retryAfter: TimeInterval?) -> Outcome,
        unconfirmed: @escaping @Sendable (_ error: JoryioTransportError, _ retryAfter: TimeInterval?) -> Outcome,
        retry: @escaping @Sendable (_ error: JoryioTransportError, _ retryAfter: TimeInterval?) -> Outcome
    ) {
        self.accepted = accepted
        self.refused = refused
        self.unconfirmed = unconfirmed
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
            return self.retry(JoryioTransportError(unanswered: error), nil)
        case .success(let value):
            response = value
        }
        let retryAfter = response.retryAfter(now: now)
        if (200..<300).contains(response.status) {
            guard response.status == 200 else {
                return self.unconfirmed(
                    .unconfirmed("HTTP \(response.status) is not an answer of the Joryio API"),
                    retryAfter
                )
            }
            guard let body = response.jsonObject else {
                return self.unconfirmed(.notJoryioResponse, retryAfter)
            }
            switch body["success"] {
            case .bool(true)?: return self.accepted(body, retryAfter)
            case .bool(false)?: return self.refused(.server(message: body["error"]?.stringValue), retryAfter)
            default: return self.unconfirmed(.unconfirmed(#"HTTP 200 without "success": true"#), retryAfter)
            }
        }
        let error = JoryioTransportError.http(status: response.status, body: Self.text(response.body))
        if let rule = self.statuses[response.status] {
            return rule(response.status, error, retryAfter)
        }
        return self.retry(error, retryAfter)
    }

    /// An error body kept for diagnostics: its first 512 bytes as text, `nil` when empty.
    private static func text(_ body: Data) -> String? {
        body.isEmpty ? nil : String(decoding: body.prefix(512), as: UTF8.self)
    }
}

extension JSONValue {
    /// A count of a success body (`accepted`, `duplicates`, `applied`): `nil` when absent or
    /// `null`, `.some(nil)` when present but not a non-negative JSON integer.
    package var successCount: Int?? {
        switch self {
        case .null: nil
        case .int(let value): value >= 0 ? Int(exactly: value) : .some(nil)
        default: .some(nil)
        }
    }
}

extension [String: JSONValue] {
    /// Whether the counts `keys` of a success body are consistent with a request of `count`
    /// items plus `listed` items reported elsewhere: each absent, `null` or a non-negative
    /// integer, and when all are present their sum plus `listed` is `count`.
    package func countsFit(_ keys: [String], count: Int, listed: Int = 0) -> Bool {
        var sum = listed
        var all = true
        for key in keys {
            switch self[key]?.successCount {
            case nil: all = false
            case .some(nil): return false
            case .some(let value?): sum += value
            }
        }
        return !all || sum == count
    }
}
