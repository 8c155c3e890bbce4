public import Foundation

/// In-app messaging settings (SPEC §2.4), passed as `JoryioConfig(inApp:)`.
///
/// The value types live here, with the configuration, so both products share one `JoryioConfig`;
/// the in-app logic itself is the `JoryioInApp` module of the `Joryio` product. The
/// `JoryioAnalytics` product has no in-app messaging and ignores these settings.
public struct InAppConfig: Sendable {
    /// `false` turns in-app messaging off: no sync, no evaluation, no display, no callback
    /// delivery (INAPP-15). Default `true`.
    public var enabled: Bool
    /// Lets the SDK's own renderer show HTML campaigns (INAPP-21). Default `false`: HTML campaigns
    /// are skipped and logged unless an app callback declares `content.html` (INAPP-23).
    public var allowHtmlJsInAppMessages: Bool
    /// The minimum gap, in seconds, between automatic launch and foreground syncs (INAPP-9).
    /// Default 300.
    public var syncInterval: TimeInterval
    /// Runs on the main thread after the SDK displays a message (INAPP-49).
    public var onMessageDisplay: (@MainActor @Sendable (InAppMessage) -> Void)?
    /// Runs on the main thread with the message and the tapped element's id (INAPP-49).
    public var onMessageClick: (@MainActor @Sendable (InAppMessage, String) -> Void)?
    /// Runs on the main thread after a message is dismissed (INAPP-49).
    public var onMessageDismiss: (@MainActor @Sendable (InAppMessage) -> Void)?
    /// Holds messages until `setInAppMessageCallback(_:capabilities:)` is called (INAPP-37,
    /// INAPP-38). Default `false`.
    public var holdInAppMessagesForHandler: Bool

    /// Creates settings; every parameter has the documented default.
    public init(
        enabled: Bool = true,
        allowHtmlJsInAppMessages: Bool = false,
        syncInterval: TimeInterval = 300,
        onMessageDisplay: (@MainActor @Sendable (InAppMessage) -> Void)? = nil,
        onMessageClick: (@MainActor @Sendable (InAppMessage, String) -> Void)? = nil,
        onMessageDismiss: (@MainActor @Sendable (InAppMessage) -> Void)? = nil,
        holdInAppMessagesForHandler: Bool = false
    ) {
        self.enabled = enabled
        self.allowHtmlJsInAppMessages = allowHtmlJsInAppMessages
        self.syncInterval = syncInterval
        self.onMessageDisplay = onMessageDisplay
        self.onMessageClick = onMessageClick
        self.onMessageDismiss = onMessageDismiss
        self.holdInAppMessagesForHandler = holdInAppMessagesForHandler
    }
}

/// One in-app campaign as the server delivered it, content already resolved (SPEC §2.8,
/// INAPP-29): what presenters and the app's callback receive.
public struct InAppMessage: Sendable, Equatable, Identifiable {
    /// Where and how a message is placed (INAPP-43).
    public enum MessageType: String, Sendable, Equatable, CaseIterable {
        /// Screen centre over a dimmed background; blocks the app.
        case modal
        /// Top of the screen; touches outside it reach the app.
        case banner
        /// A small message from the bottom; touches outside it reach the app.
        case slideUp
        /// Takes over the screen.
        case fullScreen
        /// The app decides the placement (a presenter or the callback).
        case custom
    }

    /// The content, in one of two forms (INAPP-18).
    public enum Content: Sendable, Equatable {
        /// Structured data drawn by native views.
        case native(NativeContent)
        /// Author markup and CSS, shown under a strict Content-Security-Policy.
        case html(String)
    }

    /// Native content: plain text, already resolved on the server (INAPP-29).
    public struct NativeContent: Sendable, Equatable {
        /// The headline, if any.
        public var headline: String?
        /// The body text, if any.
        public var text: String?
        /// The image, if any.
        public var imageURL: URL?
        /// The buttons, in order.
        public var buttons: [Button]

        /// Creates native content.
        public init(headline: String? = nil, text: String? = nil, imageURL: URL? = nil, buttons: [Button] = []) {
            self.headline = headline
            self.text = text
            self.imageURL = imageURL
            self.buttons = buttons
        }
    }

    /// A button of a native message.
    public struct Button: Sendable, Equatable {
        /// The id reported with a click (`elementId`, INAPP-30).
        public var id: String
        /// The label shown.
        public var label: String
        /// The link it opens, or `nil` for a button that only closes the message.
        public var url: URL?

        /// Creates a button.
        public init(id: String, label: String, url: URL? = nil) {
            self.id = id
            self.label = label
            self.url = url
        }
    }

    /// The campaign id, passed as `campaignId` in reports.
    public var id: String
    /// The placement.
    public var type: MessageType
    /// The resolved content.
    public var content: Content
    /// The signed, short-lived token every report of this message carries (INAPP-1, INAPP-63).
    public var deliveryToken: String?
    /// When ``deliveryToken`` expires, if the server said (INAPP-7).
    public var deliveryTokenExpiresAt: Date?
    /// Seconds to wait after the message becomes eligible before it is shown (INAPP-31).
    public var displayDelay: TimeInterval
    /// What makes the campaign eligible: an event, a push tap, an attribute threshold, or the sync
    /// itself (INAPP-13).
    public var triggers: [Trigger]
    /// The campaign's own frequency caps (INAPP-45).
    public var caps: Caps

    /// Creates a message (the SDK makes them from the server's answer; apps and tests may too).
    public init(
        id: String,
        type: MessageType,
        content: Content,
        deliveryToken: String? = nil,
        deliveryTokenExpiresAt: Date? = nil,
        displayDelay: TimeInterval = 0,
        triggers: [Trigger] = [],
        caps: Caps = Caps()
    ) {
        self.id = id
        self.type = type
        self.content = content
        self.deliveryToken = deliveryToken
        self.deliveryTokenExpiresAt = deliveryTokenExpiresAt
        self.displayDelay = displayDelay
        self.triggers = triggers
        self.caps = caps
    }
}

extension InAppMessage {
    /// What makes a campaign eligible (SPEC §2.8, INAPP-13).
    public enum Trigger: Sendable, Equatable, Hashable {
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
        public enum Comparison: String, Sendable, Equatable, Hashable, CaseIterable {
            case greaterThan = "gt"
            case greaterThanOrEqual = "gte"
            case lessThan = "lt"
            case lessThanOrEqual = "lte"
            case equal = "eq"

            /// Whether `lhs` compared with `rhs` holds.
            public func holds(_ lhs: Double, _ rhs: Double) -> Bool {
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
    public struct Caps: Sendable, Equatable, Hashable {
        /// The most displays allowed in ``window``; `nil`: no limit.
        public var maxImpressions: Int?
        /// The window in seconds; `nil`: the whole history.
        public var window: TimeInterval?
        /// The least time between two displays of this campaign; `nil`: none.
        public var minInterval: TimeInterval?

        /// Creates caps.
        public init(maxImpressions: Int? = nil, window: TimeInterval? = nil, minInterval: TimeInterval? = nil) {
            self.maxImpressions = maxImpressions
            self.window = window
            self.minInterval = minInterval
        }
    }
}

/// `InAppDisplay.IN_APP_DISPLAY_DWELL_MS` (SPEC §2.9): how long a message must be on screen, with
/// the app active, before it counts as displayed (INAPP-56).
public enum InAppDisplay {
    /// 1000 ms, the same constant in every Joryio SDK.
    public static let IN_APP_DISPLAY_DWELL_MS = 1000
}
