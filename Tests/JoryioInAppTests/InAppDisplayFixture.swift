import Foundation
import JoryioInApp
import JoryioKit

typealias DisplayMachine = InAppDisplayMachine
typealias DisplayAction = InAppDisplayMachine.Action
typealias DisplayInput = InAppDisplayMachine.Input

/// Virtual time and campaigns for the display machine's tests.
enum DisplayFixture {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    /// `t0` plus `milliseconds`.
    static func at(_ milliseconds: Int) -> Date {
        Self.t0.addingTimeInterval(TimeInterval(milliseconds) / 1000)
    }

    static func campaign(
        _ id: String,
        html: Bool = false,
        delay: TimeInterval = 0,
        caps: InAppCaps = InAppCaps(),
        expiresAt: Date? = nil
    ) -> InAppCampaign {
        let content: InAppMessage.Content = html ? .html("<p>\(id)</p>") : .native(.init(headline: id))
        return InAppCampaign(
            message: InAppMessage(
                id: id,
                type: .modal,
                content: content,
                deliveryToken: "token-\(id)",
                displayDelay: delay
            ),
            caps: caps,
            expiresAt: expiresAt
        )
    }

    static let a = Self.campaign("a")
    static let b = Self.campaign("b")
    static let c = Self.campaign("c")

    static func machine(
        allowHtml: Bool = false,
        hold: Bool = false,
        rules: InAppContactRules = .none,
        allowed: Bool = true,
        active: Bool = true,
        callback: InAppCallbackCapabilities? = nil,
        queueCapacity: Int = InAppDisplayMachine.Settings.defaultQueueCapacity
    ) -> InAppDisplayMachine {
        InAppDisplayMachine(
            settings: .init(allowHtml: allowHtml, holdForHandler: hold, queueCapacity: queueCapacity),
            rules: rules,
            isAllowed: allowed,
            isActive: active,
            callback: callback,
            now: Self.t0
        )
    }

    /// A machine with `campaign` on screen through the presenter since `t0`.
    static func shown(_ campaign: InAppCampaign = Self.a, active: Bool = true) -> InAppDisplayMachine {
        var machine = Self.machine(active: active)
        _ = machine.handle(.ready(campaign, at: Self.t0))
        _ = machine.handle(.presentResult(campaignId: campaign.id, shown: true, at: Self.t0))
        return machine
    }

    /// A machine with `campaign` handed to a callback declaring `content.native` at `t0`.
    static func handed(_ campaign: InAppCampaign = Self.a) -> InAppDisplayMachine {
        var machine = Self.machine(callback: .native)
        _ = machine.handle(.ready(campaign, at: Self.t0))
        return machine
    }
}

extension Array where Element == InAppDisplayMachine.Action {
    /// The reports, as `"action:campaign[:element]"`.
    var reports: [String] {
        self.compactMap {
            guard case .report(let action, let campaign, let elementId) = $0 else { return nil }
            return ([action.rawValue, campaign.id] + (elementId.map { [$0] } ?? [])).joined(separator: ":")
        }
    }

    /// Everything but logs and wake-ups, as short strings, in order.
    var effects: [String] {
        self.compactMap {
            switch $0 {
            case .present(let campaign): "present:\(campaign.id)"
            case .deliverToCallback(let campaign): "deliver:\(campaign.id)"
            case .takeDown(let campaign): "takeDown:\(campaign.id)"
            case .report(let action, let campaign, let elementId):
                ([action.rawValue, campaign.id] + (elementId.map { [$0] } ?? [])).joined(separator: ":")
            case .onMessageDisplay(let message): "onDisplay:\(message.id)"
            case .onMessageClick(let message, let element): "onClick:\(message.id):\(element)"
            case .onMessageDismiss(let message): "onDismiss:\(message.id)"
            case .persistHistory: "persist"
            case .wakeUp, .log: nil
            }
        }
    }

    var wakeUps: [Date] {
        self.compactMap { if case .wakeUp(let at) = $0 { at } else { nil } }
    }

    var logs: [String] {
        self.compactMap { if case .log(_, let message) = $0 { message } else { nil } }
    }
}
