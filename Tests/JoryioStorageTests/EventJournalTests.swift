import Foundation
import JoryioCore
import JoryioStorage
import JoryioTesting
import Testing

/// The memory-mapped event journal, over real files in temporary directories: record layout,
/// fences, recovery after a kill, wrap-around, damaged files, back-pressure and the drain handshake.
@Suite("EventJournal")
struct EventJournalTests {
    private let capacity = EventJournal.minimumCapacity

    // MARK: - Appending and visiting

    @Test("a stored position beyond 2^62 (only a damaged file has one) starts a new journal instead of trapping")
    func hugeSequence() throws {
        try withTemporaryDirectory { directory in
            let url = journalURL(in: directory)
            for sequence in [UInt64.max, UInt64.max - 1, JournalPosition.maximumSequence + 1] {
                let journal = try openJournal(url, committed: JournalPosition(offset: 0, sequence: sequence))
                #expect(journal.committed == .origin)
                #expect(journal.append(Data("x".utf8)) == .appended(wake: true))
                #expect(journal.readAll(from: journal.committed).bodies == [Data("x".utf8)])
                journal.relinquish()
            }
            #expect(JournalPosition(mark: "0/\(UInt64.max)") == nil)
            #expect(JournalPosition(mark: "0/\(JournalPosition.maximumSequence)") != nil)
        }
    }

    @Test("appended records are visited in order, each with the position after it")
    func appendThenVisit() throws {
        try withTemporaryDirectory { directory in
            let journal = try openJournal(journalURL(in: directory), committed: nil)
            #expect(journal.capacity == self.capacity)
            #expect(journal.committed == .origin)
            #expect(journal.recovered == .origin)
            #expect(journal.recoveredCount == 0)
            #expect(journal.usedBytes == 0)

            let sizes = [0, 1, 7, 8, 9, 100, 1_000]
            let bodies = sizes.enumerated().map { journalBody($0.offset, size: $0.element) }
            for body in bodies {
                #expect(journal.append(body).isAppended)
            }
            var offset = 0
            var expected: [JournalPosition] = []
            for (index, size) in sizes.enumerated() {
                offset += journalRecordSize(size)
                expected.append(JournalPosition(offset: offset, sequence: UInt64(index + 2)))
            }
            #expect(journal.usedBytes == offset)

            let visited = journal.readAll(from: .origin)
            #expect(visited.bodies == bodies)
            #expect(visited.nexts == expected)
            #expect(visited.next == expected.last)
            #expect(!visited.corrupted)

            // From the middle: only what follows; from the tail: nothing.
            let suffix = journal.readAll(from: expected[2])
            #expect(suffix.bodies == Array(bodies[3...]))
            let none = journal.readAll(from: expected[expected.count - 1])
            #expect(none.bodies.isEmpty)
            #expect(none.next == expected.last)
        }
    }

    @Test("records at or after the oldest pushed fence wait for popFence, in fence order")
    func fences() throws {
        try withTemporaryDirectory { directory in
            let journal = try openJournal(journalURL(in: directory), committed: nil)
            journal.append(journalBody(1, size: 10), fence: 1)
            journal.append(journalBody(2, size: 10), fence: 2)
            journal.pushFence(3)
            journal.pushFence(6)
            for call in [4, 5, 7, 8] as [UInt64] {
                journal.append(journalBody(Int(call), size: 10), fence: call)
            }

            let first = journal.readAll(from: .origin)
            #expect(first.bodies == [journalBody(1, size: 10), journalBody(2, size: 10)])
            #expect(!first.corrupted)
            // Visiting again from where it stopped reads nothing while the fence stands.
            #expect(journal.readAll(from: first.next).bodies.isEmpty)
            #expect(journal.readAll(from: first.next).next == first.next)

            journal.popFence(3)
            let second = journal.readAll(from: first.next)
            #expect(second.bodies == [journalBody(4, size: 10), journalBody(5, size: 10)])

            journal.popFence(6)
            let third = journal.readAll(from: second.next)
            #expect(third.bodies == [journalBody(7, size: 10), journalBody(8, size: 10)])
            #expect(journal.finishPass(at: third.next, drained: true) == .linger)
        }
    }

