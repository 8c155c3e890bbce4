internal import Foundation
internal import JoryioCore
internal import JoryioIdentity
internal import JoryioStorage

/// Reading the event journal `track()` appends to (issue 12, defect 6): the records go through the
/// same pipeline as a queued call, in call order, and are stored with the position read.
extension JoryioEngine {
    /// A drain job: reads what is there, stores it with its position, and looks again after
    /// `environment.journalLinger` while records keep coming; idle (the next append wakes it) once none came.
    func drainJournalPass() {
        guard let journal = self.journal else { return }
        // The pass commits once at its end rather than through a separate commit job.
        let scheduled = self.state.withValue { state -> Bool in
            defer { state.pending.commitScheduled = true }
            return state.pending.commitScheduled
        }
        let drained = self.drainJournal()
        if !scheduled {
            self.commit()
            self.publish()
        }
        switch journal.finishPass(at: self.state.value.journal.read, drained: drained) {
        case .again:
            self.environment.scheduler.enqueue { [self] in self.drainJournalPass() }
        case .linger:
            self.environment.scheduler.schedule(after: self.environment.journalLinger) { [self] in
                self.drainJournalPass()
            }
        case .idle:
            break
        }
    }

    /// Reads every record made before the oldest queued call (and everything an earlier launch
    /// left), through the event pipeline. Returns whether any record was read.
    @discardableResult
    func drainJournal() -> Bool {
        guard let journal = self.journal else { return false }
        let start = self.state.value.journal.read
        let (next, corrupted) = journal.visit(from: start, replayUntil: journal.recovered) { body, after in
            // Set first: a group commit inside this record's pipeline stores the position with it.
            self.state.value.journal.read = after
            guard let call = JournalTrackRecord(body) else {
                self.logger.error("dropped a journal record that does not decode (\(body.count) bytes)")
                return
            }
            self.track(call)
        }
        self.state.value.journal.read = next
        if corrupted {
            self.logger.error("the event journal was changed outside the SDK; the records it held are lost")
        }
        return next != start
    }

    /// One journaled `track()`: the same pipeline as ``track(name:encodedProperties:timestamp:)``,
    /// with the stored payload spliced from the record's bytes when no plugin needs the values.
    private func track(_ call: JournalTrackRecord) {
        // The record's name is decoded only for a plugin, or for the debug line of a dropped event.
        guard self.collectsEvents(named: call.nameString) else { return }
        guard self.state.value.plugins.isEmpty else {
            self.track(name: call.nameString, encodedProperties: Array(call.properties), timestamp: call.timestamp)
            return
        }
        let identity = self.state.value.identity
        let messageId = self.environment.identifiers.next()
        let sessionId = self.touchSession(at: call.timestamp)
        self.enqueue(
            payload: EventRecordEncoder.encode(
                EventRecordEncoder.Fragments(
                    name: call.name,
                    properties: call.properties,
                    timestamp: call.timestampText
                ),
                messageId: messageId,
                anonymousId: identity.anonymousId,
                userId: identity.userId,
                sessionId: sessionId,
                deviceId: identity.deviceId
            )
        )
        self.announce(call.nameString)
    }

    /// At start: the records an earlier launch appended and did not store, in their order.
    func replayJournal() {
        guard let journal = self.journal, journal.recoveredCount > 0 else { return }
        self.state.value.replaying = true
        self.drainJournal()
        self.state.value.replaying = false
        self.logger.info(
            "replayed \(journal.recoveredCount) events an earlier launch tracked but had not stored yet"
        )
    }
}
