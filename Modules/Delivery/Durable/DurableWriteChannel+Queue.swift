import Foundation
import JoryioCore

/// The writes in memory and in the store: loading, adding, replacing, evicting, deleting.
extension DurableWriteChannel {
    /// Reads every stored write into memory, oldest first, then starts sending.
    ///
    /// Records that do not decode are logged and deleted. If the store cannot be read, the failure
    /// is logged and the channel runs with what it has in memory; the stored writes stay in the
    /// store for the next launch.
    package func load() {
        let records: [QueueRecord]
        do {
            // Records whose delete failed earlier in this launch are done with: never loaded again.
            records = try self.store.peek(limit: Int(Int32.max), maxBytes: Int.max).filter {
                !self.pendingDeletes.contains($0.id)
            }
        } catch {
            self.dependencies.logger.error("cannot read stored durable writes: \(error)")
            self.state.withLock { $0.loaded = true }
            self.sendIfDue()
            return
        }
        var undecodable: [Int64] = []
        let evicted = self.state.withLock { state -> [Entry] in
            let known = Dictionary(
                state.entries.compactMap { entry in entry.recordId.map { ($0, entry) } },
                uniquingKeysWith: { first, _ in first }
            )
            var loaded: [Entry] = []
            var ids = Set<String>()
            for record in records {
                if let entry = known[record.id]
                    ?? DurableWriteCodec.decode(record.payload).map({ Entry(write: $0, recordId: record.id) })
                {
                    if ids.insert(entry.write.id).inserted { loaded.append(entry) }
                } else {
                    undecodable.append(record.id)
                }
            }
            let stored = Set(records.map(\.id))
            for entry in state.entries where entry.recordId.map({ !stored.contains($0) }) ?? true {
                if ids.insert(entry.write.id).inserted { loaded.append(entry) }
            }
            state.entries = loaded
            state.loaded = true
            return Self.evict(from: &state, toFit: self.settings.maxWrites)
        }
        if !undecodable.isEmpty {
            self.dependencies.logger.error("deleted \(undecodable.count) stored durable writes that cannot be read")
            self.deleteRecords(undecodable)
        }
        self.dropEvicted(evicted)
        self.dependencies.logger.debug("loaded \(records.count - undecodable.count) durable writes")
        self.sendIfDue()
    }

    /// Stores `write`, replacing a waiting write with the same ``DurableWrite/replacementKey``
    /// (DURABLE-4) and evicting beyond ``Settings/maxWrites`` (DURABLE-11), then starts sending.
    ///
    /// The write is in the store when this returns, unless the store failed: then it is logged and
    /// kept in memory for this launch.
    package func enqueue(_ write: DurableWrite) {
        let logger = self.dependencies.logger
        let key = write.replacementKey
        let alreadyWaiting =
            write.kind.replacement.keepsWaiting
            && self.state.withLock { state in
                state.entries.contains { $0.write.id != state.inFlight && $0.write.replacementKey == key }
            }
        if alreadyWaiting {
            logger.debug("the same \(write.kind.name) write already waits; it keeps its place")
            return
        }
        let victims = self.state.withLock { state -> (replaced: Entry?, evicted: [Entry])? in
            guard !state.entries.contains(where: { $0.write.id == write.id }) else { return nil }
            var replaced: Entry?
            // A sign-up never replaces a waiting withdrawal: both go, in order, so an opt-out or a
            // denial that drops the sign-up still delivers the withdrawal (DURABLE-12, SUB-6).
            if let index = state.entries.firstIndex(where: {
                $0.write.id != state.inFlight && $0.write.replacementKey == key
                    && (write.isWithdrawal || !$0.write.isWithdrawal)
            }) {
                replaced = state.entries.remove(at: index)
            }
            return (replaced, Self.evict(from: &state, toFit: self.settings.maxWrites - 1))
        }
        guard let victims else {
            logger.warning("ignored a durable write whose id is already queued")
            return
        }
        var recordId: Int64?
        do {
            let result = try self.store.append([DurableWriteCodec.encode(write)])
            recordId = result.ids.first
            if result.evicted > 0 {
                logger.error(
                    "the durable-write store evicted \(result.evicted) records by itself; its capacity is below maxWrites"
                )
            }
        } catch {
            logger.error("cannot store a durable write; it is kept in memory for this launch: \(error)")
        }
        self.state.withLock { $0.entries.append(Entry(write: write, recordId: recordId)) }
        if let replaced = victims.replaced {
            logger.debug("a newer \(replaced.write.kind.name) write replaced one still waiting")
            self.deleteRecords(replaced.recordId.map { [$0] } ?? [])
        }
        self.dropEvicted(victims.evicted)
        self.sendIfDue()
    }

