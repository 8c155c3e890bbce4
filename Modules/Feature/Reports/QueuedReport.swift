package import Foundation
package import JoryioCore
package import JoryioDelivery

/// One data-collecting report that goes in a request of its own (push receipts and clicks,
/// in-app impressions and form submissions): where it goes, its body, the ids of the person it
/// belongs to, and a `messageId` made once and sent on every retry, so the server records it once.
package protocol QueuedReport: Sendable, Equatable, Codable {
    /// Made once, kept on every retry (the server's deduplication key).
    var messageId: String { get }
    /// The user id when the report was recorded: its SDK-auth token is the one sent (AUTH-5).
    var userId: String? { get }
    /// The endpoint's path under the API host.
    var path: String { get }
    /// What a repeat of this report is recognised by (`nil`: never a repeat).
    var dedupKey: String? { get }
    /// A name for logs (`"push receipt"`); never an id or a value.
    var logName: String { get }
    /// The request body, sent at `sentAt`.
    func body(sentAt: Date) -> [UInt8]
}

/// What a report queue keeps in its one secure item: the reports waiting, oldest first, and the
/// dedup keys of the reports recorded most recently.
package struct ReportBook<Report: QueuedReport>: Sendable, Equatable, Codable {
    /// The stored format's version.
    package static var version: Int { 1 }

    /// The stored format's version (``version``).
    package var version = Self.version
    /// The reports waiting, oldest first.
    package var reports: [Report] = []
    /// ``QueuedReport/dedupKey`` of the reports recorded most recently, oldest first.
    package var recent: [String] = []

    /// An empty book.
    package init() {}

    /// The stored bytes.
    package func encoded() -> Data? {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return try? encoder.encode(self)
    }

    /// A book read from `data`, or `nil` when it is not one this version can read.
    package static func decode(_ data: Data) -> Self? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        guard let book = try? decoder.decode(Self.self, from: data), book.version == Self.version else {
            return nil
        }
        return book
    }
}

/// What the answer to one report means (protocol.md, "SDK handling of the version 2 endpoints":
/// reports are handled like events, one report per request).
package enum ReportOutcome: Sendable, Equatable {
    /// The success shape (also `"duplicate": true`): the report is done.
    case delivered
    /// 400, 413, 422: the server will never take it; drop it and log.
    case rejected(status: Int)
    /// 402, 403: keep it, and send no more reports of this queue for this instance.
    case stopped(status: Int, retryAfter: TimeInterval?)
    /// `200` with `success: false`, 404, 405, 429, 5xx, no answer: keep, back off, resend it with
    /// the same `messageId`, never before `Retry-After`.
    case retry(JoryioTransportError, retryAfter: TimeInterval?)
    /// Another 2xx (not the success shape): as ``retry(_:retryAfter:)``, one warning per streak.
    case unconfirmed(JoryioTransportError, retryAfter: TimeInterval?)

    /// The reports' table. The SDK-auth 401 never reaches it (``RequestAuthorization`` takes it);
    /// with SDK authentication off, a 401 is retried like a 5xx.
    package static let table = ResponseTable<ReportOutcome>(
        accepted: { _, _ in .delivered },
        refused: { error, retryAfter in .retry(error, retryAfter: retryAfter) },
        unconfirmed: { error, retryAfter in .unconfirmed(error, retryAfter: retryAfter) },
        retry: { error, retryAfter in .retry(error, retryAfter: retryAfter) }
    )
    .on(400, 413, 422) { status, _, _ in .rejected(status: status) }
    .on(402, 403) { status, _, retryAfter in .stopped(status: status, retryAfter: retryAfter) }

    /// Classifies the answer to a report, received at `now`.
    package static func classify(_ result: Result<HTTPResponse, TransportError>, now: Date) -> ReportOutcome {
        Self.table.classify(result, now: now)
    }
}

/// Builds the one request that carries a report: `POST` to its path with the common headers
/// (``JSONPost``).
package struct ReportRequestBuilder: Sendable {
    /// The request shared by every report, its endpoint replaced per report.
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
    package func request(for report: some QueuedReport, sentAt: Date) -> HTTPRequest {
        var post = self.post
        post.endpoint = self.apiHost.appendingPathComponent(report.path)
        return post.request(body: report.body(sentAt: sentAt))
    }
}
