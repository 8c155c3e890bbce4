package import Foundation
package import JoryioCore
package import JoryioConsent
package import JoryioDelivery
internal import JoryioIdentity
internal import JoryioAuth

/// What getters read without waiting for the engine (ARCHITECTURE §3).
package struct JoryioSnapshot: Sendable {
    /// Events waiting on the device, stored or about to be.
    package var queueSize = 0
    /// The most recent request failure, `nil` after a success.
    package var lastTransportError: JoryioTransportError?
    /// The normalised API base URL.
    package var apiEndpoint = ""
    /// The current user id.
    package var userId: String?
    /// The current anonymous id.
    package var anonymousId = ""
    /// The current session, if one started.
    package var session: (id: String, start: Date)?
}

/// One started SDK instance: all state lives here and is touched only on `environment.scheduler`.
package final class JoryioEngine: Sendable {
    struct Identity {
        var anonymousId: String
        var userId: String?
        var deviceId: String
        /// A `JoryioConfig.userId` that differs from the stored user: identified at start (GAP-22).
        var identifyAtStart: String?
    }

    private struct Pending {
        var payloads: [Data] = []
        var commitScheduled = false
        /// A timer will try a failed write again.
        var retryArmed = false
        /// The last write failed (logged as an error once, until a write succeeds).
        var failing = false
    }

    package let config: JoryioConfig
    let environment: JoryioEnvironment
    let logger: Logger
    let stores: JoryioStores
    let uploader: EventUploader
    let attributes: AttributeChannel
    let durable: DurableWriteChannel
    private let plugins: Locked<[any JoryioEventPlugin]>
    let snapshot: Locked<JoryioSnapshot>
    let identity: Locked<Identity>
    let privacy: Locked<PrivacyStateMachine>
    let sessions: Locked<SessionTracker>
    let identityObservers = Locked<[@Sendable (IdentityChange) -> Void]>([])
    let auth: Locked<AuthState>
    /// The token given for this launch (config or before `initialize()`), kept by a pre-init wipe (AUTH-6).
    let launchTokenBox = Locked<String?>(nil)
    var launchToken: String? { self.launchTokenBox.value }
    private let pending = Locked(Pending())

    /// Opens storage and wires the uploader. Call ``start()`` on the scheduler afterwards.
    package init(
        config: JoryioConfig,
        sdkKey: String,
        apiEndpoint: URL,
        environment: JoryioEnvironment,
        plugins: Locked<[any JoryioEventPlugin]>,
        snapshot: Locked<JoryioSnapshot>
    ) {
        self.config = config
        self.environment = environment
        self.plugins = plugins
        self.snapshot = snapshot
        let logger = Logger(sink: config.logSink, minimumLevel: config.effectiveLogLevel, module: "joryio")
        self.logger = logger
        let stores = environment.openStores(config, sdkKey, logger.scoped("storage"))
        self.stores = stores
        let identity = Locked(Self.loadIdentity(config: config, stores: stores, environment: environment, logger: logger))
        self.identity = identity
        let auth = Locked(Self.loadAuth(config: config, stores: stores, currentUser: identity.value.userId, logger: logger))
        self.auth = auth
        let authorization = Self.requestAuthorization(auth: auth, identity: identity)
        self.privacy = Locked(Self.loadPrivacy(from: stores.keyValue))
        self.sessions = Locked(SessionTracker(timeout: config.sessionTimeout, stored: Self.loadSession(from: stores.keyValue)))
        let builder = BatchRequestBuilder(
            endpoint: apiEndpoint.appendingPathComponent("v1/events"),
            sdkKey: sdkKey,
            userAgent: environment.userAgent,
            timeout: config.requestTimeout,
            gzip: environment.gzip
        )
        let transport = environment.makeTransport(config)
        let backoff = BackoffPolicy(base: config.retryBackoffMs / 1000)
        let channels = ChannelDependencies(
            transport: transport,
            scheduler: environment.scheduler,
            clock: environment.clock,
            jitter: environment.jitter,
            identifiers: environment.identifiers,
            logger: logger,
            authorization: authorization,
            onResult: { [snapshot] error in
                if let error { snapshot.withLock { $0.lastTransportError = error } }
                if error == nil { Self.authAccepted(auth: auth, identity: identity) }
            }
        )
        let durable = DurableWriteChannel(
            store: stores.durable,
            builder: DurableRequestBuilder(
                apiHost: apiEndpoint,
                sdkKey: sdkKey,
                userAgent: environment.userAgent,
                timeout: config.requestTimeout
            ),
            settings: DurableWriteChannel.Settings(backoff: backoff, maxRetries: config.maxRetries),
            dependencies: channels.scoped("writes"),
            currentIdentity: { identity.withLock { ($0.userId, $0.anonymousId) } },
            eventsWaiting: { ((try? stores.events.count()) ?? 0) > 0 }
        )
        self.durable = durable
        self.attributes = AttributeChannel(
            secureStore: stores.secure,
            storageKey: StoreKey.attributeWrites,
            builder: AttributeRequestBuilder(
                endpoint: apiEndpoint.appendingPathComponent("v1/attributes"),
                sdkKey: sdkKey,
                userAgent: environment.userAgent,
                timeout: config.requestTimeout,
                gzip: environment.gzip
            ),
            settings: AttributeChannel.Settings(maxPending: config.maxQueueSize, backoff: backoff, maxRetries: config.maxRetries),
            dependencies: channels.scoped("attributes")
        )
        self.uploader = EventUploader(
            store: stores.events,
            builder: builder,
            settings: EventUploader.Settings(
                batchSize: config.batchSize,
                flushInterval: config.flushInterval,
                sendImmediately: config.sendImmediately,
                maxRetries: config.maxRetries,
                backoff: backoff
            ),
            dependencies: channels.scoped("delivery").reporting(to: { [snapshot, stores, durable] error in
                let count = (try? stores.events.count()) ?? 0
                if error == nil {
                    durable.eventsDelivered()
                    Self.authAccepted(auth: auth, identity: identity)
                }
                snapshot.withLock {
                    $0.lastTransportError = error
                    $0.queueSize = count
                }
            })
        )
    }

    /// The logger records go through.
    package var log: Logger { self.logger }

    /// Runs on the scheduler once: publishes state and sends any backlog from earlier launches.
    ///
    /// Pre-init privacy decisions are applied before anything else (INIT-10): a pre-init opt-out
    /// or denial purges the queue before a single event could be sent.
    package func start(preInit: [PrivacyDecision], authToken: String? = nil, authHandler: AuthErrorHandler?? = .none) {
        // Tokens and the handler come first, so nothing from earlier launches leaves unauthenticated.
        let launchToken = authToken ?? self.config.sdkAuthenticationToken.flatMap { $0.isEmpty ? nil : $0 }
        self.launchTokenBox.withLock { $0 = launchToken }
        if let token = self.config.sdkAuthenticationToken, !token.isEmpty { self.setAuthToken(token) }
        if let authToken { self.setAuthToken(authToken) }
        if case .some(let handler) = authHandler { self.setAuthHandler(handler) }
        let actions = self.privacy.withLock {
            $0.start(configOptOut: self.config.optOut, configConsent: self.config.trackingConsent, preInit: preInit)
        }
        // The channels learn whether collection is allowed before they load what earlier launches
        // left, so nothing held is sent on a pending or opted-out start.
        self.applyPrivacyToDelivery()
        self.attributes.load()
        self.durable.load()
        self.perform(actions)
        self.applyPrivacyToDelivery()
        if let userId = self.identity.withLock({ identity -> String? in
            defer { identity.identifyAtStart = nil }
            return identity.identifyAtStart
        }) {
            self.sendIdentify(userId, timestamp: self.environment.clock.now())
        }
        self.sendKeptIdentify()
        self.publishIdentity()
        self.publishQueueSize()
        self.announceSessionIfAllowed()
        if self.queuedCount() > 0 {
            self.uploader.trigger(.timer)
        }
        self.pruneAuthTokens()
    }

    // MARK: - Commands (on the scheduler)

    /// Validates, runs plugins, and queues one event for the next group commit.
    package func track(name: String, conversion: JSONValue.Conversion, timestamp: Date) {
        for dropped in conversion.dropped {
            self.logger.warning("track \"\(name)\": dropped property \(dropped.path) (\(dropped.reason))")
        }
        guard self.privacy.value.state.gate(.event) != .drop else {
            self.logger.debug("track \"\(String(name.prefix(64)))\" dropped: collection is not allowed (opted out or consent denied)")
            return
        }
        self.record(name: name, conversion: conversion, timestamp: timestamp, session: .touch)
    }

    /// Which session an event belongs to.
    enum SessionUse {
        /// The event is activity: it may start a new session, announced before the event.
        case touch
        /// The event belongs to this session and is not activity (`Session Start` itself).
        case fixed(String)
    }

    /// Validates, runs plugins and queues an event already past the consent gate. Only a valid
    /// event counts as session activity.
    func record(name: String, conversion: JSONValue.Conversion, timestamp: Date, session: SessionUse) {
        let identity = self.identity.value
        var event = JoryioEvent(
            name: name,
            properties: conversion.value,
            messageId: self.environment.identifiers.next(),
            timestamp: timestamp,
            anonymousId: identity.anonymousId,
            userId: identity.userId
        )
        var encoded = Self.encode(event.properties)
        if let problem = EventValidator.problem(name: event.name, properties: event.properties, encodedProperties: encoded) {
            self.logger.warning("track \"\(String(name.prefix(64)))\" dropped: \(problem)")
            return
        }
        for plugin in self.plugins.value {
            guard let processed = plugin.process(event) else {
                self.logger.debug("track \"\(name)\" dropped by \(type(of: plugin))")
                return
            }
            event = processed
        }
        if event.name != name || event.properties != conversion.value {
            encoded = Self.encode(event.properties)
            if let problem = EventValidator.problem(name: event.name, properties: event.properties, encodedProperties: encoded) {
                self.logger.warning("track \"\(String(event.name.prefix(64)))\" dropped after plugins: \(problem)")
                return
            }
        }
        let sessionId: String? = switch session {
        case .touch: self.touchSession(at: timestamp)
        case .fixed(let id): id
        }
        let payload = EventRecordEncoder.encode(event, encodedProperties: encoded, sessionId: sessionId, deviceId: identity.deviceId)
        let (scheduleCommit, full) = self.pending.withLock { pending -> (Bool, Bool) in
            pending.payloads.append(Data(payload))
            defer { pending.commitScheduled = true }
            return (!pending.commitScheduled, pending.payloads.count >= Self.maxGroupCommit && !pending.failing)
        }
        if full {
            // A long burst is written in bounded transactions, so memory stays flat however far
            // the app gets ahead of the engine.
            self.commit()
        } else if scheduleCommit {
            self.environment.scheduler.enqueue { [self] in self.commit() }
        }
    }

    /// The most events written in one transaction.
    static let maxGroupCommit = 500

    /// `trackScreen`: a `Screen Viewed` event with `screen_name` (EVT-2). The screen name is the
    /// call's required value, so an empty one is dropped with a warning like `track("")` (EVT-3).
    package func trackScreen(name: String, conversion: JSONValue.Conversion, timestamp: Date) {
        guard !name.isEmpty else {
            self.logger.warning("trackScreen dropped: the screen name is empty")
            return
        }
        var screen = conversion
        screen.value["screen_name"] = .string(name)
        self.track(name: "Screen Viewed", conversion: screen, timestamp: timestamp)
    }

    /// `flush()`: sends everything queued now, skipping the SDK's backoff but not `Retry-After`.
    package func flush() {
        self.commit()
        self.uploader.trigger(.flush)
    }

    /// The app went to the background: send what is queued.
    package func enteredBackground() {
        self.commit()
        self.uploader.trigger(.timer)
    }

    // MARK: - Storage

    /// Writes every pending event in one transaction; returns whether anything was stored.
    ///
    /// On failure (a full disk, say) the events stay pending in memory, bounded by `maxQueueSize`,
    /// and ``storeFailed(count:error:)`` arms a retry, so they are stored and sent once space is
    /// back even if the app records nothing more.
    @discardableResult
    private func commit() -> Bool {
        let payloads = self.pending.withLock { pending -> [Data] in
            pending.commitScheduled = false
            return pending.payloads
        }
        guard !payloads.isEmpty else { return false }
        self.persistSession()
        do {
            let result = try self.stores.events.append(payloads)
            let recovered = self.pending.withLock { pending -> Bool in
                pending.payloads.removeFirst(min(payloads.count, pending.payloads.count))
                defer { pending.failing = false }
                return pending.failing
            }
            if recovered {
                self.logger.info("stored \(payloads.count) events that were kept in memory; storage works again")
            }
            if result.evicted > 0 {
                self.logger.warning("the queue is full (maxQueueSize \(self.config.maxQueueSize)): dropped the \(result.evicted) oldest events")
            }
        } catch {
            self.storeFailed(count: payloads.count, error: error)
            return false
        }
        self.publishQueueSize()
        self.uploader.eventsStored(queued: (try? self.stores.events.count()) ?? 0)
        return true
    }

    /// Logs a failed write (an error the first time, then debug until a write succeeds), trims the
    /// events held in memory to `maxQueueSize`, and retries the write after `flushInterval`.
    private func storeFailed(count: Int, error: StorageError) {
        let (first, overflow, armRetry) = self.pending.withLock { pending -> (Bool, Int, Bool) in
            let first = !pending.failing
            pending.failing = true
            let overflow = max(0, pending.payloads.count - self.config.maxQueueSize)
            pending.payloads.removeFirst(overflow)
            defer { pending.retryArmed = true }
            return (first, overflow, !pending.retryArmed)
        }
        if first {
            self.logger.error("cannot store \(count) events (\(error)); keeping them in memory and retrying")
        } else {
            self.logger.debug("still cannot store \(count) events (\(error))")
        }
        if overflow > 0 {
            self.logger.warning("maxQueueSize \(self.config.maxQueueSize) reached in memory: dropped the \(overflow) oldest events")
        }
        self.publishQueueSize()
        guard armRetry else { return }
        self.environment.scheduler.schedule(after: self.config.flushInterval) { [self] in
            self.pending.withLock { $0.retryArmed = false }
            // These events have already waited a flush interval: send them as soon as they are stored.
            if self.commit() {
                self.uploader.trigger(.timer)
            }
        }
    }

    /// Deletes every queued event, stored or pending (opt-out, denial, wipe). Returns how many.
    @discardableResult
    func discardQueuedEvents() -> Int {
        let inMemory = self.pending.withLock { pending -> Int in
            defer { pending.payloads.removeAll() }
            return pending.payloads.count
        }
        let stored = (try? self.stores.events.count()) ?? 0
        do {
            try self.stores.events.removeAll()
        } catch {
            self.logger.error("cannot delete queued events: \(error)")
        }
        self.publishQueueSize()
        return inMemory + stored
    }

    func queuedCount() -> Int {
        ((try? self.stores.events.count()) ?? 0) + self.pending.withLock { $0.payloads.count }
    }

    func publishQueueSize() {
        let count = self.queuedCount()
        self.snapshot.withLock { $0.queueSize = count }
    }

    private static func encode(_ properties: [String: JSONValue]) -> [UInt8] {
        var bytes: [UInt8] = []
        JSONValue.encode(object: properties, into: &bytes)
        return bytes
    }

    /// Reinstall detection (STORE-8, GAP-52): the settings store is deleted with the app but the
    /// Keychain is not, so secure items found without the install marker belong to an earlier
    /// installation and are deleted before use.
    private static func clearSecureStoreAfterReinstall(stores: JoryioStores, logger: Logger) {
        guard stores.keyValue.string(forKey: StoreKey.installMarker) == nil else { return }
        do {
            try stores.secure.removeAll()
        } catch {
            logger.error("cannot clear secure items left by an earlier installation: \(error)")
        }
        stores.keyValue.save("1", forKey: StoreKey.installMarker, logger: logger)
    }

    /// The ids stored on the device (STORE-1, STORE-3), or new ones. `config.anonymousId` and
    /// `config.userId` win over stored ids (GAP-22).
    private static func loadIdentity(
        config: JoryioConfig,
        stores: JoryioStores,
        environment: JoryioEnvironment,
        logger: Logger
    ) -> Identity {
        let keyValue = stores.keyValue
        Self.clearSecureStoreAfterReinstall(stores: stores, logger: logger)
        let storedAnonymous = keyValue.string(forKey: StoreKey.anonymousId)
        let anonymousId = config.anonymousId.nonEmpty ?? storedAnonymous ?? environment.identifiers.next()
        if storedAnonymous != anonymousId { keyValue.save(anonymousId, forKey: StoreKey.anonymousId, logger: logger) }
        let storedDevice = keyValue.string(forKey: StoreKey.deviceId)
        let deviceId = storedDevice ?? environment.identifiers.next()
        if storedDevice != deviceId { keyValue.save(deviceId, forKey: StoreKey.deviceId, logger: logger) }
        let storedUser = stores.secure.string(forKey: StoreKey.userId, logger: logger)
        let userId = config.userId.nonEmpty ?? storedUser
        if let userId, userId != storedUser { stores.secure.save(userId, forKey: StoreKey.userId, logger: logger) }
        let changed = config.userId.nonEmpty.flatMap { $0 == storedUser ? nil : $0 }
        return Identity(anonymousId: anonymousId, userId: userId, deviceId: deviceId, identifyAtStart: changed)
    }
}
