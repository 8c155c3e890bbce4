internal import Foundation
internal import JoryioAuth
internal import JoryioConsent
internal import JoryioDelivery
internal import JoryioFeature
internal import JoryioIdentity
internal import JoryioStorage

/// Everything the engine changes, in one value owned by its executor (ARCHITECTURE §3).
///
/// It lives in one ``ExecutorBound`` box: no field has its own lock, every job sees and changes the
/// whole state at once, and touching it from another thread asserts in debug builds.
struct EngineState {
    /// Events accepted but not stored yet: written in one transaction per drained burst.
    struct PendingEvents {
        var payloads: [Data] = []
        var commitScheduled = false
        /// A timer will try a failed write again.
        var retryArmed = false
        /// The last write failed (logged as an error once, until a write succeeds).
        var failing = false
    }

    /// How far the engine has read the event journal, and how far that is stored (issue 12).
    struct JournalCursor {
        /// The position after the last record read (its event is pending or was dropped).
        var read: JournalPosition
        /// The position stored with the events, in the same transaction.
        var committed: JournalPosition
    }

    /// The ids, and the identify owed at start or kept while collection is off (IDENT, GAP-22).
    var identityMachine: IdentityStateMachine
    /// The ids the SDK works with now.
    var identity: IdentityStateMachine.State { self.identityMachine.state }
    var privacy: PrivacyStateMachine
    /// What `privacy.start` decided at `initialize()`, performed by the start job (INIT-10).
    var startActions: [PrivacyStateMachine.Action]
    var sessions: SessionTracker
    /// The session as last written to the key-value store.
    var storedSession: Session?
    var auth: AuthState
    var pending = PendingEvents()
    var journal = JournalCursor(read: .origin, committed: .origin)
    var plugins: [any JoryioEventPlugin] = []
    /// The token given for this launch (config or before `initialize()`), kept by a pre-init wipe (AUTH-6).
    var launchToken: String?
    /// The most recent request failure, `nil` after a success (BATCH-16).
    var lastTransportError: JoryioTransportError?
    /// The event store's count as last read (after a commit, a delivery or a purge), so publishing
    /// after every call never queries the store.
    var storedCount = 0
    /// What getters were last given, so a call that changed nothing they read publishes nothing.
    var published: JoryioSnapshot?
    /// Whether the start job ran (pre-init entries applied, sending released).
    var started = false
    /// The start job is storing what an earlier launch journaled: those events are not announced
    /// to the features (``EngineFeature/eventTracked(_:)``).
    var replaying = false
    /// The features that listen to events (``EngineFeature/observesEvents``): read on every event,
    /// so kept here rather than fetched from the locked feature list each time.
    var eventObservers: [any EngineFeature] = []
}