    @Test("popping a later fence pops every earlier one: a call that never ran cannot hold records forever")
    func laterFencePopsEarlier() throws {
        try withTemporaryDirectory { directory in
            let journal = try openJournal(journalURL(in: directory), committed: nil)
            journal.pushFence(3)
            journal.pushFence(6)
            journal.append(journalBody(7, size: 10), fence: 7)
            #expect(journal.readAll(from: .origin).bodies.isEmpty)
            journal.popFence(6)
            #expect(journal.readAll(from: .origin).bodies == [journalBody(7, size: 10)])
        }
    }

    @Test("a record whose call sequence equals the fence waits for it")
    func fenceIsInclusive() throws {
        try withTemporaryDirectory { directory in
            let journal = try openJournal(journalURL(in: directory), committed: nil)
            journal.pushFence(5)
            journal.append(journalBody(4, size: 3), fence: 4)
            journal.append(journalBody(5, size: 3), fence: 5)
            #expect(journal.readAll(from: .origin).bodies == [journalBody(4, size: 3)])
            journal.popFence(5)
            #expect(journal.readAll(from: .origin).bodies == [journalBody(4, size: 3), journalBody(5, size: 3)])
        }
    }

    @Test("records before replayUntil are read whatever the fences")
    func replayIgnoresFences() throws {
        try withTemporaryDirectory { directory in
            let url = journalURL(in: directory)
            let first = try openJournal(url, committed: nil)
            let left = (0..<3).map { journalBody($0, size: 40) }
            for (index, body) in left.enumerated() {
                first.append(body, fence: UInt64(100 + index))
            }
            first.relinquish()

            let second = try openJournal(url, committed: first.committed)
            #expect(second.recoveredCount == 3)
            second.pushFence(1)
            second.append(journalBody(9, size: 40), fence: 200)
            let replay = second.readAll(from: second.committed, replayUntil: second.recovered)
            #expect(replay.bodies == left)
            #expect(replay.next == second.recovered)
            second.popFence(1)
            #expect(second.readAll(from: replay.next).bodies == [journalBody(9, size: 40)])

            // In one process too: replayUntil lets the records before it through a fence.
            let journal = try openJournal(directory.appendingPathComponent("other.journal"), committed: nil)
            for index in 0..<4 {
                journal.append(journalBody(index, size: 8), fence: UInt64(10 + index))
            }
            journal.pushFence(0)
            let all = (0..<4).map { journalBody($0, size: 8) }
            let until = JournalPosition(offset: 2 * journalRecordSize(8), sequence: 3)
            #expect(journal.readAll(from: .origin, replayUntil: until).bodies == Array(all[0..<2]))
            #expect(journal.readAll(from: .origin, replayUntil: .origin).bodies.isEmpty)
        }
    }

    // MARK: - Recovery after a kill

