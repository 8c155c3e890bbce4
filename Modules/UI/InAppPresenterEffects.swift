package import Foundation
package import JoryioInApp
package import JoryioKit

/// How the built-in presenter follows a link: through push's link handling (DEEPLINK-5, ULINK-9),
/// never a router of its own.
package struct InAppLinkToFollow: Sendable, Equatable {
    /// The URL.
    package var url: URL
    /// `https`: offered to the app as a universal link first, opened when not handled (ULINK-7).
    /// Otherwise opened (a custom scheme reaches the app's URL handlers; `http` the browser).
    package var asUniversalLink: Bool

    /// A link to follow.
    package init(url: URL, asUniversalLink: Bool) {
        self.url = url
        self.asUniversalLink = asUniversalLink
    }

    /// The link for `route`; `nil` for a refused one.
    package init?(_ route: InAppURLRoute) {
        switch route {
        case .openURL(let url), .openWebURL(let url): self.init(url: url, asUniversalLink: false)
        case .universalLink(let url): self.init(url: url, asUniversalLink: true)
        case .refused: return nil
        }
    }
}

/// One thing the built-in presenter does after a tap, in order. The UIKit adapter carries each out
/// with one call: the delegate (`InAppMessageViewDelegate`, INAPP-30), the facade's form submission
/// (INAPP-51), the facade's link following (push's), its own views.
package enum InAppPresenterEffect: Sendable, Equatable {
    /// `delegate.messageViewClicked(message, action: elementId, url: url)`: the click report, with
    /// the tapped element's name (INAPP-49) and the URL it opens (`nil`: none, or refused).
    case reportClick(elementId: String, url: URL?)
    /// `submitInAppForm(campaignId:values:)` with the message's id (INAPP-51, INAPP-52).
    case submitForm(formId: String, values: [String: String])
    /// Follow the link, after the click was reported (DEEPLINK-5).
    case follow(InAppLinkToFollow)
    /// A URL that is never opened; the adapter may log why.
    case refuseLink(reason: String)
    /// Take the message off the screen, then `delegate.messageViewDidDismiss(message)` once it has
    /// left (INAPP-49's `onMessageDismiss`, INAPP-60).
    case dismiss
}

/// Maps taps and bridge messages, through ``InAppActionRouting``, to the presenter's effects.
package enum InAppPresenterEffects {
    /// The effects of routed `steps`: the click report carries the URL of the `open` step that
    /// follows it, so the delegate hears the same URL the SDK follows.
    package static func effects(for steps: [InAppActionStep]) -> [InAppPresenterEffect] {
        var effects: [InAppPresenterEffect] = []
        for (index, step) in steps.enumerated() {
            switch step {
            case .reportClick(let elementId):
                let next = steps.dropFirst(index + 1).first { step in
                    if case .open = step { return true }
                    if case .reportClick = step { return true }
                    return false
                }
                var url: URL?
                if case .open(let route) = next { url = InAppLinkToFollow(route)?.url }
                effects.append(.reportClick(elementId: elementId, url: url))
            case .submitForm(let formId, let values):
                effects.append(.submitForm(formId: formId, values: values))
            case .open(let route):
                if let link = InAppLinkToFollow(route) {
                    effects.append(.follow(link))
                } else if case .refused(let reason) = route {
                    effects.append(.refuseLink(reason: reason))
                }
            case .close:
                effects.append(.dismiss)
            }
        }
        return effects
    }

    /// What a bridge message does.
    package static func effects(for message: InAppBridgeMessage) -> [InAppPresenterEffect] {
        self.effects(for: InAppActionRouting.steps(for: message))
    }

    /// What a native button's tap does.
    package static func effects(for button: InAppMessage.Button) -> [InAppPresenterEffect] {
        self.effects(for: InAppActionRouting.steps(for: button))
    }

    /// What the close control does (and a swipe, or the dimmed background of a modal): dismiss.
    package static var close: [InAppPresenterEffect] {
        self.effects(for: InAppActionRouting.closeSteps)
    }
}

/// How the built-in presenter carries out a tap's effects (issue 26): platform-neutral, so where
/// its forms and links go is tested on Linux; the UIKit presenter only takes its window down.
package enum InAppPresenterPerforming {
    /// Carries out `effects` for `message`, shown with `delegate`, in order, up to the first
    /// `.dismiss`, which is left to the caller (its window leaves the screen first, then
    /// `delegate.messageViewDidDismiss(message)`, INAPP-60): returns whether it reached one.
    ///
    /// Clicks (INAPP-30), forms (INAPP-51) and links (DEEPLINK-5) all go to `delegate`: the SDK's
    /// sends them to the instance that presented the message, never to another one, and an app's
    /// own delegate decides for itself.
    @MainActor
    package static func perform(
        _ effects: [InAppPresenterEffect],
        for message: InAppMessage,
        delegate: any InAppMessageViewDelegate
    ) -> Bool {
        for effect in effects {
            switch effect {
            case .reportClick(let elementId, let url):
                delegate.messageViewClicked(message, action: elementId, url: url)
            case .submitForm(_, let values):
                delegate.messageViewSubmittedForm(message, values: values)
            case .follow(let link):
                delegate.messageViewFollowsLink(message, url: link.url, asUniversalLink: link.asUniversalLink)
            case .refuseLink:
                break
            case .dismiss:
                return true
            }
        }
        return false
    }
}
