package import Foundation
package import JoryioCore
package import JoryioDelivery

/// What the answer to one receipt or click means (protocol.md, "SDK handling of the version 2
/// endpoints", push receipts and clicks: handled like events, one report per request).
package enum PushReportOutcome: Sendable, Equatable {
    /// The success shape (also `"duplicate": true`): the report is done.
    case delivered
    /// 400, 413, 422: the server will never take it; drop it and log.
    case rejected(status: Int)
    /// 402, 403: keep it, and send no more reports for this instance.
    case stopped(status: Int, retryAfter: TimeInterval?)
    /// `200` with `success: false`, 404, 405, 429, 5xx, no answer: keep, back off, resend it with
    /// the same `messageId`, never before `Retry-After`.
    case retry(JoryioTransportError, retryAfter: TimeInterval?)
    /// Another 2xx (not the success shape): as ``retry(_:retryAfter:)``, one warning per streak.
    case unconfirmed(JoryioTransportError, retryAfter: TimeInterval?)

    /// The reports' table. The SDK-auth 401 never reaches it (``RequestAuthorization`` takes it);
    /// with SDK authentication off, a 401 is retried like a 5xx.
    package static let table = ResponseTable<PushReportOutcome>(
        accepted: { _, _ in .delivered },
        refused: { error, retryAfter in .retry(error, retryAfter: retryAfter) },
        unconfirmed: { error, retryAfter in .unconfirmed(error, retryAfter: retryAfter) },
        retry: { error, retryAfter in .retry(error, retryAfter: retryAfter) }
    )
    .on(400, 413, 422) { status, _, _ in .rejected(status: status) }
    .on(402, 403) { status, _, retryAfter in .stopped(status: status, retryAfter: retryAfter) }

    /// Classifies the answer to a report, received at `now`.
    package static func classify(_ result: Result<HTTPResponse, TransportError>, now: Date) -> PushReportOutcome {
        Self.table.classify(result, now: now)
    }
}

/// Builds the one request that carries a ``PushReport`` (protocol.md 5.11): `POST` to the kind's
/// endpoint with the common headers (``JSONPost``).
package struct PushReportRequestBuilder: Sendable {
    /// The request shared by both kinds, its endpoint replaced per report.
    private let post: JSONPost
    /// The normalised API host (no trailing slash).
    private let apiHost: URL

    /// Creates a builder for the API at `apiHost`.
    package init(
        apiHost: URL,
        sdkKey: String,
        userAgent: String,
        timeout: TimeInterval,
        gzip: @escaping @Sendable (Data) -> Data?
    ) {
        self.apiHost = apiHost
        self.post = JSONPost(endpoint: apiHost, sdkKey: sdkKey, userAgent: userAgent, timeout: timeout, gzip: gzip)
    }

    /// The request for `report`, sent at `sentAt`.
    package func request(for report: PushReport, sentAt: Date) -> HTTPRequest {
        var post = self.post
        post.endpoint = self.apiHost.appendingPathComponent(report.kind.path)
        return post.request(body: report.body(sentAt: sentAt))
    }
}
