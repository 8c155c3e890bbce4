package import Foundation
package import JoryioCore

/// What the response to one durable write means (wire v2, "SDK handling summary"; DURABLE-6…10).
package enum DurableOutcome: Sendable, Equatable {
    /// HTTP 200 with `success: true` (including `duplicate: true`): the write is done.
    case delivered
    /// 400, 403, 409, 413, 422: rejected for good; drop it and log (DURABLE-6, GAP-62).
    case rejected(status: Int)
    /// HTTP 200 with `success: false`, or 401: retry with backoff, counted against the write (DURABLE-8).
    case counted(JoryioTransportError, retryAfter: TimeInterval?)
    /// No profile yet (404 on `/v1/subscriptions`, a kind's ``DurableWrite/ResponseRule/afterEvents``):
    /// retry after the queued events, counted (DURABLE-7).
    case profileNotFound(retryAfter: TimeInterval?)
    /// 402: ingestion paused for the workspace (DURABLE-10); never counted.
    case paymentRequired(retryAfter: TimeInterval?)
    /// Offline, timeout, 429, 5xx, 404 elsewhere, 405, anything else: back off, never counted
    /// (DURABLE-9).
    case retry(JoryioTransportError, retryAfter: TimeInterval?)
    /// A 2xx that is not the protocol's success shape: back off as for
    /// ``retry(_:retryAfter:)``, never counted (no Joryio server answered, so the write was not
    /// refused), logged once per failure streak.
    case unconfirmed(JoryioTransportError, retryAfter: TimeInterval?)

    /// Classifies the result of sending `write`.
    ///
    /// Only the success shape (HTTP 200, a JSON object with `"success": true`) completes a write
    /// (docs/protocol.md §4 and §5.4). As for events, any other 2xx did not come from a Joryio
    /// server, so nothing says the write was applied. Resending is safe: the server dedupes by writeId.
    package static func classify(
        _ result: Result<HTTPResponse, TransportError>,
        for write: DurableWrite,
        now: Date
    ) -> DurableOutcome {
        Self.table(for: write.kind).classify(result, now: now)
    }

    /// The durable channel's answers, common to every kind.
    package static let table = ResponseTable<DurableOutcome>(
        accepted: { _, _ in .delivered },
        refused: { error, retryAfter in .counted(error, retryAfter: retryAfter) },
        unconfirmed: { error, retryAfter in .unconfirmed(error, retryAfter: retryAfter) },
        retry: { error, retryAfter in .retry(error, retryAfter: retryAfter) }
    )
    .on(400, 403, 409, 413, 422) { status, _, _ in .rejected(status: status) }
    .on(401) { _, error, retryAfter in .counted(error, retryAfter: retryAfter) }
    .on(402) { _, _, retryAfter in .paymentRequired(retryAfter: retryAfter) }

    /// The answers to a write of `kind`: the common table with the kind's own rules on top.
    package static func table(for kind: DurableWrite.Kind) -> ResponseTable<DurableOutcome> {
        kind.responseRules.reduce(Self.table) { table, entry in
            table.on(entry.key) { status, error, retryAfter in
                switch entry.value {
                case .reject: .rejected(status: status)
                case .countedRetry: .counted(error, retryAfter: retryAfter)
                case .retry: .retry(error, retryAfter: retryAfter)
                case .afterEvents: .profileNotFound(retryAfter: retryAfter)
                }
            }
        }
    }
}
