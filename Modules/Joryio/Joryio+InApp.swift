internal import Foundation
internal import JoryioCore
internal import JoryioFeature
public import JoryioInApp
public import JoryioKit

/// In-app messaging (issue 16): how the app takes over drawing, and the documented calls.
extension Joryio {
    private static let presenterKey = "inApp.presenter"

    /// A presenter that draws every in-app message instead of the built-in renderer (INAPP-28).
    /// Assign it before or after `initialize()`; while it is set, the built-in presenter is never
    /// looked for (INAPP-42).
    public var inAppPresenter: (any InAppMessagePresenter)? {
        get { self.productValues.withLock { $0[Self.presenterKey] } as? any InAppMessagePresenter }
        set {
            self.productValues.withLock { $0[Self.presenterKey] = newValue }
            self.submit(to: InAppFeature.self) { $0.setPresenter(newValue) }
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
            self.warn(
                "setInAppMessageCallback: unknown capabilities \(unknown.map { "\"\(String($0.prefix(64)))\"" }) "
                    + "ignored (content.native, content.html)"
            )
        }
        let set = Set(capabilities.filter(known.contains))
        self.submit(to: InAppFeature.self) { $0.setCallback(.init(deliver: callback, capabilities: set)) }
    }

    /// Hands display back to the SDK's own renderer (INAPP-39); a held message is drawn now.
    public func clearInAppMessageCallback() {
        self.submit(to: InAppFeature.self) { $0.clearCallback() }
    }

    private static let builtInPresenterKey = "inApp.builtInPresenter"

    /// Installs the built-in renderer (the UI product's `useDefaultInAppPresenter()`, issue 26): it
    /// draws the messages while no ``inAppPresenter`` is set, and the SDK no longer looks for it by
    /// class name (INAPP-40), which finds nothing when the linker dropped the class. Before or after
    /// `initialize()`; the instance keeps it, so it is in place before the first message.
    package func useBuiltInInAppPresenter(_ presenter: any InAppMessagePresenter) {
        self.productValues.withLock { $0[Self.builtInPresenterKey] = presenter }
        self.submit(to: InAppFeature.self) { $0.setBuiltInPresenter(presenter) }
    }

    /// At `initialize()`: the in-app feature sends the forms and links of the messages this
    /// instance presents back to this instance (issue 26), held weakly (the instance owns the
    /// feature); and the built-in presenter installed before is in place, whatever the pre-init
    /// list kept.
    func connectInAppMessages() {
        let builtIn = self.productValues.withLock { $0[Self.builtInPresenterKey] } as? any InAppMessagePresenter
        let actions = InAppMessageActions(
            submitForm: { [weak self] campaignId, values in
                self?.queueInAppForm(campaignId: campaignId, values: values)
            },
            followLink: { [weak self] url, asUniversalLink in
                self?.followInAppLink(url, asUniversalLink: asUniversalLink)
            }
        )
        self.submit(to: InAppFeature.self) { feature in
            feature.setMessageActions(actions)
            if let builtIn { feature.setBuiltInPresenter(builtIn) }
        }
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
            self.warn(
                "trackInAppImpression: action \"\(String(action.prefix(64)))\" rejected "
                    + "(displayed, clicked, dismissed or converted)"
            )
            return
        }
        guard let campaignId = self.checkedId(campaignId, call: "trackInAppImpression", field: "campaignId") else {
            return
        }
        let element = elementId.flatMap { self.checkedId($0, call: "trackInAppImpression", field: "elementId") }
        let timestamp = self.currentTime
        self.submit(.event, to: InAppFeature.self) { feature in
            feature.appReported(campaignId: campaignId, action: kind, elementId: element, at: timestamp)
        }
    }

    /// Submits a form shown in a message (INAPP-51): string, number and boolean values are sent
    /// with the campaign's delivery token; anything else is left out with a log line. Never
    /// throws; returns once the submission is queued (or dropped: opted out, consent denied,
    /// in-app disabled). Before `initialize()` it is kept and queued at start.
    public func submitInAppForm(campaignId: String, values: [String: Any]) async {
        await Self.waitOnce { resume in
            self.queueInAppForm(campaignId: campaignId, values: values, queued: resume)
            // Dropped before initialize() by a privacy decision, or not waiting for a start that
            // may never come: the caller is not held.
            if !self.isStarted { resume() }
        }
    }

    /// Returns once `start` called the `resume` it is handed; later calls of it do nothing.
    private static func waitOnce(_ start: (_ resume: @escaping @Sendable () -> Void) -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = Locked<CheckedContinuation<Void, Never>?>(continuation)
            start { once.withLock { $0.take() }?.resume() }
        }
    }

    /// Runs `body` with the in-app feature on the engine and returns once it called `done` (at once
    /// when this product has no in-app feature). For an engine that started.
    private func awaitInAppFeature(
        _ body: @escaping @Sendable (InAppFeature, _ done: @escaping @Sendable () -> Void) -> Void
    ) async {
        await Self.waitOnce { resume in
            self.submit(toFeatures: { features in
                guard let feature = features.first(InAppFeature.self) else { return resume() }
                body(feature, resume)
            })
        }
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
            self.warn("submitInAppForm: dropped field \(dropped.path) (\(dropped.reason))")
        }
        let converted = conversion.value
        let timestamp = self.currentTime
        self.submit(.event, to: InAppFeature.self) { feature in
            feature.submitForm(campaignId: campaignId, values: converted, at: timestamp)
            queued()
        }
    }

    /// Syncs in-app campaigns now (INAPP-12): never rate-limited, not debug-gated; returns once
    /// the sync ended. Does nothing while in-app is disabled or collection is not allowed, and
    /// returns at once before `initialize()`.
    public func syncInAppCampaigns() async {
        guard self.isStarted else { return }
        await self.awaitInAppFeature { feature, done in feature.syncNow(done: done) }
    }

    /// Evaluates the synced campaigns now (INAPP-16): only with `enableDebug`; otherwise a warning
    /// and nothing else (it can force a message on screen). Returns once the evaluation ran: each
    /// campaign it made eligible has been presented, handed to the message callback or held by the
    /// display rules (a campaign whose delivery token is about to expire after the sync that
    /// refreshes it). Returns at once when it is ignored, and before `initialize()`, when there is
    /// nothing to evaluate yet (a warning says so).
    public func evaluateInAppCampaigns() async {
        guard self.isStarted else {
            self.warn("evaluateInAppCampaigns() before initialize(): no campaigns are synced yet; nothing evaluated")
            return
        }
        await self.awaitInAppFeature { feature, done in feature.evaluate(done: done) }
    }

    /// Erases the displayed history that frequency caps count (INAPP-16, INAPP-47): only with
    /// `enableDebug`; otherwise a warning and nothing else.
    public func resetDisplayedCampaigns() {
        self.submit(to: InAppFeature.self) { $0.resetDisplayed() }
    }

    /// `text` when it is 1 … 256 characters without control characters; otherwise a warning.
    private func checkedId(_ text: String, call: String, field: String) -> String? {
        guard !text.isEmpty, text.count <= 256,
            !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            self.warn("\(call): \(field) must be 1 to 256 characters without control characters; ignored")
            return nil
        }
        return text
    }
}
