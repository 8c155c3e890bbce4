package import Foundation

/// When the SDK syncs in-app campaigns (INAPP-8 … INAPP-15), as a value: what happened in, a
/// decision out. Automatic launch and foreground syncs are spaced by `syncInterval`; identify,
/// reset, a push tap, a silent sync push, a watched attribute's change and
/// `syncInAppCampaigns()` sync at once. Nothing syncs while in-app is disabled or consent is
/// pending; opted-out or denied people are not synced either (nothing could be shown or reported).
package struct InAppSyncPolicy: Sendable, Equatable {
    /// Why a sync may happen.
    package enum Reason: String, Sendable, Equatable, CaseIterable {
        /// `initialize()` finished (INAPP-9).
        case launch
        /// The app entered the foreground (INAPP-9).
        case foreground
        /// `identify(_:)` made another user current (INAPP-11, INAPP-54).
        case identify
        /// `reset()` (INAPP-11, INAPP-54).
        case reset
        /// A Joryio push was tapped (INAPP-11, PUSH-26).
        case pushTap
        /// A silent sync push arrived (INAPP-11, PUSH-25).
        case silentPush
        /// An attribute a campaign watches changed (INAPP-11).
        case watchedAttribute
        /// `syncInAppCampaigns()` (INAPP-12).
        case explicit
        /// A campaign's delivery token is about to expire before display (INAPP-7).
        case tokenRefresh
        /// Collection became allowed (consent granted, opted in) after a sync was owed.
        case resumed

        /// Whether `syncInterval` spaces syncs of this reason (only the automatic ones).
        package var isRateLimited: Bool {
            self == .launch || self == .foreground
        }
    }

    /// What the policy decides.
    package enum Decision: Sendable, Equatable {
        /// Sync now.
        case sync
        /// Not now: the last automatic sync is recent; the next automatic one may go at `after`.
        case tooSoon(after: Date)
        /// Not while in-app is disabled (INAPP-15).
        case disabled
        /// Not while consent is pending (INAPP-14) or collection is not allowed; owed once it is.
        case notAllowed
    }

    /// The minimum gap between automatic syncs, in seconds (INAPP-10).
    package var syncInterval: TimeInterval
    /// Whether in-app messaging is on (INAPP-15).
    package var enabled: Bool
    /// When the last sync started, any reason; `nil` before the first.
    package private(set) var lastSync: Date?
    /// A sync was refused while collection was not allowed: one is owed once it is.
    package private(set) var owed: Bool

    /// A policy with the configuration's interval (negative or non-finite intervals count as 0).
    package init(syncInterval: TimeInterval, enabled: Bool) {
        self.syncInterval = syncInterval.isFinite ? max(0, syncInterval) : 0
        self.enabled = enabled
        self.lastSync = nil
        self.owed = false
    }

    /// Decides for `reason` at `now`, with collection `allowed` (opted in, consent granted); a
    /// `.sync` decision records the sync.
    package mutating func decide(_ reason: Reason, now: Date, allowed: Bool) -> Decision {
        guard self.enabled else { return .disabled }
        guard allowed else {
            self.owed = true
            return .notAllowed
        }
        if reason.isRateLimited, let last = self.lastSync {
            let next = last.addingTimeInterval(self.syncInterval)
            // A clock that went back counts as "recent" only up to the interval.
            if now < next, now >= last.addingTimeInterval(-self.syncInterval) {
                return .tooSoon(after: next)
            }
        }
        self.lastSync = now
        self.owed = false
        return .sync
    }

    /// Collection became allowed: the sync it owes, if any (decided as ``Reason/resumed``).
    package mutating func collectionAllowed(now: Date) -> Decision? {
        guard self.owed else { return nil }
        return self.decide(.resumed, now: now, allowed: true)
    }
}
