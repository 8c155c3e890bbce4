package import Foundation
internal import JoryioKit

/// The in-app display rules as a value: inputs in, actions out (INAPP-13, INAPP-30 … INAPP-39,
/// INAPP-45 … INAPP-48, INAPP-56 … INAPP-62, RMQ-4 … RMQ-6).
///
/// The feature feeds what happened with the engine's `now` and carries out the returned
/// ``Action``s in order on the engine's executor; the machine has no timers of its own: it asks for
/// a ``Input/tick(at:)`` with ``Action/wakeUp(at:)`` and, on every input, first brings its clocks up
/// to the input's time. So every timing edge is a plain value test on virtual time.
///
/// - One message at a time (INAPP-48): the ``slot`` holds at most one; messages ready meanwhile wait
///   in a FIFO ``queue`` without duplicates, at most ``Settings/queueCapacity`` of them, each
///   dropped once it has waited ``Settings/queueExpiry`` (RMQ-4, RMQ-6, GAP-75).
/// - Each message is checked again when its turn comes: privacy, its expiry, the frequency caps
///   and contact rules, the content form its renderer can draw; one held back only by a cap that
///   lifts before its queue expiry waits for it (RMQ-4, GAP-39).
/// - SDK renderer and presenter (INAPP-30, INAPP-62): counted as displayed after one second on
///   screen while the app is active; a click or close before then reports `displayed` first; leaving
///   earlier, a user change or a privacy change reports nothing (INAPP-56 … INAPP-60).
/// - Callback mode: the app's reports are the ones sent, its `displayed` consumes the caps; the slot
///   frees on `dismissed`, after 30 s with no report, or 5 min after `displayed` (INAPP-34,
///   INAPP-35).
/// - The displayed ``history`` changes only when a message counts as displayed (INAPP-46).
package struct InAppDisplayMachine: Sendable, Equatable {
    /// The configuration.
    package private(set) var settings: Settings
    /// The displayed history (INAPP-47); ``Action/persistHistory(_:)`` carries it when it changes.
    package private(set) var history: InAppFrequency
    /// The workspace's contact rules (INAPP-45).
    package private(set) var rules: InAppContactRules
    /// Whether messages may be shown and reported: opted in with consent granted (INAPP-14, INAPP-53).
    package private(set) var isAllowed: Bool
    /// Whether the app is active (INAPP-57, INAPP-59).
    package private(set) var isActive: Bool
    /// Who draws messages.
    package private(set) var handler: Handler
    /// The message shown, presented, held or with the callback.
    package private(set) var slot: Slot
    /// Messages waiting for the slot, oldest first (RMQ-4).
    package private(set) var queue: [Entry]
    /// Messages waiting for their display delay (INAPP-31).
    package private(set) var delayed: [Delayed]
    /// When the queue's first message may be shown, when only a cap holds it back.
    package private(set) var headWaitsUntil: Date?
    /// The wake-ups asked for and not yet due.
    package private(set) var pendingWakeUps: [Date]
    /// The latest engine time seen (inputs never move it back).
    package private(set) var now: Date

    /// Creates a machine at `initialize()`: the stored history, the privacy and lifecycle state, and
    /// the callback if one was set before (INAPP-36).
    package init(
        settings: Settings,
        history: InAppFrequency = InAppFrequency(),
        rules: InAppContactRules = .none,
        isAllowed: Bool,
        isActive: Bool,
        callback: InAppCallbackCapabilities? = nil,
        now: Date
    ) {
        self.settings = settings
        self.history = history
        self.rules = rules
        self.isAllowed = isAllowed
        self.isActive = isActive
        self.handler = callback.map { .callback($0) } ?? .none
        self.slot = .free
        self.queue = []
        self.delayed = []
        self.headWaitsUntil = nil
        self.pendingWakeUps = []
        self.now = now
    }

    /// Whether `campaignId` is waiting, queued, held or shown (duplicates are ignored).
    package func contains(_ campaignId: String) -> Bool {
        self.slot.campaign?.id == campaignId || self.queue.contains { $0.campaign.id == campaignId }
            || self.delayed.contains { $0.campaign.id == campaignId }
    }

    /// Applies `input` and returns what the feature must do, in order.
    package mutating func handle(_ input: Input) -> [Action] {
        let before = self.history
        self.now = max(self.now, input.at)
        var actions = self.catchUp()
        actions += self.apply(input)
        actions += self.startNext()
        if self.history != before {
            actions.append(.persistHistory(self.history))
        }
        actions += self.wakeUp(after: input)
        return actions
    }

    // MARK: - Time

    /// Brings the clocks up to ``now``: the dwell second, the callback holds, the display delays.
    private mutating func catchUp() -> [Action] {
        var actions: [Action] = []
        switch self.slot {
        case .onScreen(var shown):
            if !shown.counted, let since = shown.activeSince, self.reached(since + Settings.dwell) {
                actions += self.count(&shown, at: since + Settings.dwell)
                self.slot = .onScreen(shown)
            }
        case .callback(let handed):
            if let displayedAt = handed.displayedAt {
                if self.reached(displayedAt + Settings.displayedHold) {
                    self.slot = .free
                    actions.append(
                        .log(
                            .info,
                            "in-app \(handed.campaign.id): \"displayed\" with no \"dismissed\" for 5 minutes; slot released"
                        )
                    )
                }
            } else if self.reached(handed.deliveredAt + Settings.callbackRelease) {
                self.slot = .free
                actions.append(
                    .log(.info, "in-app \(handed.campaign.id): no report from the callback in 30 s; slot released")
                )
            }
        case .free, .held, .presenting:
            break
        }
        let due = self.delayed.filter { self.reached($0.dueAt) }.sorted { $0.dueAt < $1.dueAt }
        let now = self.now
        self.delayed.removeAll { InAppFrequency.reached($0.dueAt, at: now) }
        for item in due {
            actions += self.enqueue(Entry(campaign: item.campaign, readyAt: item.dueAt))
        }
        return actions
    }

    /// Whether `deadline` is reached at ``now``, to the millisecond.
    private func reached(_ deadline: Date) -> Bool {
        InAppFrequency.reached(deadline, at: self.now)
    }

    /// The next moment something happens by itself.
    private var nextDeadline: Date? {
        var dates = self.delayed.map(\.dueAt)
        switch self.slot {
        case .onScreen(let shown):
            if !shown.counted, let since = shown.activeSince { dates.append(since + Settings.dwell) }
        case .callback(let handed):
            if let displayedAt = handed.displayedAt {
                dates.append(displayedAt + Settings.displayedHold)
            } else {
                dates.append(handed.deliveredAt + Settings.callbackRelease)
            }
        case .free, .held, .presenting:
            break
        }
        if let until = self.headWaitsUntil { dates.append(until) }
        return dates.min()
    }

    /// Asks for a tick at the next deadline unless one at or before it is pending. A tick re-arms:
    /// the wake-ups asked for before it are forgotten, so a tick that came early (not reaching its
    /// deadline) asks again instead of leaving the machine waiting for an input.
    private mutating func wakeUp(after input: Input) -> [Action] {
        if case .tick = input {
            self.pendingWakeUps.removeAll()
        }
        let now = self.now
        self.pendingWakeUps.removeAll { InAppFrequency.reached($0, at: now) }
        guard let deadline = self.nextDeadline, !self.pendingWakeUps.contains(where: { $0 <= deadline }) else {
            return []
        }
        self.pendingWakeUps.append(deadline)
        return [.wakeUp(at: deadline)]
    }

    // MARK: - Inputs

    private mutating func apply(_ input: Input) -> [Action] {
        switch input {
        case .ready(let campaign, _):
            return self.ready(campaign)
        case .presentResult(let id, let shown, _):
            return self.presentResult(id, shown: shown)
        case .clicked(let id, let elementId, _):
            return self.clicked(id, elementId: elementId)
        case .closed(let id, _):
            return self.left(id, closedByPerson: true)
        case .removed(let id, _):
            return self.left(id, closedByPerson: false)
        case .appReport(let action, let campaign, let elementId, _):
            return self.appReport(action, campaign: campaign, elementId: elementId)
        case .appActive(let active, _):
            self.isActive = active
            if case .onScreen(var shown) = self.slot {
                shown.activeSince = active ? (shown.activeSince ?? self.now) : nil
                self.slot = .onScreen(shown)
            }
            return []
        case .callbackSet(let capabilities, _):
            self.handler = .callback(capabilities)
            return self.releaseHold(to: "the callback")
        case .callbackCleared:
            self.handler = .cleared
            return self.releaseHold(to: "the SDK's renderer")
        case .privacyChanged(let allowed, _):
            self.isAllowed = allowed
            var actions = self.cancelDelayed(because: "consent or opt-out changed")
            if !allowed {
                actions += self.dropEverything(because: "in-app messages are not allowed now")
            }
            return actions
        case .userChanged:
            return self.cancelDelayed(because: "the user changed")
                + self.dropEverything(because: "the user changed")
        case .contactRules(let rules, _):
            self.rules = rules
            return []
        case .clearHistory:
            self.history.clear()
            return []
        case .tick:
            return []
        }
    }

    /// A campaign became eligible: it waits for its display delay, then for the slot.
    private mutating func ready(_ campaign: InAppCampaign) -> [Action] {
        guard self.isAllowed else {
            return [.log(.debug, "in-app \(campaign.id): not shown, in-app messages are not allowed now")]
        }
        guard !self.contains(campaign.id) else {
            return [.log(.debug, "in-app \(campaign.id): already waiting or shown; ignored")]
        }
        if let reason = self.history.whyNotEligible(campaign, rules: self.rules, now: self.now),
            !self.mayWait(for: reason, readyAt: self.now)
        {
            return [.log(.debug, "in-app \(campaign.id): not shown, \(reason)")]
        }
        let delay = campaign.message.displayDelay
        if delay > 0 {
            self.delayed.append(Delayed(campaign: campaign, dueAt: self.now + delay))
            return []
        }
        return self.enqueue(Entry(campaign: campaign, readyAt: self.now))
    }

    /// Whether a message held back by `reason` may wait in the queue for it to lift.
    private func mayWait(for reason: InAppFrequency.Reason, readyAt: Date) -> Bool {
        guard let until = reason.until else { return false }
        return !InAppFrequency.reached(readyAt + self.settings.queueExpiry, at: until)
    }

    /// Puts `entry` in the queue by the time it became ready (RMQ-4, RMQ-6).
    private mutating func enqueue(_ entry: Entry) -> [Action] {
        guard self.queue.count < self.settings.queueCapacity else {
            return [
                .log(
                    .warning,
                    "in-app \(entry.campaign.id): dropped, \(self.settings.queueCapacity) messages already wait"
                )
            ]
        }
        let index = self.queue.lastIndex { $0.readyAt <= entry.readyAt }.map { $0 + 1 } ?? 0
        self.queue.insert(entry, at: index)
        return []
    }

    private mutating func presentResult(_ id: String, shown: Bool) -> [Action] {
        guard case .presenting(let campaign, let cancelled) = self.slot, campaign.id == id else {
            return [.log(.debug, "in-app \(id): a presentation result for no presentation; ignored")]
        }
        self.slot = .free
        if cancelled {
            return shown ? [.takeDown(campaign)] : []
        }
        guard shown else {
            // RMQ-5: released like a dismissal, nothing reported or consumed; it stays eligible.
            return [.log(.info, "in-app \(id): the presenter did not show it; slot released")]
        }
        self.slot = .onScreen(Shown(campaign: campaign, counted: false, activeSince: self.isActive ? self.now : nil))
        return []
    }

    private mutating func clicked(_ id: String, elementId: String?) -> [Action] {
        guard case .onScreen(var shown) = self.slot, shown.campaign.id == id else {
            return [.log(.debug, "in-app \(id): a click on a message not on screen; ignored")]
        }
        var actions: [Action] = []
        if !shown.counted {
            actions += self.count(&shown, at: self.now)  // INAPP-58: displayed first
        }
        self.slot = .onScreen(shown)
        actions += self.report(.clicked, shown.campaign, elementId: elementId)
        actions.append(.onMessageClick(shown.campaign.message, elementId ?? ""))
        return actions
    }

    /// The message left the screen: closed by the person (counts as seen, INAPP-58) or otherwise
    /// (nothing reported before the dwell second, INAPP-60).
    private mutating func left(_ id: String, closedByPerson: Bool) -> [Action] {
        guard case .onScreen(var shown) = self.slot, shown.campaign.id == id else {
            return [.log(.debug, "in-app \(id): a dismissal of a message not on screen; ignored")]
        }
        self.slot = .free
        var actions: [Action] = []
        if !shown.counted {
            guard closedByPerson else {
                return [.log(.debug, "in-app \(id): left the screen before its dwell second; nothing reported")]
            }
            actions += self.count(&shown, at: self.now)
        }
        actions += self.report(.dismissed, shown.campaign, elementId: nil)
        actions.append(.onMessageDismiss(shown.campaign.message))
        return actions
    }

    /// `trackInAppImpression` from the app (INAPP-33, INAPP-34, INAPP-35, INAPP-61).
    private mutating func appReport(
        _ action: InAppReportAction,
        campaign: InAppCampaign,
        elementId: String?
    ) -> [Action] {
        guard self.isAllowed else {
            return [.log(.debug, "in-app \(campaign.id): \"\(action.rawValue)\" dropped, not allowed now")]
        }
        switch self.slot {
        case .callback(var handed) where handed.campaign.id == campaign.id:
            switch action {
            case .displayed:
                guard handed.displayedAt == nil else {
                    return [.log(.warning, "in-app \(campaign.id): \"displayed\" reported twice; sent once")]
                }
                handed.displayedAt = self.now
                self.slot = .callback(handed)
                self.history.recordDisplay(of: campaign.id, at: self.now)
            case .dismissed:
                self.slot = .free
            case .clicked, .converted:
                break
            }
            return self.report(action, handed.campaign, elementId: elementId)
        case .onScreen, .presenting:
            guard self.slot.campaign?.id != campaign.id || action == .converted else {
                // INAPP-30: the SDK reports this message itself; the app's report would count it twice.
                return [
                    .log(
                        .warning,
                        "in-app \(campaign.id): \"\(action.rawValue)\" ignored, the SDK reports messages it shows itself"
                    )
                ]
            }
            return self.passThrough(action, campaign, elementId: elementId)
        default:
            return self.passThrough(action, campaign, elementId: elementId)
        }
    }

    /// A report about a message not in the slot (converted later, or one the app still shows after
    /// a release): sent as the app says; its `displayed` counts (INAPP-34).
    private mutating func passThrough(
        _ action: InAppReportAction,
        _ campaign: InAppCampaign,
        elementId: String?
    )
        -> [Action]
    {
        if action == .displayed {
            self.history.recordDisplay(of: campaign.id, at: self.now)
        }
        return self.report(action, campaign, elementId: elementId)
    }

    /// The held message goes to the front of the queue, ready now, for the handler now in force
    /// (INAPP-38, INAPP-39).
    private mutating func releaseHold(to handler: String) -> [Action] {
        guard case .held(var entry) = self.slot else { return [] }
        self.slot = .free
        entry.readyAt = self.now
        self.queue.insert(entry, at: 0)
        return [.log(.debug, "in-app \(entry.campaign.id): hold ended; handed to \(handler)")]
    }

    /// INAPP-31: a message waiting for its display delay is not delivered.
    private mutating func cancelDelayed(because reason: String) -> [Action] {
        let cancelled = self.delayed
        self.delayed.removeAll()
        return cancelled.map { .log(.debug, "in-app \($0.campaign.id): display delay cancelled, \(reason)") }
    }

    /// Drops the queue and the hold, and takes down the message on screen, reporting nothing more
    /// (INAPP-58).
    private mutating func dropEverything(because reason: String) -> [Action] {
        var actions: [Action] = self.queue.map { .log(.debug, "in-app \($0.campaign.id): dropped, \(reason)") }
        self.queue.removeAll()
        self.headWaitsUntil = nil
        switch self.slot {
        case .free:
            break
        case .held(let entry):
            actions.append(.log(.debug, "in-app \(entry.campaign.id): hold dropped, \(reason)"))
            self.slot = .free
        case .presenting(let campaign, _):
            self.slot = .presenting(campaign, cancelled: true)
        case .onScreen(let shown):
            actions.append(.takeDown(shown.campaign))
            self.slot = .free
        case .callback(let handed):
            actions.append(.log(.debug, "in-app \(handed.campaign.id): callback slot released, \(reason)"))
            self.slot = .free
        }
        return actions
    }

    // MARK: - The slot

    /// Fills a free slot from the queue, checking each message again (RMQ-4).
    private mutating func startNext() -> [Action] {
        var actions: [Action] = []
        self.headWaitsUntil = nil
        while self.slot == .free, let head = self.queue.first {
            let campaign = head.campaign
            guard self.isAllowed else {
                self.queue.removeAll()
                break
            }
            if self.reached(head.readyAt + self.settings.queueExpiry) {
                self.queue.removeFirst()
                actions.append(.log(.debug, "in-app \(campaign.id): dropped, it waited too long for the screen"))
                continue
            }
            if let reason = self.history.whyNotEligible(campaign, rules: self.rules, now: self.now) {
                if self.mayWait(for: reason, readyAt: head.readyAt), let until = reason.until {
                    self.headWaitsUntil = until
                    break
                }
                self.queue.removeFirst()
                actions.append(.log(.debug, "in-app \(campaign.id): not shown, \(reason)"))
                continue
            }
            switch self.handler {
            case .callback(let capabilities):
                self.queue.removeFirst()
                guard capabilities.renders(campaign.message.content) else {
                    // GAP-41: not delivered, and not drawn by the SDK either.
                    actions.append(
                        .log(
                            .info,
                            "in-app \(campaign.id): skipped, its content form is not in the callback's capabilities"
                        )
                    )
                    continue
                }
                self.slot = .callback(Handed(campaign: campaign, deliveredAt: self.now, displayedAt: nil))
                actions.append(.deliverToCallback(campaign))
            case .none where self.settings.holdForHandler:
                self.queue.removeFirst()
                self.slot = .held(head)
                actions.append(.log(.debug, "in-app \(campaign.id): held for the in-app message callback"))
            case .none, .cleared:
                if case .html = campaign.message.content, !self.settings.allowHtml {
                    self.queue.removeFirst()
                    actions.append(
                        .log(.info, "in-app \(campaign.id): HTML campaign skipped, allowHtmlJsInAppMessages is off")
                    )
                    continue
                }
                guard self.isActive else { return actions }  // INAPP-57: waits for the active app
                self.queue.removeFirst()
                self.slot = .presenting(campaign, cancelled: false)
                actions.append(.present(campaign))
            }
        }
        return actions
    }

    /// The message counts as displayed at `date`: the cap is consumed, `displayed` reported,
    /// `onMessageDisplay` run (INAPP-56, GAP-42).
    private mutating func count(_ shown: inout Shown, at date: Date) -> [Action] {
        shown.counted = true
        self.history.recordDisplay(of: shown.campaign.id, at: date)
        return self.report(.displayed, shown.campaign, elementId: nil) + [.onMessageDisplay(shown.campaign.message)]
    }

    /// A report, or nothing while privacy forbids it (INAPP-53).
    private func report(_ action: InAppReportAction, _ campaign: InAppCampaign, elementId: String?) -> [Action] {
        guard self.isAllowed else { return [] }
        return [.report(action, campaign, elementId: elementId)]
    }
}
