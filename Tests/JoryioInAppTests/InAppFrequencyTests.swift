import Foundation
import JoryioInApp
import JoryioKit
import Testing

/// The displayed history and the caps (INAPP-45, INAPP-46, INAPP-47, GAP-39, GAP-45), every
/// boundary to the millisecond.
@Suite struct InAppFrequencyTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func at(_ milliseconds: Int) -> Date {
        Self.t0.addingTimeInterval(TimeInterval(milliseconds) / 1000)
    }

    static func campaign(
        _ id: String = "c1",
        max: Int? = nil,
        window: TimeInterval? = nil,
        interval: TimeInterval? = nil,
        expiresAt: Date? = nil
    ) -> InAppCampaign {
        InAppCampaign(
            message: InAppMessage(id: id, type: .modal, content: .native(.init(headline: "Hi"))),
            caps: InAppCaps(maxImpressions: max, window: window, minInterval: interval),
            expiresAt: expiresAt
        )
    }

    @Test("INAPP-45: a campaign's lifetime cap (nil window) never lifts")
    func lifetimeCap() {
        var history = InAppFrequency()
        let campaign = Self.campaign(max: 2)
        #expect(history.whyNotEligible(campaign, rules: .none, now: Self.t0) == nil)
        history.recordDisplay(of: "c1", at: Self.at(0))
        #expect(history.whyNotEligible(campaign, rules: .none, now: Self.at(1)) == nil)
        history.recordDisplay(of: "c1", at: Self.at(1))
        let reason = history.whyNotEligible(campaign, rules: .none, now: Self.at(10_000_000_000))
        #expect(reason == .campaignCap(maxImpressions: 2, window: nil, until: nil))
        #expect(reason?.until == nil)
        // Another campaign is not affected.
        #expect(history.whyNotEligible(Self.campaign("c2", max: 2), rules: .none, now: Self.at(2)) == nil)
    }

    @Test("INAPP-45: per window: inside while now < t + window; eligible again at exactly t + window")
    func windowBoundary() {
        var history = InAppFrequency()
        let campaign = Self.campaign(max: 1, window: 60)
        history.recordDisplay(of: "c1", at: Self.at(0))
        #expect(
            history.whyNotEligible(campaign, rules: .none, now: Self.at(59_999))
                == .campaignCap(maxImpressions: 1, window: 60, until: Self.at(60_000))
        )
        #expect(history.whyNotEligible(campaign, rules: .none, now: Self.at(60_000)) == nil)
        #expect(history.whyNotEligible(campaign, rules: .none, now: Self.at(60_001)) == nil)
    }

    @Test("INAPP-45: with 3 per window and 4 displays, it lifts when the second oldest leaves")
    func windowUntilWithSeveral() {
        var history = InAppFrequency()
        for ms in [0, 10_000, 20_000, 30_000] { history.recordDisplay(of: "c1", at: Self.at(ms)) }
        let campaign = Self.campaign(max: 3, window: 100)
        // In window at 35 s: all four; one more fits once two have left: the second oldest + 100 s.
        #expect(history.whyNotEligible(campaign, rules: .none, now: Self.at(35_000))?.until == Self.at(110_000))
        #expect(history.whyNotEligible(campaign, rules: .none, now: Self.at(109_999)) != nil)
        #expect(history.whyNotEligible(campaign, rules: .none, now: Self.at(110_000)) == nil)
    }

    @Test("INAPP-45: a campaign's minimum interval, to the millisecond")
    func campaignInterval() {
        var history = InAppFrequency()
        let campaign = Self.campaign(interval: 30)
        history.recordDisplay(of: "c1", at: Self.at(0))
        #expect(
            history.whyNotEligible(campaign, rules: .none, now: Self.at(29_999))
                == .campaignInterval(until: Self.at(30_000))
        )
        #expect(history.whyNotEligible(campaign, rules: .none, now: Self.at(30_000)) == nil)
        // Other campaigns' displays do not count against a campaign's interval.
        var other = InAppFrequency()
        other.recordDisplay(of: "c2", at: Self.at(0))
        #expect(other.whyNotEligible(campaign, rules: .none, now: Self.at(1)) == nil)
    }

    @Test("INAPP-45, GAP-45: the workspace cap counts every campaign's displays")
    func workspaceCap() {
        var history = InAppFrequency()
        let rules = InAppContactRules(maxImpressions: 2, window: 3600)
        history.recordDisplay(of: "a", at: Self.at(0))
        #expect(history.whyNotEligible(Self.campaign("c"), rules: rules, now: Self.at(1)) == nil)
        history.recordDisplay(of: "b", at: Self.at(1000))
        #expect(
            history.whyNotEligible(Self.campaign("c"), rules: rules, now: Self.at(2000))
                == .workspaceCap(maxImpressions: 2, window: 3600, until: Self.at(3_600_000))
        )
        #expect(history.whyNotEligible(Self.campaign("c"), rules: rules, now: Self.at(3_599_999)) != nil)
        #expect(history.whyNotEligible(Self.campaign("c"), rules: rules, now: Self.at(3_600_000)) == nil)
        // Lifetime workspace cap.
        let lifetime = InAppContactRules(maxImpressions: 2)
        #expect(history.whyNotEligible(Self.campaign("c"), rules: lifetime, now: Self.at(99_999_999))?.until == nil)
    }

    @Test("GAP-39: the workspace's minimum delay counts from the last display, to the millisecond")
    func workspaceDelay() {
        var history = InAppFrequency()
        let rules = InAppContactRules(minDelayBetweenMessages: 120)
        history.recordDisplay(of: "a", at: Self.at(5000))
        #expect(
            history.whyNotEligible(Self.campaign("b"), rules: rules, now: Self.at(124_999))
                == .workspaceDelay(until: Self.at(125_000))
        )
        #expect(history.whyNotEligible(Self.campaign("b"), rules: rules, now: Self.at(125_000)) == nil)
    }

    @Test("a campaign expires at exactly expiresAt")
    func expiry() {
        let history = InAppFrequency()
        let campaign = Self.campaign(expiresAt: Self.at(1000))
        #expect(history.whyNotEligible(campaign, rules: .none, now: Self.at(999)) == nil)
        #expect(history.whyNotEligible(campaign, rules: .none, now: Self.at(1000)) == .expired(Self.at(1000)))
    }

    @Test("a maximum of 0 blocks; the order of reasons is expiry, campaign cap, interval, workspace cap, delay")
    func zeroAndOrder() {
        var history = InAppFrequency()
        #expect(history.whyNotEligible(Self.campaign(max: 0), rules: .none, now: Self.t0) != nil)
        #expect(
            history.whyNotEligible(Self.campaign(), rules: InAppContactRules(maxImpressions: 0), now: Self.t0) != nil
        )
        history.recordDisplay(of: "c1", at: Self.t0)
        let all = Self.campaign(max: 1, window: 10, interval: 10, expiresAt: Self.at(1))
        let rules = InAppContactRules(maxImpressions: 1, window: 10, minDelayBetweenMessages: 10)
        #expect(history.whyNotEligible(all, rules: rules, now: Self.at(1)) == .expired(Self.at(1)))
        var reason = history.whyNotEligible(
            Self.campaign(max: 1, window: 10, interval: 10),
            rules: rules,
            now: Self.at(1)
        )
        #expect(reason == .campaignCap(maxImpressions: 1, window: 10, until: Self.at(10_000)))
        reason = history.whyNotEligible(Self.campaign(interval: 10), rules: rules, now: Self.at(1))
        #expect(reason == .campaignInterval(until: Self.at(10_000)))
        reason = history.whyNotEligible(Self.campaign(), rules: rules, now: Self.at(1))
        #expect(reason == .workspaceCap(maxImpressions: 1, window: 10, until: Self.at(10_000)))
        reason = history.whyNotEligible(
            Self.campaign(),
            rules: InAppContactRules(minDelayBetweenMessages: 10),
            now: Self.at(1)
        )
        #expect(reason == .workspaceDelay(until: Self.at(10_000)))
    }

    @Test("INAPP-47: the history round-trips through JSON and clears")
    func codableAndClear() throws {
        var history = InAppFrequency()
        history.recordDisplay(of: "a", at: Self.at(0))
        history.recordDisplay(of: "b", at: Self.at(5))
        history.recordDisplay(of: "a", at: Self.at(7))
        let decoded = try JSONDecoder().decode(InAppFrequency.self, from: JSONEncoder().encode(history))
        #expect(decoded == history)
        #expect(decoded.count(of: "a") == 2 && decoded.total == 3)
        history.clear()
        #expect(history.isEmpty && history == InAppFrequency())
        #expect(history.whyNotEligible(Self.campaign(max: 1), rules: .none, now: Self.at(8)) == nil)
    }

    @Test(
        "INAPP-47: a stored history is made consistent when read: dates sorted and trimmed, counts at least the dates"
    )
    func decodeNormalizes() throws {
        let late = Self.at(9000).timeIntervalSinceReferenceDate
        let early = Self.at(1000).timeIntervalSinceReferenceDate
        let many = (0..<50).map { Self.at($0).timeIntervalSinceReferenceDate }
        let json = """
            {"campaigns": {"a": {"count": 0, "dates": [\(late), \(early)]}, "b": {"count": 1, "dates": \(many)}},
             "total": 0, "recent": [\(late), \(early)]}
            """
        let history = try JSONDecoder().decode(InAppFrequency.self, from: Data(json.utf8))
        #expect(history.campaigns["a"] == .init(count: 2, dates: [Self.at(1000), Self.at(9000)]))
        #expect(history.campaigns["b"]?.dates.count == InAppFrequency.maxDatesPerCampaign)
        #expect(history.campaigns["b"]?.count == 50)
        #expect(history.recent == [Self.at(1000), Self.at(9000)] && history.total == 2)
        // The workspace delay counts from the latest display, not the last one stored.
        let rules = InAppContactRules(minDelayBetweenMessages: 10)
        #expect(history.whyNotEligible(Self.campaign("c"), rules: rules, now: Self.at(18_999)) != nil)
    }

    @Test("INAPP-47: bounded: dates per campaign and across campaigns, campaigns; lifetime counts stay exact")
    func bounded() {
        var history = InAppFrequency()
        for index in 0..<(InAppFrequency.maxDatesPerCampaign + 5) {
            history.recordDisplay(of: "a", at: Self.at(index * 1000))
        }
        #expect(history.campaigns["a"]?.dates.count == InAppFrequency.maxDatesPerCampaign)
        #expect(history.count(of: "a") == InAppFrequency.maxDatesPerCampaign + 5)
        #expect(history.campaigns["a"]?.dates.last == Self.at((InAppFrequency.maxDatesPerCampaign + 4) * 1000))
        // Lifetime cap stays exact beyond the dates kept.
        let capped = Self.campaign("a", max: InAppFrequency.maxDatesPerCampaign + 5)
        #expect(history.whyNotEligible(capped, rules: .none, now: Self.at(999_999)) != nil)
        for index in 0...InAppFrequency.maxCampaigns {
            history.recordDisplay(of: "campaign-\(index)", at: Self.at(100_000 + index))
        }
        #expect(history.campaigns.count == InAppFrequency.maxCampaigns)
        #expect(history.campaigns["a"] == nil)  // displayed longest ago: forgotten first
        #expect(history.recent.count == InAppFrequency.maxRecentDisplays)
        #expect(history.total == InAppFrequency.maxDatesPerCampaign + 5 + InAppFrequency.maxCampaigns + 1)
        // Out-of-order dates stay sorted.
        var sorted = InAppFrequency()
        sorted.recordDisplay(of: "x", at: Self.at(10))
        sorted.recordDisplay(of: "x", at: Self.at(5))
        #expect(sorted.campaigns["x"]?.dates == [Self.at(5), Self.at(10)])
        #expect(sorted.recent == [Self.at(5), Self.at(10)])
    }
}
