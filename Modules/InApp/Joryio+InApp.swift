internal import Foundation
internal import JoryioCore
package import JoryioFeature
public import JoryioKit

/// In-app messaging's public members (issue 16): how the app takes over drawing, and the
/// documented calls. They reach the instance through its facade seam (``FacadeContext``).
extension Joryio {
    private static let presenterSlot = InstanceSlot<any InAppMessagePresenter>("inApp.presenter")
    /// The built-in renderer installed with ``useBuiltInInAppPresenter(_:)``.
    package static let builtInPresenterSlot = InstanceSlot<any InAppMessagePresenter>("inApp.builtInPresenter")

    /// A presenter that draws every in-app message instead of the built-in renderer (INAPP-28).
    /// Assign it before or after `initialize()`; while it is set, the built-in presenter is never
    /// looked for (INAPP-42).
    public var inAppPresenter: (any InAppMessagePresenter)? {
        get { self.facade[Self.presenterSlot] }
        set {
            self.facade[Self.presenterSlot] = newValue
            self.facade.submit(to: InAppFeature.self) { $0.setPresenter(newValue) }
        }
    }

    /// Draw in-app messages with the app's own UI (INAPP-32): `callback` receives each message on
    /// the main thread. `capabilities` declares the content forms it renders: `"content.native"`,
    /// `"content.html"` (HTML campaigns then reach it whatever `allowHtmlJsInAppMessages` says,
    /// INAPP-23). Report what happens with `trackInAppImpression(campaignId:action:elementId:)`:
    /// `displayed` once the message was visible for `InAppDisplay.IN_APP_DISPLAY_DWELL_MS` (or
    /// just before an earlier click or dismissal), and `dismissed` whenever it leaves the screen.
    /// Set before `initialize()`, it is installed before the first sync (INAPP-36).
    public func setInAppMessageCallback(
        _ callback: @escaping @MainActor @Sendable (InAppMessage) -> Void,
        capabilities: [String] = ["content.native"]
    ) {
        let known: Set<String> = ["content.native", "content.html"]
        let unknown = capabilities.filter { !known.contains($0) }
        if !unknown.isEmpty {
            self.facade.warn(
                "setInAppMessageCallback: unknown capabilities \(unknown.map { "\"\(String($0.prefix(64)))\"" }) "
                    + "ignored (content.native, content.html)"
            )
        }
        let set = Set(capabilities.filter(known.contains))
        self.facade.submit(to: InAppFeature.self) { $0.setCallback(.init(deliver: callback, capabilities: set)) }
    }

    /// Hands display back to the SDK's own renderer (INAPP-39); a held message is drawn now.
    public func clearInAppMessageCallback() {
        self.facade.submit(to: InAppFeature.self) { $0.clearCallback() }
    }

    /// Installs the built-in renderer (the UI product's `useDefaultInAppPresenter()`, issue 26): it
    /// draws the messages while no ``inAppPresenter`` is set, and the SDK no longer looks for it by
    /// class name (INAPP-40), which finds nothing when the linker dropped the class. Before or after
    /// `initialize()`; the instance keeps it, so it is in place before the first message.
    package func useBuiltInInAppPresenter(_ presenter: any InAppMessagePresenter) {
        self.facade[Self.builtInPresenterSlot] = presenter
        self.facade.submit(to: InAppFeature.self) { $0.setBuiltInPresenter(presenter) }
    }
}

extension Joryio {
    /// Reports what happened to a message the app draws itself (INAPP-33): `action` is
    /// `"displayed"`, `"clicked"`, `"dismissed"` or `"converted"`; any other value is rejected with
    /// a log line. `elementId` names the button or link of a click. The report carries the
    /// campaign's delivery token (INAPP-63); it is data-collecting: dropped while the person is
    /// opted out or has denied consent, kept before `initialize()` (INAPP-53).
    ///
    /// Report `displayed` once the message was visible for `InAppDisplay.IN_APP_DISPLAY_DWELL_MS`
    /// (or just before an earlier click or dismissal), and `dismissed` whenever it leaves the
    /// screen, also after a click (INAPP-35, INAPP-61). A custom presenter never calls this: it
    /// reports through its delegate (INAPP-30).
    public func trackInAppImpression(campaignId: String, action: String, elementId: String? = nil) {
        guard let kind = InAppReportAction(rawValue: action) else {
            self.facade.warn(
                "trackInAppImpression: action \"\(String(action.prefix(64)))\" rejected "
                    + "(displayed, clicked, dismissed or converted)"
            )
            return
        }
        guard let campaignId = self.checkedId(campaignId, call: "trackInAppImpression", field: "campaignId") else {
            return
        }
        let element = elementId.flatMap { self.checkedId($0, call: "trackInAppImpression", field: "elementId") }
        let timestamp = self.facade.now
        self.facade.submit(.event, to: InAppFeature.self) { feature in
            feature.appReported(campaignId: campaignId, action: kind, elementId: element, at: timestamp)
        }
    }

