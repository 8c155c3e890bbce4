package import Foundation
package import JoryioCore
package import JoryioDelivery

/// What getters read without waiting for the engine (ARCHITECTURE §3).
package struct JoryioSnapshot: Sendable {
    /// Events waiting on the device, stored or about to be.
    package var queueSize = 0
    /// The most recent request failure, `nil` after a success.
    package var lastTransportError: JoryioTransportError?
    /// The normalised API base URL.
    package var apiEndpoint = ""
}

/// One started SDK instance: all state lives here and is touched only on `environment.scheduler`.
package final class JoryioEngine: Sendable {
    private struct Identity {
        var anonymousId: String
        var userId: String?
        var deviceId: String
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
    private let environment: JoryioEnvironment
    private let logger: Logger
    private let stores: JoryioStores
    private let uploader: EventUploader
    private let plugins: Locked<[any JoryioEventPlugin]>
    private let snapshot: Locked<JoryioSnapshot>
    private let identity: Locked<Identity>
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
        self.identity = Locked(Self.loadIdentity(config: config, store: stores.keyValue, environment: environment, logger: logger))
        let builder = BatchRequestBuilder(
            endpoint: apiEndpoint.appendingPathComponent("v1/events"),
            sdkKey: sdkKey,
            userAgent: environment.userAgent,
            timeout: config.requestTimeout,
            gzip: environment.gzip
        )
        self.uploader = EventUploader(
            store: stores.events,
            transport: environment.makeTransport(config),
            scheduler: environment.scheduler,
            clock: environment.clock,
            jitter: environment.jitter,
            logger: logger.scoped("delivery"),
            builder: builder,
            settings: EventUploader.Settings(
                batchSize: config.batchSize,
                flushInterval: config.flushInterval,
                sendImmediately: config.sendImmediately,
                maxRetries: config.maxRetries,
                backoff: BackoffPolicy(base: config.retryBackoffMs / 1000)
            ),
            onResult: { [snapshot, stores] error in
                let count = (try? stores.events.count()) ?? 0
                snapshot.withLock {
                    $0.lastTransportError = error
                    $0.queueSize = count
                }
            }
        )
    }

    /// The logger records go through.
    package var log: Logger { self.logger }

    /// Runs on the scheduler once: publishes state and sends any backlog from earlier launches.
    package func start() {
        self.publishQueueSize()
        if self.queuedCount() > 0 {
            self.uploader.trigger(.timer)
        }
    }

    // MARK: - Commands (on the scheduler)

    /// Validates, runs plugins, and queues one event for the next group commit.
    package func track(name: String, conversion: JSONValue.Conversion, timestamp: Date) {
        for dropped in conversion.dropped {
            self.logger.warning("track \"\(name)\": dropped property \(dropped.path) (\(dropped.reason))")
        }
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
        let payload = EventRecordEncoder.encode(event, encodedProperties: encoded, sessionId: nil, deviceId: identity.deviceId)
        let scheduleCommit = self.pending.withLock { pending -> Bool in
            pending.payloads.append(Data(payload))
            defer { pending.commitScheduled = true }
            return !pending.commitScheduled
        }
        if scheduleCommit {
            self.environment.scheduler.enqueue { [self] in self.commit() }
        }
    }

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

    private func queuedCount() -> Int {
        ((try? self.stores.events.count()) ?? 0) + self.pending.withLock { $0.payloads.count }
    }

    private func publishQueueSize() {
        let count = self.queuedCount()
        self.snapshot.withLock { $0.queueSize = count }
    }

    private static func encode(_ properties: [String: JSONValue]) -> [UInt8] {
        var bytes: [UInt8] = []
        JSONValue.encode(object: properties, into: &bytes)
        return bytes
    }

    // MARK: - Identity (the identity issue replaces this with the full state machine)

    private static func loadIdentity(
        config: JoryioConfig,
        store: any KeyValueStore,
        environment: JoryioEnvironment,
        logger: Logger
    ) -> Identity {
        func stored(_ key: String) -> String? {
            store.data(forKey: key).map { String(decoding: $0, as: UTF8.self) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        func persist(_ value: String, _ key: String) {
            do {
                try store.set(Data(value.utf8), forKey: key)
            } catch {
                logger.error("cannot store \(key): \(error)")
            }
        }
        let anonymousId = config.anonymousId.flatMap { $0.isEmpty ? nil : $0 } ?? stored("jry_anonymous_id") ?? environment.identifiers.next()
        if stored("jry_anonymous_id") != anonymousId { persist(anonymousId, "jry_anonymous_id") }
        let deviceId = stored("jry_device_id") ?? environment.identifiers.next()
        if stored("jry_device_id") != deviceId { persist(deviceId, "jry_device_id") }
        return Identity(anonymousId: anonymousId, userId: config.userId.flatMap { $0.isEmpty ? nil : $0 }, deviceId: deviceId)
    }
}
