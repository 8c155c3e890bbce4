internal import Foundation
internal import JoryioConsent
internal import JoryioCore
package import JoryioFeature
package import JoryioStorage

/// How calls reach the engine: in call order, with a sequence number for the getters, or into the
/// pre-init list until `initialize()`.
extension Joryio {
    /// Runs `call` on the engine, or keeps it until `initialize()` (at most 1000, oldest dropped).
    ///
    /// - Parameters:
    ///   - kind: What the consent gate checks for this call; before `initialize()` a call the
    ///     decisions made so far drop is dropped at once (INIT-8). `nil`: never dropped.
    ///   - change: What getters show until the engine has run the call.
    ///   - publishes: Whether the engine republishes the getters' snapshot after the call (`track`
    ///     publishes where it changes something: a new session, a group commit).
    func submit(
        _ kind: CallKind? = nil,
        showing change: OptimisticChange? = nil,
        publishes: Bool = true,
        _ call: @escaping @Sendable (JoryioEngine) -> Void
    ) {
        self.state.withLock { state in
            if let engine = state.engine {
                let sequence = Self.nextSequence(&state)
                if let change { self.board.show(change, until: sequence) }
                self.enqueue(sequence, on: engine, publishes: publishes, call)
                return
            }
            let entry = PreInitEntry.call(kind, change, call)
            if entry.isDropped(by: self.preInitGate(&state)) {
                state.gatedBeforeInit += 1
                return
            }
            let calls = state.preInit.lazy.filter(\.isCall).count
            if calls >= Self.preInitCapacity, let oldest = state.preInit.firstIndex(where: \.isCall) {
                state.preInit.remove(at: oldest)
                state.droppedBeforeInit += 1
            }
            state.preInit.append(entry)
        }
    }

    /// Logs a warning about a call's input through the engine, in order with the calls; before
    /// `initialize()` it waits in the pre-init list, at most ``preInitLogCapacity`` of them.
    func warn(_ message: String) {
        self.state.withLock { state in
            if let engine = state.engine {
                let sequence = Self.nextSequence(&state)
                self.enqueue(sequence, on: engine, publishes: false) { $0.log.warning(message) }
            } else if state.preInit.lazy.filter({ if case .log = $0 { true } else { false } }).count
                < Self.preInitLogCapacity
            {
                state.preInit.append(.log(message))
            } else {
                state.droppedLogsBeforeInit += 1
            }
        }
    }

    /// Logs an informational line through the engine, in order with the calls (before
    /// `initialize()` it waits like a call).
    func inform(_ message: String) {
        self.submit(publishes: false) { $0.log.info(message) }
    }

    /// Before `initialize()`, keeps `entry` in the pre-init list; afterwards runs `call` in order.
    func rememberOrSubmit(_ entry: PreInitEntry, _ call: @escaping @Sendable (JoryioEngine) -> Void) {
        self.state.withLock { state in
            if let engine = state.engine {
                let sequence = Self.nextSequence(&state)
                self.enqueue(sequence, on: engine, call)
            } else {
                self.remember(entry, &state)
            }
        }
    }

    /// Queues call `sequence` as an engine job (the caller holds the facade's lock); `track()`
    /// records journaled after it wait for it, so calls run in the order made.
    func enqueue(
        _ sequence: UInt64,
        on engine: JoryioEngine,
        publishes: Bool = true,
        _ call: @escaping @Sendable (JoryioEngine) -> Void
    ) {
        engine.journal?.pushFence(sequence)
        self.environment.scheduler.enqueue { engine.run(sequence, publishes: publishes, call) }
    }

    /// A checked `track()`: appended to the engine's journal, so it survives a kill of the process
    /// from the moment this returns (issue 12, defect 6), and no job is queued for it unless the
    /// engine is idle. Without a journal (before `initialize()`, in-memory storage, another
    /// instance holding the file), when the event is too large for it, or when the journal stays
    /// full (the engine cannot store, or this is the engine's own thread), it is queued as a job.
    func submitTrack(name: String, encodedProperties: [UInt8], timestamp: Date) {
        let draft = JournalTrackRecord.Draft(name: name, timestamp: timestamp, properties: encodedProperties)
        let bodySize = draft.size
        var waited = false
        while true {
            let (outcome, journal) = self.state.withLock { state -> (EventJournal.AppendResult?, EventJournal?) in
                guard let engine = state.engine, let journal = engine.journal else { return (nil, nil) }
                let sequence = Self.nextSequence(&state)
                let outcome = journal.append(fence: sequence, bodySize: bodySize, write: draft.write(into:))
                if case .appended(wake: true) = outcome {
                    self.environment.scheduler.enqueue { engine.drainJournalPass() }
                }
                return (outcome, journal)
            }
            guard case .full = outcome, let journal, !waited, !self.environment.scheduler.isRunningJob else {
                if case .appended = outcome { return }
                break
            }
            // The engine is behind by a whole journal: wait for it to store some (it frees space
            // every group commit), rather than hold the event in memory only.
            waited = !journal.waitForSpace(bodySize: bodySize, timeout: self.environment.journalWait)
        }
        self.submit(.event, publishes: false) {
            $0.track(name: name, encodedProperties: encodedProperties, timestamp: timestamp)
        }
    }

