package import Foundation
internal import JoryioConsent
package import JoryioCore
internal import JoryioDelivery
internal import JoryioIdentity

/// The event pipeline on the engine (EVT, BATCH): validate → gate → enrich → plugins → persist.
extension JoryioEngine {
    /// Validates, runs plugins, and queues one event for the next group commit.
    package func track(name: String, conversion: JSONValue.Conversion, timestamp: Date) {
        for dropped in conversion.dropped {
            self.logger.warning("track \"\(name)\": dropped property \(dropped.path) (\(dropped.reason))")
        }
        guard self.state.value.privacy.state.gate(.event) != .drop else {
            self.logger.debug(
                "track \"\(String(name.prefix(64)))\" dropped: collection is not allowed (opted out or consent denied)"
            )
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
        let identity = self.state.value.identity
        var event = JoryioEvent(
            name: name,
            properties: conversion.value,
            messageId: self.environment.identifiers.next(),
            timestamp: timestamp,
            anonymousId: identity.anonymousId,
            userId: identity.userId
        )
        var encoded = Self.encode(event.properties)
        if let problem = EventValidator.problem(
            name: event.name,
            properties: event.properties,
            encodedProperties: encoded
        ) {
            self.logger.warning("track \"\(String(name.prefix(64)))\" dropped: \(problem)")
            return
        }
        for plugin in self.state.value.plugins {
            guard let processed = plugin.process(event) else {
                self.logger.debug("track \"\(name)\" dropped by \(type(of: plugin))")
                return
            }
            event = processed
        }
        if event.name != name || event.properties != conversion.value {
            encoded = Self.encode(event.properties)
            if let problem = EventValidator.problem(
                name: event.name,
                properties: event.properties,
                encodedProperties: encoded
            ) {
                self.logger.warning("track \"\(String(event.name.prefix(64)))\" dropped after plugins: \(problem)")
                return
            }
        }
        let sessionId: String? =
            switch session {
            case .touch: self.touchSession(at: timestamp)
            case .fixed(let id): id
            }
        let payload = EventRecordEncoder.encode(
            event,
            encodedProperties: encoded,
            sessionId: sessionId,
            deviceId: identity.deviceId
        )
        let (scheduleCommit, full) = self.state.withValue { state -> (Bool, Bool) in
            state.pending.payloads.append(Data(payload))
            defer { state.pending.commitScheduled = true }
            return (
                !state.pending.commitScheduled,
                state.pending.payloads.count >= Self.maxGroupCommit && !state.pending.failing
            )
        }
        if full {
            // A long burst is written in bounded transactions, so memory stays flat however far
            // the app gets ahead of the engine.
            self.commit()
        } else if scheduleCommit {
            self.environment.scheduler.enqueue { [self] in
                self.commit()
                self.publish()
            }
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

    // MARK: - Storage

    /// Writes every pending event in one transaction; returns whether anything was stored.
    ///
    /// On failure (a full disk, say) the events stay pending in memory, bounded by `maxQueueSize`,
    /// and ``storeFailed(count:error:)`` arms a retry, so they are stored and sent once space is
    /// back even if the app records nothing more.
    @discardableResult
    func commit() -> Bool {
        let payloads = self.state.withValue { state -> [Data] in
            state.pending.commitScheduled = false
            return state.pending.payloads
        }
        guard !payloads.isEmpty else { return false }
        self.persistSession()
        do {
            let result = try self.stores.events.append(payloads)
            let recovered = self.state.withValue { state -> Bool in
                state.pending.payloads.removeFirst(min(payloads.count, state.pending.payloads.count))
                defer { state.pending.failing = false }
                return state.pending.failing
            }
            if recovered {
                self.logger.info("stored \(payloads.count) events that were kept in memory; storage works again")
            }
            if result.evicted > 0 {
                self.logger.warning(
                    "the queue is full (maxQueueSize \(self.config.maxQueueSize)): dropped the \(result.evicted) oldest events"
                )
            }
        } catch {
            self.storeFailed(count: payloads.count, error: error)
            return false
        }
        let stored = self.refreshStoredCount()
        self.uploader?.eventsStored(queued: stored)
        return true
    }

    /// Logs a failed write (an error the first time, then debug until a write succeeds), trims the
    /// events held in memory to `maxQueueSize`, and retries the write after `flushInterval`.
    private func storeFailed(count: Int, error: StorageError) {
        let maxQueueSize = self.config.maxQueueSize
        let (first, overflow, armRetry) = self.state.withValue { state -> (Bool, Int, Bool) in
            let first = !state.pending.failing
            state.pending.failing = true
            let overflow = max(0, state.pending.payloads.count - maxQueueSize)
            state.pending.payloads.removeFirst(overflow)
            defer { state.pending.retryArmed = true }
            return (first, overflow, !state.pending.retryArmed)
        }
        if first {
            self.logger.error("cannot store \(count) events (\(error)); keeping them in memory and retrying")
        } else {
            self.logger.debug("still cannot store \(count) events (\(error))")
        }
        if overflow > 0 {
            self.logger.warning("maxQueueSize \(maxQueueSize) reached in memory: dropped the \(overflow) oldest events")
        }
        guard armRetry else { return }
        self.environment.scheduler.schedule(after: self.config.flushInterval) { [self] in
            self.state.value.pending.retryArmed = false
            // These events have already waited a flush interval: send them as soon as they are stored.
            if self.commit() {
                self.uploader?.trigger(.timer)
            }
            self.publish()
        }
    }

    /// Deletes every queued event, stored or pending (opt-out, denial, wipe). Returns how many.
    @discardableResult
    func discardQueuedEvents() -> Int {
        let inMemory = self.state.withValue { state -> Int in
            defer { state.pending.payloads.removeAll() }
            return state.pending.payloads.count
        }
        let stored = (try? self.stores.events.count()) ?? 0
        do {
            try self.stores.events.removeAll()
        } catch {
            self.logger.error("cannot delete queued events: \(error)")
        }
        self.refreshStoredCount()
        return inMemory + stored
    }

    /// Reads the event store's count into the state getters are published from, and returns it.
    @discardableResult
    func refreshStoredCount() -> Int {
        let count = (try? self.stores.events.count()) ?? 0
        self.state.value.storedCount = count
        return count
    }

    /// Events waiting on the device, stored or about to be.
    func queuedCount() -> Int {
        ((try? self.stores.events.count()) ?? 0) + self.state.value.pending.payloads.count
    }

    private static func encode(_ properties: [String: JSONValue]) -> [UInt8] {
        var bytes: [UInt8] = []
        JSONValue.encode(object: properties, into: &bytes)
        return bytes
    }
}