    @Test("a journal left unreleased by a killed instance is recovered whole, then only past a release")
    func recoveryAfterKill() throws {
        try withTemporaryDirectory { directory in
            let url = journalURL(in: directory)
            let count = 50
            let bodies = (0..<count).map { journalBody($0, size: ($0 * 37) % 500) }
            let first = try openJournal(url, committed: nil)
            for body in bodies {
                #expect(first.append(body).isAppended)
            }
            let written = first.readAll(from: .origin)
            #expect(written.bodies == bodies)
            // The kill: the descriptor (and the lock) goes, the records stay in the shared mapping.
            first.relinquish()
            #expect(first.append(journalBody(99, size: 1)) == .closed)

            let second = try openJournal(url, committed: first.committed)
            #expect(second.committed == .origin)
            #expect(second.recoveredCount == count)
            #expect(second.recovered == written.next)
            #expect(second.usedBytes == written.next.offset)
            let replay = second.readAll(from: second.committed)
            #expect(replay.bodies == bodies)
            #expect(replay.nexts == written.nexts)
            #expect(replay.next == second.recovered)

            // Appends continue after the recovered records, with the sequence going on.
            let more = (count..<(count + 5)).map { journalBody($0, size: 64) }
            for body in more {
                #expect(second.append(body).isAppended)
            }
            #expect(second.readAll(from: second.committed).bodies == bodies + more)

            // The engine stored the first 20: they are released, and a restart replays the rest only.
            let stored = written.nexts[19]
            second.release(to: stored)
            second.relinquish()
            let third = try openJournal(url, committed: stored)
            #expect(third.committed == stored)
            #expect(third.recoveredCount == count + 5 - 20)
            #expect(third.readAll(from: stored).bodies == Array(bodies[20...]) + more)
        }
    }

    @Test("the records outlive the instance that appended them (deinit without relinquish)")
    func recoveryAfterDeinit() throws {
        try withTemporaryDirectory { directory in
            let url = journalURL(in: directory)
            let bodies = (0..<10).map { journalBody($0, size: 100) }
            do {
                let first = try openJournal(url, committed: nil)
                for body in bodies {
                    first.append(body)
                }
            }
            let second = try openJournal(url, committed: .origin)
            #expect(second.recoveredCount == 10)
            #expect(second.readAll(from: .origin).bodies == bodies)
        }
    }

    @Test("without a stored position the file is cleared: nothing of it belongs to the database")
    func noCommittedClears() throws {
        try withTemporaryDirectory { directory in
            let url = journalURL(in: directory)
            let first = try openJournal(url, committed: nil)
            for index in 0..<10 {
                first.append(journalBody(index, size: 100))
            }
            first.relinquish()

            let second = try openJournal(url, committed: nil)
            #expect(second.recoveredCount == 0)
            #expect(second.committed == .origin)
            #expect(try readFile(url, offset: 0, count: 4_096) == Data(count: 4_096))
            second.relinquish()
            let third = try openJournal(url, committed: .origin)
            #expect(third.recoveredCount == 0)
        }
    }

    // MARK: - Wrap-around

    @Test(
        "many laps of varied records, with releases and reopens, never lose or repeat a record",
        arguments: [1, 2, 3] as [UInt64]
    )
    func wrapAround(seed: UInt64) throws {
        try withTemporaryDirectory { directory in
            var model = RingModel(capacity: self.capacity)
            try model.run(url: journalURL(in: directory), seed: seed, steps: 6_000)
            // Every edge of the layout was met, many laps over.
            #expect(model.laps >= 20, "seed \(seed)")
            #expect(model.exactFits > 0, "seed \(seed)")
            #expect(model.shortRemainders > 0, "seed \(seed)")
            #expect(model.wrapMarkers > 0, "seed \(seed)")
            #expect(model.skips > 0, "seed \(seed)")
            #expect(model.fulls > 0, "seed \(seed)")
            #expect(model.reopens > 10, "seed \(seed)")
        }
    }

    // MARK: - Damaged files

    /// Byte offsets inside a record: the length, the CRC, the sequence number, the call sequence,
    /// the first and the last byte of the body.
    static let damagedFields = [0, 3, 4, 8, 15, 16, 23, 24, 24 + 36]

    @Test("a damaged record ends the recovery: exactly the records before it come back", arguments: damagedFields)
    func damagedRecord(field: Int) throws {
        try withTemporaryDirectory { directory in
            let url = journalURL(in: directory)
            let bodies = (0..<10).map { journalBody($0, size: 37) }
            let first = try openJournal(url, committed: nil)
            for body in bodies {
                first.append(body)
            }
            let written = first.readAll(from: .origin)
            first.relinquish()

            let damaged = 4
            try flipByte(url, at: damaged * journalRecordSize(37) + field)
            let second = try openJournal(url, committed: .origin)
            #expect(second.recoveredCount == damaged)
            #expect(second.recovered == written.nexts[damaged - 1])
            #expect(second.readAll(from: .origin).bodies == Array(bodies[..<damaged]))
        }
    }

