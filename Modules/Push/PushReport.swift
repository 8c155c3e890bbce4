package import Foundation
internal import JoryioCore
package import JoryioFeature

/// One push receipt or click waiting for the server (protocol.md 5.11): what it reports, the push's
/// `trackingId`, when it happened, and the ids of the person who received the push, taken when it
/// was recorded. Its `messageId` is made once and sent on every retry, so the server records it once.
package struct PushReport: QueuedReport {
    /// Receipt or click.
    package enum Kind: String, Sendable, Equatable, Codable, CaseIterable {
        /// The push reached the app (`POST /v1/push/receipt`).
        case receipt
        /// The person tapped the push (`POST /v1/push/click`).
        case click

        /// The endpoint's path under the API host.
        package var path: String {
            switch self {
            case .receipt: "v1/push/receipt"
            case .click: "v1/push/click"
            }
        }
    }

    /// Receipt or click.
    package var kind: Kind
    /// Made once, kept on every retry (the server's deduplication key).
    package var messageId: String
    /// The push's `joryio.trackingId`.
    package var trackingId: String
    /// When the push arrived or was tapped.
    package var timestamp: Date
    /// The user id when the report was recorded.
    package var userId: String?
    /// The anonymous id when the report was recorded.
    package var anonymousId: String?
    /// This installation's device id when the report was recorded.
    package var deviceId: String?

    /// Creates a report.
    package init(
        kind: Kind,
        messageId: String,
        trackingId: String,
        timestamp: Date,
        userId: String?,
        anonymousId: String?,
        deviceId: String?
    ) {
        self.kind = kind
        self.messageId = messageId
        self.trackingId = trackingId
        self.timestamp = timestamp
        self.userId = userId
        self.anonymousId = anonymousId
        self.deviceId = deviceId
    }

    /// The key repeated reports of one push are recognised by: one receipt and one click per push.
    package var dedupKey: String? { "\(self.kind.rawValue):\(self.trackingId)" }

    /// The endpoint's path.
    package var path: String { self.kind.path }

    /// `push receipt` or `push click`.
    package var logName: String { "push \(self.kind.rawValue)" }

    /// The request body, sent at `sentAt` (protocol.md 5.11); absent ids are left out.
    package func body(sentAt: Date) -> [UInt8] {
        var body: [String: JSONValue] = [
            "messageId": .string(self.messageId),
            "trackingId": .string(self.trackingId),
            "timestamp": .string(JSONTimestamp.string(from: self.timestamp)),
            "sentAt": .string(JSONTimestamp.string(from: sentAt)),
        ]
        body["userId"] = self.userId.map(JSONValue.string)
        body["anonymousId"] = self.anonymousId.map(JSONValue.string)
        body["deviceId"] = self.deviceId.map(JSONValue.string)
        return Array(JSONValue.object(body).encoded())
    }
}

/// What the reports feature keeps in its one secure item (format unchanged since it was
/// specific to push: version 1, `reports` and `recent`).
package typealias PushReportBook = ReportBook<PushReport>