    /// Submits a form shown in a message (INAPP-51): string, number and boolean values are sent
    /// with the campaign's delivery token; anything else is left out with a log line. Never
    /// throws; returns once the submission is queued (or dropped: opted out, consent denied,
    /// in-app disabled). Before `initialize()` it is kept and queued at start.
    public func submitInAppForm(campaignId: String, values: [String: Any]) async {
        await FacadeContext.once { resume in
            self.queueInAppForm(campaignId: campaignId, values: values, queued: { resume(()) })
            // Dropped before initialize() by a privacy decision, or not waiting for a start that
            // may never come: the caller is not held.
            if !self.facade.isStarted { resume(()) }
        }
    }

    /// Runs `body` with the in-app feature on the engine and returns once it called `done` (at once
    /// before `initialize()`, and when this product has no in-app feature).
    private func awaitInAppFeature(
        _ body: @escaping @Sendable (InAppFeature, _ done: @escaping @Sendable () -> Void) -> Void
    ) async {
        await self.facade.ask(InAppFeature.self, otherwise: ()) { feature, answer in body(feature) { answer(()) } }
    }

    /// ``submitInAppForm(campaignId:values:)`` without waiting: the values are checked on the
    /// caller's thread and the submission is queued in call order (the built-in presenter's forms,
    /// after the click it reported). `queued` is called once it is, on the engine's executor; not at
    /// all for an invalid campaign id or before `initialize()`.
    package func queueInAppForm(
        campaignId: String,
        values: [String: Any],
        queued: @escaping @Sendable () -> Void = {}
    ) {
        guard let campaignId = self.checkedId(campaignId, call: "submitInAppForm", field: "campaignId") else {
            return queued()
        }
        let conversion = JSONValue.convert(values, maxDepth: 2)
        for dropped in conversion.dropped {
            self.facade.warn("submitInAppForm: dropped field \(dropped.path) (\(dropped.reason))")
        }
        let converted = conversion.value
        let timestamp = self.facade.now
        self.facade.submit(.event, to: InAppFeature.self) { feature in
            feature.submitForm(campaignId: campaignId, values: converted, at: timestamp)
            queued()
        }
    }

    /// Syncs in-app campaigns now (INAPP-12): never rate-limited, not debug-gated; returns once
    /// the sync ended. Does nothing while in-app is disabled or collection is not allowed, and
    /// returns at once before `initialize()`.
    public func syncInAppCampaigns() async {
        await self.awaitInAppFeature { feature, done in feature.syncNow(done: done) }
    }

    /// Evaluates the synced campaigns now (INAPP-16): only with `enableDebug`; otherwise a warning
    /// and nothing else (it can force a message on screen). Returns once the evaluation ran: each
    /// campaign it made eligible has been presented, handed to the message callback or held by the
    /// display rules (a campaign whose delivery token is about to expire after the sync that
    /// refreshes it). Returns at once when it is ignored, and before `initialize()`, when there is
    /// nothing to evaluate yet (a warning says so).
    public func evaluateInAppCampaigns() async {
        guard self.facade.isStarted else {
            self.facade.warn(
                "evaluateInAppCampaigns() before initialize(): no campaigns are synced yet; nothing evaluated"
            )
            return
        }
        await self.awaitInAppFeature { feature, done in feature.evaluate(done: done) }
    }

    /// Erases the displayed history that frequency caps count (INAPP-16, INAPP-47): only with
    /// `enableDebug`; otherwise a warning and nothing else.
    public func resetDisplayedCampaigns() {
        self.facade.submit(to: InAppFeature.self) { $0.resetDisplayed() }
    }

    /// `text` when it is 1 … 256 characters without control characters; otherwise a warning.
    private func checkedId(_ text: String, call: String, field: String) -> String? {
        guard !text.isEmpty, text.count <= 256,
            !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            self.facade.warn("\(call): \(field) must be 1 to 256 characters without control characters; ignored")
            return nil
        }
        return text
    }
}
