package import Foundation
internal import JoryioConsent
internal import JoryioCore
public import JoryioDelivery
internal import JoryioFeature
internal import JoryioStorage

/// The Joryio SDK: event tracking with a durable offline queue.
///
/// Apps use the shared instance (`Joryio.shared.initialize(...)`), which the product they import
/// defines: `import Joryio` for every feature, `import JoryioAnalytics` for tracking, identity,
/// consent, attributes and SDK auth without push, in-app or e-commerce code. Every public method is
/// safe to call from any thread and before ``initialize(sdkKey:apiHost:config:)``: calls return at
/// once and run in order on the SDK's own serial engine.
public final class Joryio: Sendable {

    struct State {
        var engine: JoryioEngine?
        /// Everything done before `initialize()`, in call order (INIT-5, INIT-6).
        var preInit: [PreInitEntry] = []
        /// Calls dropped because more than ``preInitCapacity`` were kept.
        var droppedBeforeInit = 0
        /// Calls dropped before `initialize()` because collection was not allowed when they were made.
        var gatedBeforeInit = 0
        /// Input warnings dropped before `initialize()` beyond ``preInitLogCapacity``.
        var droppedLogsBeforeInit = 0
        /// The last sequence number a call took (``SnapshotBoard``), in call order.
        var sequence: UInt64 = 0
        /// Whether the stored pre-init decisions of a launch that never initialized were read.
        var restoredDecisions = false
        /// The platform's settings store, opened on first use before `initialize()`.
        var defaultKeyValue: (any KeyValueStore)??
        /// `initialize()` was called before the device's first unlock and waits for it (INIT-14).
        var initializationPending = false
        /// An `initialize()` call got past its key and host checks (the product's
        /// ``FeatureCatalog/willInitialize`` ran).
        var initializeCallAccepted = false
        /// That waiting call's start, run at the unlock (or by a later call that finds storage
        /// readable, should the unlock's notification have been missed).
        var pendingStart: (@Sendable () -> Void)?
        /// Why the last `initialize()` refused its SDK key or host, until a call is accepted.
        var refusal: String?
        /// Calls made before `initialize()` that answer at once when it refuses (PUSH-14).
        var refusalListeners: [@Sendable (String) -> Void] = []
    }

    /// Calls that collect or send, kept until `initialize()` (INIT-6).
    package static let preInitCapacity = 1000
    /// Input warnings kept until `initialize()`, apart from the calls.
    package static let preInitLogCapacity = 100

    let environment: JoryioEnvironment
    /// The features this instance runs, chosen by the product that made it.
    let features: FeatureCatalog
    let state = Locked(State())
    /// What getters read: written by the engine only, plus calls it has not run yet.
    let board = SnapshotBoard()
    /// The instance's typed slots: what a product's facade keeps for its public properties and what
    /// its features publish for the getters (``FacadeContext``); readable before `initialize()`.
    let slots = InstanceSlots()

    /// Creates an instance over an explicit environment (products, tests, benchmarks) running the
    /// features of `catalog`.
    package init(environment: JoryioEnvironment, features catalog: FeatureCatalog = .analytics) {
        self.environment = environment
        self.features = catalog
    }

    // MARK: - Lifecycle

