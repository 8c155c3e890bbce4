package import Foundation
package import JoryioCore

/// What the response to an attribute request means for its writes (wire-v2, "SDK handling summary").
package enum AttributeOutcome: Sendable, Equatable {
    /// HTTP 200 with `"success": true`: the server applied the writes; delete them.
    case confirmed
    /// 400, 413 or 422: resend the writes in halves; a single write is dropped (ATTR-12).
    case split(status: Int)
    /// 403: drop the writes and log (ATTR-16).
    case forbidden
    /// 402: keep everything and stop sending attributes for this instance's life.
    case stop
    /// Keep the writes and back off, never sooner than `retryAfter`. `sameKey` is true when the
    /// server may have applied the request (no answer, 5xx, 429, 404, 405 …), so the retry must repeat
    /// it with the same idempotency key; false after the server's own `success: false`, which
    /// applied nothing and is remembered under the key.
    case retry(JoryioTransportError, retryAfter: TimeInterval?, sameKey: Bool)
    /// A 2xx that is not the protocol's success shape: keep the writes, back off, resend under a new
    /// idempotency key (an answer remembered under the old one would only be replayed; the
    /// operation ids keep a resend from applying twice), and log it once per failure streak.
    case unconfirmed(JoryioTransportError, retryAfter: TimeInterval?)

    /// Classifies the result of an attribute request of `count` operations.
    ///
    /// Only the success shape confirms (docs/protocol.md §4 and §5.3): HTTP 200, a JSON object with
    /// `"success": true`, and `applied` and `duplicates` each absent, `null` or a non-negative
    /// integer, adding up to `count` when both are given.
    package static func classify(
        _ result: Result<HTTPResponse, TransportError>,
        count: Int,
        now: Date
    ) -> AttributeOutcome {
        Self.table(count: count).classify(result, now: now)
    }

    /// The attribute channel's answers to a request of `count` operations.
    package static func table(count: Int) -> ResponseTable<AttributeOutcome> {
        ResponseTable<AttributeOutcome>(
            accepted: { body, retryAfter in
                guard (body.objectValue ?? [:]).countsFit(["applied", "duplicates"], count: count) else {
                    return .unconfirmed(
                        .unconfirmed(
                            "HTTP 200 whose applied and duplicates counts do not add up to the \(count) operations sent"
                        ),
                        retryAfter: retryAfter
                    )
                }
                return .confirmed
            },
            refused: { error, retryAfter in .retry(error, retryAfter: retryAfter, sameKey: false) },
            unconfirmed: { error, retryAfter in .unconfirmed(error, retryAfter: retryAfter) },
            retry: { error, retryAfter in .retry(error, retryAfter: retryAfter, sameKey: true) }
        )
        .on(400, 413, 422) { status, _, _ in .split(status: status) }
        .on(402) { _, _, _ in .stop }
        .on(403) { _, _, _ in .forbidden }
    }
}