    @Test("padding after a body is not part of the record: changing it keeps the record")
    func damagedPadding() throws {
        try withTemporaryDirectory { directory in
            let url = journalURL(in: directory)
            let first = try openJournal(url, committed: nil)
            first.append(journalBody(0, size: 5))
            first.append(journalBody(1, size: 5))
            first.relinquish()
            try flipByte(url, at: 24 + 6)
            let second = try openJournal(url, committed: .origin)
            #expect(second.recoveredCount == 2)
        }
    }

    @Test("a torn last record is dropped and the next instance appends in its place", arguments: [0, 1, 2])
    func tornLastRecord(reopens: Int) throws {
        try withTemporaryDirectory { directory in
            let url = journalURL(in: directory)
            let bodies = (0..<6).map { journalBody($0, size: 200) }
            let first = try openJournal(url, committed: nil)
            for body in bodies {
                first.append(body)
            }
            let written = first.readAll(from: .origin)
            first.relinquish()
            // The kill came while the last body was being copied: its tail is not there.
            try writeFile(url, offset: 5 * journalRecordSize(200) + 24 + 150, Data(count: 50))

            var journal = try openJournal(url, committed: .origin)
            #expect(journal.recoveredCount == 5)
            #expect(journal.recovered == written.nexts[4])
            // Records of the same size land where the torn one and its successors would have.
            let more = (10..<13).map { journalBody($0, size: 200) }
            for body in more {
                #expect(journal.append(body).isAppended)
            }
            for _ in 0..<reopens {
                journal.relinquish()
                journal = try openJournal(url, committed: .origin)
                #expect(journal.recoveredCount == 8)
            }
            #expect(journal.readAll(from: .origin).bodies == Array(bodies[..<5]) + more)
        }
    }

    @Test("a file of random bytes with a stored position opens, recovers nothing, and works")
    func garbageFile() throws {
        try withTemporaryDirectory { directory in
            let url = journalURL(in: directory)
            var generator = SeededGenerator(seed: 7)
            try Data((0..<self.capacity).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: url)
            let committed = JournalPosition(offset: 4_096, sequence: 1_234)
            let journal = try openJournal(url, committed: committed)
            #expect(journal.capacity == self.capacity)
            #expect(journal.committed == committed)
            #expect(journal.recoveredCount == 0)
            #expect(journal.recovered == committed)
            try self.expectWorks(journal, at: url, from: committed)
        }
    }

    @Test(
        "a file of the wrong size with a stored position is replaced by a fresh journal",
        arguments: [0, 100, EventJournal.minimumCapacity - 8, EventJournal.minimumCapacity + 3]
    )
    func wrongSize(size: Int) throws {
        try withTemporaryDirectory { directory in
            let url = journalURL(in: directory)
            try Data(repeating: 0x5a, count: size).write(to: url)
            let journal = try openJournal(url, committed: JournalPosition(offset: 64, sequence: 42))
            #expect(journal.recoveredCount == 0)
            #expect(journal.committed == JournalPosition(offset: 0, sequence: 42))
            #expect(journal.capacity == self.capacity)
            #expect(try fileSize(url) == self.capacity)
            #expect(try readFile(url, offset: 0, count: 1_024) == Data(count: 1_024))
            try self.expectWorks(journal, at: url, from: journal.committed)
        }
    }

