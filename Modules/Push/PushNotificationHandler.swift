package import Foundation
internal import JoryioCore
package import JoryioFeature

/// Carries out ``PushDecision``s on the engine's executor (issue 14, parts 5 and 6): receipts and
/// clicks through the reporter, the in-app sync, and links through the platform, in the decision's
/// order (a click is recorded before its link is followed, DEEPLINK-5).
///
/// Platform-neutral: the notification-center delegate (Apple) and
/// `Joryio.didReceiveRemoteNotification` read the payload on the caller's thread, forward foreign
/// ones themselves (PUSH-22), and hand Joryio's to ``handle(_:arrival:appIsActive:receivedAt:services:completion:)``.
/// Links wait on the platform until the app is active and are followed on the main thread
/// (DEEPLINK-7): the app's link handler first (DEEPLINK-6, GAP-73), then `open` for a custom
/// scheme, or an `NSUserActivity` for `https`, opened as well when not handled (ULINK-7, ULINK-8,
/// GAP-72).
package final class PushNotificationHandler: EngineFeature {
    /// A handler the app installed: `true` when it handled the link, so the SDK does nothing more.
    package typealias LinkHandler = @Sendable (URL) -> Bool

    private struct State {
        var linkHandler: LinkHandler?
    }

    /// What links are followed with.
    package let platform: any PushPlatform
    private let logger: Logger
    private let state = Locked(State())

    /// A handler over `platform`, made with `context` by its registration.
    package init(context: FeatureContext, platform: any PushPlatform) {
        self.platform = platform
        self.logger = context.logger.scoped("push")
    }

    /// The app's link handler (DEEPLINK-6), or `nil` to let the SDK follow every link itself.
    package var linkHandler: LinkHandler? {
        get { self.state.withLock { $0.linkHandler } }
        set { self.state.withLock { $0.linkHandler = newValue } }
    }

    /// Carries out the decision for `payload` arriving at `arrival`, then calls `completion` once:
    /// with the sync's outcome when the decision waits for it (a background sync push), else
    /// `.noData` as soon as the actions are done. A foreign payload only completes (`.noData`):
    /// forwarding it is the caller's (PUSH-22).
    package func handle(
        _ payload: PushPayload?,
        arrival: PushArrival,
        appIsActive: Bool,
        receivedAt timestamp: Date,
        services: PushServices,
        completion: @escaping @Sendable (PushSyncOutcome) -> Void = { _ in }
    ) {
        let handler = self.linkHandler
        let context = PushContext(arrival: arrival, appIsActive: appIsActive, hasLinkHook: handler != nil)
        let decision = PushDecision.decide(payload, context)
        for warning in decision.warnings {
            self.logger.warning("push payload: \(Self.describe(warning))")
        }
        var waitsForSync = false
        for action in decision.actions {
            switch action {
            case .forwardToApp:
                break
            case .reportReceipt(let trackingId):
                self.report(services) { $0.reportDelivered(trackingId: trackingId, at: timestamp) }
            case .reportClick(let trackingId):
                self.report(services) { $0.reportClicked(trackingId: trackingId, at: timestamp) }
            case .followLink(let plan):
                self.follow(plan, handler: handler)
            case .sync where decision.backgroundResult == .afterSync:
                waitsForSync = true
                self.sync(services, completion: completion)
            case .sync:
                if case .response = arrival {
                    services.inAppSync?.pushTapped(trackingId: payload?.trackingId)
                }
                self.sync(services) { _ in }
            }
        }
        if !waitsForSync { completion(.noData) }
    }

    private func report(_ services: PushServices, _ body: (any PushReporting) -> Void) {
        guard let reporter = services.reporter else {
            self.logger.debug("push: no receipts-and-clicks feature in this build; not reported")
            return
        }
        body(reporter)
    }

    private func sync(_ services: PushServices, completion: @escaping @Sendable (PushSyncOutcome) -> Void) {
        guard let inAppSync = services.inAppSync else {
            completion(.noData)
            return
        }
        inAppSync.syncForPush(completion)
    }

    /// Follows a link tapped in an in-app message (DEEPLINK-5, ULINK-9) the way a push's link is
    /// followed: once the app is active, on the main thread, the app's link handler first
    /// (DEEPLINK-6, GAP-73), then `open` for `.openURL`, or an `NSUserActivity` for
    /// `.universalLink`, opened as well when not handled (ULINK-7, ULINK-8, GAP-72). The route is
    /// the caller's: JoryioUI decides it with its own action routing, which also opens `http`.
    package func followMessageLink(_ url: URL, route: PushLink.Route) {
        let link = PushLink(url: url, scheme: url.scheme?.lowercased() ?? "", route: route)
        self.follow(PushLinkPlan(link: link, askHookFirst: true, waitForActive: false), handler: self.linkHandler)
    }

    /// Follows a link once the app is active, on the main thread: the app's handler first, then the
    /// route. Refused links never get here (``PushLink/parse(_:)``).
    private func follow(_ plan: PushLinkPlan, handler: LinkHandler?) {
        let platform = self.platform
        let link = plan.link
        if plan.waitForActive {
            self.logger.debug("push: the link is followed once the app is active")
        }
        platform.whenActive {
            if plan.askHookFirst, let handler, handler(link.url) { return }
            switch link.route {
            case .openURL:
                platform.open(link.url)
            case .universalLink:
                let delivery = platform.continueUserActivity(webpageURL: link.url)
                if PushDecision.openAfterUniversalLink(delivery) { platform.open(link.url) }
            }
        }
    }

    private static func describe(_ warning: PushWarning) -> String {
        switch warning {
        case .joryioNotAnObject: "\"joryio\" is not an object; nothing to act on"
        case .trackingIdMissing: "no joryio.trackingId; no receipt or click is reported"
        case .trackingIdInvalid: "joryio.trackingId is not a string of 1 to 128 characters; ignored"
        case .syncNotABoolean: "joryio.sync is not a boolean; no sync"
        case .linkRefused(let refusal): "joryio.url not followed (\(Self.describe(refusal)))"
        case .soundIgnored(let name): "aps.sound \"\(name)\" is not a .aif, .caf or .wav file name; default sound"
        }
    }

    private static func describe(_ refusal: PushLink.Refusal) -> String {
        switch refusal {
        case .notAString: "not a string"
        case .malformed: "not an ASCII URL of at most \(PushLink.maxLength) bytes"
        case .noScheme: "no scheme"
        case .refusedScheme(let scheme): "the scheme \(scheme) is never opened"
        case .noHost: "an https URL without a host"
        }
    }
}
