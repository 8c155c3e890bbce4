internal import Foundation
internal import JoryioConsent
internal import JoryioCore
internal import JoryioFeature
internal import JoryioKit

/// Display: the feature feeds ``InAppDisplayMachine`` and carries out its actions on the
/// platform (present, callback, hooks), the report queue (reports with the campaign's token), the
/// key-value store (the displayed history, INAPP-47) and the scheduler (wake-ups).
extension InAppFeature {
    /// Where the displayed history is kept (settings, STORE-2, INAPP-47).
    static let historyKey = "jry_inapp_history"

    /// Makes the machine at the launch's first privacy state, with the stored history and the
    /// callback a pre-init call may have set (INAPP-36).
    func startDisplay(allowed: Bool) {
        let now = self.context.clock.now()
        let history = self.loadHistory()
        let active = self.platform.isActive
        self.core.withLock { core in
            let capabilities = core.callback.map {
                InAppCallbackCapabilities.parse(Array($0.capabilities)).capabilities
            }
            core.machine = InAppDisplayMachine(
                settings: InAppDisplayMachine.Settings(self.settings.config),
                history: history,
                rules: core.rules,
                isAllowed: allowed,
                isActive: active,
                callback: capabilities,
                now: now
            )
        }
    }

    /// Feeds `input` (made at the engine's now) to the machine and carries out what it answers.
    func feed(_ make: (Date) -> InAppDisplayMachine.Input) {
        guard self.settings.config.enabled else { return }
        let now = self.context.clock.now()
        let actions = self.core.withLock { core -> [InAppDisplayMachine.Action] in
            guard core.machine != nil else { return [] }
            return core.machine?.handle(make(now)) ?? []
        }
        self.perform(actions)
    }

    /// Campaigns that became eligible, in order: each goes to the machine, after a sync when its
    /// delivery token is about to expire (INAPP-7). `done` is called once the machine has decided
    /// about every one of them: at once, or after that sync.
    func offer(_ campaigns: [InAppCampaign], done: @escaping @Sendable () -> Void = {}) {
        let now = self.context.clock.now()
        var stale: [String] = []
        for campaign in campaigns {
            if InAppTokenFreshness.needsRefresh(campaign.message, now: now) {
                stale.append(campaign.id)
            } else {
                self.feed { .ready(campaign, at: $0) }
            }
        }
        guard !stale.isEmpty else { return done() }
        self.dependencies.logger.debug("in-app: refreshing \(stale.count) delivery tokens before display")
        let refreshing = stale
        self.sync(.tokenRefresh) { [self] in
            self.context.scheduler.enqueue {
                // Shown with what the sync brought; if it failed, with the token it has (the wire decision).
                let fresh = self.campaigns
                for id in refreshing {
                    guard let campaign = fresh.first(where: { $0.id == id }) else { continue }
                    self.feed { .ready(campaign, at: $0) }
                }
                done()
            }
        }
    }

    private func perform(_ actions: [InAppDisplayMachine.Action]) {
        let config = self.settings.config
        for action in actions {
            switch action {
            case .present(let campaign):
                let id = campaign.id
                let presenter = self.presenterForMessage()
                self.core.withLock { $0.presentedWith = (id, presenter) }
                let logger = self.dependencies.logger
                let events = InAppViewEvents(
                    log: { level, text in logger.log(level, text) },
                    actions: { [weak self] in self?.core.withLock { $0.actions } }
                ) { [self] campaignId, element in
                    self.context.scheduler.enqueue { self.viewEvent(campaignId: campaignId, clicked: element) }
                }
                self.platform.present(campaign.message, with: presenter, delegate: events) { [self] shown in
                    self.context.scheduler.enqueue {
                        self.feed { .presentResult(campaignId: id, shown: shown, at: $0) }
                    }
                }
            case .deliverToCallback(let campaign):
                if let callback = self.callback {
                    self.platform.deliver(campaign.message, to: callback.deliver)
                }
            case .takeDown(let campaign):
                self.takeDown(campaign)
            case .report(let action, let campaign, let elementId):
                self.queueReport(action, campaign: campaign, elementId: elementId)
            case .onMessageDisplay(let message):
                if let hook = config.onMessageDisplay { self.platform.runOnMain { hook(message) } }
            case .onMessageClick(let message, let element):
                if let hook = config.onMessageClick { self.platform.runOnMain { hook(message, element) } }
            case .onMessageDismiss(let message):
                if let hook = config.onMessageDismiss { self.platform.runOnMain { hook(message) } }
            case .persistHistory(let history):
                self.saveHistory(history)
            case .wakeUp(let at):
                let delay = max(0, at.timeIntervalSince(self.context.clock.now()))
                _ = self.context.scheduler.schedule(after: delay) { [self] in self.feed { .tick(at: $0) } }
            case .log(let level, let message):
                self.dependencies.logger.log(level, message)
            }
        }
    }