    @Test("a stored position beyond the ring starts at offset 0 and keeps its sequence")
    func committedBeyondCapacity() throws {
        try withTemporaryDirectory { directory in
            let url = journalURL(in: directory)
            let first = try openJournal(url, committed: nil)
            for index in 0..<5 {
                first.append(journalBody(index, size: 100))
            }
            first.relinquish()
            let journal = try openJournal(url, committed: JournalPosition(offset: 1 << 30, sequence: 3))
            #expect(journal.committed == JournalPosition(offset: 0, sequence: 3))
            #expect(journal.recoveredCount == 0)
            try self.expectWorks(journal, at: url, from: journal.committed)
        }
    }

    @Test("a stored position that is not a record's start recovers nothing and appends still read back")
    func committedMisaligned() throws {
        try withTemporaryDirectory { directory in
            let url = journalURL(in: directory)
            let first = try openJournal(url, committed: nil)
            for index in 0..<5 {
                first.append(journalBody(index, size: 100))
            }
            first.relinquish()
            // A record's middle, with a sequence number that some record carries.
            let journal = try openJournal(url, committed: JournalPosition(offset: 64, sequence: 2))
            #expect(journal.recoveredCount == 0)
            try self.expectWorks(journal, at: url, from: journal.committed)
        }
    }

    @Test("the requested capacity is clamped and rounded; an existing file keeps its size")
    func capacities() throws {
        try withTemporaryDirectory { directory in
            let small = try openJournal(directory.appendingPathComponent("small"), capacity: 1_000, committed: nil)
            #expect(small.capacity == EventJournal.minimumCapacity)
            let odd = try openJournal(directory.appendingPathComponent("odd"), capacity: 70_001, committed: nil)
            #expect(odd.capacity == 70_000)
            #expect(try fileSize(directory.appendingPathComponent("odd")) == 70_000)

            let url = journalURL(in: directory)
            let first = try openJournal(url, capacity: 128 << 10, committed: nil)
            first.append(journalBody(0, size: 10))
            first.relinquish()
            let second = try openJournal(url, capacity: 64 << 10, committed: .origin)
            #expect(second.capacity == 128 << 10)
            #expect(second.recoveredCount == 1)
        }
    }

    // MARK: - Back-pressure and refusals

    @Test("a full ring refuses appends until a release makes room")
    func full() throws {
        try withTemporaryDirectory { directory in
            let journal = try openJournal(journalURL(in: directory), committed: nil)
            let body = journalBody(0, size: 1_000)
            // 1,024-byte records fill the 64 KiB ring exactly.
            for _ in 0..<64 {
                #expect(journal.append(body).isAppended)
            }
            #expect(journal.usedBytes == self.capacity)
            #expect(journal.append(body) == .full)
            #expect(journal.append(Data()) == .full)
            #expect(!journal.waitForSpace(bodySize: 0, timeout: 0))
            #expect(!journal.waitForSpace(bodySize: 1_000, timeout: 0))

            let visited = journal.readAll(from: .origin)
            #expect(visited.bodies.count == 64)
            #expect(visited.next == JournalPosition(offset: 0, sequence: 65))
            journal.release(to: visited.nexts[0])
            #expect(journal.usedBytes == self.capacity - 1_024)
            #expect(journal.waitForSpace(bodySize: 1_000, timeout: 0))
            #expect(!journal.waitForSpace(bodySize: 1_001, timeout: 0))
            #expect(journal.append(journalBody(1, size: 1_001)) == .full)
            #expect(journal.append(journalBody(1, size: 1_000)).isAppended)
            #expect(journal.append(Data()) == .full)

            // Everything released: the whole ring is free again.
            let rest = journal.readAll(from: visited.nexts[0])
            #expect(rest.bodies.count == 64)
            journal.release(to: rest.next)
            #expect(journal.usedBytes == 0)
            #expect(journal.waitForSpace(bodySize: self.capacity / 4 - 24, timeout: 0))
        }
    }