    /// Starts the SDK with the SDK key (`jry_sdk_…`), the API base URL and an optional configuration.
    ///
    /// The key is `jry_sdk_` followed by letters, digits and `_`, at most 256 characters. The host
    /// must be `https` (plain `http` for loopback hosts only), without user info, query, fragment,
    /// whitespace or control characters. A rejected key or host is logged with its reason and the
    /// SDK stays uninitialised (calls keep waiting for a later, correct call); a second successful
    /// call is ignored (INIT-2).
    public func initialize(sdkKey: String, apiHost: String, config: JoryioConfig = JoryioConfig()) {
        let (clamped, adjustments) = config.clamped()
        let logger = Logger(sink: clamped.logSink, minimumLevel: clamped.effectiveLogLevel, module: "joryio")
        // A configuration that cannot work is refused now, with its reason (GAP-6).
        if let refusal = InitializationCheck.keyProblem(sdkKey) {
            logger.error("initialize: \(refusal.reason); the SDK is not started")
            self.refuse(refusal.reason)
            return
        }
        let endpoint: URL
        switch InitializationCheck.endpoint(apiHost) {
        case .success(let url):
            endpoint = url
        case .failure(let refusal):
            logger.error("initialize: \(refusal.reason); the SDK is not started")
            self.refuse(refusal.reason)
            return
        }
        // Before a first-unlock wait and on the calling thread (the main thread at launch): the
        // product's OS hooks, once per instance (INIT-16).
        let firstAccepted = self.state.withLock { state -> Bool in
            defer { state.initializeCallAccepted = true }
            return !state.initializeCallAccepted
        }
        if firstAccepted { self.features.willInitialize(self) }
        let availability = self.environment.storageAvailability
        let begin: @Sendable () -> Void = { [self] in
            self.start(sdkKey: sdkKey, endpoint: endpoint, config: clamped, adjustments: adjustments, logger: logger)
        }
        guard availability.isAvailable else {
            let first = self.state.withLock { state -> Bool in
                guard state.engine == nil, !state.initializationPending else { return false }
                state.initializationPending = true
                state.pendingStart = begin
                return true
            }
            guard first else {
                logger.warning("initialize: already initialized or waiting for the first unlock; this call is ignored")
                return
            }
            // Not a failure (INIT-14): calls keep waiting in order, and the start runs by itself.
            logger.info(
                "initialize: the device has not been unlocked since it started, so the SDK's storage cannot be "
                    + "read yet; initialize() completes at the first unlock and calls made meanwhile wait for it"
            )
            availability.whenAvailable { [self] in self.runPendingStart() }
            return
        }
        // Storage is readable: a call still waiting for the unlock starts first, with its own
        // settings (its notification may have been missed), and then this one is the second call.
        if self.runPendingStart() {
            logger.warning("initialize: already initialized; this call is ignored")
            return
        }
        begin()
    }

    /// `initialize()` refused its key or host: calls waiting for an answer get it now (PUSH-14).
    private func refuse(_ reason: String) {
        let listeners = self.state.withLock { state -> [@Sendable (String) -> Void] in
            guard state.engine == nil else { return [] }
            state.refusal = reason
            defer { state.refusalListeners = [] }
            return state.refusalListeners
        }
        listeners.forEach { $0(reason) }
    }

    /// Calls `answer` with the reason when `initialize()` refused (or refuses) its SDK key or host
    /// while no engine runs: at once when the last call was refused, otherwise at the refusal.
    /// Nothing happens once the SDK started. For calls that must answer at once (PUSH-14).
    func whenInitializationRefused(_ answer: @escaping @Sendable (String) -> Void) {
        let refusal = self.state.withLock { state -> String? in
            guard state.engine == nil else { return nil }
            if let refusal = state.refusal { return refusal }
            state.refusalListeners.append(answer)
            return nil
        }
        refusal.map(answer)
    }

    /// Runs the start of a call that waited for the first unlock, once; `false` when none waits.
    @discardableResult
    private func runPendingStart() -> Bool {
        let pending = self.state.withLock { state -> (@Sendable () -> Void)? in
            defer { state.pendingStart = nil }
            return state.pendingStart
        }
        pending?()
        return pending != nil
    }

    /// `true` while ``initialize(sdkKey:apiHost:config:)`` waits for the first unlock since the
    /// device was powered on (INIT-14): the SDK's storage cannot be read before it. Not a failure:
    /// calls made meanwhile wait, and the SDK starts by itself at the unlock. `false` otherwise.
    public var isInitializationPending: Bool {
        self.state.withLock { $0.initializationPending }
    }

    /// How to run two instances side by side, per platform: on Apple platforms the settings are the
    /// app's (UserDefaults), so one instance per app and per storage directory.
    private static var storageOwnerAdvice: String {
        StoragePlan.make(.sqlite(), platform: .current).settingsSharedByApp
            ? "one instance per app: its settings live in the app's UserDefaults"
            : "give each instance its own JoryioConfig.storage directory"
    }

