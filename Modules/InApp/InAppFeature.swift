internal import Foundation
internal import JoryioConsent
internal import JoryioCore
package import JoryioDelivery
package import JoryioFeature
package import JoryioKit

/// In-app messaging on the engine's seam (issue 16): what the app registered (presenter,
/// callback and its capabilities), the sync policy, the attribute values thresholds compare
/// with, and the campaigns of the last sync. Every method runs on the engine's executor.
package final class InAppFeature: EngineFeature {
    /// How the feature behaves, from the configuration.
    package struct Settings: Sendable {
        /// `JoryioConfig.inApp`.
        package var config: InAppConfig
        /// `JoryioConfig.enableDebug`: the test-only calls work (INAPP-16).
        package var debug: Bool

        /// Creates settings.
        package init(config: InAppConfig, debug: Bool) {
            self.config = config
            self.debug = debug
        }
    }

    /// The app's message callback and the content forms it renders (INAPP-32).
    package struct Callback: Sendable {
        /// The callback, called on the main thread.
        package var deliver: @MainActor @Sendable (InAppMessage) -> Void
        /// `content.native`, `content.html`.
        package var capabilities: Set<String>

        /// Creates a callback.
        package init(deliver: @escaping @MainActor @Sendable (InAppMessage) -> Void, capabilities: Set<String>) {
            self.deliver = deliver
            self.capabilities = capabilities
        }
    }

    struct Core: Sendable {
        var presenter: (any InAppMessagePresenter)?
        var callback: Callback?
        var policy: InAppSyncPolicy
        var attributes = InAppAttributes()
        var campaigns: [InAppCampaign] = [] {
            didSet {
                self.eventNames = InAppTriggerMatcher.eventNames(self.campaigns)
                self.watchedAttributes = InAppTriggerMatcher.watchedAttributes(self.campaigns)
            }
        }
        /// The event names the campaigns' triggers name: an event with another name (most of them)
        /// triggers nothing, which one set lookup answers on the engine's hot path.
        var eventNames: Set<String> = []
        /// The attribute keys the campaigns' triggers name, for the same reason on attribute writes.
        var watchedAttributes: Set<String> = []
        /// Events that triggered nothing while a sync was on the wire (oldest first, at most
        /// ``InAppFeature/heldEventLimit``): the answer may bring the campaigns they trigger.
        var heldEvents: [(name: String, at: Date)] = []
        var rules = InAppContactRules.none
        var privacy: PrivacyState?
        /// A sync is on the wire.
        var syncing = false
        /// Another sync was asked for while one was on the wire: it goes when that one ends.
        var syncAgain: InAppSyncPolicy.Reason?
        /// `syncInAppCampaigns()` calls waiting for the sync on the wire (or the next) to end.
        var syncWaiters: [@Sendable () -> Void] = []
        /// Campaign ids handed to the display machine, oldest first (diagnostics and tests).
        var offered: [String] = []
        /// The display rules, made at the launch's first privacy state.
        var machine: InAppDisplayMachine?
        /// The built-in presenter once looked for (`.some(nil)`: not linked).
        var discovered: (any InAppMessagePresenter)??
        /// The built-in presenter the UI product installed (`useDefaultInAppPresenter()`, issue 26):
        /// used when the app set none, and discovery is then never needed (INAPP-40).
        var builtIn: (any InAppMessagePresenter)?
        /// "No in-app presenter found" was logged (once per instance, at the first message, INAPP-41).
        var warnedNoPresenter = false
        /// Where the presented messages' forms and links go: this instance (issue 26).
        var actions: InAppMessageActions?
        /// The presenter the last presentation was handed to, by campaign id: the one asked to
        /// take that message down (the app may assign another presenter meanwhile).
        var presentedWith: (campaignId: String, presenter: (any InAppMessagePresenter)?)?
    }

    /// The settings.
    package let settings: Settings
    let context: FeatureContext
    let core: Locked<Core>
    let requests: InAppRequestBuilder
    let dependencies: ChannelDependencies
    /// What display needs from the OS.
    package let platform: any InAppPlatform
    /// Reports and form submissions waiting for the server.
    package let reports: ReportQueue<InAppQueuedReport>

    /// A feature with `settings`, made with `context` by its registration; requests are built by
    /// `requests` and reports go through `reportBuilder`.
    package init(
        context: FeatureContext,
        settings: Settings,
        requests: InAppRequestBuilder,
        reportBuilder: ReportRequestBuilder,
        queue: ReportQueue<InAppQueuedReport>.Settings,
        platform: any InAppPlatform = NoInAppPlatform()
    ) {
        self.context = context
        self.platform = platform
        self.settings = settings
        self.requests = requests
        self.dependencies = context.channelDependencies("in-app")
        self.core = Locked(
            Core(policy: InAppSyncPolicy(syncInterval: settings.config.syncInterval, enabled: settings.config.enabled))
        )
        self.reports = ReportQueue(
            storageKey: Self.reportsKey,
            noun: "in-app reports",
            builder: reportBuilder,
            settings: queue,
            dependencies: context.channelDependencies("in-app reports"),
            secure: context.stores.secure,
            privacy: context.privacy,
            classify: { InAppReportOutcome.classify($0, now: $1).reportOutcome }
        )
    }

    /// Campaign ids that became eligible, oldest first.
    package var offered: [String] { self.core.withLock { $0.offered } }

    /// The campaigns of the last sync.
    package var campaigns: [InAppCampaign] { self.core.withLock { $0.campaigns } }

    /// Where the reports wait (the secure store, STORE-3: they carry the user id).
    package static let reportsKey = "jry_inapp_reports"

    // MARK: - What the app registered

    /// `inAppPresenter` (INAPP-28): replaces the built-in renderer; `nil` brings discovery back.
    package func setPresenter(_ presenter: (any InAppMessagePresenter)?) {
        self.core.withLock { $0.presenter = presenter }
    }

    /// The presenter the app assigned, if any.
    package var presenter: (any InAppMessagePresenter)? {
        self.core.withLock { $0.presenter }
    }

    /// The built-in presenter, installed by the UI product (`useDefaultInAppPresenter()`, issue 26,
    /// INAPP-40): drawn with while the app assigned none, without looking for it by class name.
    package func setBuiltInPresenter(_ presenter: any InAppMessagePresenter) {
        self.core.withLock { $0.builtIn = presenter }
    }

    /// Where the forms and links of the messages this instance presents go (issue 26).
    package func setMessageActions(_ actions: InAppMessageActions) {
        self.core.withLock { $0.actions = actions }
    }

    /// `setInAppMessageCallback(_:capabilities:)` (INAPP-32): a held message is handed over now
    /// (INAPP-38).
    package func setCallback(_ callback: Callback) {
        self.core.withLock { $0.callback = callback }
        let capabilities = InAppCallbackCapabilities.parse(Array(callback.capabilities)).capabilities
        self.feed { .callbackSet(capabilities, at: $0) }
    }

    /// `clearInAppMessageCallback()` (INAPP-39): display goes back to the SDK's renderer; a held
    /// message is drawn now.
    package func clearCallback() {
        self.core.withLock { $0.callback = nil }
        self.feed { .callbackCleared(at: $0) }
    }

    /// The callback the app set, if any.
    package var callback: Callback? {
        self.core.withLock { $0.callback }
    }

    // MARK: - Hooks

    /// In-app listens to events for its triggers (INAPP-13).
    package var observesEvents: Bool { self.settings.config.enabled }

    /// An event may trigger campaigns (INAPP-13).
    package func eventTracked(_ name: String) {
        let now = self.context.clock.now()
        let triggers = self.core.withLock { core -> Bool in
            if core.eventNames.contains(name) { return true }
            if core.syncing { Self.hold(name, at: now, in: &core) }
            return false
        }
        if triggers { self.occurred(.event(name)) }
    }

    /// At most this many events are held while a sync is on the wire (GAP-39).
    package static let heldEventLimit = 32
    /// A held event older than this when the answer arrives triggers nothing (GAP-39).
    package static let heldEventMaxAge: Double = 30

    /// Keeps `name`, which triggered nothing, until the sync on the wire answers: an event tracked in
    /// the first moments after launch (or after an identify) still triggers the campaigns that
    /// answer brings.
    private static func hold(_ name: String, at now: Date, in core: inout Core) {
        core.heldEvents.append((name, now))
        if core.heldEvents.count > Self.heldEventLimit { core.heldEvents.removeFirst() }
    }

    /// Loads the reports earlier launches kept.
    package func start() {
        self.reports.start()
    }

    /// The first state is the launch: the first sync (INAPP-9); a callback set before
    /// `initialize()` was installed by then (INAPP-36, the pre-init calls run first). Later states
    /// release a sync owed while consent was pending (INAPP-14).
    package func privacyChanged(_ change: PrivacyChange) {
        switch change {
        case .applied(let privacy):
            let first = self.core.withLock { core -> Bool in
                defer { core.privacy = privacy }
                return core.privacy == nil
            }
            self.reports.privacyChanged(privacy.allowsCollection)
            if first {
                self.startDisplay(allowed: privacy.allowsCollection)
                self.sync(.launch)
                return
            }
            self.feed { .privacyChanged(allowed: privacy.allowsCollection, at: $0) }
            if privacy.allowsCollection {
                let now = self.context.clock.now()
                if self.core.withLock({ $0.policy.collectionAllowed(now: now) }) == .sync { self.startSync(.resumed) }
            }
        case .collectionStopped:
            self.reports.privacyChanged(nil, stopped: true)
        case .collectionResumed:
            self.reports.privacyChanged(nil, resumed: true)
        }
    }

    /// Identify and reset re-sync at once (INAPP-11, INAPP-54); what was known about the person's
    /// attributes belonged to the previous person.
    package func identityChanged(_ change: IdentityChange) {
        // What belonged to the person before goes when another one comes: the attribute values,
        // the events held for the sync on the wire, and what waits or shows. An anonymous visitor
        // who identifies is the same person (a common launch sequence): all of it stays, the held
        // events for the identify's sync (IDENT-19, INAPP-31 cancel only for "someone else").
        if Self.isAnotherPerson(change) {
            self.core.withLock { core in
                core.attributes.clear()
                core.heldEvents = []
            }
            self.feed { .userChanged(at: $0) }
        }
        switch change {
        case .identified(let previous, let current) where previous != current:
            self.sync(.identify)
        case .identified:
            break
        case .reset:
            // reset() clears the in-app state, the displayed history included (INAPP-47).
            self.feed { .clearHistory(at: $0) }
            self.sync(.reset)
        case .wiped:
            self.feed { .clearHistory(at: $0) }
        }
    }

    /// Whether `change` leaves another person: an identify of another user, `reset()`, `wipeData()`;
    /// not an anonymous visitor's identify, nor the same user identified again.
    private static func isAnotherPerson(_ change: IdentityChange) -> Bool {
        switch change {
        case .identified(let previous, let current): previous != nil && previous != current
        case .reset, .wiped: true
        }
    }

    /// A new SDK-auth token: held reports go again.
    package func authorizationChanged() {
        self.reports.authorizationChanged()
    }

    /// The foreground syncs, at most once per `syncInterval` (INAPP-9). Messages show, and their
    /// dwell counts, only while the app is active (INAPP-57, INAPP-59): from `didBecomeActive` (also
    /// at a cold launch, when the app is already active) until `willResignActive` or the
    /// background; entering the foreground is not yet being active.
    package func lifecycle(_ event: LifecycleEvent) {
        switch event {
        case .foreground:
            self.reports.trigger()
            self.sync(.foreground)
        case .active(let active):
            self.feed { .appActive(active, at: $0) }
        case .background:
            self.feed { .appActive(false, at: $0) }
            self.reports.sendIfDue()
        case .terminate:
            break
        }
    }

    /// `wipeData()`: the in-app state and the reports are deleted (INAPP-47, WIPE-1).
    package func wipe() {
        self.core.withLock { core in
            core.attributes.clear()
            core.campaigns = []
            core.rules = .none
        }
        self.reports.discardAll(reason: "wipeData()")
    }

    /// Users whose reports still wait (AUTH-5).
    package var usersWithPendingItems: Set<String> {
        self.reports.usersWithPendingItems
    }

    /// The attribute values thresholds compare with (INAPP-13); a watched attribute's change
    /// re-syncs (INAPP-11).
    package func attributesRecorded(_ changes: [(key: String, operation: AttributeWrite.Operation)]) {
        guard self.settings.config.enabled else { return }
        let (changed, watched) = self.core.withLock { core -> (Set<String>, Bool) in
            let changed = core.attributes.apply(changes)
            // A write to a watched key re-syncs even when its value here is unknown (an increment of
            // a value the server holds): the answer's snapshot counts it (ATTR-17, ATTR-18).
            let watched = changes.contains { core.watchedAttributes.contains($0.key) }
            return (changed.intersection(core.watchedAttributes), watched)
        }
        // The thresholds the change meets fire now, on the campaigns the SDK has (INAPP-13).
        if !changed.isEmpty { self.occurred(.attributes(changed)) }
        if watched { self.sync(.watchedAttribute) }
    }
}
