import Foundation
import JoryioStorage
import Testing

/// Drives an ``EventJournal`` through many laps of its ring with records of varied sizes, random
/// releases and reopens (a restart from the released position), checking it against a model of the
/// documented layout: every unreleased record, and only those, is visited and recovered, in order.
struct RingModel {
    /// One appended, unreleased record.
    struct Entry {
        var body: Data
        var next: JournalPosition
        var needed: Int
    }

    let capacity: Int
    private(set) var laps = 0
    private(set) var exactFits = 0
    private(set) var shortRemainders = 0
    private(set) var wrapMarkers = 0
    private(set) var skips = 0
    private(set) var fulls = 0
    private(set) var reopens = 0

    private var unreleased: [Entry] = []
    private var head = JournalPosition.origin
    private var tail = JournalPosition.origin
    private var used = 0
    private var nextID = 0

    init(capacity: Int) {
        self.capacity = capacity
    }

    mutating func run(url: URL, seed: UInt64, steps: Int) throws {
        var generator = SeededGenerator(seed: seed)
        var journal = try openJournal(url, capacity: self.capacity, committed: nil)
        for step in 0..<steps {
            let body = self.nextBody(&generator)
            let size = journalRecordSize(body.count)
            let remaining = self.capacity - self.tail.offset
            let wraps = remaining < size
            let needed = wraps ? size + remaining : size
            let result = journal.append(body, fence: UInt64(step))
            if size > self.capacity / 4 {
                #expect(result == .tooLarge, "seed \(seed) step \(step)")
            } else if self.used + needed > self.capacity {
                #expect(result == .full, "seed \(seed) step \(step)")
                self.fulls += 1
                try #require(!self.unreleased.isEmpty, "seed \(seed) step \(step)")
                try self.release(journal, count: 1 + Int(generator.next() % UInt64(self.unreleased.count)))
            } else {
                #expect(result.isAppended, "seed \(seed) step \(step)")
                self.appended(body, size: size, needed: needed, wraps: wraps, remaining: remaining)
            }
            if generator.next() % 8 == 0, !self.unreleased.isEmpty {
                try self.release(journal, count: 1 + Int(generator.next() % UInt64(self.unreleased.count)))
            }
            if generator.next() % 80 == 0 {
                journal = try self.reopen(journal, url: url)
            }
        }
        try self.release(journal, count: self.unreleased.count)
        journal = try self.reopen(journal, url: url)
        #expect(journal.recoveredCount == 0)
    }

    private mutating func appended(_ body: Data, size: Int, needed: Int, wraps: Bool, remaining: Int) {
        var offset = self.tail.offset
        var sequence = self.tail.sequence
        if wraps {
            if remaining >= 24 {
                self.wrapMarkers += 1
                sequence += 1
            } else {
                self.skips += 1
            }
            offset = 0
            self.laps += 1
        }
        let end = offset + size
        if end == self.capacity {
            self.exactFits += 1
            self.laps += 1
        } else if self.capacity - end < 24 {
            self.shortRemainders += 1
        }
        self.tail = JournalPosition(offset: end == self.capacity ? 0 : end, sequence: sequence + 1)
        self.used += needed
        self.unreleased.append(Entry(body: body, next: self.tail, needed: needed))
    }

    /// Checks the unreleased records, then releases the first `count`.
    private mutating func release(_ journal: EventJournal, count: Int) throws {
        self.verify(journal)
        guard count > 0 else { return }
        let position = self.unreleased[count - 1].next
        journal.release(to: position)
        self.used -= self.unreleased[..<count].reduce(0) { $0 + $1.needed }
        self.unreleased.removeFirst(count)
        self.head = position
        #expect(journal.usedBytes == self.used)
    }

    /// What a restart after a kill does: opens the file again at the released position.
    private mutating func reopen(_ journal: EventJournal, url: URL) throws -> EventJournal {
        journal.relinquish()
        let reopened = try openJournal(url, capacity: self.capacity, committed: self.head)
        self.reopens += 1
        #expect(reopened.committed == self.head)
        #expect(reopened.recoveredCount == self.unreleased.count)
        #expect(reopened.recovered == self.tail)
        #expect(reopened.usedBytes == self.used)
        self.verify(reopened)
        return reopened
    }

    private func verify(_ journal: EventJournal) {
        let visited = journal.readAll(from: self.head)
        #expect(!visited.corrupted)
        #expect(visited.bodies.count == self.unreleased.count)
        #expect(visited.bodies == self.unreleased.map(\.body))
        #expect(visited.nexts == self.unreleased.map(\.next))
        #expect(visited.next == self.tail)
        #expect(journal.usedBytes == self.used)
    }

    /// A body whose record exactly fills the rest of the lap, leaves 8 or 16 bytes (no room for a
    /// wrap marker), needs a wrap marker, or has a random size.
    private mutating func nextBody(_ generator: inout SeededGenerator) -> Data {
        let remaining = self.capacity - self.tail.offset
        let largest = self.capacity / 4 - 24
        var size = Int(generator.next() % 1_500)
        switch generator.next() % 12 {
        case 0 where remaining <= self.capacity / 4:
            size = remaining - 24
        case 1 where remaining - 8 <= self.capacity / 4 && remaining >= 32:
            size = remaining - 8 - 24
        case 2 where remaining - 16 <= self.capacity / 4 && remaining >= 40:
            size = remaining - 16 - 24
        case 3 where remaining + 8 <= self.capacity / 4:
            size = remaining + 8 - 24
        case 4:
            size = Int(generator.next() % UInt64(largest + 1))
        case 5 where generator.next() % 20 == 0:
            size = largest + 1 + Int(generator.next() % 100)
        default:
            break
        }
        self.nextID += 1
        return journalBody(self.nextID, size: max(size, 0))
    }
}