    /// Asks the presenter that showed `campaign` to remove it without reporting anything (INAPP-58,
    /// OPTOUT-12): a reset, a user change or an opt-out while it shows.
    private func takeDown(_ campaign: InAppCampaign) {
        let presenter = self.core.withLock { core -> (any InAppMessagePresenter)? in
            guard let shown = core.presentedWith, shown.campaignId == campaign.id else { return core.presenter }
            core.presentedWith = nil
            return shown.presenter
        }
        if let presenter, !(presenter is any InAppMessageTakingDown) {
            self.dependencies.logger.warning(
                "in-app \(campaign.id): taken down, but its presenter (\(type(of: presenter))) does not adopt "
                    + "InAppMessageTakingDown: it stays on screen until closed"
            )
        }
        self.platform.takeDown(campaign.message, from: presenter)
    }

    /// What a presenter's delegate reported (INAPP-30): a tap on `clicked` (its element id), or the
    /// message closing when `clicked` is `nil`. On the engine's executor.
    package func viewEvent(campaignId: String, clicked element: String?) {
        if let element {
            self.feed { .clicked(campaignId: campaignId, elementId: element, at: $0) }
        } else {
            self.feed { .closed(campaignId: campaignId, at: $0) }
        }
    }

    /// The presenter a message is drawn with: the app's (INAPP-28, INAPP-42), else the built-in one
    /// the UI product installed, else the one discovery finds by class name (INAPP-40), which a
    /// linker may have dropped (issue 26). With none, "No in-app presenter found" is logged once, at
    /// the first message (INAPP-41).
    private func presenterForMessage() -> (any InAppMessagePresenter)? {
        let (assigned, builtIn) = self.core.withLock { ($0.presenter, $0.builtIn) }
        if let presenter = assigned ?? builtIn ?? self.discoveredPresenter() { return presenter }
        let first = self.core.withLock { core -> Bool in
            defer { core.warnedNoPresenter = true }
            return !core.warnedNoPresenter
        }
        if first {
            self.dependencies.logger.warning(
                "No in-app presenter found: in-app messages are not shown. Link the JoryioUI product "
                    + "(pod 'Joryio/UI') and call useDefaultInAppPresenter() before initialize(), or set inAppPresenter"
            )
        }
        return nil
    }

    /// The built-in presenter, looked for once per process (INAPP-40, INAPP-42).
    private func discoveredPresenter() -> (any InAppMessagePresenter)? {
        self.core.withLock { core in
            if case .some(let found) = core.discovered { return found }
            let found = self.platform.discoverPresenter()
            core.discovered = .some(found)
            return found
        }
    }

    /// Queues a report the machine decided, with the campaign's delivery token (INAPP-63).
    func queueReport(_ action: InAppReportAction, campaign: InAppCampaign, elementId: String?) {
        self.queueReport(
            action,
            campaignId: campaign.id,
            elementId: elementId,
            token: campaign.message.deliveryToken,
            at: self.context.clock.now()
        )
    }

    /// Queues one track report under the current ids.
    func queueReport(_ action: InAppReportAction, campaignId: String, elementId: String?, token: String?, at: Date) {
        self.reports.record(
            .track(
                InAppTrackReport(
                    messageId: self.context.identifiers.next(),
                    campaignId: campaignId,
                    action: action,
                    elementId: elementId,
                    deliveryToken: token,
                    timestamp: at,
                    identity: self.currentIdentity
                )
            )
        )
    }

    private func loadHistory() -> InAppFrequency {
        guard let text = self.context.stores.keyValue.string(forKey: Self.historyKey) else { return InAppFrequency() }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        guard let history = try? decoder.decode(InAppFrequency.self, from: Data(text.utf8)) else {
            self.dependencies.logger.error("the stored in-app displayed history cannot be read; starting without it")
            return InAppFrequency()
        }
        return history
    }

    private func saveHistory(_ history: InAppFrequency) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        let text = history.isEmpty ? nil : (try? encoder.encode(history)).map { String(decoding: $0, as: UTF8.self) }
        self.context.stores.keyValue.save(text, forKey: Self.historyKey, logger: self.dependencies.logger)
    }
}
