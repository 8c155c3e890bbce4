import Foundation
import Joryio
import JoryioCore
import JoryioStorage
import JoryioTestLanes
import JoryioTesting
import Testing

/// A really full disk (issue 12, defect 3): a small tmpfs filled to the last byte under real SQLite,
/// and under the whole SDK against the sandbox over libcurl. Mounting needs root, so the suite is in
/// the sandbox lane and is skipped, with the reason, where `mount(2)` is not allowed.
@Suite(
    "A full disk (tmpfs)",
    .tags(.sandbox, .tmpfs),
    .enabled(if: TmpfsMount.isAvailable, TmpfsMount.skipComment),
    .serialized
)
struct SandboxFullDiskTests {
    private static func payload(_ index: Int) -> Data {
        Data((0..<500).map { UInt8(truncatingIfNeeded: index &* 31 &+ $0) })
    }

    private static func walSize(_ database: SQLiteDatabase) -> Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: database.fileURL.path + "-wal")
        return (attributes?[.size] as? NSNumber)?.intValue ?? 0
    }

    @Test(
        "a delete on a disk the write-ahead log filled: the log is checkpointed and truncated, and the delete goes through"
    )
    func writeAheadLogFillsTheDisk() throws {
        let disk = try TmpfsMount(bytes: 8 << 20)
        defer { disk.unmount() }
        let logs = InMemoryLogSink()
        let database = try SQLiteDatabase(
            fileURL: disk.directory.appendingPathComponent("queue.sqlite"),
            clock: ManualClock(),
            logger: logs.logger()
        )
        defer { database.close() }
        let store = SQLiteQueueStore(database: database, queue: "events", capacity: 100_000)

        // 600 records, the newer half deleted again: the file keeps free pages, so the writes below
        // need no new ones in the database, only frames in the write-ahead log.
        let ids = try store.append((0..<600).map(Self.payload)).ids
        try store.remove(ids: Array(ids[300...]))
        #expect(database.truncateWriteAheadLog())
        #expect(Self.walSize(database) == 0)
        // One record out, one in, 150 times: each a transaction of its own, so the log grows to
        // about 4 MB, short of the automatic checkpoint (1,000 pages).
        var oldest = ids[0..<300]
        for index in 0..<150 {
            try store.remove(ids: [oldest.removeFirst()])
            try store.append([Self.payload(600 + index)])
        }
        #expect(Self.walSize(database) > 3 << 20)
        #expect(try store.count() == 300)

        try disk.fill()
        #expect(disk.freeBytes == 0)
        try store.remove(ids: Array(oldest.prefix(10)))

        #expect(try store.count() == 290)
        #expect(database.recoveredFromFull == 1)
        #expect(Self.walSize(database) < 1 << 20, "the log was truncated")
        #expect(logs.records(at: .warning).map(\.message).contains { $0.contains("truncating") })
    }

    @Test("the database must grow and cannot: the delete fails with .full, once, and works when space returns")
    func databaseCannotGrow() throws {
        let disk = try TmpfsMount(bytes: 8 << 20)
        defer { disk.unmount() }
        let database = try SQLiteDatabase(
            fileURL: disk.directory.appendingPathComponent("queue.sqlite"),
            clock: ManualClock(),
            logger: .disabled
        )
        defer { database.close() }
        let store = SQLiteQueueStore(database: database, queue: "events", capacity: 100_000)
        // Committed to the log only: copying it into the database needs new pages there.
        let ids = try store.append((0..<300).map(Self.payload)).ids
        let filler = try disk.fill()

        #expect {
            try store.remove(ids: Array(ids.prefix(50)))
        } throws: { error in
            (error as? StorageError)?.code == .full
        }
        #expect(try store.count() == 300)
        #expect(database.recoveredFromFull == 0)

        try FileManager.default.removeItem(at: filler)
        #expect(disk.freeBytes > 4 << 20, "the filler's space came back")
        try store.remove(ids: Array(ids.prefix(50)))
        #expect(try store.count() == 250)
    }

    /// One `Item Viewed` event per index in `range`, with `properties.i` = the index.
    private func track(_ sdk: SandboxSDK, _ range: Range<Int>) {
        for i in range {
            sdk.joryio.track("Item Viewed", properties: ["i": i])
        }
    }

    @Test(
        "the SDK on a full disk: every event reaches the sandbox once, nothing resent, the queue drains when space returns"
    )
    func sdkOnAFullDisk() async throws {
        let disk = try TmpfsMount(bytes: 16 << 20)
        defer { disk.unmount() }
        let rig = try await SandboxRig(directory: disk.directory)
        defer { rig.tearDown() }
        let sdk = rig.launch(JoryioConfig(batchSize: 50, maxQueueSize: 10_000))

        // 200 events stored; the first batch is on the wire when the disk fills.
        self.track(sdk, 0..<200)
        rig.time.runUntilIdle()
        let filler = try disk.fill()
        self.track(sdk, 200..<220)
        sdk.joryio.flush()
        await rig.settle(sdk, virtualLimit: 30)

        let whileFull = try await rig.sandbox.eventRequests()
        #expect(whileFull.count == 4, "\(whileFull.count) requests while the disk was full")
        let sentWhileFull = whileFull.flatMap(\.messageIDs)
        #expect(sentWhileFull.count == 200)
        #expect(Set(sentWhileFull).count == sentWhileFull.count, "a delivered event was sent again")
        #expect(sdk.joryio.getQueueSize() == 220)
        let deleteErrors = sdk.messages(atLeast: .error).filter { $0.contains("cannot delete") }
        #expect(deleteErrors.count == 1, "\(deleteErrors)")

        // Space is back: the 20 kept in memory are stored and sent, the 200 delivered are deleted.
        try FileManager.default.removeItem(at: filler)
        #expect(await rig.drive(sdk, virtualLimit: 120) { sdk.isDrained })

        let events = try await rig.sandbox.events()
        let ids = events.compactMap { $0["messageId"] as? String }
        #expect(Set(ids).count == ids.count, "a messageId stored twice")
        let indices = events.compactMap { ($0["properties"] as? [String: Any])?["i"] as? Int }
        #expect(indices.sorted() == Array(0..<220))
        #expect(try await rig.sandbox.eventRequests().count == 5)
        #expect(sdk.messages(atLeast: .info).contains { $0.contains("storage works again") })
    }
}