    @Test("waitForSpace returns once another thread releases")
    func waitForSpaceWakes() throws {
        try withTemporaryDirectory { directory in
            let journal = try openJournal(journalURL(in: directory), committed: nil)
            let first = try self.fill(journal)
            let started = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            Thread {
                started.wait()
                journal.release(to: first)
                done.signal()
            }
            .start()
            let timeout: TimeInterval = 60
            let start = Date()
            started.signal()
            #expect(journal.waitForSpace(bodySize: 1_000, timeout: timeout))
            // Woken by the release, not by the deadline (after which it would also see the room).
            #expect(Date().timeIntervalSince(start) < timeout / 2)
            done.wait()
            #expect(journal.append(journalBody(1, size: 1_000)).isAppended)
        }
    }

    @Test("waitForSpace gives up at once while the engine cannot store, and when another thread stops it")
    func waitForSpaceNotStoring() throws {
        try withTemporaryDirectory { directory in
            let journal = try openJournal(journalURL(in: directory), committed: nil)
            _ = try self.fill(journal)
            let timeout: TimeInterval = 60
            journal.setStoring(false)
            var start = Date()
            #expect(!journal.waitForSpace(bodySize: 1_000, timeout: timeout))
            #expect(Date().timeIntervalSince(start) < timeout / 2)
            journal.setStoring(true)

            let started = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            Thread {
                started.wait()
                journal.setStoring(false)
                done.signal()
            }
            .start()
            start = Date()
            started.signal()
            #expect(!journal.waitForSpace(bodySize: 1_000, timeout: timeout))
            #expect(Date().timeIntervalSince(start) < timeout / 2)
            done.wait()
        }
    }

    @Test("waitForSpace returns false when another thread relinquishes the journal")
    func waitForSpaceClosed() throws {
        try withTemporaryDirectory { directory in
            let journal = try openJournal(journalURL(in: directory), committed: nil)
            _ = try self.fill(journal)
            let started = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            Thread {
                started.wait()
                journal.relinquish()
                done.signal()
            }
            .start()
            let timeout: TimeInterval = 60
            let start = Date()
            started.signal()
            #expect(!journal.waitForSpace(bodySize: 1_000, timeout: timeout))
            #expect(Date().timeIntervalSince(start) < timeout / 2)
            done.wait()
            #expect(!journal.waitForSpace(bodySize: 0, timeout: 0))
        }
    }

    @Test("a record larger than a quarter of the ring is never journaled")
    func tooLarge() throws {
        try withTemporaryDirectory { directory in
            let journal = try openJournal(journalURL(in: directory), committed: nil)
            let largest = self.capacity / 4 - 24
            #expect(journal.append(fence: 0, bodySize: largest + 1) { _ in Issue.record("written") } == .tooLarge)
            #expect(journal.append(fence: 0, bodySize: self.capacity) { _ in Issue.record("written") } == .tooLarge)
            #expect(journal.usedBytes == 0)
            #expect(journal.append(journalBody(0, size: largest)).isAppended)
            #expect(journal.readAll(from: .origin).bodies == [journalBody(0, size: largest)])
        }
    }

    @Test("a relinquished journal refuses appends and waits")
    func closedRefuses() throws {
        try withTemporaryDirectory { directory in
            let journal = try openJournal(journalURL(in: directory), committed: nil)
            journal.append(journalBody(0, size: 10))
            journal.relinquish()
            journal.relinquish()
            #expect(journal.append(journalBody(1, size: 10)) == .closed)
            #expect(journal.append(fence: 0, bodySize: self.capacity) { _ in Issue.record("written") } == .closed)
            #expect(!journal.waitForSpace(bodySize: 10, timeout: 0))
            // What was appended before stays readable through the mapping.
            #expect(journal.readAll(from: .origin).bodies == [journalBody(0, size: 10)])
        }
    }

    // MARK: - One instance per file

