package import Foundation
internal import JoryioConsent
internal import JoryioCore
internal import JoryioDelivery
internal import JoryioFeature
internal import JoryioIdentity
internal import JoryioStorage

/// The event pipeline on the engine (EVT, BATCH): validate → gate → enrich → plugins → persist.
extension JoryioEngine {
    /// One `track()` or `trackScreen()` call, checked on the caller's thread (EVT-3…5): its name,
    /// its properties already in canonical JSON, and when it was made. Gate → plugins → persist.
    package func track(name: String, encodedProperties: [UInt8], timestamp: Date) {
        guard self.collectsEvents(named: name) else { return }
        guard self.state.value.plugins.isEmpty else {
            // Plugins see the properties as values: decode them back (only when plugins exist).
            guard case .object(let properties)? = JSONValue.parse(Data(encodedProperties)) else {
                self.logger.error("track \"\(String(name.prefix(64)))\" dropped: its stored properties do not decode")
                return
            }
            self.record(
                name: name,
                conversion: JSONValue.Conversion(value: properties, dropped: []),
                timestamp: timestamp,
                session: .touch
            )
            return
        }
        let identity = self.state.value.identity
        let event = JoryioEvent(
            name: name,
            properties: [:],
            messageId: self.environment.identifiers.next(),
            timestamp: timestamp,
            anonymousId: identity.anonymousId,
            userId: identity.userId
        )
        self.enqueue(event, encodedProperties: encodedProperties, session: .touch, deviceId: identity.deviceId)
        self.announce(name)
    }

    /// Tells the features that listen to events (in-app triggers) that `name` was queued.
    func announce(_ name: @autoclosure () -> String) {
        let (observers, replaying) = self.state.withValue { ($0.eventObservers, $0.replaying) }
        guard !observers.isEmpty, !replaying else { return }
        let name = name()
        for feature in observers { feature.eventTracked(name) }
    }

    /// Whether the consent gate lets events through now; when not, logs (at debug, so `name` is
    /// only computed when that level is on) that the event `name` was dropped.
    func collectsEvents(named name: @autoclosure () -> String) -> Bool {
        guard self.state.value.privacy.state.gate(.event) == .drop else { return true }
        self.logger.debug(
            "track \"\(String(name().prefix(64)))\" dropped: collection is not allowed (opted out or consent denied)"
        )
        return false
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
        self.enqueue(event, encodedProperties: encoded, session: session, deviceId: identity.deviceId)
        self.announce(event.name)
    }

    /// Encodes a valid event into its stored form and queues it for the next group commit.
    private func enqueue(_ event: JoryioEvent, encodedProperties: [UInt8], session: SessionUse, deviceId: String?) {
        let sessionId: String? =
            switch session {
            case .touch: self.touchSession(at: event.timestamp)
            case .fixed(let id): id
            }
        self.enqueue(
            payload: EventRecordEncoder.encode(
                event,
                encodedProperties: encodedProperties,
                sessionId: sessionId,
                deviceId: deviceId
            )
        )
    }

    /// Queues one stored payload for the next group commit.
    func enqueue(payload: [UInt8]) {
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

    // MARK: - Storage

    /// Writes every pending event in one transaction; returns whether anything was stored.
    ///
    /// On failure (a full disk, say) the events stay pending in memory, bounded by `maxQueueSize`,
    /// and ``storeFailed(count:error:)`` arms a retry, so they are stored and sent once space is
    /// back even if the app records nothing more.
    /// With a journal, the position read up to is stored in the same transaction, and only then is
    /// the journal's space freed: a kill before the commit replays those records, one after it
    /// does not (issue 12, defect 6).
    @discardableResult
    func commit() -> Bool {
        let (payloads, mark) = self.state.withValue { state -> ([Data], JournalPosition?) in
            state.pending.commitScheduled = false
            let cursor = state.journal
            return (state.pending.payloads, cursor.read != cursor.committed ? cursor.read : nil)
        }
        guard !payloads.isEmpty || mark != nil else { return false }
        self.persistSession(force: false)
        do {
            let result: QueueAppendResult
            if let mark, let marked = self.markedEvents {
                result = try marked.append(payloads, mark: QueueMark(name: JoryioStores.journalMark, value: mark.mark))
            } else {
                result = try self.stores.events.append(payloads)
            }
            let recovered = self.state.withValue { state -> Bool in
                state.pending.payloads.removeFirst(min(payloads.count, state.pending.payloads.count))
                if let mark { state.journal.committed = mark }
                defer { state.pending.failing = false }
                return state.pending.failing
            }
            if let mark { self.journal?.release(to: mark) }
            if recovered {
                self.journal?.setStoring(true)
                self.logger.info("stored \(payloads.count) events that were kept in memory; storage works again")
            }
            if result.evicted > 0 {
                self.logger.warning(
                    "the queue is full (maxQueueSize \(self.config.maxQueueSize)): dropped the \(result.evicted) oldest events"
                )
            }
        } catch {
            self.journal?.setStoring(false)
            self.storeFailed(count: payloads.count, error: error)
            return false
        }
        guard !payloads.isEmpty else { return false }
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
        // What an earlier launch journaled and this one has not replayed yet is queued too: a
        // pre-init opt-out, denial or wipe deletes it with the rest (INIT-10).
        var replayDropped = 0
        if let journal = self.journal, self.state.value.journal.read.sequence < journal.recovered.sequence {
            replayDropped = journal.recoveredCount
            self.state.value.journal.read = journal.recovered
        }
        let stored = (try? self.stores.events.count()) ?? 0
        do {
            try self.stores.events.removeAll()
        } catch {
            self.logger.error("cannot delete queued events: \(error)")
        }
        // The journal position moves past what was deleted, stored at once, so a kill now does not
        // bring those events back.
        if self.journal != nil { self.commit() }
        self.refreshStoredCount()
        return inMemory + stored + replayDropped
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

    static func encode(_ properties: [String: JSONValue]) -> [UInt8] {
        var bytes: [UInt8] = []
        // One allocation for typical properties instead of one per doubling.
        bytes.reserveCapacity(256)
        JSONValue.encode(object: properties, into: &bytes)
        return bytes
    }
}
