/// Where a notification reached the SDK.
package enum PushArrival: Sendable, Equatable {
    /// `userNotificationCenter(_:willPresent:)`: shown while the app is in the foreground.
    case willPresent
    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`.
    case remoteNotification
    /// `userNotificationCenter(_:didReceive:)`: the person acted on the notification.
    case response(action: PushResponseAction)
}

/// What the person did with a notification.
package enum PushResponseAction: Sendable, Equatable {
    /// Tapped the notification (`UNNotificationDefaultActionIdentifier`).
    case open
    /// Tapped one of the notification's action buttons (its identifier).
    case custom(String)
    /// Dismissed it (`UNNotificationDismissActionIdentifier`, delivered only for categories with
    /// `.customDismissAction`).
    case dismiss
}

/// What the decision needs to know about the app.
package struct PushContext: Sendable, Equatable {
    /// Where the notification arrived.
    package var arrival: PushArrival
    /// Whether the app is active now (a cold start from a tap is not, yet).
    package var appIsActive: Bool
    /// Whether the app installed a link hook that may handle a link first (DEEPLINK-6, GAP-73).
    package var hasLinkHook: Bool

    /// A context.
    package init(arrival: PushArrival, appIsActive: Bool, hasLinkHook: Bool = false) {
        self.arrival = arrival
        self.appIsActive = appIsActive
        self.hasLinkHook = hasLinkHook
    }
}

/// Foreground presentation options, mirroring `UNNotificationPresentationOptions`.
package struct PushPresentation: OptionSet, Sendable, Hashable {
    /// The raw bits.
    package var rawValue: Int
    /// An option set from its bits.
    package init(rawValue: Int) { self.rawValue = rawValue }
    /// `.banner`.
    package static let banner = PushPresentation(rawValue: 1 << 0)
    /// `.list`.
    package static let list = PushPresentation(rawValue: 1 << 1)
    /// `.sound`.
    package static let sound = PushPresentation(rawValue: 1 << 2)
    /// `.badge`.
    package static let badge = PushPresentation(rawValue: 1 << 3)
}

/// How a link is followed once the click is recorded.
package struct PushLinkPlan: Sendable, Equatable {
    /// The link and its route.
    package var link: PushLink
    /// Offer it to the app's hook first; when the hook answers `true`, stop there.
    package var askHookFirst: Bool
    /// Wait until the app is active before following it (DEEPLINK-7).
    package var waitForActive: Bool

    /// A plan.
    package init(link: PushLink, askHookFirst: Bool, waitForActive: Bool) {
        self.link = link
        self.askHookFirst = askHookFirst
        self.waitForActive = waitForActive
    }
}

/// One thing the SDK does for a notification, in the order of ``PushDecision/actions``.
package enum PushAction: Sendable, Equatable {
    /// Hand the notification, unchanged, to the app's previous delegate (PUSH-22); for a
    /// background notification without one, complete with `.noData`.
    case forwardToApp
    /// Report delivery of this tracking id (PUSH-27, GAP-16), subject to consent and opt-out (PUSH-33).
    case reportReceipt(trackingId: String)
    /// Report a click on this tracking id (PUSH-21), before any link (DEEPLINK-5).
    case reportClick(trackingId: String)
    /// Follow the link (DEEPLINK-5…7, ULINK-7…8).
    case followLink(PushLinkPlan)
    /// Run the in-app sync now (PUSH-25, PUSH-26).
    case sync
}

/// What `didReceiveRemoteNotification`'s completion handler gets (PUSH-24, GAP-37).
package enum PushBackgroundResult: Sendable, Equatable {
    /// `.noData`, at once.
    case noData
    /// The sync's outcome: `.newData`, `.noData` or `.failed`.
    case afterSync
}

/// The SDK's decision for one notification: a pure function of its payload and the context.
package struct PushDecision: Sendable, Equatable {
    /// Whether the payload is Joryio's (PUSH-21).
    package var isJoryio: Bool
    /// What to do, in order.
    package var actions: [PushAction]
    /// Foreground presentation (only for ``PushArrival/willPresent``; empty otherwise).
    package var presentation: PushPresentation
    /// The completion of `didReceiveRemoteNotification` (only for
    /// ``PushArrival/remoteNotification``; `nil` otherwise).
    package var backgroundResult: PushBackgroundResult?
    /// The sound for content the SDK builds or modifies (SOUND-5).
    package var sound: PushSound
    /// The payload's warnings, to log.
    package var warnings: [PushWarning]

    /// Decides what to do with `payload` (`nil`: not a JSON object, so not Joryio's) in `context`.
    package static func decide(_ payload: PushPayload?, _ context: PushContext) -> PushDecision {
        guard let payload, payload.isJoryio else { return Self.foreign(context) }
        var decision = PushDecision(
            isJoryio: true,
            actions: [],
            presentation: [],
            backgroundResult: nil,
            sound: payload.sound,
            warnings: payload.warnings
        )
        switch context.arrival {
        case .willPresent:
            if let trackingId = payload.trackingId { decision.actions.append(.reportReceipt(trackingId: trackingId)) }
            if payload.sync { decision.actions.append(.sync) }
            decision.presentation = Self.presentation(payload)
        case .remoteNotification:
            if let trackingId = payload.trackingId { decision.actions.append(.reportReceipt(trackingId: trackingId)) }
            if payload.sync { decision.actions.append(.sync) }
            decision.backgroundResult = payload.sync ? .afterSync : .noData
        case .response(.dismiss):
            break
        case .response:
            if let trackingId = payload.trackingId { decision.actions.append(.reportClick(trackingId: trackingId)) }
            if let link = payload.link {
                let plan = PushLinkPlan(
                    link: link,
                    askHookFirst: context.hasLinkHook,
                    waitForActive: !context.appIsActive
                )
                decision.actions.append(.followLink(plan))
            }
            decision.actions.append(.sync)
        }
        return decision
    }

    /// Whether to open a universal link's URL after delivering its activity (ULINK-7 step 4,
    /// ULINK-8, GAP-72): only when the app did not handle it. The scene path cannot say, so
    /// delivery there counts as handled; an app that wants the fallback uses the link hook.
    package static func openAfterUniversalLink(_ delivery: UniversalLinkDelivery) -> Bool {
        switch delivery {
        case .scene: false
        case .appDelegate(let handled): !handled
        case .noHandler: true
        }
    }

    private static func foreign(_ context: PushContext) -> PushDecision {
        PushDecision(
            isJoryio: false,
            actions: [.forwardToApp],
            presentation: [],
            backgroundResult: context.arrival == .remoteNotification ? .noData : nil,
            sound: .none,
            warnings: []
        )
    }

    private static func presentation(_ payload: PushPayload) -> PushPresentation {
        guard payload.hasAlert else { return [] }
        var options: PushPresentation = [.banner, .list]
        if payload.sound != .none { options.insert(.sound) }
        if payload.hasBadge { options.insert(.badge) }
        return options
    }
}

/// How a universal link's `NSUserActivity` reached the app (``PushPlatform/continueUserActivity(webpageURL:)``).
public enum UniversalLinkDelivery: Sendable, Equatable {
    /// Through the active scene's delegate `scene(_:continue:)` (returns nothing).
    case scene
    /// Through `application(_:continue:restorationHandler:)`, which answered `handled`.
    case appDelegate(handled: Bool)
    /// Neither delegate implements the method.
    case noHandler
}
