import Foundation
import JoryioCore
import JoryioFuzzSupport
import JoryioKit
import JoryioStorage

/// Fuzzes what the event journal reads back from its file at start (`EventJournal.open`, the
/// recovery scan, `visit`, `JournalTrackRecord`): a file an earlier launch left, damaged in any way.
///
/// The first 16 bytes are the stored position (offset, sequence); the rest, repeated to fill it, is
/// the ring of the smallest journal. Properties: no crash; a visit from the stored position reads
/// exactly the records the scan counted; appends after them read back; nothing reads outside them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = UnsafeBufferPointer(start: start, count: count)
    guard count >= 17 else { return 0 }
    let raw = UnsafeRawBufferPointer(input)
    let offset = Int(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: 0, as: Int64.self))
    let sequence = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
    let ring = input[16...]
    let capacity = EventJournal.minimumCapacity
    var file = [UInt8](repeating: 0, count: capacity)
    for index in 0..<capacity {
        file[index] = ring[ring.startIndex + index % ring.count]
    }
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-journal-\(getpid())")
    guard (try? Data(file).write(to: url)) != nil else { return 0 }
    defer { try? FileManager.default.removeItem(at: url) }
    let committed = JournalPosition(offset: offset, sequence: max(sequence, 1))
    guard let journal = EventJournal.open(at: url, capacity: capacity, committed: committed, logger: .disabled) else {
        fuzzRequire(false, "a journal file of the right size did not open")
        return 0
    }
    defer { journal.relinquish() }
    var visited = 0
    let (end, corrupted) = journal.visit(from: journal.committed, replayUntil: journal.recovered) { body, _ in
        visited += 1
        if let record = JournalTrackRecord(body) {
            _ = record.nameString
            fuzzRequire(record.timestampText.count == 24, "a decoded record's timestamp is not 24 bytes")
        }
    }
    fuzzRequire(!corrupted, "records the scan accepted did not read back")
    fuzzRequire(visited == journal.recoveredCount, "visited \(visited) of \(journal.recoveredCount) recovered records")
    fuzzRequire(end == journal.recovered, "the visit ended at \(end), not at \(journal.recovered)")
    // Appends continue after the recovered records and read back, whatever the file held.
    let body = [UInt8](repeating: 0x61, count: Int(ring.first ?? 0) + 1)
    guard case .appended = journal.append(fence: 0, bodySize: body.count, write: { $0.copyBytes(from: body) }) else {
        return 0
    }
    var appended = 0
    _ = journal.visit(from: end, replayUntil: end) { bytes, _ in
        appended += 1
        fuzzRequire(Array(bytes) == body, "an appended record read back different")
    }
    fuzzRequire(appended == 1, "an appended record did not read back")
    return 0
}

@main
enum Main {
    static func main() { FuzzMain.run(fuzzOne) }
}
