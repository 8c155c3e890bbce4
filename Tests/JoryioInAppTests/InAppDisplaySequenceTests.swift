import Foundation
import JoryioInApp
import JoryioKit
import Testing

/// Every ordering of a small alphabet of inputs, checked after every step against a model the
/// harness keeps of what is on screen (INAPP-13, INAPP-14, INAPP-34, INAPP-35, INAPP-45, INAPP-46,
/// INAPP-48, INAPP-53, INAPP-56 … INAPP-62, RMQ-4, RMQ-5).
///
/// Invariants:
/// - never two messages on screen: nothing is presented or handed over while a message is on
///   screen, being presented, or holding the callback slot (30 s / 5 min, INAPP-35);
/// - no cap ever exceeded (campaign `a`: once ever; `b`: 40 s apart; workspace: 2 per 60 s, 2 s
///   apart);
/// - nothing counted that was not on screen, with the app active, for the dwell second, except a
///   click or close of it (INAPP-58) or the app's own `displayed` in callback mode (INAPP-34);
/// - at most one `displayed` per showing; the history grows exactly by the `displayed` reports;
/// - nothing presented, handed over or reported while privacy forbids (INAPP-14, INAPP-53);
/// - every report names a campaign that was presented or handed over, and carries its token;
/// - after the inputs, answering and closing everything settles the machine.
@Suite struct InAppDisplaySequenceTests {
    enum Symbol: String, CaseIterable, CustomStringConvertible {
        case readyA, readyB, readyDelayed, presentOK, presentFail, click, close, remove
        case appDisplayed, appDismissed, background, foreground, wait500, wait30s
        case userChange, privacy, callbackSet, callbackCleared

        var description: String { self.rawValue }
    }

    enum Mode: String, CaseIterable, CustomTestStringConvertible {
        case renderer, hold, callback
        var testDescription: String { self.rawValue }
    }

