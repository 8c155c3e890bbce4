package import Foundation
internal import JoryioConsent
internal import JoryioCore
internal import JoryioDelivery
package import JoryioFeature

/// Push receipts and clicks on the engine's seam (issue 14; protocol.md 5.11; PUSH-19, PUSH-27,
/// PUSH-33): records each report by `trackingId` under the ids of the person who received the push,
/// keeps it in one secure item until the server confirms it, and sends one report per request,
/// oldest first, one request at a time.
///
/// - Privacy (PUSH-33, CONSENT-16): a report is not recorded while the person is opted out or has
///   denied consent; one recorded while consent is pending waits, and is deleted when collection
///   stops (``PrivacyChange/collectionStopped``) or sent once it is granted. `wipeData()` deletes
///   every report.
/// - Answers: the success shape deletes the report (also `"duplicate": true`); 400, 413 and 422
///   drop it and log; 402 and 403 keep it and stop reports for the instance; a current user's 401
///   waits for a new token (AUTH-9) and a departed user's report is dropped (AUTH-8); everything
///   else keeps it and retries with backoff, never before `Retry-After`, with the same `messageId`.
/// - A push is reported once per kind: a second receipt (or click) of a `trackingId` among the
///   last ``Settings/recentKeys`` recorded is ignored.
/// - At most ``Settings/maxReports`` wait; a new one beyond that drops the oldest, with a warning.
///
/// Runs on the engine's executor, like every feature: each method must be called there.
package final class PushReportsFeature: EngineFeature, PushReporting {
    /// Where the reports are kept (the secure store, STORE-3: they carry the user id).
    package static let storageKey = "jry_push_reports"

    /// Limits and retry settings (the queue's).
    package typealias Settings = ReportQueue<PushReport>.Settings

    let context: FeatureContext
    /// The reports waiting, stored and sent.
    let queue: ReportQueue<PushReport>

    /// A feature made with `context` by its registration.
    package init(context: FeatureContext, builder: PushReportRequestBuilder, settings: Settings) {
        self.context = context
        self.queue = ReportQueue(
            storageKey: Self.storageKey,
            noun: "push receipts and clicks",
            builder: builder,
            settings: settings,
            dependencies: context.channelDependencies("push reports"),
            secure: context.stores.secure,
            privacy: context.privacy
        )
    }

    // MARK: - State (any thread)

    /// The reports waiting, oldest first (the one on the wire included).
    package var pending: [PushReport] { self.queue.pending }

    /// Whether a 402 or 403 stopped reports for this instance.
    package var isStopped: Bool { self.queue.isStopped }

    // MARK: - PushReporting

    /// Records a receipt (PUSH-27).
    package func reportDelivered(trackingId: String, at timestamp: Date) {
        self.record(.receipt, trackingId: trackingId, at: timestamp)
    }

    /// Records a click.
    package func reportClicked(trackingId: String, at timestamp: Date) {
        self.record(.click, trackingId: trackingId, at: timestamp)
    }

    /// Records a report of `kind` for `trackingId` made at `timestamp`, under the current ids,
    /// unless collection is off (PUSH-33) or the push was reported already; then sends what may go.
    package func record(_ kind: PushReport.Kind, trackingId: String, at timestamp: Date) {
        guard PushPayload.isValidTrackingId(trackingId) else {
            self.context.logger.scoped("push reports").warning(
                "push \(kind.rawValue) ignored: the trackingId must be 1 to \(PushPayload.maxTrackingIdLength) characters without control characters"
            )
            return
        }
        let identity = self.context.identity()
        self.queue.record(
            PushReport(
                kind: kind,
                messageId: self.context.identifiers.next(),
                trackingId: trackingId,
                timestamp: timestamp,
                userId: identity.userId,
                anonymousId: identity.anonymousId.isEmpty ? nil : identity.anonymousId,
                deviceId: self.context.deviceId()
            )
        )
    }

    // MARK: - EngineFeature

    /// Loads the reports earlier launches kept; nothing goes until the launch's privacy is applied.
    package func start() {
        self.queue.start()
    }

    /// Holds or releases sending (held while consent is pending), deletes every report when
    /// collection stops (PUSH-33), retries at once when it resumes.
    package func privacyChanged(_ change: PrivacyChange) {
        switch change {
        case .applied(let privacy): self.queue.privacyChanged(privacy.allowsCollection)
        case .collectionStopped: self.queue.privacyChanged(nil, stopped: true)
        case .collectionResumed: self.queue.privacyChanged(nil, resumed: true)
        }
    }

    /// A new token: the reports held for one go again (AUTH-9).
    package func authorizationChanged() {
        self.queue.authorizationChanged()
    }

    /// Foreground: a fresh retry budget and a send now (never before `Retry-After`).
    package func lifecycle(_ event: LifecycleEvent) {
        switch event {
        case .foreground: self.queue.trigger()
        case .background: self.queue.sendIfDue()
        case .terminate, .active: break
        }
    }

    /// `wipeData()` deletes every report and the memory of recent ones (WIPE-1).
    package func wipe() {
        self.queue.discardAll(reason: "wipeData()")
    }

    /// Users whose reports still wait (AUTH-5).
    package var usersWithPendingItems: Set<String> {
        self.queue.usersWithPendingItems
    }
}
