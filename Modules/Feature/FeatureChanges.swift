package import Foundation
package import JoryioConsent

/// What changed about consent and opt-out, in the order the engine applies it.
package enum PrivacyChange: Sendable, Equatable {
    /// The state in effect now; sent at start (after pre-init decisions) and after every decision.
    /// Features hold or release sending from it (CONSENT-3).
    case applied(PrivacyState)
    /// Collection stopped (opt-out, consent denied): delete what was collected and not sent;
    /// withdrawals are kept (OPTOUT-4, CONSENT-4).
    case collectionStopped
    /// Collection is allowed again (opt-in, consent granted): retry what was held (ATTR-8).
    case collectionResumed
}

/// How the identity changed, for the features that follow it (per-user auth tokens, attribute
/// writes, push re-registration, in-app re-sync).
package enum IdentityChange: Sendable, Equatable {
    /// `identify` with a user id; `previous` is the user before it, if any.
    case identified(previous: String?, current: String)
    /// `reset()`: a new anonymous identity, no user.
    case reset(previous: String?)
    /// `wipeData()`: every id deleted and made anew.
    case wiped(previous: String?)

    /// The user before the change.
    package var previousUser: String? {
        switch self {
        case .identified(let previous, _), .reset(let previous), .wiped(let previous): previous
        }
    }
}

/// The app's lifecycle as the engine sees it.
package enum LifecycleEvent: Sendable, Equatable {
    /// The app returns to the foreground (ATTR-8 retries, session rules).
    case foreground(Date)
    /// The app moved to the background: send what is queued.
    case background
    /// The app became active (`true`: `didBecomeActive`, also at launch when it already is) or
    /// stopped being active (`false`: `willResignActive`, a call or Control Center over it). Only
    /// an active app shows in-app messages and counts their dwell (INAPP-57, INAPP-59).
    case active(Bool)
    /// The process is about to end.
    case terminate
}
