package import Foundation
package import JoryioCore
package import JoryioDelivery

/// Builds the in-app requests (protocol.md, "In-app messages"): `POST` to the endpoint with the
/// common headers (``JSONPost``).
package struct InAppRequestBuilder: Sendable {
    /// The request shared by the three endpoints, its endpoint replaced per request.
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

    /// `POST /v1/in-app/sync`, sent at `sentAt`.
    package func sync(_ request: InAppSyncRequest, sentAt: Date) -> HTTPRequest {
        self.request(InAppWire.syncPath, body: request.body(sentAt: sentAt))
    }

    /// `POST /v1/in-app/track` carrying `report`, sent at `sentAt`.
    package func track(_ report: InAppTrackReport, sentAt: Date) -> HTTPRequest {
        self.request(InAppWire.trackPath, body: report.body(sentAt: sentAt))
    }

    /// `POST /v1/in-app/forms` carrying `submission`, sent at `sentAt`.
    package func form(_ submission: InAppFormSubmission, sentAt: Date) -> HTTPRequest {
        self.request(InAppWire.formsPath, body: submission.body(sentAt: sentAt))
    }

    private func request(_ path: String, body: [UInt8]) -> HTTPRequest {
        var post = self.post
        post.endpoint = self.apiHost.appendingPathComponent(path)
        return post.request(body: body)
    }
}

/// What the answer to one in-app report (`/v1/in-app/track`) or form submission
/// (`/v1/in-app/forms`) means (protocol.md, "In-app messages", SDK handling): like push reports,
/// one report per request, plus the delivery-token refusals, which are permanent.
package enum InAppReportOutcome: Sendable, Equatable {
    /// The success shape (also `"duplicate": true`): the report is done.
    case delivered
    /// 400, 413, 422, or `200` with `success: false` and the error ``InAppWire/deliveryTokenRequired``:
    /// the server will never take it (a missing, forged, tampered or expired delivery token, a
    /// malformed body); drop it and log `error`.
    case rejected(status: Int, error: String?)
    /// 402, 403: keep it, and send no more in-app reports for this instance.
    case stopped(status: Int, retryAfter: TimeInterval?)
    /// `200` with another `success: false`, 404, 405, 429, 5xx, no answer: keep, back off, resend it
    /// with the same `messageId`, never before `Retry-After`.
    case retry(JoryioTransportError, retryAfter: TimeInterval?)
    /// Another 2xx (not the success shape): as ``retry(_:retryAfter:)``, one warning per streak.
    case unconfirmed(JoryioTransportError, retryAfter: TimeInterval?)

    /// The reports' table. The SDK-auth 401 never reaches it (``RequestAuthorization`` takes it);
    /// the delivery-token refusals are 400 and 422, never 401, so they cannot be taken for one.
    package static let table = ResponseTable<InAppReportOutcome>(
        accepted: { _, _ in .delivered },
        refused: { error, retryAfter in
            if case .server(let message) = error, message == InAppWire.deliveryTokenRequired {
                return .rejected(status: 200, error: message)
            }
            return .retry(error, retryAfter: retryAfter)
        },
        unconfirmed: { error, retryAfter in .unconfirmed(error, retryAfter: retryAfter) },
        retry: { error, retryAfter in .retry(error, retryAfter: retryAfter) }
    )
    .on(400, 413, 422) { status, error, _ in .rejected(status: status, error: InAppWire.errorString(of: error)) }
    .on(402, 403) { status, _, retryAfter in .stopped(status: status, retryAfter: retryAfter) }

    /// Classifies the answer to a report or form submission, received at `now`.
    package static func classify(_ result: Result<HTTPResponse, TransportError>, now: Date) -> InAppReportOutcome {
        Self.table.classify(result, now: now)
    }
}

/// What the answer to a sync (`/v1/in-app/sync`) means. A sync changes nothing on the server, so
/// nothing is kept for a resend: a failed sync leaves the campaigns the SDK has, and the next
/// trigger (or the backoff the feature chooses) syncs again.
package enum InAppSyncOutcome: Sendable, Equatable {
    /// The success shape with a `campaigns` array: the new campaigns and rules (``InAppSyncAnswer``).
    case synced(InAppSyncAnswer)
    /// The success shape without a usable `campaigns` array: keep what the SDK has, log the reason.
    case unusable(InAppWireProblem)
    /// 400, 413, 422: the server refuses this request as built; keep the campaigns, log, do not
    /// retry before the next trigger.
    case rejected(status: Int, error: String?)
    /// 402, 403: no more syncs for this instance (as for the other channels).
    case stopped(status: Int, retryAfter: TimeInterval?)
    /// `200` with `success: false`, 404, 405, 429, 5xx, no answer: keep the campaigns, retry later,
    /// never before `Retry-After`.
    case retry(JoryioTransportError, retryAfter: TimeInterval?)
    /// Another 2xx (not the success shape): as ``retry(_:retryAfter:)``.
    case unconfirmed(JoryioTransportError, retryAfter: TimeInterval?)

    /// The table for an answer received at `receivedAt` (the device time the campaigns' times are
    /// moved to).
    package static func table(receivedAt: Date) -> ResponseTable<InAppSyncOutcome> {
        ResponseTable<InAppSyncOutcome>(
            accepted: { body, _ in
                switch InAppWire.decodeSyncAnswer(body, receivedAt: receivedAt) {
                case .success(let answer): .synced(answer)
                case .failure(let problem): .unusable(problem)
                }
            },
            refused: { error, retryAfter in .retry(error, retryAfter: retryAfter) },
            unconfirmed: { error, retryAfter in .unconfirmed(error, retryAfter: retryAfter) },
            retry: { error, retryAfter in .retry(error, retryAfter: retryAfter) }
        )
        .on(400, 413, 422) { status, error, _ in .rejected(status: status, error: InAppWire.errorString(of: error)) }
        .on(402, 403) { status, _, retryAfter in .stopped(status: status, retryAfter: retryAfter) }
    }

    /// Classifies the answer to a sync, received at `now`.
    package static func classify(_ result: Result<HTTPResponse, TransportError>, now: Date) -> InAppSyncOutcome {
        Self.table(receivedAt: now).classify(result, now: now)
    }
}

extension InAppWire {
    /// The `error` string of an HTTP error answer's body (its first 512 characters), for the log.
    package static func errorString(of error: JoryioTransportError) -> String? {
        guard case .http(_, let body?) = error, let json = JSONValue.parse(Data(body.utf8)) else { return nil }
        return json["error"]?.stringValue
    }
}