    /// Opt-out, consent denied or `wipeData()`: deletes every waiting write that collects data
    /// (identify, alias, subscribe/join); a non-withdrawal on the wire is not retried whatever its
    /// outcome. Withdrawals are kept and delivered (DURABLE-12, OPTOUT-4).
    package func discardCollected() {
        let (dropped, stopWaiting) = self.state.withLock { state -> ([Entry], Bool) in
            let dropped = state.entries.filter { !$0.write.isWithdrawal }
            state.entries.removeAll { !$0.write.isWithdrawal }
            if let waiting = state.waitingForEvents, !state.entries.contains(where: { $0.write.id == waiting }) {
                state.waitingForEvents = nil
                return (dropped, true)
            }
            return (dropped, false)
        }
        if stopWaiting { self.eventsWaitTimer.cancel() }
        if !dropped.isEmpty {
            self.dependencies.logger.info("dropped \(dropped.count) pending identify, alias and subscription writes")
            self.deleteRecords(dropped.compactMap(\.recordId))
        }
        self.sendIfDue()
    }

    // MARK: - Helpers

    /// Removes the oldest evictable entries until at most `limit` remain: the oldest non-withdrawal
    /// first, the oldest withdrawal when only withdrawals remain; never the one on the wire.
    static func evict(from state: inout State, toFit limit: Int) -> [Entry] {
        var evicted: [Entry] = []
        while state.entries.count > max(0, limit) {
            let inFlight = state.inFlight
            guard
                let index = state.entries.firstIndex(where: { !$0.write.isWithdrawal && $0.write.id != inFlight })
                    ?? state.entries.firstIndex(where: { $0.write.id != inFlight })
            else { break }
            evicted.append(state.entries.remove(at: index))
        }
        return evicted
    }

    /// Logs each evicted write and deletes them from the store.
    func dropEvicted(_ evicted: [Entry]) {
        guard !evicted.isEmpty else { return }
        for entry in evicted {
            if entry.write.isWithdrawal {
                self.dependencies.logger.error(
                    "the durable-write queue is full of withdrawals; evicted the oldest \(entry.write.kind.name) write"
                )
            } else {
                self.dependencies.logger.warning(
                    "the durable-write queue is full; evicted the oldest \(entry.write.kind.name) write"
                )
            }
        }
        self.deleteRecords(evicted.compactMap(\.recordId))
    }

    /// Deletes records from the store. When the store fails (a full disk), ``pendingDeletes``
    /// retries with backoff and logs once; only a restart before that works loads and resends them
    /// (the server applies a `writeId` once).
    func deleteRecords(_ ids: [Int64]) {
        guard !ids.isEmpty else { return }
        self.pendingDeletes.delete(ids: ids)
    }

    /// Adds a failure to the write's counter and returns the new count.
    func count(_ write: DurableWrite, notFound: Bool) -> Int {
        self.state.withLock { state in
            guard let index = state.entries.firstIndex(where: { $0.write.id == write.id }) else { return 0 }
            if notFound {
                state.entries[index].notFoundFailures += 1
                return state.entries[index].notFoundFailures
            }
            state.entries[index].countedFailures += 1
            return state.entries[index].countedFailures
        }
    }

    /// Removes the write from memory and the store.
    func remove(_ write: DurableWrite) {
        let entry = self.state.withLock { state -> Entry? in
            guard let index = state.entries.firstIndex(where: { $0.write.id == write.id }) else { return nil }
            return state.entries.remove(at: index)
        }
        if let recordId = entry?.recordId {
            self.deleteRecords([recordId])
        }
    }

    /// A write that failed is not retried when a newer write with the same key waits behind it
    /// (DURABLE-4): the newer one carries the change. Returns whether it was removed.
    @discardableResult
    func removeIfSuperseded(_ write: DurableWrite) -> Bool {
        let key = write.replacementKey
        let superseded = self.state.withLock { state in
            // As in enqueue: only a withdrawal supersedes a failed withdrawal.
            state.entries.contains {
                $0.write.id != write.id && $0.write.replacementKey == key
                    && ($0.write.isWithdrawal || !write.isWithdrawal)
            } && state.entries.contains { $0.write.id == write.id }
        }
        if superseded {
            self.dependencies.logger.debug(
                "a failed \(write.kind.name) write is superseded by a newer one; not retried"
            )
            self.remove(write)
        }
        return superseded
    }
}
