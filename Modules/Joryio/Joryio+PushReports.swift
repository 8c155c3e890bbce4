internal import Foundation
internal import JoryioCore
internal import JoryioDelivery
internal import JoryioFeature
public import JoryioKit
internal import JoryioPush

/// Push receipts and clicks (issue 14): for an app that handles notifications itself, so that none
/// reach the SDK's handlers (PUSH-19). Both are data-collecting, like `track` (PUSH-33).
extension Joryio {
    /// Reports that the Joryio push with `trackingId` (its payload's `joryio.trackingId`) reached
    /// the app (PUSH-19). Call it once per push, when the app shows it or receives it in the
    /// background; the SDK sends one receipt per push, with the ids current now.
    ///
    /// Nothing is recorded while the person is opted out or has denied consent; while consent is
    /// pending the receipt waits on the device. A `trackingId` that is empty, longer than 128
    /// characters or contains control characters logs a warning and records nothing.
    public func reportPushDelivered(_ trackingId: String) {
        self.submitPushReport(.receipt, trackingId: trackingId, call: "reportPushDelivered")
    }

    /// Reports that the person tapped the Joryio push with `trackingId` (PUSH-19). The server
    /// counts a click as a delivery too: no receipt is needed for a push seen only through its tap.
    ///
    /// The same rules as ``reportPushDelivered(_:)`` apply.
    public func trackPushClick(trackingId: String) {
        self.submitPushReport(.click, trackingId: trackingId, call: "trackPushClick")
    }

    /// Checks `trackingId` on the caller's thread, then records the report on the engine, gated
    /// like an event (before `initialize()` too: INIT-8, PUSH-33).
    private func submitPushReport(_ kind: PushReport.Kind, trackingId: String, call: String) {
        let timestamp = self.facade.now
        guard PushPayload.isValidTrackingId(trackingId) else {
            self.facade.warn(
                "\(call): the trackingId must be 1 to \(PushPayload.maxTrackingIdLength) characters "
                    + "without control characters; nothing recorded"
            )
            return
        }
        self.facade.submit(.event, to: PushReportsFeature.self) { feature in
            feature.record(kind, trackingId: trackingId, at: timestamp)
        }
    }
}

extension FeatureSetup {
    /// Push receipts and clicks (protocol.md 5.11), on the endpoint and retry settings every
    /// channel shares.
    var pushReports: FeatureRegistration {
        FeatureRegistration { context in
            PushReportsFeature(
                context: context,
                builder: PushReportRequestBuilder(
                    apiHost: self.apiEndpoint,
                    sdkKey: self.sdkKey,
                    userAgent: self.userAgent,
                    timeout: self.config.requestTimeout,
                    gzip: self.gzip
                ),
                settings: PushReportsFeature.Settings(backoff: self.backoff, maxRetries: self.config.maxRetries)
            )
        }
    }
}
