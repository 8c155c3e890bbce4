package import Foundation
package import JoryioKit

/// One campaign as the SDK keeps it after a sync: the message presenters and callbacks receive,
/// plus what decides when it may be shown (triggers, caps, priority, expiry). Wire format:
/// docs/protocol.md, "In-app messages" (GAP-39, GAP-45).
package struct InAppCampaign: Sendable, Equatable {
    /// The message as apps see it (id, type, content, delivery token, display delay).
    package var message: InAppMessage
    /// What makes the campaign eligible to show (the message's ``InAppMessage/triggers``).
    package var triggers: [InAppTrigger] {
        get { self.message.triggers }
        set { self.message.triggers = newValue }
    }
    /// The campaign's own frequency caps (the message's ``InAppMessage/caps``).
    package var caps: InAppCaps {
        get { self.message.caps }
        set { self.message.caps = newValue }
    }
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
        self.message.triggers = triggers
        self.message.caps = caps
        self.priority = priority
        self.expiresAt = expiresAt
    }
}

/// What makes a campaign eligible (SPEC §2.8, INAPP-13): ``InAppMessage/Trigger``.
package typealias InAppTrigger = InAppMessage.Trigger

/// A campaign's frequency caps (INAPP-45): ``InAppMessage/Caps``.
package typealias InAppCaps = InAppMessage.Caps

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
