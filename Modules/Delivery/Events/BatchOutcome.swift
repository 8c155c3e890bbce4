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
    package static func classify(_ result: Result<HTTPResponse, TransportError>, count: Int, now: Date) -> BatchOutcome {
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
            // A 2xx that is not a JSON object did not come from a Joryio server (a captive portal's
            // login page, a misconfigured proxy): nothing says the batch was stored, so keep it.
            // Resending is safe because the server deduplicates by messageId.
            guard let body = response.jsonObject else {
                return .retry(.notJoryioResponse, retryAfter: retryAfter)
            }
            if body["success"]?.boolValue == false {
                return .retry(.server(message: body["error"]?.stringValue), retryAfter: retryAfter)
            }
            let indices = { (key: String) -> Set<Int> in
                Set((body[key]?.arrayValue ?? []).compactMap { $0.intValue.map(Int.init) }.filter { (0..<count).contains($0) })
            }
            let rejected = indices("rejectedIndices")
            return .delivered(rejected: rejected, failed: indices("failedIndices").subtracting(rejected))
        case 400, 413, 422:
            return .split(status: response.status)
        case 402, 403:
            return .stop(status: response.status)
        default:
            return .retry(.http(status: response.status, body: Self.text(response.body)), retryAfter: retryAfter)
        }
    }

    private static func text(_ body: Data) -> String? {
        body.isEmpty ? nil : String(String(decoding: body.prefix(512), as: UTF8.self))
    }
}
