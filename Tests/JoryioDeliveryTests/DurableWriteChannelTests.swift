import Foundation
import JoryioCore
import JoryioDelivery
import JoryioStorage
import JoryioTesting
import Testing

/// Order, replacement, identity, privacy gating, restart, eviction and storage faults.
@Suite struct DurableWriteChannelTests {
    private let identify = DurableWrite.Kind.identify
    private let alias = DurableWrite.Kind.alias(label: "crm_id", name: "C-1")
    private let subscribe = DurableWrite.Kind.subscription(channel: "email", status: "subscribed")
    private let unsubscribe = DurableWrite.Kind.subscription(channel: "email", status: "unsubscribed")

    @Test("identify → alias → subscribe go out in order, one request at a time")
    func orderOneAtATime() throws {
        let rig = DurableRig()
        rig.channel.enqueue(write("w1", self.identify, user: "u1"))
        rig.channel.enqueue(write("w2", self.alias, user: "u1"))
        rig.channel.enqueue(write("w3", self.subscribe, user: "u1"))
        rig.scheduler.runUntilIdle()
        #expect(rig.sentIds == ["w1"])
        #expect(rig.transport.inFlight == 1)
        #expect(try rig.storedIds() == ["w1", "w2", "w3"])

        rig.answer(.ok)
        #expect(rig.sentIds == ["w1", "w2"])
        #expect(rig.transport.inFlight == 1)
        #expect(try rig.storedIds() == ["w2", "w3"])

        rig.channel.trigger()  // a trigger while busy never starts a second request
        #expect(rig.transport.inFlight == 1)
        rig.answer(.ok)
        rig.answer(.ok)
        #expect(rig.paths == ["/v1/identify", "/v1/alias", "/v1/subscriptions"])
        #expect(try rig.storedIds().isEmpty)
        #expect(rig.channel.pendingCount == 0)
        #expect(rig.results.value == [nil, nil, nil])
        let last = try #require(rig.transport.requests.last)
        #expect(
            String(decoding: last.body ?? Data(), as: UTF8.self)
                == #"{"anonymousId":"anon-1","channel":"email","sentAt":"2026-01-01T00:00:00.000Z","status":"subscribed","timestamp":"2026-01-01T00:00:00.250Z","userId":"u1","writeId":"w3"}"#
        )
    }

    @Test("nothing is sent before load(); the stored writes of earlier launches go first")
    func loadGatesSending() throws {
        let store = InMemoryQueueStore()
        try store.append([DurableWriteCodec.encode(write("old", self.identify, user: "u0"))])
        let rig = DurableRig(store: store, load: false)
        rig.channel.enqueue(write("new", self.alias, user: "u0"))
        #expect(rig.transport.requests.isEmpty)
        rig.channel.load()
        #expect(rig.channel.pending.map(\.id) == ["old", "new"])
        rig.drain()
        #expect(rig.sentIds == ["old", "new"])
        #expect(try store.count() == 0)
    }

    @Test("DURABLE-4: a newer write replaces the waiting one with the same key, never the one in flight")
    func replacement() throws {
        let rig = DurableRig()
        rig.channel.enqueue(write("w1", self.subscribe))
        rig.channel.enqueue(write("w2", self.subscribe))
        rig.channel.enqueue(write("w3", self.identify, user: "u1"))
        rig.channel.enqueue(write("w4", self.unsubscribe))
        #expect(rig.channel.pending.map(\.id) == ["w1", "w3", "w4"], "w1 is on the wire; w4 replaces w2")
        #expect(try rig.storedIds() == ["w1", "w3", "w4"])
        // A sign-up never replaces a waiting withdrawal: a denial may still drop the sign-up.
        rig.channel.enqueue(write("w5", self.subscribe))
        #expect(rig.channel.pending.map(\.id) == ["w1", "w3", "w4", "w5"])
        // Another person's change to the same channel is not a replacement.
        rig.channel.enqueue(write("w6", self.subscribe, user: "u2"))
        #expect(rig.channel.pending.map(\.id) == ["w1", "w3", "w4", "w5", "w6"])
        rig.drain()
        #expect(rig.sentIds == ["w1", "w3", "w4", "w5", "w6"])
    }

    @Test("DURABLE-4: a write that fails while a newer one with its key waits is not retried")
    func supersededRetry() throws {
        let rig = DurableRig()
        rig.channel.enqueue(write("w1", self.subscribe))
        rig.channel.enqueue(write("w2", self.unsubscribe))
        #expect(rig.channel.pending.map(\.id) == ["w1", "w2"])
        rig.answer(.json(503, ""))
        #expect(rig.channel.pending.map(\.id) == ["w2"])
        #expect(try rig.storedIds() == ["w2"])
        rig.scheduler.advance(by: 1)
        rig.drain()
        #expect(rig.sentIds == ["w1", "w2"])
    }

    // IDENT-18: the same rule, stated for identity (alias w2 made by an earlier anonymous id stays anonymous).
    @Test("DURABLE-5: an anonymous write goes out with the user id when its anonymous id is still current")
    func identityUpgrade() throws {
        let rig = DurableRig(load: false)
        rig.identity.withLock { $0 = ("u1", "anon-1") }
        rig.channel.enqueue(write("w1", self.subscribe, user: nil, anon: "anon-1"))
        rig.channel.enqueue(write("w2", self.alias, user: nil, anon: "anon-0"))
        rig.channel.enqueue(write("w3", .optOutRecord(optedOut: true), user: "u0", anon: "anon-1"))
        rig.channel.load()
        rig.drain()
        let bodies = rig.transport.requests.map(DurableRig.body)
        #expect(bodies.count == 3)
        #expect(bodies[0]["userId"] == "u1")
        #expect(bodies[0]["anonymousId"] == "anon-1")
        // Made with another anonymous id (reset since): sent as made, with no user id.
        #expect(bodies[1]["userId"] == nil)
        #expect(bodies[1]["anonymousId"] == "anon-0")
        // Made by another user: never re-attributed.
        #expect(bodies[2]["userId"] == "u0")
        #expect(bodies[2]["anonymousId"] == "anon-1")
        // The stored write keeps the ids it was made with.
        #expect(
            DurableWriteChannel.sendingIds(
                for: write("x", self.identify, user: nil, anon: "anon-1"),
                current: (nil, "anon-1")
            ) == (nil, "anon-1")
        )
    }

    @Test("SUB-4: collection not allowed: only withdrawals go; allowing sends the held writes in order")
    func collectionGate() throws {
        let rig = DurableRig(collectionAllowed: false)
        rig.channel.enqueue(write("w1", self.identify, user: "u1"))
        rig.channel.enqueue(write("w2", self.unsubscribe))
        rig.channel.enqueue(write("w3", self.alias))
        rig.channel.enqueue(write("w4", .optOutRecord(optedOut: true)))
        rig.channel.enqueue(write("w5", .subscriptionGroup(channel: "sms", groupId: "g1", join: true)))
        rig.drain()
        #expect(rig.sentIds == ["w2", "w4"])
        #expect(rig.channel.pending.map(\.id) == ["w1", "w3", "w5"])
        rig.scheduler.advance(by: 3600)
        #expect(rig.transport.requests.count == 2)

        rig.channel.setCollectionAllowed(true)
        rig.drain()
        #expect(rig.sentIds == ["w2", "w4", "w1", "w3", "w5"])
        #expect(try rig.storedIds().isEmpty)
    }

    @Test("discardCollected keeps withdrawals and neutralises a non-withdrawal in flight")
    func discardCollected() throws {
        let rig = DurableRig()
        rig.channel.enqueue(write("w1", self.subscribe))
        rig.channel.enqueue(write("w2", self.identify, user: "u1"))
        rig.channel.enqueue(write("w3", .pushUnregister(token: "t")))
        rig.channel.enqueue(write("w4", .subscriptionGroup(channel: "sms", groupId: "g", join: false)))
        rig.channel.enqueue(write("w5", self.alias))
        #expect(rig.sentIds == ["w1"])

        rig.channel.setCollectionAllowed(false)
        rig.channel.discardCollected()
        #expect(rig.channel.pending.map(\.id) == ["w3", "w4"])
        #expect(try rig.storedIds() == ["w3", "w4"])
        #expect(rig.messages(.info).contains("dropped 3 pending identify, alias and subscription writes"))

        // The write on the wire fails in a way that would normally be retried: it is not.
        rig.answer(.json(503, ""))
        rig.scheduler.advance(by: 1)
        #expect(rig.sentIds == ["w1", "w3"])
        rig.drain()
        rig.scheduler.advance(by: 3600)
        #expect(rig.sentIds == ["w1", "w3", "w4"])
        #expect(try rig.storedIds().isEmpty)
        #expect(rig.transport.inFlight == 0)
    }

    // IDENT-3: restart: writes in a SQLite store are loaded and sent in order by a new channel
    // DURABLE-2 / SUB-5: kept until confirmed, across a restart.
    @Test("restart: writes in a SQLite store are loaded and sent in order by a new channel")
    func restartFromSQLite() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("joryio-durable-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("durable.sqlite")
        let made = [
            write("w1", self.identify, user: "u1", at: Date(timeIntervalSince1970: 1_767_225_000.001)),
            write("w2", self.alias, user: "u1"),
            write("w3", self.unsubscribe, user: "u1"),
        ]

        let first = try SQLiteDatabase(fileURL: url, clock: ManualClock(), logger: .disabled)
        let before = DurableRig(store: SQLiteQueueStore(database: first, queue: "durable", capacity: 2000))
        for item in made { before.channel.enqueue(item) }
        before.answer(.failure(TransportError(.cannotConnect, "offline")))
        #expect(before.sentIds == ["w1"])
        first.close()

        let second = try SQLiteDatabase(fileURL: url, clock: ManualClock(), logger: .disabled)
        defer { second.close() }
        let store = SQLiteQueueStore(database: second, queue: "durable", capacity: 2000)
        let after = DurableRig(store: store)
        #expect(after.channel.pending == made)
        after.drain()
        #expect(after.sentIds == ["w1", "w2", "w3"])
        #expect(after.paths == ["/v1/identify", "/v1/alias", "/v1/subscriptions"])
        #expect(
            DurableRig.body(after.transport.requests[0])["timestamp"]
                == .string(JSONTimestamp.string(from: made[0].timestamp))
        )
        #expect(try store.count() == 0)
    }

    @Test("DURABLE-11: at 1,000 waiting writes the oldest non-withdrawal is evicted")
    func evictionAtCapacity() throws {
        let rig = DurableRig(load: false)
        rig.channel.enqueue(write("keep", self.unsubscribe))
        for index in 1..<1000 {
            rig.channel.enqueue(write("a\(index)", .alias(label: "l\(index)", name: "n")))
        }
        #expect(rig.channel.pendingCount == 1000)
        #expect(rig.messages(.warning).isEmpty)
        rig.channel.enqueue(write("a1000", .alias(label: "l1000", name: "n")))
        #expect(rig.channel.pendingCount == 1000)
        let ids = rig.channel.pending.map(\.id)
        #expect(ids.prefix(3) == ["keep", "a2", "a3"])
        #expect(ids.last == "a1000")
        let stored = try rig.storedIds()
        #expect(stored.count == 1000)
        #expect(stored.prefix(2) == ["keep", "a2"])
        #expect(rig.messages(.warning) == ["the durable-write queue is full; evicted the oldest alias write"])
    }

    @Test("when only withdrawals wait, the oldest withdrawal is evicted and logged as an error")
    func evictionOfWithdrawals() throws {
        let rig = DurableRig(maxWrites: 3, load: false)
        for channel in ["email", "sms", "push", "viber"] {
            rig.channel.enqueue(write(channel, .subscription(channel: channel, status: "unsubscribed")))
        }
        #expect(rig.channel.pending.map(\.id) == ["sms", "push", "viber"])
        #expect(try rig.storedIds() == ["sms", "push", "viber"])
        #expect(
            rig.messages(.error) == [
                "the durable-write queue is full of withdrawals; evicted the oldest unsubscribe write"
            ]
        )
    }

    @Test("eviction never takes the write on the wire; a repeated write id is ignored")
    func evictionSkipsInFlight() throws {
        let rig = DurableRig(maxWrites: 2)
        rig.channel.enqueue(write("w1", self.identify, user: "u1"))
        rig.channel.enqueue(write("w2", self.alias, user: "u1"))
        rig.channel.enqueue(write("w3", self.subscribe, user: "u1"))
        #expect(rig.sentIds == ["w1"])
        #expect(rig.channel.pending.map(\.id) == ["w1", "w3"])
        rig.channel.enqueue(write("w3", self.unsubscribe, user: "u1"))
        #expect(rig.channel.pending.map(\.id) == ["w1", "w3"])
        #expect(rig.messages(.warning).last == "ignored a durable write whose id is already queued")
        rig.drain()
        #expect(rig.sentIds == ["w1", "w3"])
        #expect(try rig.storedIds().isEmpty)
    }

    @Test("a store that throws: logged, kept in memory and sent, never a crash")
    func faultyStore() throws {
        let store = FaultyStore()
        try store.inner.append([DurableWriteCodec.encode(write("old", self.identify, user: "u1"))])
        store.faults.withLock { $0.peek = true }
        let rig = DurableRig(store: store)
        #expect(rig.messages(.error).contains { $0.hasPrefix("cannot read stored durable writes") })

        store.faults.withLock { $0 = FaultyStore.Faults(append: true, peek: false, remove: true) }
        rig.channel.enqueue(write("w1", self.alias, user: "u1"))
        #expect(rig.messages(.error).contains { $0.hasPrefix("cannot store a durable write; it is kept in memory") })
        #expect(rig.channel.pending.map(\.id) == ["w1"])
        #expect(rig.sentIds == ["w1"])
        rig.answer(.ok)
        #expect(rig.channel.pendingCount == 0)

        store.faults.withLock { $0.append = false }
        rig.channel.enqueue(write("w2", self.unsubscribe, user: "u1"))
        rig.answer(.ok)
        #expect(rig.sentIds == ["w1", "w2"])
        #expect(rig.messages(.error).contains { $0.hasPrefix("cannot delete 1 durable writes") })
        // Still stored (the store refused the delete) so a restart resends it; "old" was never lost.
        #expect(
            try store.inner.peek(limit: 10, maxBytes: .max).compactMap { DurableWriteCodec.decode($0.payload)?.id } == [
                "old", "w2",
            ]
        )
    }

    @Test(
        "writes delivered while deletes fail (a full disk): logged once, deleted with backoff, not resent after a restart"
    )
    func deletesFailAfterDelivery() throws {
        let store = FaultyStore()
        let rig = DurableRig(store: store)
        store.faults.withLock { $0.remove = true }
        rig.channel.enqueue(write("w1", self.identify, user: "u1"))
        rig.channel.enqueue(write("w2", self.alias, user: "u1"))
        rig.channel.enqueue(write("w3", self.subscribe, user: "u1"))
        rig.drain()
        #expect(rig.sentIds == ["w1", "w2", "w3"])
        #expect(rig.channel.pendingCount == 0)
        #expect(try store.inner.count() == 3)
        rig.scheduler.advance(by: 30)
        #expect(rig.messages(.error).filter { $0.hasPrefix("cannot delete") }.count == 1)

        // Space is back: the next retry (at most a minute away) deletes them.
        store.faults.withLock { $0.remove = false }
        rig.scheduler.advance(by: 60)
        #expect(try store.inner.count() == 0)
        #expect(rig.messages(.info).contains { $0.hasSuffix("storage works again") })
        #expect(rig.sentIds == ["w1", "w2", "w3"])

        // A restart finds nothing to resend.
        let restarted = DurableRig(store: store)
        restarted.scheduler.runUntilIdle()
        #expect(restarted.sentIds.isEmpty)
    }

    @Test("undecodable stored records are deleted and logged; the rest are sent")
    func undecodableRecord() throws {
        let store = InMemoryQueueStore()
        try store.append([Data("garbage".utf8), DurableWriteCodec.encode(write("w1", self.identify, user: "u1"))])
        let rig = DurableRig(store: store)
        #expect(rig.messages(.error) == ["deleted 1 stored durable writes that cannot be read"])
        rig.drain()
        #expect(rig.sentIds == ["w1"])
        #expect(try store.count() == 0)
    }
}
