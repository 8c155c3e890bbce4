package import Foundation
internal import JoryioConsent
package import JoryioCore
internal import JoryioFeature
internal import JoryioKit

/// What the app reports itself (callback mode, INAPP-33) and the documented in-app calls.
extension InAppFeature {
    /// The ids requests and reports are made under now.
    var currentIdentity: InAppIdentity {
        let identity = self.context.identity()
        return InAppIdentity(
            userId: identity.userId,
            anonymousId: identity.anonymousId.isEmpty ? nil : identity.anonymousId,
            deviceId: self.context.deviceId()
        )
    }

    /// The delivery token of campaign `id`, as the last sync gave it (INAPP-63).
    private func deliveryToken(of id: String) -> String? {
        self.core.withLock { core in core.campaigns.first { $0.id == id }?.message.deliveryToken }
    }

    /// `trackInAppImpression(campaignId:action:elementId:)`: queued with the campaign's delivery
    /// token (INAPP-63); data-collecting, so dropped while opted out or denied (INAPP-53).
    package func appReported(campaignId: String, action: InAppReportAction, elementId: String?, at timestamp: Date) {
        guard self.settings.config.enabled else {
            self.dependencies.logger.debug("trackInAppImpression ignored: in-app messaging is disabled")
            return
        }
        // A campaign the SDK knows goes through the display rules: in callback mode the app's
        // own `displayed` is what counts (INAPP-34, INAPP-35).
        if let campaign = self.campaigns.first(where: { $0.id == campaignId }) {
            self.feed { .appReport(action, campaign: campaign, elementId: elementId, at: $0) }
            return
        }
        self.dependencies.logger.warning(
            "trackInAppImpression: campaign \"\(String(campaignId.prefix(64)))\" is not among the synced campaigns, "
                + "so no delivery token is known; a server that requires tokens will refuse the report"
        )
        self.queueReport(action, campaignId: campaignId, elementId: elementId, token: nil, at: timestamp)
    }

    /// `submitInAppForm(campaignId:values:)` (INAPP-51, INAPP-53): the values the wire takes,
    /// queued with the campaign's delivery token; the rest is logged.
    package func submitForm(campaignId: String, values: [String: JSONValue], at timestamp: Date) {
        guard self.settings.config.enabled else {
            self.dependencies.logger.debug("submitInAppForm ignored: in-app messaging is disabled")
            return
        }
        let (kept, dropped) = InAppFormSubmission.values(from: values)
        for reason in dropped {
            self.dependencies.logger.warning("submitInAppForm: a field left out: \(reason)")
        }
        self.reports.record(
            .form(
                InAppFormSubmission(
                    messageId: self.context.identifiers.next(),
                    campaignId: campaignId,
                    values: kept,
                    deliveryToken: self.deliveryToken(of: campaignId),
                    timestamp: timestamp,
                    identity: self.currentIdentity
                )
            )
        )
    }

    /// `syncInAppCampaigns()` (INAPP-12): never rate-limited; `done` once it ended (at once when
    /// in-app is off or collection is not allowed).
    package func syncNow(done: @escaping @Sendable () -> Void) {
        self.sync(.explicit, done: done)
    }

    /// A push tap may trigger push-tap campaigns among those synced (INAPP-13, PUSH-26); the tap's
    /// sync follows (``syncForPush(done:)``).
    package func pushTapTriggered(trackingId: String?) {
        self.occurred(.pushTap(trackingId: trackingId))
    }

    /// A push asked for a sync (a silent sync push or a tap, INAPP-11, PUSH-25, PUSH-26): at
    /// once; `done` tells whether the campaigns changed.
    package func syncForPush(done: @escaping @Sendable (_ changed: Bool) -> Void) {
        let before = self.campaigns
        self.sync(.silentPush) { [self] in done(self.campaigns != before) }
    }

    /// `evaluateInAppCampaigns()` (INAPP-16): only with `enableDebug`; offers every synced
    /// campaign now, as a sync would. `done` is called once the display rules have decided about
    /// each of them (after the sync that refreshes a delivery token about to expire, INAPP-7), or at
    /// once when the call is ignored.
    package func evaluate(done: @escaping @Sendable () -> Void = {}) {
        guard self.settings.debug else {
            self.dependencies.logger.warning(
                "evaluateInAppCampaigns() is ignored unless the SDK was initialized with enableDebug: true"
            )
            return done()
        }
        let campaigns = self.campaigns
        self.core.withLock { $0.offered += campaigns.map(\.id) }
        guard !campaigns.isEmpty else { return done() }
        self.offer(campaigns, done: done)
    }

    /// `resetDisplayedCampaigns()` (INAPP-16, INAPP-47): only with `enableDebug`.
    package func resetDisplayed() {
        guard self.settings.debug else {
            self.dependencies.logger.warning(
                "resetDisplayedCampaigns() is ignored unless the SDK was initialized with enableDebug: true"
            )
            return
        }
        self.feed { .clearHistory(at: $0) }
        self.dependencies.logger.info("in-app displayed history cleared")
    }
}
