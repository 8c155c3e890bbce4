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
        let response: HTTPResponse
        switch result {
        case .failure(let error):
            return .retry(
                JoryioTransportError(unanswered: error),
                retryAfter: nil,
                sameKey: true
            )
        case .success(let value):
            response = value
        }
        let retryAfter = response.retryAfter(now: now)
        switch response.status {
        case 200..<300:
            guard let body = response.jsonObject else {
                return .retry(
                    .notJoryioResponse,
                    retryAfter: retryAfter,
                    sameKey: false
                )
            }
            if body["success"]?.boolValue == true { return .confirmed }
            return .retry(.server(message: body["error"]?.stringValue), retryAfter: retryAfter, sameKey: false)
        case 400, 413, 422:
            return .split(status: response.status)
        case 402:
            return .stop
        case 403:
            return .forbidden
        default:
            let text = response.body.isEmpty ? nil : String(decoding: response.body.prefix(512), as: UTF8.self)
            return .retry(.http(status: response.status, body: text), retryAfter: retryAfter, sameKey: true)
        }
    }
}