    @Test("a second open of a file in use fails with a warning, and succeeds once it is relinquished")
    func exclusive() throws {
        try withTemporaryDirectory { directory in
            let url = journalURL(in: directory)
            let first = try openJournal(url, committed: nil)
            first.append(journalBody(0, size: 10))

            let sink = InMemoryLogSink()
            #expect(EventJournal.open(at: url, capacity: self.capacity, committed: nil, logger: sink.logger()) == nil)
            let warnings = sink.records(at: .warning)
            #expect(warnings.count == 1)
            #expect(warnings.first?.message.contains("in use by another SDK instance") == true)
            #expect(sink.records(at: .error).isEmpty)
            // The refused open did not clear the file.
            #expect(first.readAll(from: .origin).bodies == [journalBody(0, size: 10)])

            first.relinquish()
            sink.clear()
            let second = try openJournal(url, committed: .origin, logger: sink.logger())
            #expect(second.recoveredCount == 1)
            #expect(sink.records.isEmpty)
        }
    }

    @Test("a path that cannot hold the journal fails with an error")
    func cannotOpen() throws {
        try withTemporaryDirectory { directory in
            let sink = InMemoryLogSink()
            let url = directory.appendingPathComponent("missing/events.journal")
            #expect(EventJournal.open(at: url, committed: nil, logger: sink.logger()) == nil)
            #expect(sink.records(at: .error).count == 1)
        }
    }

    // MARK: - The drain handshake

    @Test("finishPass: the first append wakes the engine, later ones not until it goes idle")
    func finishPass() throws {
        try withTemporaryDirectory { directory in
            let journal = try openJournal(journalURL(in: directory), committed: nil)
            #expect(journal.append(journalBody(0, size: 8)) == .appended(wake: true))
            #expect(journal.append(journalBody(1, size: 8)) == .appended(wake: false))
            var tail = journal.readAll(from: .origin).next

            #expect(journal.finishPass(at: tail, drained: true) == .linger)
            #expect(journal.append(journalBody(2, size: 8)) == .appended(wake: false))
            // The pass read up to the old tail: there is more.
            #expect(journal.finishPass(at: tail, drained: false) == .again)
            #expect(journal.append(journalBody(3, size: 8)) == .appended(wake: false))
            tail = journal.readAll(from: tail).next

            #expect(journal.finishPass(at: tail, drained: false) == .idle)
            #expect(journal.append(journalBody(4, size: 8)) == .appended(wake: true))
            #expect(journal.append(journalBody(5, size: 8)) == .appended(wake: false))
            tail = journal.readAll(from: tail).next
            #expect(journal.finishPass(at: tail, drained: false) == .idle)
            #expect(journal.finishPass(at: tail, drained: false) == .idle)
            #expect(journal.append(journalBody(6, size: 8)) == .appended(wake: true))
        }
    }

    // MARK: - Helpers

    /// Fills the ring with 1,024-byte records; returns the position after the first.
    private func fill(_ journal: EventJournal) throws -> JournalPosition {
        for _ in 0..<(journal.capacity / 1_024) {
            #expect(journal.append(journalBody(0, size: 1_000)).isAppended)
        }
        #expect(journal.append(journalBody(0, size: 1_000)) == .full)
        return try #require(journal.readAll(from: journal.committed).nexts.first)
    }

    /// Appends records to `journal`, whose replay starts at `from`, and reads them back, also
    /// after a reopen.
    private func expectWorks(_ journal: EventJournal, at url: URL, from start: JournalPosition) throws {
        let bodies = (0..<20).map { journalBody($0, size: $0 * 50) }
        for body in bodies {
            #expect(journal.append(body).isAppended)
        }
        let visited = journal.readAll(from: start)
        #expect(visited.bodies == bodies)
        #expect(!visited.corrupted)
        journal.relinquish()
        let reopened = try openJournal(url, committed: start)
        #expect(reopened.recoveredCount == bodies.count)
        #expect(reopened.readAll(from: start).bodies == bodies)
    }
}

extension EventJournal.AppendResult {
    var isAppended: Bool {
        if case .appended = self { return true }
        return false
    }
}
