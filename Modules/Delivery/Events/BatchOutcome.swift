package import Foundation
package import JoryioCore

/// What the response to an event batch means for the events in it (ARCHITECTURE §4).
package enum BatchOutcome: Sendable, Equatable {
    /// Accepted. Events at `rejected` indices are dropped (BATCH-8); events at `failed` indices are
    /// kept and retried (BATCH-7); the rest are delivered.
    case delivered(rejected: Set<Int>, failed: Set<Int>)
    /// 400, 413 or 422: split the batch and resend the halves; a single event is dropped (BATCH-6).
    case split(status: Int)
    /// Keep everything and back off, at least `retryAfter` seconds when the server said so (BATCH-9).
    case retry(JoryioTransportError, retryAfter: TimeInterval?)
    /// 402 or 403: stop sending events for the rest of the session, keeping them (BATCH-10).
    case stop(status: Int)

    /// Classifies the result of sending a batch of `count` events.
    ///
    /// A 2xx that is not a JSON object did not come from a Joryio server (a captive portal's login
    /// page, a misconfigured proxy): nothing says the batch was stored, so it is kept. Resending is
    /// safe because the server deduplicates by messageId.
    package static func classify(_ result: Result<HTTPResponse, TransportError>, count: Int, now: Date) -> BatchOutcome
    {
        Self.table(count: count).classify(result, now: now)
    }

    /// The event channel's answers to a batch of `count` events.
    package static func table(count: Int) -> ResponseTable<BatchOutcome> {
        ResponseTable(
            accepted: { body, _ in
                let indices = { (key: String) -> Set<Int> in
                    Set(
                        (body[key]?.arrayValue ?? []).compactMap { $0.intValue.map(Int.init) }
                            .filter { (0..<count).contains($0) }
                    )
                }
                let rejected = indices("rejectedIndices")
                return .delivered(rejected: rejected, failed: indices("failedIndices").subtracting(rejected))
            },
            refused: { error, retryAfter in .retry(error, retryAfter: retryAfter) },
            retry: { error, retryAfter, _ in .retry(error, retryAfter: retryAfter) }
        )
        .on(400, 413, 422) { status, _, _ in .split(status: status) }
        .on(402, 403) { status, _, _ in .stop(status: status) }
    }
}
