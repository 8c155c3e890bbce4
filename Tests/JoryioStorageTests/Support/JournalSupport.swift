import Foundation
import JoryioCore
import JoryioStorage
import Testing

/// The journal file in `directory`.
func journalURL(in directory: URL) -> URL {
    directory.appendingPathComponent("events.journal")
}

/// Opens the journal at `url`, failing the test when it does not open.
func openJournal(
    _ url: URL,
    capacity: Int = EventJournal.minimumCapacity,
    committed: JournalPosition?,
    logger: Logger = .disabled,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> EventJournal {
    try #require(
        EventJournal.open(at: url, capacity: capacity, committed: committed, logger: logger),
        sourceLocation: sourceLocation
    )
}

extension EventJournal {
    /// Appends `body` with the call sequence `fence`.
    @discardableResult
    func append(_ body: Data, fence: UInt64 = 0) -> AppendResult {
        self.append(fence: fence, bodySize: body.count) { buffer in
            #expect(buffer.count == body.count)
            buffer.copyBytes(from: body)
        }
    }

    /// What one visit read: each record's body and the position after it, where it stopped, and
    /// whether it reported corruption.
    struct Visited {
        var bodies: [Data] = []
        var nexts: [JournalPosition] = []
        var next: JournalPosition
        var corrupted: Bool
    }

    /// Visits from `position`, copying every body.
    func readAll(from position: JournalPosition, replayUntil: JournalPosition? = nil) -> Visited {
        var bodies: [Data] = []
        var nexts: [JournalPosition] = []
        let (next, corrupted) = self.visit(from: position, replayUntil: replayUntil ?? self.recovered) { bytes, after in
            bodies.append(Data(bytes))
            nexts.append(after)
        }
        return Visited(bodies: bodies, nexts: nexts, next: next, corrupted: corrupted)
    }
}

/// The bytes a record of `bodySize` bytes takes in the ring: a 24-byte header, the body, padding to 8.
func journalRecordSize(_ bodySize: Int) -> Int {
    (24 + bodySize + 7) & ~7
}

/// A body of `size` bytes that names `id` and differs from every other id's of the same size.
func journalBody(_ id: Int, size: Int) -> Data {
    var data = Data(count: size)
    var state = UInt64(truncatingIfNeeded: id) &* 0x9E37_79B9_7F4A_7C15 &+ 1
    for index in 0..<size {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        data[index] = UInt8(truncatingIfNeeded: state >> 56)
    }
    if size >= 8 {
        withUnsafeBytes(of: UInt64(id).littleEndian) { data.replaceSubrange(0..<8, with: $0) }
    }
    return data
}

/// A small deterministic generator (SplitMix64), so a failing run can be replayed from its seed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        self.state = seed
    }

    mutating func next() -> UInt64 {
        self.state &+= 0x9E37_79B9_7F4A_7C15
        var value = self.state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

/// Reads `count` bytes of the file at `offset`.
func readFile(_ url: URL, offset: Int, count: Int) throws -> Data {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    try handle.seek(toOffset: UInt64(offset))
    return try handle.read(upToCount: count) ?? Data()
}

/// Overwrites the file's bytes at `offset` with `data` (through the file, not the mapping).
func writeFile(_ url: URL, offset: Int, _ data: Data) throws {
    let handle = try FileHandle(forUpdating: url)
    defer { try? handle.close() }
    try handle.seek(toOffset: UInt64(offset))
    try handle.write(contentsOf: data)
}

/// Flips every bit of the file's byte at `offset`.
func flipByte(_ url: URL, at offset: Int) throws {
    let byte = try readFile(url, offset: offset, count: 1)
    try #require(byte.count == 1)
    try writeFile(url, offset: offset, Data([~byte[byte.startIndex]]))
}

/// The size of the file at `url`.
func fileSize(_ url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return try #require((attributes[.size] as? NSNumber)?.intValue)
}
