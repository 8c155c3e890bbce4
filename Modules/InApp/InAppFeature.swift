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

    private struct Core: Sendable {
        var presenter: (any InAppMessagePresenter)?
        var callback: Callback?
        var policy: InAppSyncPolicy
        var attributes = InAppAttributes()
        var campaigns: [InAppCampaign] = []
        var rules = InAppContactRules.none
        var running = false
    }

    /// The settings.
    package let settings: Settings
    private let context: FeatureContext
    private let core: Locked<Core>

    /// A feature with `settings`, made with `context` by its registration.
    package init(context: FeatureContext, settings: Settings) {
        self.context = context
        self.settings = settings
        self.core = Locked(
            Core(policy: InAppSyncPolicy(syncInterval: settings.config.syncInterval, enabled: settings.config.enabled))
        )
    }

    // MARK: - What the app registered

    /// `inAppPresenter` (INAPP-28): replaces the built-in renderer; `nil` brings discovery back.
    package func setPresenter(_ presenter: (any InAppMessagePresenter)?) {
        self.core.withLock { $0.presenter = presenter }
    }

    /// The presenter the app assigned, if any.
    package var presenter: (any InAppMessagePresenter)? {
        self.core.withLock { $0.presenter }
    }

    /// `setInAppMessageCallback(_:capabilities:)` (INAPP-32).
    package func setCallback(_ callback: Callback) {
        self.core.withLock { $0.callback = callback }
    }

    /// `clearInAppMessageCallback()` (INAPP-39): display goes back to the SDK's renderer.
    package func clearCallback() {
        self.core.withLock { $0.callback = nil }
    }

    /// The callback the app set, if any.
    package var callback: Callback? {
        self.core.withLock { $0.callback }
    }

    // MARK: - Hooks

    /// In-app listens to events for its triggers (INAPP-13).
    package var observesEvents: Bool { self.settings.config.enabled }

    /// Starts once the launch's privacy is known.
    package func privacyChanged(_ change: PrivacyChange) {
        guard case .applied = change else { return }
        self.core.withLock { $0.running = true }
    }

    /// A new user or a reset clears what was known about the person's attributes.
    package func identityChanged(_ change: IdentityChange) {
        self.core.withLock { $0.attributes.clear() }
    }

    /// `wipeData()`: the in-app state is deleted (INAPP-47).
    package func wipe() {
        self.core.withLock { core in
            core.attributes.clear()
            core.campaigns = []
        }
    }

    /// The attribute values thresholds compare with (INAPP-13).
    package func attributesRecorded(_ changes: [(key: String, operation: AttributeWrite.Operation)]) {
        guard self.settings.config.enabled else { return }
        _ = self.core.withLock { $0.attributes.apply(changes) }
    }
}
