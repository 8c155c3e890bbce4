package import Foundation
package import JoryioKit

extension InAppDisplayMachine {
    /// What happened, as the feature saw it. Every input carries the engine's `now` (virtual time in
    /// tests); the machine first brings its clocks up to it (the dwell second, the callback holds,
    /// display delays), then applies the input.
    package enum Input: Sendable, Equatable {
        /// A campaign's trigger matched (or a sync made it eligible): it waits for its display delay
        /// (INAPP-31), then for the slot (RMQ-4). Campaigns that become eligible at the same moment
        /// are fed in priority order (GAP-39). A campaign already waiting, queued, held or shown is
        /// ignored (no duplicates).
        case ready(InAppCampaign, at: Date)
        /// The answer to ``Action/present(_:)``: `shown` is what `present(campaign:in:delegate:)`
        /// returned; `false` also when no presenter exists (RMQ-5).
        case presentResult(campaignId: String, shown: Bool, at: Date)
        /// The presenter's delegate: `messageViewClicked(_:action:url:)` with the button or link id.
        case clicked(campaignId: String, elementId: String?, at: Date)
        /// The presenter's delegate: `messageViewDidDismiss(_:)`, the person closed the message
        /// (INAPP-58: counts as seen).
        case closed(campaignId: String, at: Date)
        /// The message left the screen without the person closing it (for example the app removed
        /// it): nothing is reported unless it already counted as displayed (INAPP-60).
        case removed(campaignId: String, at: Date)
        /// `trackInAppImpression(campaignId:action:elementId:)` from the app, with the campaign the
        /// id names (the feature looks it up; an unknown id never reaches the machine).
        case appReport(InAppReportAction, campaign: InAppCampaign, elementId: String?, at: Date)
        /// The app became active (`true`) or left the active state (`false`): the dwell second
        /// pauses and starts over (INAPP-59); the SDK renderer presents only while active (INAPP-57).
        case appActive(Bool, at: Date)
        /// `setInAppMessageCallback(_:capabilities:)`.
        case callbackSet(InAppCallbackCapabilities, at: Date)
        /// `clearInAppMessageCallback()`: display goes back to the SDK's renderer (INAPP-39).
        case callbackCleared(at: Date)
        /// Opt-out, opt-in or consent changed; `allowed` is whether in-app messages may be shown and
        /// reported now (opted in, consent granted: INAPP-14, INAPP-53). Any change cancels the
        /// messages waiting for their display delay (INAPP-31); a disallowing one also drops the
        /// queue and takes down the message on screen, reporting nothing more.
        case privacyChanged(allowed: Bool, at: Date)
        /// `identify` as someone else, `reset()` or `wipeData()`: everything waiting is dropped and
        /// the message on screen is taken down; before its dwell second it reports nothing
        /// (INAPP-31, INAPP-58).
        case userChanged(at: Date)
        /// The workspace's contact rules from the latest sync (INAPP-45).
        case contactRules(InAppContactRules, at: Date)
        /// `reset()`, `wipeData()` or `resetDisplayedCampaigns()`: the displayed history is cleared
        /// (INAPP-47).
        case clearHistory(at: Date)
        /// A ``Action/wakeUp(at:)`` came due (stale ones are harmless).
        case tick(at: Date)

        /// The engine time the input carries.
        package var at: Date {
            switch self {
            case .ready(_, let at), .presentResult(_, _, let at), .clicked(_, _, let at), .closed(_, let at),
                .removed(_, let at), .appReport(_, _, _, let at), .appActive(_, let at), .callbackSet(_, let at),
                .callbackCleared(let at), .privacyChanged(_, let at), .userChanged(let at), .contactRules(_, let at),
                .clearHistory(let at), .tick(let at):
                at
            }
        }
    }
}

/// The content forms an app's callback declares it can render (INAPP-32): `content.native`,
/// `content.html`.
package struct InAppCallbackCapabilities: OptionSet, Sendable, Hashable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    /// `content.native`.
    package static let native = InAppCallbackCapabilities(rawValue: 1)
    /// `content.html`: HTML campaigns go to the callback whatever `allowHtmlJsInAppMessages` says
    /// (INAPP-23).
    package static let html = InAppCallbackCapabilities(rawValue: 2)

    /// The capabilities named in `strings`, and the names that mean nothing (for a log line).
    package static func parse(_ strings: [String]) -> (capabilities: Self, unknown: [String]) {
        var capabilities: Self = []
        var unknown: [String] = []
        for string in strings {
            switch string {
            case "content.native": capabilities.insert(.native)
            case "content.html": capabilities.insert(.html)
            default: unknown.append(string)
            }
        }
        return (capabilities, unknown)
    }

    /// Whether a callback with these capabilities can render `content`.
    package func renders(_ content: InAppMessage.Content) -> Bool {
        switch content {
        case .native: self.contains(.native)
        case .html: self.contains(.html)
        }
    }
}
