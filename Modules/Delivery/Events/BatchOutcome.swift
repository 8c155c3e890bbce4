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
    /// A 2xx that is not the protocol's success shape for this batch: keep everything, back off as
    /// for ``retry(_:retryAfter:)``, and log it once per failure streak, not once per retry.
    case unconfirmed(JoryioTransportError, retryAfter: TimeInterval?)
    /// 402 or 403: stop sending events for the rest of the session, keeping them (BATCH-10).
    case stop(status: Int)

    /// Classifies the result of sending a batch of `count` events.
    ///
    /// Only the success shape deletes events (docs/protocol.md §4 and §5.1): HTTP 200, a JSON
    /// object with `"success": true`, `rejectedIndices` and `failedIndices` each absent, `null` or
    /// a list of distinct positions of this batch (JSON integers) that do not overlap, and
    /// `accepted` and `duplicates` each absent, `null` or a non-negative integer, adding up with
    /// the two lists to `count` when both are given. Anything else could be an answer to another
    /// request or no answer of the server at all, so the events are kept: resending is safe because
    /// the server deduplicates by messageId.
    package static func classify(_ result: Result<HTTPResponse, TransportError>, count: Int, now: Date) -> BatchOutcome
    {
        Self.table(count: count).classify(result, now: now)
    }

    /// The event channel's answers to a batch of `count` events.
    package static func table(count: Int) -> ResponseTable<BatchOutcome> {
        ResponseTable(
            accepted: { body, retryAfter in
                guard let rejected = Self.positions(body["rejectedIndices"], count: count),
                    let failed = Self.positions(body["failedIndices"], count: count),
                    rejected.isDisjoint(with: failed)
                else {
                    return .unconfirmed(
                        .unconfirmed(
                            "HTTP 200 whose rejectedIndices or failedIndices are not positions of the \(count) events sent"
                        ),
                        retryAfter: retryAfter
                    )
                }
                guard
                    (body.objectValue ?? [:]).countsFit(
                        ["accepted", "duplicates"],
                        count: count,
                        listed: rejected.count + failed.count
                    )
                else {
                    return .unconfirmed(
                        .unconfirmed(
                            "HTTP 200 whose accepted and duplicates counts do not add up to the \(count) events sent"
                        ),
                        retryAfter: retryAfter
                    )
                }
                return .delivered(rejected: rejected, failed: failed)
            },
            refused: { error, retryAfter in .retry(error, retryAfter: retryAfter) },
            unconfirmed: { error, retryAfter in .unconfirmed(error, retryAfter: retryAfter) },
            retry: { error, retryAfter in .retry(error, retryAfter: retryAfter) }
        )
        .on(400, 413, 422) { status, _, _ in .split(status: status) }
        .on(402, 403) { status, _, _ in .stop(status: status) }
    }

    /// An index list of a success body: empty when absent or `null`; `nil` unless it is a list of
    /// distinct JSON integers in `0..<count`.
    private static func positions(_ value: JSONValue?, count: Int) -> Set<Int>? {
        guard let value, !value.isNull else { return [] }
        guard let elements = value.arrayValue else { return nil }
        var positions = Set<Int>()
        for element in elements {
            guard case .int(let index) = element, index >= 0, index < count,
                positions.insert(Int(index)).inserted
            else { return nil }
        }
        return positions
    }
}
