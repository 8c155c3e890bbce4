package import Foundation
package import JoryioCore

/// What the response to an attribute request means for its writes (wire-v2, "SDK handling summary").
package enum AttributeOutcome: Sendable, Equatable {
    /// 2xx with `"success": true`: the server applied the writes; delete them.
    case confirmed
    /// 400, 413 or 422: resend the writes in halves; a single write is dropped (ATTR-12).
    case split(status: Int)
    /// 403: drop the writes and log (ATTR-16).
    case forbidden
    /// 402: keep everything and stop sending attributes for this instance's life.
    case stop
    /// Keep the writes and back off, never sooner than `retryAfter`. `sameKey` is true when the
    /// server may have applied the request (no answer, 5xx, 429, 404, 405 …), so the retry must repeat
    /// it with the same idempotency key; false when the server answered 2xx without confirming,
    /// which applied nothing.
    case retry(JoryioTransportError, retryAfter: TimeInterval?, sameKey: Bool)

    /// Classifies the result of an attribute request.
    package static func classify(_ result: Result<HTTPResponse, TransportError>, now: Date) -> AttributeOutcome {
        Self.table.classify(result, now: now)
    }

    /// The attribute channel's answers: only `"success": true` confirms.
    package static let table = ResponseTable<AttributeOutcome>(
        accepted: { body, retryAfter in
            if body["success"]?.boolValue == true { return .confirmed }
            return .retry(.server(message: body["error"]?.stringValue), retryAfter: retryAfter, sameKey: false)
        },
        refused: { error, retryAfter in .retry(error, retryAfter: retryAfter, sameKey: false) },
        retry: { error, retryAfter, mayHaveApplied in .retry(error, retryAfter: retryAfter, sameKey: mayHaveApplied) }
    )
    .on(400, 413, 422) { status, _, _ in .split(status: status) }
    .on(402) { _, _, _ in .stop }
    .on(403) { _, _, _ in .forbidden }
}
