package import Foundation
internal import JoryioCore
package import JoryioDelivery
package import JoryioKit

/// What just happened that may make campaigns eligible (INAPP-13).
package enum InAppOccurrence: Sendable, Equatable {
    /// A sync finished (campaigns with ``InAppTrigger/onSync``).
    case synced
    /// An event was tracked.
    case event(String)
    /// A Joryio push was tapped, with its tracking id when it had one.
    case pushTap(trackingId: String?)
    /// Attributes the SDK wrote changed (their values after the change are in ``InAppAttributes``).
    case attributes(Set<String>)
}

/// The numeric attribute values attribute thresholds compare with (INAPP-13, ATTR-17).
///
/// A set of a number stores it; an increment adds to a known value (an increment of a value nobody
/// reported is unknown: the server holds the base); an unset or a non-numeric set forgets it. A
/// sync's snapshot of the server profile replaces the values, and the writes the server has not
/// confirmed yet are laid over it (``replace(with:unconfirmed:)``). Kept per person: cleared on
/// identify of another user, reset and wipe.
package struct InAppAttributes: Sendable, Equatable {
    /// Key → value.
    package private(set) var values: [String: Double] = [:]

    /// No values.
    package init() {}

    /// Applies `changes`; returns the keys whose value changed.
    package mutating func apply(_ changes: [(key: String, operation: AttributeWrite.Operation)]) -> Set<String> {
        Self.apply(changes, to: &self.values)
    }

    /// The server profile's `snapshot` (authoritative, ATTR-17) with the `unconfirmed` writes, in
    /// order, laid over it. Returns the keys the unconfirmed writes leave at another value than
    /// before: a write this person made, now counted from the server's base, may meet a threshold.
    package mutating func replace(
        with snapshot: [String: Double],
        unconfirmed: [(key: String, operation: AttributeWrite.Operation)]
    ) -> Set<String> {
        var values = snapshot.filter { $0.value.isFinite }
        _ = Self.apply(unconfirmed, to: &values)
        let touched = Set(unconfirmed.map(\.key))
        let changed = touched.filter { values[$0] != self.values[$0] }
        self.values = values
        return changed
    }

    /// Forgets everything (identify of another user, reset, wipe).
    package mutating func clear() {
        self.values = [:]
    }

    private static func apply(
        _ changes: [(key: String, operation: AttributeWrite.Operation)],
        to values: inout [String: Double]
    ) -> Set<String> {
        var changed: Set<String> = []
        for (key, operation) in changes {
            let before = values[key]
            switch operation {
            case .set(let value):
                values[key] = value.doubleValue.flatMap { $0.isFinite ? $0 : nil }
            case .increment(let delta):
                let sum = before.map { $0 + delta }
                values[key] = sum.flatMap { $0.isFinite ? $0 : nil }
            case .unset:
                values[key] = nil
            }
            if values[key] != before { changed.insert(key) }
        }
        return changed
    }
}

/// Which campaigns an occurrence makes eligible, in the order they should be considered:
/// higher ``InAppCampaign/priority`` first, then the server's order (GAP-39).
package enum InAppTriggerMatcher {
    /// The campaigns of `campaigns` that `occurrence` triggers, with `attributes` for thresholds.
    /// An attribute trigger fires when its key changed and the new value satisfies the threshold.
    package static func triggered(
        by occurrence: InAppOccurrence,
        in campaigns: [InAppCampaign],
        attributes: InAppAttributes
    ) -> [InAppCampaign] {
        let matching = campaigns.filter { campaign in
            campaign.triggers.contains { trigger in
                Self.fires(trigger, occurrence, attributes: attributes)
            }
        }
        return matching.enumerated()
            .sorted { ($0.element.priority, -$0.offset) > ($1.element.priority, -$1.offset) }
            .map(\.element)
    }

    /// The event names the campaigns' event triggers name.
    package static func eventNames(_ campaigns: [InAppCampaign]) -> Set<String> {
        Set(
            campaigns.flatMap { campaign in
                campaign.triggers.compactMap { trigger -> String? in
                    if case .event(let name) = trigger { return name }
                    return nil
                }
            }
        )
    }

    /// The attribute keys the campaigns watch: a change of one re-syncs (INAPP-11).
    package static func watchedAttributes(_ campaigns: [InAppCampaign]) -> Set<String> {
        Set(
            campaigns.flatMap { campaign in
                campaign.triggers.compactMap { trigger -> String? in
                    if case .attribute(let key, _, _) = trigger { return key }
                    return nil
                }
            }
        )
    }

    private static func fires(
        _ trigger: InAppTrigger,
        _ occurrence: InAppOccurrence,
        attributes: InAppAttributes
    ) -> Bool {
        switch (trigger, occurrence) {
        case (.onSync, .synced):
            return true
        case (.event(let name), .event(let tracked)):
            return name == tracked
        case (.pushTap(let wanted), .pushTap(let tapped)):
            return wanted == nil || wanted == tapped
        case (.attribute(let key, let comparison, let threshold), .attributes(let changed)):
            guard changed.contains(key), let value = attributes.values[key] else { return false }
            return comparison.holds(value, threshold)
        default:
            return false
        }
    }
}

/// Whether a campaign's delivery token must be refreshed by a re-sync before the message is shown
/// (INAPP-7): when it expires within `margin` seconds of `now` (or already has). A campaign
/// without a token or without a known expiry is shown as it is.
package enum InAppTokenFreshness {
    /// The margin: a message counts as displayed 1 s after it appears and is reported then, and a
    /// report may wait for the network; 60 s covers both with room.
    package static let margin: TimeInterval = 60

    /// Whether `message`'s token expires within `margin` of `now`.
    package static func needsRefresh(_ message: InAppMessage, now: Date, margin: TimeInterval = Self.margin) -> Bool {
        guard message.deliveryToken != nil, let expiry = message.deliveryTokenExpiresAt else { return false }
        return expiry.timeIntervalSince(now) < margin
    }
}