    /// Makes the engine and queues its start job (the storage is readable).
    private func start(
        sdkKey: String,
        endpoint: URL,
        config clamped: JoryioConfig,
        adjustments: [String],
        logger: Logger
    ) {
        // Lines are logged once the lock is released: a log sink may call the SDK.
        var warnings: [String] = []
        var refusal: String?
        var started = false
        defer {
            refusal.map { logger.error($0) }
            warnings.forEach { logger.warning($0) }
            if started {
                self.environment.observeLifecycle(self)
                self.features.didInitialize(self)
            }
        }
        self.state.withLock { state in
            guard state.engine == nil else {
                warnings.append("initialize: already initialized; this call is ignored")
                return
            }
            state.initializationPending = false
            let storageLocks: [StorageLock]
            switch self.environment.claimStorage(clamped) {
            case .owned(let locks):
                storageLocks = locks
            case .inUse(let path):
                refusal =
                    "initialize: another Joryio instance, in this process or another, uses the storage at \(path); "
                    + "this one is not started (\(Self.storageOwnerAdvice))"
                return
            }
            warnings += self.environment.setupWarnings
            warnings += adjustments.map { "config: \($0)" }
            let (entries, forgetStored) = self.takePreInit(&state)
            let setup = FeatureSetup(
                config: clamped,
                sdkKey: sdkKey,
                apiEndpoint: endpoint,
                userAgent: self.environment.userAgent,
                gzip: self.environment.gzip
            )
            let engine = JoryioEngine(
                config: clamped,
                sdkKey: sdkKey,
                apiEndpoint: endpoint,
                environment: self.environment,
                features: self.features.registrations(setup),
                board: self.board,
                decisions: entries.compactMap(\.decision),
                slots: self.slots,
                storageLocks: storageLocks
            )
            state.engine = engine
            state.refusal = nil
            state.refusalListeners = []
            let dropped = state.droppedBeforeInit
            let droppedLogs = state.droppedLogsBeforeInit
            let gated = state.gatedBeforeInit
            let sequence = Self.nextSequence(&state)
            // Until the start job ran, getters show what the waiting entries will change.
            for change in entries.compactMap(\.change) {
                self.board.show(change, until: sequence)
            }
            engine.journal?.pushFence(sequence)
            self.environment.scheduler.enqueue {
                if dropped > 0 {
                    engine.log.warning(
                        "\(dropped) calls made before initialize() were dropped (at most \(Self.preInitCapacity) are kept)"
                    )
                }
                if droppedLogs > 0 {
                    engine.log.warning(
                        "\(droppedLogs) more warnings about calls made before initialize() were not kept"
                    )
                }
                if gated > 0 {
                    engine.log.debug("\(gated) calls made before initialize() were dropped: collection was not allowed")
                }
                engine.start(preInit: entries, sequence: sequence, forgetStoredDecisions: forgetStored)
            }
            started = true
        }
    }

    /// The API base URL the SDK sends to, or `""` before initialization.
    public var currentApiEndpoint: String {
        self.board.current.apiEndpoint
    }

    /// The most recent request failure, or `nil` after a success (BATCH-16).
    public var lastTransportError: JoryioTransportError? {
        self.board.current.lastTransportError
    }

    /// Sends queued events now, skipping the SDK's own backoff but never a server's `Retry-After`.
    public func flush() {
        self.submit { $0.flush() }
    }

    /// The number of events waiting on the device (0 before initialization).
    public func getQueueSize() -> Int {
        self.board.current.queueSize
    }

    // MARK: - Events

    /// Records an event with optional properties.
    ///
    /// Properties may hold strings, numbers, booleans, `Date`, `URL`, `nil`/`NSNull` and nested
    /// arrays and dictionaries of those. A value that cannot be sent exactly (a non-finite number,
    /// an integer beyond 64 bits signed, a date outside years 0000–9999, an unsupported type) is
    /// dropped with a warning naming its key; an event the server would reject (empty or over-long
    /// name, properties over 50 KB, over 200 keys or nested deeper than 5 levels) is dropped with a
    /// log line.
    ///
    /// Track specific, actionable events (`"Trial Started"` with `plan`, `"Feature Used"` with
    /// `feature`) rather than generic ones such as `"Button Tapped"` (EVT-10).
    public func track(_ name: String, properties: [String: Any]? = nil) {
        let timestamp = self.environment.clock.now()
        guard let conversion = self.convert(properties, call: "track", name: name) else { return }
        for dropped in conversion.dropped {
            self.warn("track \"\(name)\": dropped property \(dropped.path) (\(dropped.reason))")
        }
        self.submitEvent(name: name, properties: conversion.value, timestamp: timestamp)
    }

    /// Records a `Screen Viewed` event with `screen_name` set to `name`, merged with `properties`.
    /// An empty screen name logs a warning and records nothing.
    public func trackScreen(_ name: String, properties: [String: Any]? = nil) {
        let timestamp = self.environment.clock.now()
        // The name becomes the `screen_name` property: one over the properties' limit alone drops
        // the event here, with a line naming this call (EVT-5).
        if name.utf8.count > EventValidator.maxPropertiesBytes {
            self.warn(
                "trackScreen \"\(String(name.prefix(64)))…\" dropped: the screen name is \(name.utf8.count) bytes "
                    + "(the properties hold at most \(EventValidator.maxPropertiesBytes))"
            )
            return
        }
        guard var converted = self.convert(properties, call: "trackScreen", name: name) else { return }
        // Warned here, so the line names this call rather than the `Screen Viewed` event (EVT-4).
        for dropped in converted.dropped {
            self.warn(
                "trackScreen \"\(String(name.prefix(64)))\": dropped property \(dropped.path) (\(dropped.reason))"
            )
        }
        guard !name.isEmpty else {
            self.warn("trackScreen dropped: the screen name is empty")
            return
        }
        converted.value["screen_name"] = .string(name)
        self.submitEvent(name: "Screen Viewed", properties: converted.value, timestamp: timestamp)
    }