    static let a = DisplayFixture.campaign("a", caps: InAppCaps(maxImpressions: 1))
    static let b = DisplayFixture.campaign("b", caps: InAppCaps(minInterval: 40))
    static let d = DisplayFixture.campaign("d", delay: 1.5)
    static let rules = InAppContactRules(maxImpressions: 2, window: 60, minDelayBetweenMessages: 2)

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    struct Harness {
        var machine: InAppDisplayMachine
        var now = DisplayFixture.t0
        var wakeUps: [Date] = []
        var trace: [String] = []
        // The model.
        var allowed = true
        var active = true
        var presenting: InAppCampaign?
        var screen: InAppCampaign?
        var screenCounted = false
        var activeSince: Date?
        var handed: (campaign: InAppCampaign, at: Date, displayedAt: Date?)?
        var displays: [(id: String, at: Date)] = []
        var seen: Set<String> = []

        init(mode: Mode) {
            self.machine = InAppDisplayMachine(
                settings: .init(allowHtml: false, holdForHandler: mode == .hold),
                rules: InAppDisplaySequenceTests.rules,
                isAllowed: true,
                isActive: true,
                callback: mode == .callback ? .native : nil,
                now: DisplayFixture.t0
            )
        }

        mutating func step(_ symbol: Symbol) throws {
            switch symbol {
            case .readyA: try self.feed(.ready(InAppDisplaySequenceTests.a, at: self.now), symbol)
            case .readyB: try self.feed(.ready(InAppDisplaySequenceTests.b, at: self.now), symbol)
            case .readyDelayed: try self.feed(.ready(InAppDisplaySequenceTests.d, at: self.now), symbol)
            case .presentOK, .presentFail:
                let id = self.presenting?.id ?? "a"
                try self.feed(.presentResult(campaignId: id, shown: symbol == .presentOK, at: self.now), symbol)
            case .click:
                try self.feed(.clicked(campaignId: self.screen?.id ?? "a", elementId: "x", at: self.now), symbol)
            case .close: try self.feed(.closed(campaignId: self.screen?.id ?? "a", at: self.now), symbol)
            case .remove: try self.feed(.removed(campaignId: self.screen?.id ?? "a", at: self.now), symbol)
            case .appDisplayed, .appDismissed:
                // The app reports only about the message its callback holds.
                guard let handed = self.handed else { return }
                let action: InAppReportAction = symbol == .appDisplayed ? .displayed : .dismissed
                try self.feed(.appReport(action, campaign: handed.campaign, elementId: nil, at: self.now), symbol)
            case .background: try self.feed(.appActive(false, at: self.now), symbol)
            case .foreground: try self.feed(.appActive(true, at: self.now), symbol)
            case .wait500: try self.advance(by: 0.5)
            case .wait30s: try self.advance(by: 30)
            case .userChange: try self.feed(.userChanged(at: self.now), symbol)
            case .privacy: try self.feed(.privacyChanged(allowed: !self.allowed, at: self.now), symbol)
            case .callbackSet: try self.feed(.callbackSet(.native, at: self.now), symbol)
            case .callbackCleared: try self.feed(.callbackCleared(at: self.now), symbol)
            }
        }

        /// Moves virtual time, firing the wake-ups the machine asked for at their exact times.
        mutating func advance(by seconds: TimeInterval) throws {
            let target = self.now + seconds
            while let next = self.wakeUps.min(), next <= target {
                self.wakeUps.removeAll { $0 == next }
                self.now = max(self.now, next)
                try self.feed(.tick(at: self.now), nil)
            }
            self.now = target
            try self.feed(.tick(at: self.now), nil)
        }

        mutating func feed(_ input: DisplayInput, _ symbol: Symbol?) throws {
            // Time passing, in the model: the callback slot's releases (INAPP-35).
            if let handed = self.handed {
                if let displayedAt = handed.displayedAt {
                    if self.now >= displayedAt + 300 { self.handed = nil }
                } else if self.now >= handed.at + 30 {
                    self.handed = nil
                }
            }
            let historyBefore = self.machine.history
            let actions = self.machine.handle(input)
            self.trace.append("\(symbol?.rawValue ?? "tick") @\(self.ms(self.now)) -> \(actions.effects)")
            try self.check(
                historyBefore != self.machine.history
                    || !actions.contains { if case .persistHistory = $0 { true } else { false } },
                "persisted an unchanged history"
            )
            var displayedReports = 0
            for action in actions {
                switch action {
                case .report(let report, let campaign, _):
                    try self.check(self.allowed && !self.isDisallowing(input), "reported while not allowed")
                    try self.check(self.seen.contains(campaign.id), "a report about \(campaign.id), never shown")
                    try self.check(
                        campaign.message.deliveryToken == "token-\(campaign.id)",
                        "a report without its token"
                    )
                    if report == .displayed {
                        displayedReports += 1
                        try self.checkDisplayed(campaign, input: input)
                    } else if self.isDelegateCall(input) {
                        // INAPP-58: on the SDK's paths, displayed comes first.
                        try self.check(self.screenCounted, "\(report.rawValue) before displayed")
                    }
                case .present(let campaign), .deliverToCallback(let campaign):
                    try self.check(self.allowed && !self.isDisallowing(input), "shown while not allowed")
                    var answered = false
                    if case .presentResult(let id, _, _) = input { answered = id == self.presenting?.id }
                    try self.check(
                        self.presenting == nil || answered,
                        "\(campaign.id) presented while \(self.presenting?.id ?? "") is"
                    )
                    try self.check(
                        self.screen == nil || self.removesScreen(input),
                        "\(campaign.id) drawn over \(self.screen?.id ?? "")"
                    )
                    try self.check(
                        self.handed == nil || self.releasesHanded(input),
                        "\(campaign.id) shown while the callback holds \(self.handed?.campaign.id ?? "")"
                    )
                    self.seen.insert(campaign.id)
                    if answered { self.presenting = nil }
                    if case .present = action {
                        let activates: Bool
                        if case .appActive(true, _) = input { activates = true } else { activates = false }
                        try self.check(self.active || activates, "presented while the app is not active")
                        self.presenting = campaign
                    } else {
                        self.handed = (campaign, self.now, nil)
                    }
                case .takeDown(let campaign):
                    if case .presentResult(_, true, _) = input, self.presenting?.id == campaign.id {
                        break  // a presentation cancelled while in flight comes down at once
                    }
                    try self.check(self.screen?.id == campaign.id, "took down \(campaign.id), not on screen")
                    self.screen = nil
                case .wakeUp(let at):
                    try self.check(at > self.now, "a wake-up in the past")
                    self.wakeUps.append(at)
                case .onMessageDisplay, .onMessageClick, .onMessageDismiss, .persistHistory, .log:
                    break
                }
            }
            try self.check(
                self.machine.history.total == historyBefore.total + displayedReports
                    || input.isClearHistory,
                "the history changed by other than the displayed reports"
            )
            try self.applyToModel(input)
        }

        func isDelegateCall(_ input: DisplayInput) -> Bool {
            switch input {
            case .clicked, .closed, .removed: return true
            default: return false
            }
        }

        func isDisallowing(_ input: DisplayInput) -> Bool {
            if case .privacyChanged(false, _) = input { return true }
            return false
        }

        /// Whether `input` takes the message on screen away (closed, removed, or taken down).
        func removesScreen(_ input: DisplayInput) -> Bool {
            guard let screen = self.screen else { return true }
            switch input {
            case .closed(let id, _), .removed(let id, _): return id == screen.id
            case .userChanged, .privacyChanged(false, _): return true
            default: return false
            }
        }

        func releasesHanded(_ input: DisplayInput) -> Bool {
            guard let handed = self.handed else { return true }
            switch input {
            case .appReport(.dismissed, let campaign, _, _): return campaign.id == handed.campaign.id
            case .userChanged, .privacyChanged(false, _): return true
            default: return false
            }
        }

        /// INAPP-56 … INAPP-61 and the caps, at each `displayed`.
        mutating func checkDisplayed(_ campaign: InAppCampaign, input: DisplayInput) throws {
            if case .appReport(.displayed, let reported, _, _) = input {
                try self.check(
                    reported.id == campaign.id && self.handed?.campaign.id == campaign.id,
                    "displayed for another"
                )
                try self.check(self.handed?.displayedAt == nil, "the app's displayed counted twice")
            } else {
                try self.check(self.screen?.id == campaign.id, "displayed for \(campaign.id), not on screen")
                try self.check(!self.screenCounted, "displayed twice for one showing")
                var byPerson = false
                switch input {
                case .clicked(let id, _, _), .closed(let id, _): byPerson = id == campaign.id
                default: break
                }
                let dwelled = self.activeSince.map { self.now >= $0 + 1 } ?? false
                try self.check(byPerson || dwelled, "counted before one active second on screen")
                self.screenCounted = true
            }
            // Caps (INAPP-45): a once ever, b 40 s apart; 2 per 60 s and 2 s apart across campaigns.
            let mine = self.displays.filter { $0.id == campaign.id }
            if campaign.id == "a" { try self.check(mine.isEmpty, "a shown twice") }
            if campaign.id == "b", let last = mine.last { try self.check(self.now >= last.at + 40, "b within 40 s") }
            let inWindow = self.displays.filter { self.now < $0.at + 60 }
            try self.check(inWindow.count < 2, "three messages within 60 s")
            if let last = self.displays.last { try self.check(self.now >= last.at + 2, "two messages within 2 s") }
            self.displays.append((campaign.id, self.now))
        }

        mutating func applyToModel(_ input: DisplayInput) throws {
            switch input {
            case .presentResult(let id, let shown, _):
                if self.presenting?.id == id {
                    if shown, let campaign = self.presenting, self.screen == nil, self.machine.slot.campaign?.id == id {
                        self.screen = campaign
                        self.screenCounted = false
                        self.activeSince = self.active ? self.now : nil
                    }
                    self.presenting = nil
                }
            case .closed(let id, _), .removed(let id, _):
                if self.screen?.id == id { self.screen = nil }
            case .appActive(let active, _):
                self.active = active
                self.activeSince = active ? (self.activeSince ?? self.now) : nil
            case .appReport(let action, let campaign, _, _):
                if self.handed?.campaign.id == campaign.id {
                    if action == .displayed, self.handed?.displayedAt == nil { self.handed?.displayedAt = self.now }
                    if action == .dismissed { self.handed = nil }
                }
            case .userChanged:
                self.handed = nil
            case .privacyChanged(let allowed, _):
                self.allowed = allowed
                if !allowed { self.handed = nil }
            default:
                break
            }
            // What the machine says is on screen matches the model.
            if case .onScreen(let shown) = self.machine.slot {
                try self.check(
                    self.screen?.id == shown.campaign.id,
                    "the machine shows \(shown.campaign.id), the model not"
                )
                try self.check(shown.counted == self.screenCounted, "counted differs from the model")
            } else {
                try self.check(self.screen == nil, "the model shows \(self.screen?.id ?? ""), the machine not")
            }
            if case .callback(let handed) = self.machine.slot {
                try self.check(
                    self.handed?.campaign.id == handed.campaign.id,
                    "the callback slot differs from the model"
                )
            } else {
                try self.check(self.handed == nil, "the model's callback slot is still held")
            }
        }

        /// Answers, closes and waits until nothing is left; the machine must settle.
        mutating func drain() throws {
            for _ in 0..<40 {
                if self.presenting != nil {
                    try self.step(.presentOK)
                } else if self.screen != nil {
                    try self.advance(by: 1)
                    try self.step(.close)
                } else if self.handed != nil {
                    try self.step(.appDismissed)
                } else if case .held = self.machine.slot {
                    try self.step(.callbackSet)
                } else if !self.machine.queue.isEmpty || !self.machine.delayed.isEmpty {
                    if !self.active { try self.step(.foreground) }
                    try self.advance(by: 30)
                } else {
                    break
                }
            }
            try self.check(self.machine.queue.isEmpty && self.machine.delayed.isEmpty, "the queue never drained")
            try self.check(self.machine.slot == .free, "the slot never freed: \(self.machine.slot)")
        }

        func ms(_ date: Date) -> Int { Int((date.timeIntervalSince(DisplayFixture.t0) * 1000).rounded()) }

        func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
            if !condition {
                throw Failure(description: message() + "\n  " + self.trace.joined(separator: "\n  "))
            }
        }
    }

    /// Every sequence over `alphabet` of length 0 … `length`.
    static func sequences(of alphabet: [Symbol], upTo length: Int) -> [[Symbol]] {
        var all: [[Symbol]] = [[]]
        var layer: [[Symbol]] = [[]]
        for _ in 0..<length {
            layer = layer.flatMap { prefix in alphabet.map { prefix + [$0] } }
            all += layer
        }
        return all
    }

    @Test("every sequence of up to 4 inputs keeps the invariants, then settles", arguments: Mode.allCases)
    func everySequence(mode: Mode) throws {
        var count = 0
        for sequence in Self.sequences(of: Symbol.allCases, upTo: 4) {
            var harness = Harness(mode: mode)
            for symbol in sequence {
                try harness.step(symbol)
            }
            try harness.drain()
            count += 1
        }
        #expect(count == 1 + 18 + 324 + 5832 + 104_976)
    }

    @Test(
        "a shown message counts after its dwell second in every sequence of waits and lifecycle changes",
        arguments: Mode.allCases
    )
    func lifecycleSequences(mode: Mode) throws {
        let alphabet: [Symbol] = [.wait500, .background, .foreground, .click, .close, .remove, .readyB]
        for sequence in Self.sequences(of: alphabet, upTo: 5) {
            var harness = Harness(mode: mode)
            try harness.step(.callbackCleared)
            try harness.step(.readyA)
            try harness.step(.presentOK)
            for symbol in sequence {
                try harness.step(symbol)
            }
            try harness.drain()
        }
    }
}

extension InAppDisplayMachine.Input {
    fileprivate var isClearHistory: Bool {
        if case .clearHistory = self { return true }
        return false
    }
}
