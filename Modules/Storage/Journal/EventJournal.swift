internal import CJoryioZlib
package import Foundation

/// A fixed-size ring of records in a memory-mapped file: what makes an event survive a kill of the
/// process at any instant after `track()` returned (issue 12, defect 6).
///
/// The caller's thread copies its encoded call into the shared mapping (``append(fence:bodySize:write:)``);
/// once the copy is done the bytes are in the kernel's page cache, which outlives the process. The
/// engine later reads the records (``visit(from:fence:replayUntil:_:)``), stores them in SQLite
/// together with the position it read up to (a ``QueueMark``), and only then frees their space
/// (``release(to:)``). A restart reads what the stored position has not passed
/// (``recovered``) and replays it: nothing the mark covers is read again, nothing after it is skipped.
///
/// Record layout, at an 8-aligned offset (little-endian):
///
/// | bytes | field |
/// |---|---|
/// | 0..<4 | body length; `0xFFFF_FFFF` for a wrap marker |
/// | 4..<8 | CRC-32 of bytes 0..<4 and 8..<24 and the body |
/// | 8..<16 | journal sequence number (one more than the previous record's) |
/// | 16..<24 | the call's sequence number in this process (its place among the facade's calls) |
/// | 24... | body, padded to a multiple of 8 |
///
/// A record that does not fit before the end of the ring is preceded by a wrap marker (or, when
/// fewer than 24 bytes remain, by nothing) and starts at offset 0. A record cut short by a kill
/// fails its CRC, and everything after it is ignored: its `append` had not returned.
///
/// Kill-safe, not power-loss-safe: pages not yet written back by the kernel are lost with the power
/// (the same holds for SQLite with `synchronous=NORMAL`).
///
/// Thread-safe: appends come from any thread; visits and releases only from the engine's executor.
package final class EventJournal: @unchecked Sendable {
    // Confined: owns the descriptor and the mapping. The fields after `condition` are only touched
    // with it held; the bytes of a record are written once, by `append` under the lock, before the
    // tail passes them, and read only by the engine's executor before `release` lets them be reused.
    /// What ``append(fence:bodySize:write:)`` did.
    package enum AppendResult: Equatable, Sendable {
        /// Stored; `wake` when the engine was idle and the caller must schedule a drain.
        case appended(wake: Bool)
        /// No room until the engine frees some (``waitForSpace(bodySize:timeout:)``).
        case full
        /// Larger than a quarter of the ring: never journaled.
        case tooLarge
        /// The journal was closed (``relinquish()``).
        case closed
    }

    /// What the engine does after a drain pass (``finishPass(at:drained:)``).
    package enum PassOutcome: Equatable, Sendable {
        /// Records are waiting: drain again now.
        case again
        /// Something was drained: look again shortly; appends meanwhile need no wake-up.
        case linger
        /// Nothing left: the next append wakes the engine.
        case idle
    }

    package static let defaultCapacity = 4 << 20
    package static let minimumCapacity = 64 << 10
    package static let maximumCapacity = 64 << 20
    static let headerSize = 24
    static let wrapMarker = UInt32.max

    package let capacity: Int
    /// Where the records a previous process left unread end: replay up to here at start.
    package let recovered: JournalPosition
    /// How many records were found to replay.
    package let recoveredCount: Int
    /// The position the stored mark named when the journal was opened (the replay's start).
    package let committed: JournalPosition

    private let base: UnsafeMutableRawPointer
    private let condition = NSCondition()
    // Everything below is guarded by `condition`.
    private var descriptor: Int32
    private var tail: JournalPosition
    private var head: JournalPosition
    private var used: Int
    private var active = false
    private var fences: [UInt64] = []
    private var fenceStart = 0
    private var closed = false
    private var storing = true
    /// A wait for space timed out: later callers do not wait until a release frees some.
    private var stalled = false

    /// Takes over an open, locked, mapped file and finds the records after `committed` that read
    /// back whole: they are ``recovered``, and appends continue after them.
    init(descriptor: Int32, base: UnsafeMutableRawPointer, capacity: Int, committed: JournalPosition) {
        var position = committed
        var count = 0
        var used = 0
        scan: while used < capacity {
            let next: JournalPosition
            switch Self.read(base: base, capacity: capacity, at: position) {
            case .record(_, _, let after):
                next = after
                count += 1
            case .wrap(let after):
                next = after
            case .invalid:
                break scan
            }
            let advance = (next.offset - position.offset + capacity) % capacity
            used += advance == 0 ? capacity : advance
            position = next
        }
        self.descriptor = descriptor
        self.base = base
        self.capacity = capacity
        self.committed = committed
        self.recovered = position
        self.recoveredCount = count
        self.head = committed
        self.tail = position
        self.used = min(used, capacity)
    }

    deinit {
        munmap(self.base, self.capacity)
        if self.descriptor >= 0 { close(self.descriptor) }
    }

    // MARK: - Appending (any thread)

    /// Copies one record into the ring: `write` fills exactly `bodySize` bytes. `fence` is the
    /// call's sequence number, so the engine keeps it in order with calls queued as jobs.
    package func append(
        fence: UInt64,
        bodySize: Int,
        write: (UnsafeMutableRawBufferPointer) -> Void
    ) -> AppendResult {
        let size = Self.recordSize(bodySize)
        self.condition.lock()
        defer { self.condition.unlock() }
        if self.closed { return .closed }
        guard size <= self.capacity / 4 else { return .tooLarge }
        var offset = self.tail.offset
        var sequence = self.tail.sequence
        let wraps = self.capacity - offset < size
        let needed = wraps ? size + (self.capacity - offset) : size
        guard self.used + needed <= self.capacity else { return .full }
        if wraps {
            if self.capacity - offset >= Self.headerSize {
                self.writeHeader(at: offset, length: Self.wrapMarker, sequence: sequence, fence: 0, body: nil)
                sequence &+= 1
            }
            offset = 0
        }
        let body = UnsafeMutableRawBufferPointer(start: self.base + offset + Self.headerSize, count: bodySize)
        write(body)
        self.writeHeader(at: offset, length: UInt32(bodySize), sequence: sequence, fence: fence, body: body)
        let next = offset + size
        self.tail = JournalPosition(offset: next == self.capacity ? 0 : next, sequence: sequence &+ 1)
        self.used += needed
        let wake = !self.active
        self.active = true
        return .appended(wake: wake)
    }

    /// Waits until a body of `bodySize` bytes fits, at most `timeout` seconds; `false` when it
    /// still does not. It does not wait at all while the engine cannot store (waiting would not
    /// help), nor after a wait timed out until a release has freed space since (the engine is
    /// stuck: every caller would pay the whole timeout).
    package func waitForSpace(bodySize: Int, timeout: TimeInterval) -> Bool {
        let size = Self.recordSize(bodySize)
        let deadline = Date(timeIntervalSinceNow: timeout)
        self.condition.lock()
        defer { self.condition.unlock() }
        while !self.closed && self.storing && !self.stalled && !self.fits(size) {
            if !self.condition.wait(until: deadline) {
                self.stalled = !self.fits(size)
                break
            }
        }
        return !self.closed && self.fits(size)
    }

    /// Whether a record of `size` bytes fits now (the caller holds the lock).
    private func fits(_ size: Int) -> Bool {
        let offset = self.tail.offset
        let needed = self.capacity - offset < size ? size + (self.capacity - offset) : size
        return self.used + needed <= self.capacity
    }

    // MARK: - Ordering with queued calls

    /// A call with this sequence number was queued as a job: records after it wait for it.
    package func pushFence(_ sequence: UInt64) {
        self.condition.lock()
        defer { self.condition.unlock() }
        self.fences.append(sequence)
    }

    /// The queued call `sequence` is running: records after it may be read.
    package func popFence(_ sequence: UInt64) {
        self.condition.lock()
        defer { self.condition.unlock() }
        // Every fence up to this call's goes: a call that never ran can never hold records forever.
        while self.fenceStart < self.fences.count, self.fences[self.fenceStart] <= sequence {
            self.fenceStart += 1
        }
        if self.fenceStart == self.fences.count {
            self.fences.removeAll(keepingCapacity: true)
            self.fenceStart = 0
        } else if self.fenceStart >= 1024 {
            self.fences.removeFirst(self.fenceStart)
            self.fenceStart = 0
        }
    }

    // MARK: - Reading (the engine's executor)

    /// Calls `body` with each record from `position` on, in order, stopping at the first whose call
    /// sequence is not below the oldest queued call's (`fence`), except that records before
    /// `replayUntil` (left by an earlier process) are always read. Returns the position after the
    /// last record read. The bytes passed to `body` are valid only during the call.
    ///
    /// A record written by this process that does not read back (it cannot happen unless the file
    /// is changed under the SDK) ends the visit at the tail: `corrupted` is set and the records
    /// between are lost.
    package func visit(
        from position: JournalPosition,
        replayUntil: JournalPosition,
        _ body: (UnsafeRawBufferPointer, JournalPosition) -> Void
    ) -> (next: JournalPosition, corrupted: Bool) {
        let (tail, fence): (JournalPosition, UInt64?) = {
            self.condition.lock()
            defer { self.condition.unlock() }
            return (self.tail, self.fenceStart < self.fences.count ? self.fences[self.fenceStart] : nil)
        }()
        var current = position
        while current != tail {
            // Records this process wrote are checked by their sequence number and length only; the
            // CRC guards against a torn write, which only a kill before the append returned makes.
            switch self.read(at: current, verify: current.sequence < replayUntil.sequence) {
            case .record(let bytes, let callSequence, let next):
                if current.sequence >= replayUntil.sequence, let fence, callSequence >= fence {
                    return (current, false)
                }
                body(bytes, next)
                current = next
            case .wrap(let next):
                current = next
            case .invalid:
                return (tail, true)
            }
        }
        return (current, false)
    }

    /// The records are stored up to `position`: their space may be reused.
    package func release(to position: JournalPosition) {
        self.condition.lock()
        defer { self.condition.unlock() }
        if position.sequence >= self.tail.sequence {
            self.used = 0
        } else {
            let freed = (position.offset - self.head.offset + self.capacity) % self.capacity
            self.used = max(0, self.used - freed)
        }
        self.head = position
        self.stalled = false
        self.condition.broadcast()
    }

    /// Whether the engine can store what it reads; while it cannot (a full disk), callers do not
    /// wait for space that will not come.
    package func setStoring(_ storing: Bool) {
        self.condition.lock()
        defer { self.condition.unlock() }
        self.storing = storing
        self.condition.broadcast()
    }

    /// After a drain pass that read up to `position`: what the engine does next.
    package func finishPass(at position: JournalPosition, drained: Bool) -> PassOutcome {
        self.condition.lock()
        defer { self.condition.unlock() }
        if position != self.tail { return .again }
        if drained { return .linger }
        self.active = false
        return .idle
    }

    /// Closes the file (so another instance may open it) and refuses later appends; records already
    /// appended stay in the file for whoever opens it next. The mapping lives until deinit.
    package func relinquish() {
        self.condition.lock()
        defer { self.condition.unlock() }
        guard !self.closed else { return }
        self.closed = true
        // Unlock explicitly: the mapping holds the open file description, and with it the flock,
        // until deinit; closing the descriptor alone would keep every other instance out.
        flock(self.descriptor, LOCK_UN)
        close(self.descriptor)
        self.descriptor = -1
        self.condition.broadcast()
    }

    /// Bytes appended and not yet released.
    package var usedBytes: Int {
        self.condition.lock()
        defer { self.condition.unlock() }
        return self.used
    }

    // MARK: - Records

    enum Read {
        case record(UnsafeRawBufferPointer, callSequence: UInt64, next: JournalPosition)
        case wrap(next: JournalPosition)
        case invalid
    }

    /// The record at `position`, checked: its sequence number, length and CRC.
    func read(at position: JournalPosition, verify: Bool = true) -> Read {
        Self.read(base: self.base, capacity: self.capacity, at: position, verify: verify)
    }

    static func read(
        base: UnsafeMutableRawPointer,
        capacity: Int,
        at position: JournalPosition,
        verify: Bool = true
    ) -> Read {
        var offset = position.offset
        guard offset >= 0, offset < capacity, offset % 8 == 0 else { return .invalid }
        if capacity - offset < Self.headerSize { offset = 0 }
        let header = base + offset
        let length = header.loadUnaligned(as: UInt32.self).littleEndian
        let sequence = (header + 8).loadUnaligned(as: UInt64.self).littleEndian
        let callSequence = (header + 16).loadUnaligned(as: UInt64.self).littleEndian
        guard sequence == position.sequence else { return .invalid }
        let stored = (header + 4).loadUnaligned(as: UInt32.self).littleEndian
        if length == Self.wrapMarker {
            guard stored == Self.checksum(header: header, body: nil) else { return .invalid }
            return .wrap(next: JournalPosition(offset: 0, sequence: sequence &+ 1))
        }
        let bodySize = Int(length)
        guard bodySize <= capacity - offset - Self.headerSize else { return .invalid }
        let body = UnsafeRawBufferPointer(start: header + Self.headerSize, count: bodySize)
        guard !verify || stored == Self.checksum(header: header, body: body) else { return .invalid }
        let next = offset + Self.recordSize(bodySize)
        return .record(
            body,
            callSequence: callSequence,
            next: JournalPosition(offset: next >= capacity ? 0 : next, sequence: sequence &+ 1)
        )
    }

    private func writeHeader(
        at offset: Int,
        length: UInt32,
        sequence: UInt64,
        fence: UInt64,
        body: UnsafeMutableRawBufferPointer?
    ) {
        let header = self.base + offset
        header.storeBytes(of: length.littleEndian, as: UInt32.self)
        (header + 8).storeBytes(of: sequence.littleEndian, toByteOffset: 0, as: UInt64.self)
        (header + 16).storeBytes(of: fence.littleEndian, toByteOffset: 0, as: UInt64.self)
        let crc = Self.checksum(header: header, body: body.map { UnsafeRawBufferPointer($0) })
        (header + 4).storeBytes(of: crc.littleEndian, as: UInt32.self)
    }

    static func checksum(header: UnsafeMutableRawPointer, body: UnsafeRawBufferPointer?) -> UInt32 {
        let bytes = header.assumingMemoryBound(to: Bytef.self)
        var crc = crc32(0, bytes, 4)
        crc = crc32(crc, bytes + 8, 16)
        if let body, let start = body.baseAddress, body.count > 0 {
            crc = crc32(crc, start.assumingMemoryBound(to: Bytef.self), uInt(body.count))
        }
        return UInt32(truncatingIfNeeded: crc)
    }

    static func recordSize(_ bodySize: Int) -> Int {
        (Self.headerSize + bodySize + 7) & ~7
    }
}