    /// `track()` for a product's typed calls (``FacadeContext/track(_:values:)``).
    func track(_ name: String, values: [String: JSONValue]) {
        self.submitEvent(name: name, properties: values, timestamp: self.environment.clock.now())
    }

    /// Checks an event against the server's limits on the caller's thread (EVT-3, EVT-5) and hands
    /// it on with its properties in canonical JSON; an invalid one is dropped with a warning.
    private func submitEvent(name: String, properties: [String: JSONValue], timestamp: Date) {
        let encoded = JoryioEngine.encode(properties)
        if let problem = EventValidator.problem(name: name, properties: properties, encodedProperties: encoded) {
            self.warn("track \"\(String(name.prefix(64)))\" dropped: \(problem)")
            return
        }
        self.submitTrack(name: name, encodedProperties: encoded, timestamp: timestamp)
    }

    /// Converts an event's properties on the caller's thread, looking no deeper than the server's
    /// limit (EVT-5): deeper properties drop the event here, with a warning naming where, before
    /// any work or stack is spent on them. `nil` when the event is dropped.
    private func convert(_ properties: [String: Any]?, call: String, name: String) -> JSONValue.Conversion? {
        guard let properties else { return JSONValue.Conversion(value: [:], dropped: []) }
        let conversion = JSONValue.convert(properties, maxDepth: EventValidator.maxDepth)
        if let tooDeep = conversion.tooDeep {
            self.warn(
                "\(call) \"\(String(name.prefix(64)))\" dropped: the properties nest more than "
                    + "\(EventValidator.maxDepth) levels deep (at \(tooDeep.path))"
            )
            return nil
        }
        return conversion
    }

    /// Adds a plugin that sees every later event before it is stored, after those added before it.
    public func add(plugin: any JoryioEventPlugin) {
        self.rememberOrSubmit(.plugin(plugin)) { $0.add(plugin: plugin) }
    }

    // MARK: - Platform

    /// Tells the SDK the app moved to the background, which sends queued events. Apple platforms
    /// call it automatically; command-line tools and services may call it before they exit.
    public func applicationDidEnterBackground() {
        self.submit { $0.enteredBackground() }
    }

    /// ``applicationDidEnterBackground()``, calling `whenSent` once the event send it started
    /// settled (the answer to its last request arrived), or at once when the SDK has not started:
    /// the lifecycle observer ends its background task there (issue 26). A `whenSent` that never
    /// comes (the call dropped before `initialize()`) is covered by the task's expiration handler.
    package func applicationDidEnterBackground(whenSent: @escaping @Sendable () -> Void) {
        let started = self.facade.isStarted
        self.submit { $0.enteredBackground(whenSent: started ? whenSent : nil) }
        if !started { whenSent() }
    }

    /// Tells the SDK the app became active (UIKit's `didBecomeActive`, and at launch when it already
    /// is): in-app messages may show and their dwell counts (INAPP-57, INAPP-59). Apple platforms
    /// call it automatically.
    public func applicationDidBecomeActive() {
        AppActivity.publish(true)
        self.submit { $0.activityChanged(true) }
    }

    /// Tells the SDK the app stopped being active (UIKit's `willResignActive`: a call, Control
    /// Center, the app switcher): no message shows and a shown one's dwell pauses. Apple platforms
    /// call it automatically.
    public func applicationWillResignActive() {
        AppActivity.publish(false)
        self.submit { $0.activityChanged(false) }
    }

    /// The process is about to end (UIKit's `willTerminate`): pending events are stored and every
    /// feature hears it. Not public: apps never call it; the lifecycle observer (and tests) do.
    ///
    /// - Parameter timeout: How long to wait for the engine to have done it (the process ends soon
    ///   after `willTerminate` returns); `0` does not wait. Never waits on the engine's own queue.
    package func applicationWillTerminate(waitingAtMost timeout: TimeInterval = 0) {
        let done = DispatchSemaphore(value: 0)
        self.submit { engine in
            engine.willTerminate()
            done.signal()
        }
        guard timeout > 0, !self.environment.scheduler.isRunningJob,
            self.state.withLock({ $0.engine != nil })
        else { return }
        _ = done.wait(timeout: .now() + timeout)
    }
}
