package import Foundation
package import JoryioCore

/// What the response to one durable write means (wire v2, "SDK handling summary"; DURABLE-6…10).
package enum DurableOutcome: Sendable, Equatable {
    /// `success: true` (including `duplicate: true`): the write is done.
    case delivered
    /// 400, 403, 409, 413, 422: rejected for good; drop it and log (DURABLE-6, GAP-62).
    case rejected(status: Int)
    /// `success: false` or 401: retry with backoff, counted against the write (DURABLE-8).
    case counted(JoryioTransportError, retryAfter: TimeInterval?)
    /// 404 on `/v1/subscriptions`: no profile yet; retry after the queued events, counted (DURABLE-7).
    case profileNotFound(retryAfter: TimeInterval?)
    /// 402: ingestion paused for the workspace (DURABLE-10); never counted.
    case paymentRequired(retryAfter: TimeInterval?)
    /// Offline, timeout, 429, 5xx, 404 elsewhere, 405, anything else: back off, never counted
    /// (DURABLE-9).
    case retry(JoryioTransportError, retryAfter: TimeInterval?)

    /// Classifies the result of sending `write`.
    package static func classify(
        _ result: Result<HTTPResponse, TransportError>,
        for write: DurableWrite,
        now: Date
    ) -> DurableOutcome {
        let response: HTTPResponse
        switch result {
        case .failure(let error):
            return .retry(JoryioTransportError(unanswered: error), retryAfter: nil)
        case .success(let value):
            response = value
        }
        let retryAfter = response.retryAfter(now: now)
        switch response.status {
        case 200..<300:
            // As for events: a 2xx that is not a JSON object did not come from a Joryio server, so
            // nothing says the write was applied. Resending is safe: the server dedupes by writeId.
            guard let body = response.jsonObject else {
                return .retry(.notJoryioResponse, retryAfter: retryAfter)
            }
            if body["success"]?.boolValue == false {
                return .counted(.server(message: body["error"]?.stringValue), retryAfter: retryAfter)
            }
            return .delivered
        case 400, 403, 409, 413, 422:
            return .rejected(status: response.status)
        case 401:
            return .counted(.http(status: 401, body: Self.text(response.body)), retryAfter: retryAfter)
        case 402:
            return .paymentRequired(retryAfter: retryAfter)
        case 404:
            switch write.kind {
            case .subscription, .subscriptionGroup: return .profileNotFound(retryAfter: retryAfter)
            default: return .retry(.http(status: 404, body: Self.text(response.body)), retryAfter: retryAfter)
            }
        default:
            return .retry(.http(status: response.status, body: Self.text(response.body)), retryAfter: retryAfter)
        }
    }

    private static func text(_ body: Data) -> String? {
        body.isEmpty ? nil : String(String(decoding: body.prefix(512), as: UTF8.self))
    }
}
