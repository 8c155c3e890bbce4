package import Foundation
internal import JoryioAuth
internal import JoryioConsent
package import JoryioCore
internal import JoryioDelivery
internal import JoryioFeature
internal import JoryioIdentity
package import JoryioStorage

/// One started SDK instance: all state lives in ``state``, owned by `environment.scheduler`.
///
/// The engine runs the event pipeline (validate → gate → enrich → plugins → persist), identity,
/// sessions, consent and SDK auth. Everything else is a feature on the seam: the delivery channels
/// and every later module are made by their ``FeatureRegistration`` and reached through ``features``.
package final class JoryioEngine: Sendable {
    package let config: JoryioConfig
    let environment: JoryioEnvironment
    let logger: Logger
    let stores: JoryioStores
    /// All mutable engine state, confined to the executor.
    let state: ExecutorBound<EngineState>
    /// Consent and opt-out as stored on the device before this launch decided anything.
    let storedPrivacy: PrivacyStateMachine
    /// Where getters read; written only here.
    let board: SnapshotBoard
    /// The features, in registration order; made at init, their hooks run on the executor. A
    /// separate product may attach one more later (``attach(_:)``, issue 19).
    var features: FeatureList { self.featureSlot.withLock { $0 } }
    /// The catalog's features, then attached ones.
    let featureSlot: Locked<FeatureList>
    /// What the catalog's features were made from, for features attached later.
    let featureSetup: FeatureSetup
    /// The context every feature gets, for features attached later.
    let featureContext: FeatureContext
    /// The event uploader, when registered (flush and "events stored" reach it directly).
    let uploader: EventUploader?
    /// The durable-write channel, when registered (identify and the opt-out record use it).
    let durable: DurableWriteChannel?
    /// The journal `track()` appends to, when the event store keeps its read position (SQLite).
    package let journal: EventJournal?
    /// The event store, when it stores the journal's position with the events.
    let markedEvents: (any MarkedQueueStore)?
    /// This instance's ownership of its storage directories, for as long as the engine lives.
    let storageLocks: [StorageLock]
    private let apiEndpoint: String

    /// Opens storage, loads identity, consent, session and tokens, and makes the features. Runs on
    /// the caller's thread before the executor owns anything; call ``start(preInit:sequence:)`` on
    /// the executor afterwards.
    init(
        config: JoryioConfig,
        sdkKey: String,
        apiEndpoint: URL,
        environment: JoryioEnvironment,
        features registrations: [FeatureRegistration],
        board: SnapshotBoard,
        decisions: [PrivacyDecision],
        slots: InstanceSlots,
        storageLocks: [StorageLock] = []
    ) {
        self.storageLocks = storageLocks
        self.config = config
        self.environment = environment
        self.board = board
        self.apiEndpoint = apiEndpoint.absoluteString
        let logger = Logger(sink: config.logSink, minimumLevel: config.effectiveLogLevel, module: "joryio")
        self.logger = logger
        let stores = environment.openStores(config, sdkKey, logger.scoped("storage"))
        self.stores = stores
        self.markedEvents = stores.events as? any MarkedQueueStore
        if self.markedEvents == nil { stores.journal?.relinquish() }
        self.journal = self.markedEvents == nil ? nil : stores.journal
        var identityMachine = IdentityStateMachine()
        let launchActions = identityMachine.handle(
            .launch(Self.launch(config: config, stores: stores, environment: environment, logger: logger))
        )
        Self.performLaunch(launchActions, stores: stores, logger: logger)
        let identity = identityMachine.state
        var privacy = Self.loadPrivacy(from: stores.keyValue)
        self.storedPrivacy = privacy
        let startActions = privacy.start(
            configOptOut: config.optOut,
            configConsent: config.trackingConsent,
            preInit: decisions
        )
        let storedSession = Self.loadSession(from: stores.keyValue)
        var initial = EngineState(
            identityMachine: identityMachine,
            privacy: privacy,
            startActions: startActions,
            sessions: SessionTracker(
                timeout: config.sessionTimeout,
                stored: Self.loadSession(from: stores.keyValue)
            ),
            auth: Self.loadAuth(config: config, stores: stores, currentUser: identity.userId, logger: logger)
        )
        initial.storedSession = storedSession
        if let journal = self.journal {
            initial.journal = EngineState.JournalCursor(read: journal.committed, committed: journal.committed)
        }
        self.state = ExecutorBound(initial, on: environment.scheduler)
        let reference = EngineReference()
        var context = Self.makeContext(
            reference: reference,
            environment: environment,
            stores: stores,
            logger: logger,
            config: config
        )
        context.slots = slots
        let features = FeatureList(registrations.map { $0.make(context) })
        self.featureSlot = Locked(features)
        self.featureContext = context
        self.featureSetup = FeatureSetup(
            config: config,
            sdkKey: sdkKey,
            apiEndpoint: apiEndpoint,
            userAgent: environment.userAgent,
            gzip: environment.gzip
        )
        self.uploader = features.first(EventUploader.self)
        self.durable = features.first(DurableWriteChannel.self)
        reference.engine = self
        var snapshot = JoryioSnapshot()
        snapshot.apiEndpoint = apiEndpoint.absoluteString
        snapshot.userId = identity.userId
        snapshot.anonymousId = identity.anonymousId
        snapshot.privacy = privacy
        // Events an earlier launch left on the device count from the start, before the start job
        // has run: stored ones and the journal's unread ones.
        snapshot.queueSize = ((try? stores.events.count()) ?? 0) + (self.journal?.recoveredCount ?? 0)
        self.board.publish(snapshot, through: nil)
    }

    /// The logger records go through.
    package var log: Logger { self.logger }

    // MARK: - Start

    /// The start job, on the executor, in the order INIT-17 gives: features load what earlier
    /// launches left (held), the launch's privacy decisions run (a pre-init opt-out, denial or
    /// wipe deletes before anything is sent, INIT-10), the identify owed at start, Session Start,
    /// then the pre-init entries in the order they were made; only then is sending released.
    ///
    /// Every feature holds its requests until the end (the durable channel its withdrawals too), so
    /// nothing leaves before the pre-init tokens are applied in their place among the calls.
    /// `forgetStoredDecisions` runs once the decisions' effects are stored in their own right.
    func start(preInit entries: [PreInitEntry], sequence: UInt64, forgetStoredDecisions: @Sendable () -> Void = {}) {
        let config = self.config
        let configToken = config.sdkAuthenticationToken.flatMap { $0.isEmpty ? nil : $0 }
        let launchToken = entries.reduce(configToken) { token, entry in
            if case .authToken(let value) = entry { value } else { token }
        }
        self.state.value.launchToken = launchToken
        self.state.value.eventObservers = self.features.eventObservers
        self.features.each { $0.start() }
        if let configToken { self.setAuthToken(configToken) }
        let actions = self.state.withValue { state -> [PrivacyStateMachine.Action] in
            defer { state.startActions = [] }
            return state.startActions
        }
        self.perform(actions)
        forgetStoredDecisions()
        self.identity(.start(identifyGate: self.identifyGate), at: self.environment.clock.now())
        // What an earlier launch tracked and did not store belongs to its own session: replayed
        // before this launch's Session Start.
        self.replayJournal()
        self.announceSessionIfAllowed()
        let kept = PreInitReplay.kept(
            entries,
            stored: self.storedPrivacy,
            configOptOut: config.optOut,
            configConsent: config.trackingConsent
        )
        let gated = kept.lazy.filter { !$0 }.count
        if gated > 0 {
            self.logger.debug(
                "\(gated) calls made before initialize() were dropped: collection was not allowed when they were made, or was withdrawn after"
            )
        }
        for (entry, keep) in zip(entries, kept) where keep {
            switch entry {
            case .decision: break  // applied above, first (INIT-10)
            case .authToken(let token): self.setAuthToken(token)
            case .authHandler(let handler): self.setAuthHandler(handler)
            case .plugin(let plugin): self.add(plugin: plugin)
            case .log(let message): self.logger.warning(message)
            case .call(_, _, let call): call(self)
            }
        }
        self.state.withValue {
            $0.started = true
            // Only a pre-init wipe keeps this launch's token (AUTH-6); a later one does not.
            $0.launchToken = nil
        }
        // Getters see the launch's state before the first request is built.
        self.refreshStoredCount()
        self.publish()
        let privacy = self.state.value.privacy.state
        self.features.each { $0.privacyChanged(.applied(privacy)) }
        if self.queuedCount() > 0 {
            self.uploader?.trigger(.timer)
        }
        self.pruneAuthTokens()
        self.publish(through: sequence)
        self.journal?.popFence(sequence)
        self.drainJournalPass()
    }

    /// Runs a submitted call, then publishes the state through its sequence number.
    ///
    /// A call that `publishes` nothing (`track`: what it changes for getters, a new session or the
    /// queue size, is published where it happens) skips the snapshot; it carries no optimistic
    /// change, and every earlier call's change was retired by that call's own run.
    func run(_ sequence: UInt64, publishes: Bool = true, _ call: (JoryioEngine) -> Void) {
        if let journal = self.journal {
            // Every `track()` made before this call is read first: calls run in the order made.
            // What was read is stored (with the journal position) before the call runs, so a kill
            // right after an identify, a reset or a consent change never replays those events
            // under the identity or consent that came after them.
            if self.drainJournal() { self.commit() }
            journal.popFence(sequence)
        }
        call(self)
        if publishes { self.publish(through: sequence) }
    }

    // MARK: - Publishing

    /// Writes the snapshot getters read: the engine is its only writer.
    func publish(through sequence: UInt64? = nil) {
        let changed = self.state.withValue { state -> JoryioSnapshot? in
            let snapshot = JoryioSnapshot(
                // Events count once their group commit stored them, or when a full disk keeps them
                // in memory instead; a track does not republish the snapshot by itself.
                queueSize: state.storedCount + (state.pending.failing ? state.pending.payloads.count : 0),
                lastTransportError: state.lastTransportError,
                apiEndpoint: self.apiEndpoint,
                userId: state.identity.userId,
                anonymousId: state.identity.anonymousId,
                session: state.sessions.current.map { ($0.id, $0.start) },
                privacy: state.privacy
            )
            if let published = state.published, published.isSame(as: snapshot) { return nil }
            state.published = snapshot
            return snapshot
        }
        if let changed {
            self.board.publish(changed, through: sequence)
        } else if let sequence {
            self.board.retire(through: sequence)
        }
    }

    // MARK: - Commands

    /// `flush()`: sends everything queued now, skipping the SDK's backoff but not `Retry-After`.
    package func flush() {
        self.commit()
        self.uploader?.trigger(.flush)
    }

    /// The app moved to the background: store pending events, then every feature hears it;
    /// `whenSent` once the event send that started settled (at once when none did).
    package func enteredBackground(whenSent: (@Sendable () -> Void)? = nil) {
        self.commit()
        self.persistSession()
        self.features.each { $0.lifecycle(.background) }
        guard let whenSent else { return }
        if let uploader { uploader.whenSettled(whenSent) } else { whenSent() }
    }

    /// The process is about to end: store what is pending, then every feature hears it.
    func willTerminate() {
        self.commit()
        self.persistSession()
        self.features.each { $0.lifecycle(.terminate) }
    }

    /// The app became active or stopped being active: every feature hears it (INAPP-57).
    package func activityChanged(_ active: Bool) {
        self.features.each { $0.lifecycle(.active(active)) }
    }

    /// The app returned to the foreground: the session rules (WIPE-4), then every feature (ATTR-8).
    package func enteredForeground(at now: Date) {
        if self.state.value.privacy.state.gate(.sessionStart) != .drop {
            _ = self.touchSession(at: now)
        }
        self.features.each { $0.lifecycle(.foreground(now)) }
    }

    /// Adds a plugin for every later event.
    func add(plugin: any JoryioEventPlugin) {
        self.state.value.plugins.append(plugin)
    }

    /// A feature finished a request: `nil` for a success (BATCH-16, AUTH-9).
    func requestFinished(_ error: JoryioTransportError?) {
        self.state.value.lastTransportError = error
        if error == nil { self.authAccepted() }
        self.publish()
    }

    /// The uploader finished a request: on success every feature hears that events were delivered.
    func eventsSent(_ error: JoryioTransportError?) {
        self.refreshStoredCount()
        if error == nil {
            self.features.each { $0.eventsDelivered() }
        }
        self.requestFinished(error)
    }
}

/// The engine as the features' context closures see it: set once the engine is made, weak so a
/// released instance is not kept alive by its own channels' timers.
final class EngineReference: Sendable {
    private struct Weak {
        weak var engine: JoryioEngine?
    }

    private let box = Locked(Weak())

    /// The engine, while it exists.
    var engine: JoryioEngine? {
        get { self.box.withLock { $0.engine } }
        set { self.box.withLock { $0.engine = newValue } }
    }
}
