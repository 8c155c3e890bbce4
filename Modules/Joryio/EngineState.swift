internal import Foundation
internal import JoryioAuth
internal import JoryioConsent
internal import JoryioDelivery
internal import JoryioIdentity

/// Everything the engine changes, in one value owned by its executor (ARCHITECTURE §3).
///
/// It lives in one ``ExecutorBound`` box: no field has its own lock, every job sees and changes the
/// whole state at once, and touching it from another thread asserts in debug builds.
struct EngineState {
    /// The ids the SDK works with.
    struct Identity: Equatable {
        var anonymousId: String
        var userId: String?
        var deviceId: String
        /// A `JoryioConfig.userId` that differs from the stored user: identified at start (GAP-22).
        var identifyAtStart: String?
    }

    /// Events accepted but not stored yet: written in one transaction per drained burst.
    struct PendingEvents {
        var payloads: [Data] = []
        var commitScheduled = false
        /// A timer will try a failed write again.
        var retryArmed = false
        /// The last write failed (logged as an error once, until a write succeeds).
        var failing = false
    }

    var identity: Identity
    var privacy: PrivacyStateMachine
    /// What `privacy.start` decided at `initialize()`, performed by the start job (INIT-10).
    var startActions: [PrivacyStateMachine.Action]
    var sessions: SessionTracker
    var auth: AuthState
    var pending = PendingEvents()
    var plugins: [any JoryioEventPlugin] = []
    /// The token given for this launch (config or before `initialize()`), kept by a pre-init wipe (AUTH-6).
    var launchToken: String?
    /// The most recent request failure, `nil` after a success (BATCH-16).
    var lastTransportError: JoryioTransportError?
    /// Whether the start job ran (pre-init entries applied, sending released).
    var started = false
}
