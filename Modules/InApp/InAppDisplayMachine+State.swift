package import Foundation
package import JoryioKit

extension InAppDisplayMachine {
    /// The fixed numbers and the configuration the machine works under.
    package struct Settings: Sendable, Equatable {
        /// `InAppConfig.allowHtmlJsInAppMessages`: whether the SDK's renderer may show HTML
        /// (INAPP-21 … INAPP-23).
        package var allowHtml: Bool
        /// `InAppConfig.holdInAppMessagesForHandler` (INAPP-37, INAPP-38).
        package var holdForHandler: Bool
        /// The most messages waiting for the slot; a message arriving when it is full is dropped
        /// (RMQ-6, GAP-75).
        package var queueCapacity: Int
        /// How long a message may wait for the slot, in seconds, from the moment it was ready; an older
        /// one is dropped when its turn comes (RMQ-6, GAP-75).
        package var queueExpiry: TimeInterval

        /// 10 messages (GAP-75).
        package static let defaultQueueCapacity = 10
        /// 60 seconds (GAP-75).
        package static let defaultQueueExpiry: TimeInterval = 60
        /// `InAppDisplay.IN_APP_DISPLAY_DWELL_MS` in seconds (INAPP-56).
        package static let dwell = TimeInterval(InAppDisplay.IN_APP_DISPLAY_DWELL_MS) / 1000
        /// Callback mode: with no report at all the slot frees itself after 30 s (INAPP-35).
        package static let callbackRelease: TimeInterval = 30
        /// Callback mode: `displayed` without `dismissed` holds the slot at most 5 minutes (INAPP-35).
        package static let displayedHold: TimeInterval = 300

        /// Creates settings; the queue numbers default to the decided ones.
        package init(
            allowHtml: Bool,
            holdForHandler: Bool,
            queueCapacity: Int = Self.defaultQueueCapacity,
            queueExpiry: TimeInterval = Self.defaultQueueExpiry
        ) {
            self.allowHtml = allowHtml
            self.holdForHandler = holdForHandler
            self.queueCapacity = queueCapacity
            self.queueExpiry = queueExpiry
        }

        /// The settings an `InAppConfig` asks for.
        package init(_ config: InAppConfig) {
            self.init(allowHtml: config.allowHtmlJsInAppMessages, holdForHandler: config.holdInAppMessagesForHandler)
        }
    }

    /// Who draws messages now.
    package enum Handler: Sendable, Equatable {
        /// No callback was set: the SDK's renderer, or a hold if `holdInAppMessagesForHandler`.
        case none
        /// The app's callback, with the content forms it declared.
        case callback(InAppCallbackCapabilities)
        /// `clearInAppMessageCallback()` was called: the SDK's renderer, no hold any more (INAPP-39).
        case cleared
    }

    /// A message that is ready, since `readyAt` (its display delay over).
    package struct Entry: Sendable, Equatable {
        /// The campaign.
        package var campaign: InAppCampaign
        /// When it became ready (the queue expiry counts from here).
        package var readyAt: Date

        /// Creates an entry.
        package init(campaign: InAppCampaign, readyAt: Date) {
            self.campaign = campaign
            self.readyAt = readyAt
        }
    }

    /// A message waiting for its display delay (INAPP-31).
    package struct Delayed: Sendable, Equatable {
        /// The campaign.
        package var campaign: InAppCampaign
        /// When the delay ends.
        package var dueAt: Date
    }

    /// A message the SDK's renderer or a presenter shows, and its dwell accounting (INAPP-56 … 62).
    package struct Shown: Sendable, Equatable {
        /// The campaign.
        package var campaign: InAppCampaign
        /// Whether it counted as displayed (`displayed` reported, cap consumed).
        package var counted: Bool
        /// Since when it has been on screen with the app active; `nil` while the app is not active.
        package var activeSince: Date?
    }

    /// A message handed to the app's callback (INAPP-34, INAPP-35).
    package struct Handed: Sendable, Equatable {
        /// The campaign.
        package var campaign: InAppCampaign
        /// When it was handed over (the 30 s release counts from here, GAP-41).
        package var deliveredAt: Date
        /// When the app reported `displayed` (the 5 min hold counts from here).
        package var displayedAt: Date?
    }

    /// The one place a message can be (INAPP-48).
    package enum Slot: Sendable, Equatable {
        /// Nothing shows.
        case free
        /// Held for the app's callback (INAPP-38): not drawn, not reported, not counted.
        case held(Entry)
        /// ``Action/present(_:)`` was sent and its answer has not come; `cancelled` when a user or
        /// privacy change came meanwhile (a `true` answer is then taken down at once).
        case presenting(InAppCampaign, cancelled: Bool)
        /// On screen through the SDK's renderer or a presenter.
        case onScreen(Shown)
        /// With the app's callback.
        case callback(Handed)

        /// The campaign in the slot, if any.
        package var campaign: InAppCampaign? {
            switch self {
            case .free: nil
            case .held(let entry): entry.campaign
            case .presenting(let campaign, _): campaign
            case .onScreen(let shown): shown.campaign
            case .callback(let handed): handed.campaign
            }
        }
    }
}
