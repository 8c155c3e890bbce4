package import Foundation
internal import JoryioCore
package import JoryioFeature

/// An in-app report or form submission waiting in the feature's ``ReportQueue``: one queue, so
/// they reach the server in the order they were made.
package enum InAppQueuedReport: QueuedReport {
    /// `POST /v1/in-app/track`.
    case track(InAppTrackReport)
    /// `POST /v1/in-app/forms`.
    case form(InAppFormSubmission)

    /// The report's `messageId`.
    package var messageId: String {
        switch self {
        case .track(let report): report.messageId
        case .form(let submission): submission.messageId
        }
    }

    /// The user it belongs to.
    package var userId: String? {
        switch self {
        case .track(let report): report.identity.userId
        case .form(let submission): submission.identity.userId
        }
    }

    /// Its endpoint.
    package var path: String {
        switch self {
        case .track: InAppWire.trackPath
        case .form: InAppWire.formsPath
        }
    }

    /// Never treated as a repeat: each report has its own `messageId`, and the display machine
    /// decides what is reported.
    package var dedupKey: String? { nil }

    /// `in-app displayed`, `in-app form`.
    package var logName: String {
        switch self {
        case .track(let report): "in-app \(report.action.rawValue)"
        case .form: "in-app form"
        }
    }

    /// The body.
    package func body(sentAt: Date) -> [UInt8] {
        switch self {
        case .track(let report): report.body(sentAt: sentAt)
        case .form(let submission): submission.body(sentAt: sentAt)
        }
    }
}

extension InAppReportOutcome {
    /// The same answer in the shared report queue's terms (the refusals of a delivery token are
    /// rejections there too).
    package var reportOutcome: ReportOutcome {
        switch self {
        case .delivered: .delivered
        case .rejected(let status, _): .rejected(status: status)
        case .stopped(let status, let retryAfter): .stopped(status: status, retryAfter: retryAfter)
        case .retry(let error, let retryAfter): .retry(error, retryAfter: retryAfter)
        case .unconfirmed(let error, let retryAfter): .unconfirmed(error, retryAfter: retryAfter)
        }
    }
}