    /// The feature of type `type` this instance runs, once `initialize()` made the engine; `nil`
    /// before, or when the product's catalog has none. For tests that inspect a feature between
    /// jobs: product code never holds a live feature on the caller's thread (``FacadeContext``).
    package func feature<Feature: EngineFeature>(_ type: Feature.Type) -> Feature? {
        self.state.withLock { $0.engine }?.features.first(type)
    }

    /// Lets go of the storage directory as a process that ends would (its lock and the journal's
    /// file; the engine is left as it is, never to run again in the tests that call this), so
    /// another instance can start on the same storage: how tests simulate a restart or a kill.
    package func relinquishStorage() {
        let engine = self.state.withLock { $0.engine }
        engine?.journal?.relinquish()
        engine?.storageLocks.forEach { $0.release() }
    }

    /// The engine's event journal, `nil` before `initialize()` or without one. Tests simulate a
    /// kill with it: `relinquish()` it and open another instance on the same storage.
    package var eventJournal: EventJournal? {
        self.state.withLock { $0.engine?.journal }
    }

    /// The next sequence number, taken under the facade's lock so numbers follow call order.
    static func nextSequence(_ state: inout State) -> UInt64 {
        state.sequence += 1
        return state.sequence
    }

    /// Keeps a decision, token, handler or plugin until `initialize()` (the caller holds the
    /// facade's lock and has checked that no engine exists). A decision also drops the waiting
    /// calls it deletes, and is stored so a launch killed before `initialize()` keeps it.
    func remember(_ entry: PreInitEntry, _ state: inout State) {
        if let decision = entry.decision {
            state.preInit.append(entry)
            let gate = self.preInitGate(&state)
            state.preInit.removeAll { kept in
                let wiped = decision == .wipeData && kept.isWipedCall
                return wiped || kept.isDropped(by: gate)
            }
            self.defaultKeyValue(&state)?.save(
                Self.encode(state.preInit.compactMap(\.decision)),
                forKey: StoreKey.preInitDecisions,
                logger: .disabled
            )
        } else {
            state.preInit.append(entry)
        }
    }

    /// The gate the decisions made so far certainly imply, whatever was stored and whatever the
    /// configuration says: a pre-init opt-out or denial beats both (INIT-11, CONSENT-17). What the
    /// stored state and the configuration add is judged by the engine at start (``PreInitReplay``),
    /// with the stores the configuration names.
    private func preInitGate(_ state: inout State) -> (CallKind) -> CollectionGate {
        var machine = PrivacyStateMachine(storedOptOut: false, storedDenial: false)
        _ = machine.start(configOptOut: false, configConsent: .granted, preInit: state.preInit.compactMap(\.decision))
        let privacy = machine.state
        return { privacy.gate($0) }
    }

    /// The pre-init list for the engine's start job, with the decisions a launch killed before
    /// `initialize()` stored first (read from the platform's settings store, where they were
    /// written), and how to forget those once the start job has applied them.
    func takePreInit(_ state: inout State) -> (entries: [PreInitEntry], forgetStored: @Sendable () -> Void) {
        let store = self.defaultKeyValue(&state)
        defer { state.preInit = [] }
        return (state.preInit, { store?.save(nil, forKey: StoreKey.preInitDecisions, logger: .disabled) })
    }

    /// What was stored on the device (STORE-2), before any decision.
    func storedPrivacy(_ state: inout State) -> PrivacyStateMachine {
        self.defaultKeyValue(&state).map(JoryioEngine.loadPrivacy)
            ?? PrivacyStateMachine(storedOptOut: false, storedDenial: false)
    }

    /// The platform's settings store, opened once; decisions a launch stored before it ended
    /// without `initialize()` come back first.
    func defaultKeyValue(_ state: inout State) -> (any KeyValueStore)? {
        if let opened = state.defaultKeyValue { return opened }
        let store = self.environment.defaultKeyValue()
        state.defaultKeyValue = .some(store)
        if let store, !state.restoredDecisions {
            state.restoredDecisions = true
            let restored = Self.decode(store.string(forKey: StoreKey.preInitDecisions)).map(PreInitEntry.decision)
            state.preInit.insert(contentsOf: restored, at: 0)
        }
        return store
    }

    static func encode(_ decisions: [PrivacyDecision]) -> String {
        decisions.map { decision in
            switch decision {
            case .optOut: "optOut"
            case .optIn: "optIn"
            case .wipeData: "wipe"
            case .updateConsent(let consent): "consent:\(consent.rawValue)"
            }
        }.joined(separator: ",")
    }

    static func decode(_ text: String?) -> [PrivacyDecision] {
        (text ?? "").split(separator: ",").compactMap { item -> PrivacyDecision? in
            switch item {
            case "optOut": .optOut
            case "optIn": .optIn
            case "wipe": .wipeData
            default:
                item.hasPrefix("consent:")
                    ? TrackingConsent(rawValue: String(item.dropFirst(8))).map(PrivacyDecision.updateConsent) : nil
            }
        }
    }
}
