package import Foundation
package import JoryioKit

/// One campaign as the SDK keeps it after a sync: the message presenters and callbacks receive,
/// plus what decides when it may be shown (triggers, caps, priority, expiry). Wire format:
/// docs/protocol.md, "In-app messages" (GAP-39, GAP-45).
package struct InAppCampaign: Sendable, Equatable {
    /// The message as apps see it (id, type, content, delivery token, display delay).
    package var message: InAppMessage
    /// What makes the campaign eligible to show; empty means "as soon as it is synced".
    package var triggers: [InAppTrigger]
    /// The campaign's own frequency caps (INAPP-45).
    package var caps: InAppCaps
    /// Higher goes first among campaigns eligible at the same moment (GAP-39); ties keep the
    /// server's order.
    package var priority: Int
    /// When the campaign stops being eligible, if the server said.
    package var expiresAt: Date?

    /// The campaign id.
    package var id: String { self.message.id }

    /// Creates a campaign.
    package init(
        message: InAppMessage,
        triggers: [InAppTrigger] = [],
        caps: InAppCaps = InAppCaps(),
        priority: Int = 0,
        expiresAt: Date? = nil
    ) {
        self.message = message
        self.triggers = triggers
        self.caps = caps
        self.priority = priority
        self.expiresAt = expiresAt
    }
}

/// What makes a campaign eligible (SPEC §2.8, INAPP-13).
package enum InAppTrigger: Sendable, Equatable, Hashable {
    /// Eligible as soon as it is synced (launch, foreground, explicit sync).
    case onSync
    /// An event with this name was tracked.
    case event(name: String)
    /// A Joryio push was tapped; `trackingId` narrows it to one push (`nil`: any Joryio push).
    case pushTap(trackingId: String?)
    /// A numeric attribute the SDK wrote crossed a threshold (the campaign "watches" it; a change
    /// also re-syncs, INAPP-11).
    case attribute(key: String, comparison: Comparison, value: Double)

    /// How an attribute value is compared with the threshold.
    package enum Comparison: String, Sendable, Equatable, Hashable, CaseIterable {
        case greaterThan = "gt"
        case greaterThanOrEqual = "gte"
        case lessThan = "lt"
        case lessThanOrEqual = "lte"
        case equal = "eq"

        /// Whether `lhs` compared with `rhs` holds.
        package func holds(_ lhs: Double, _ rhs: Double) -> Bool {
            switch self {
            case .greaterThan: lhs > rhs
            case .greaterThanOrEqual: lhs >= rhs
            case .lessThan: lhs < rhs
            case .lessThanOrEqual: lhs <= rhs
            case .equal: lhs == rhs
            }
        }
    }
}

/// A campaign's frequency caps (INAPP-45): at most `maxImpressions` displays per `window`
/// seconds (`nil` window: ever), and at least `minInterval` seconds between two displays of it.
package struct InAppCaps: Sendable, Equatable, Hashable {
    /// The most displays allowed in ``window``; `nil`: no limit.
    package var maxImpressions: Int?
    /// The window in seconds; `nil`: the whole history.
    package var window: TimeInterval?
    /// The least time between two displays of this campaign; `nil`: none.
    package var minInterval: TimeInterval?

    /// Creates caps.
    package init(maxImpressions: Int? = nil, window: TimeInterval? = nil, minInterval: TimeInterval? = nil) {
        self.maxImpressions = maxImpressions
        self.window = window
        self.minInterval = minInterval
    }
}

/// The workspace's contact rules, sent with every sync (INAPP-45, GAP-45): at most
/// `maxImpressions` messages of any campaign per `window` seconds, and at least
/// `minDelayBetweenMessages` seconds from one message's display to the next one's (GAP-39).
package struct InAppContactRules: Sendable, Equatable, Hashable {
    /// The most messages in ``window``; `nil`: no limit.
    package var maxImpressions: Int?
    /// The window in seconds.
    package var window: TimeInterval?
    /// Seconds between two messages; `nil`: none.
    package var minDelayBetweenMessages: TimeInterval?

    /// Creates rules.
    package init(maxImpressions: Int? = nil, window: TimeInterval? = nil, minDelayBetweenMessages: TimeInterval? = nil)
    {
        self.maxImpressions = maxImpressions
        self.window = window
        self.minDelayBetweenMessages = minDelayBetweenMessages
    }

    /// No rules.
    package static let none = InAppContactRules()
}

/// One report about a message (SPEC §2.15, INAPP-33): the four actions `trackInAppImpression`
/// accepts. Form submissions are their own request.
package enum InAppReportAction: String, Sendable, Equatable, Hashable, CaseIterable {
    case displayed, clicked, dismissed, converted
}
