package import Foundation
internal import JoryioKit

/// The displayed history and the frequency-cap decision (INAPP-45, INAPP-46, INAPP-47, GAP-39,
/// GAP-45), as a value: the feature stores it in the key-value store (it is `Codable`) and the
/// display machine records a display only when a message counts as displayed (INAPP-56 … INAPP-61).
///
/// Caps are computed on the device from this history (GAP-45):
/// - a campaign's `maxImpressions` per `window` seconds (`nil` window: ever), and its
///   `minInterval` between two of its displays;
/// - the workspace's `maxImpressions` per `window` across campaigns (`nil` window: ever), and its
///   `minDelayBetweenMessages`, measured from the moment the previous message **counted as
///   displayed** (GAP-39), not from its dismissal: the history holds displays only, survives
///   relaunches, and a message left on screen for minutes does not push the next one further away;
/// - a campaign past its `expiresAt` is never eligible.
///
/// Boundaries, to the millisecond (``reached(_:at:)``): a display at `t` is inside a window of `w`
/// seconds until `t + w` is reached; an interval of `i` seconds has passed once `t + i` is reached;
/// a campaign expires once `expiresAt` is reached. A `maxImpressions` of 0 or less blocks every
/// display.
///
/// Bounded (INAPP-47): per campaign the lifetime count and the last ``maxDatesPerCampaign``
/// display dates; across campaigns the lifetime count and the last ``maxRecentDisplays`` dates; at
/// most ``maxCampaigns`` campaigns, the one displayed longest ago forgotten first. A per-window cap
/// larger than the dates kept is enforced over the dates kept.
package struct InAppFrequency: Sendable, Equatable, Codable {
    /// One campaign's history.
    package struct Record: Sendable, Equatable, Codable {
        /// How many times it counted as displayed, ever.
        package var count: Int
        /// Its most recent display dates, oldest first.
        package var dates: [Date]

        /// Creates a record.
        package init(count: Int, dates: [Date]) {
            self.count = count
            self.dates = dates
        }
    }

    /// Why a campaign may not be shown now.
    package enum Reason: Sendable, Equatable, CustomStringConvertible {
        /// The campaign expired at this date.
        case expired(Date)
        /// The campaign's own `maxImpressions` per `window` is reached.
        case campaignCap(maxImpressions: Int, window: TimeInterval?, until: Date?)
        /// The campaign's own `minInterval` has not passed since its last display.
        case campaignInterval(until: Date)
        /// The workspace's `maxImpressions` per `window` is reached.
        case workspaceCap(maxImpressions: Int, window: TimeInterval?, until: Date?)
        /// The workspace's `minDelayBetweenMessages` has not passed since the last display.
        case workspaceDelay(until: Date)

        /// When this reason stops holding, or `nil` when it never does (expired, lifetime cap).
        package var until: Date? {
            switch self {
            case .expired: nil
            case .campaignCap(_, _, let until), .workspaceCap(_, _, let until): until
            case .campaignInterval(let until), .workspaceDelay(let until): until
            }
        }

        /// A short English description for logs.
        package var description: String {
            switch self {
            case .expired: "the campaign expired"
            case .campaignCap(let max, let window, _):
                "the campaign's cap of \(max) impressions \(Self.per(window)) is reached"
            case .campaignInterval: "the campaign's minimum interval between displays has not passed"
            case .workspaceCap(let max, let window, _):
                "the workspace's cap of \(max) messages \(Self.per(window)) is reached"
            case .workspaceDelay: "the workspace's minimum delay between messages has not passed"
            }
        }

        private static func per(_ window: TimeInterval?) -> String {
            guard let window else { return "ever" }
            return "per \(window) s"
        }
    }

    /// Display dates kept per campaign.
    package static let maxDatesPerCampaign = 20
    /// Display dates kept across campaigns.
    package static let maxRecentDisplays = 100
    /// Campaigns kept.
    package static let maxCampaigns = 200

    /// Each campaign's history, by campaign id.
    package private(set) var campaigns: [String: Record]
    /// How many messages counted as displayed, ever.
    package private(set) var total: Int
    /// The most recent display dates across campaigns, oldest first.
    package private(set) var recent: [Date]

    /// An empty history.
    package init() {
        self.campaigns = [:]
        self.total = 0
        self.recent = []
    }

    private enum CodingKeys: String, CodingKey {
        case campaigns, total, recent
    }

    /// Decodes a stored history, made consistent whatever the store held: dates sorted and trimmed
    /// to the bounds, counts no lower than the dates kept, at most ``maxCampaigns`` campaigns.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var campaigns = try container.decode([String: Record].self, forKey: .campaigns)
        for (id, record) in campaigns {
            let dates = Array(record.dates.sorted().suffix(Self.maxDatesPerCampaign))
            campaigns[id] = Record(count: max(record.count, record.dates.count), dates: dates)
        }
        if campaigns.count > Self.maxCampaigns {
            let kept = campaigns.sorted {
                ($0.value.dates.last ?? .distantPast, $0.key) > ($1.value.dates.last ?? .distantPast, $1.key)
            }
            .prefix(Self.maxCampaigns)
            campaigns = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
        }
        let recent = try container.decode([Date].self, forKey: .recent)
        self.campaigns = campaigns
        self.recent = Array(recent.sorted().suffix(Self.maxRecentDisplays))
        self.total = max(try container.decode(Int.self, forKey: .total), recent.count)
    }

    /// Whether nothing was ever recorded (or it was cleared).
    package var isEmpty: Bool { self.total == 0 && self.campaigns.isEmpty }

    /// How many times `campaignId` counted as displayed, ever.
    package func count(of campaignId: String) -> Int {
        self.campaigns[campaignId]?.count ?? 0
    }

    /// Why `campaign` may not be shown at `now` under its caps and the workspace's `rules`, or `nil`
    /// when it may (INAPP-45). Checked in this order: expiry, the campaign's cap, its interval, the
    /// workspace's cap, the workspace's delay.
    package func whyNotEligible(_ campaign: InAppCampaign, rules: InAppContactRules, now: Date) -> Reason? {
        if let expiresAt = campaign.expiresAt, Self.reached(expiresAt, at: now) {
            return .expired(expiresAt)
        }
        let record = self.campaigns[campaign.id] ?? Record(count: 0, dates: [])
        let caps = campaign.caps
        if let max = caps.maxImpressions,
            let until = Self.capUntil(max: max, window: caps.window, count: record.count, dates: record.dates, now: now)
        {
            return .campaignCap(maxImpressions: max, window: caps.window, until: until.date)
        }
        if let interval = caps.minInterval, let last = record.dates.last, !Self.reached(last + interval, at: now) {
            return .campaignInterval(until: last + interval)
        }
        if let max = rules.maxImpressions,
            let until = Self.capUntil(max: max, window: rules.window, count: self.total, dates: self.recent, now: now)
        {
            return .workspaceCap(maxImpressions: max, window: rules.window, until: until.date)
        }
        if let delay = rules.minDelayBetweenMessages, let last = self.recent.last,
            !Self.reached(last + delay, at: now)
        {
            return .workspaceDelay(until: last + delay)
        }
        return nil
    }

    /// A cap that holds: `date` is when it stops holding (`nil`: never).
    private struct Blocked {
        var date: Date?
    }

    /// Whether `max` per `window` is reached at `now`, and until when.
    private static func capUntil(max: Int, window: TimeInterval?, count: Int, dates: [Date], now: Date) -> Blocked? {
        guard max > 0 else { return Blocked(date: nil) }
        guard let window else {
            return count >= max ? Blocked(date: nil) : nil
        }
        // Dates in the future (a clock set back) count as inside the window: the cautious side.
        let inside = dates.filter { !Self.reached($0 + window, at: now) }
        guard inside.count >= max else { return nil }
        // Eligible again once enough of them have left the window for one more to fit.
        return Blocked(date: inside[inside.count - max] + window)
    }

    /// Records that `campaignId` counted as displayed at `date` (INAPP-46). Only the display
    /// machine calls this, when the dwell rule says so.
    package mutating func recordDisplay(of campaignId: String, at date: Date) {
        var record = self.campaigns[campaignId] ?? Record(count: 0, dates: [])
        record.count += 1
        Self.insert(date, into: &record.dates, keeping: Self.maxDatesPerCampaign)
        self.campaigns[campaignId] = record
        self.total += 1
        Self.insert(date, into: &self.recent, keeping: Self.maxRecentDisplays)
        if self.campaigns.count > Self.maxCampaigns {
            // Forget the campaign displayed longest ago (never the one just recorded).
            let oldest = self.campaigns.filter { $0.key != campaignId }
                .min { ($0.value.dates.last ?? .distantPast, $0.key) < ($1.value.dates.last ?? .distantPast, $1.key) }
            if let oldest {
                self.campaigns[oldest.key] = nil
            }
        }
    }

    /// Whether `deadline` is reached at `now`, at millisecond resolution: within half a millisecond
    /// counts, so a date computed another way (a scheduler adding seconds to its own clock) one
    /// rounding step early still reaches it, and 999 ms never reaches 1000 ms.
    package static func reached(_ deadline: Date, at now: Date) -> Bool {
        deadline.timeIntervalSince(now) < 0.000_5
    }

    /// Forgets everything: `reset()`, `wipeData()` and `resetDisplayedCampaigns()` (INAPP-47).
    package mutating func clear() {
        self = Self()
    }

    private static func insert(_ date: Date, into dates: inout [Date], keeping limit: Int) {
        let index = dates.lastIndex { $0 <= date }.map { $0 + 1 } ?? 0
        dates.insert(date, at: index)
        if dates.count > limit {
            dates.removeFirst(dates.count - limit)
        }
    }
}
