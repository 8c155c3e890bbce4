package import Foundation
package import JoryioCore

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

extension EventJournal {
    /// Opens (or creates) the journal at `url`, and finds the records after `committed` that an
    /// earlier process appended and did not store (``recovered``).
    ///
    /// `committed` is the mark stored with the events; `nil` when the database has none (a new or
    /// replaced database): the file is then cleared, since nothing in it belongs to this database.
    /// Returns `nil`, with a log line, when the journal cannot be used: the file cannot be opened,
    /// mapped or given its full size on disk (so a full disk can never fault a write into the
    /// mapping), or another SDK instance holds it. Tracking then works as without a journal.
    package static func open(
        at url: URL,
        capacity requested: Int = EventJournal.defaultCapacity,
        committed: JournalPosition?,
        logger: Logger
    ) -> EventJournal? {
        // A position no real journal reaches (it can only be damaged) starts a new one.
        let committed = committed.flatMap { $0.sequence <= JournalPosition.maximumSequence ? $0 : nil }
        let descriptor = Foundation.open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            logger.error("cannot open the event journal (errno \(errno)); events are stored without it")
            return nil
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            logger.warning("the event journal is in use by another SDK instance; this one stores events without it")
            close(descriptor)
            return nil
        }
        // The size through `lseek`, not `fstat`: Apple lists the `stat` family as file-timestamp
        // required-reason APIs whatever field is read (STORE-10, PRIVACY-7).
        let end = lseek(descriptor, 0, SEEK_END)
        let existing = end >= 0 ? Int(end) : -1
        let reusable =
            committed != nil && existing >= Self.minimumCapacity && existing <= Self.maximumCapacity
            && existing % 8 == 0
        let capacity = reusable ? existing : Self.clamped(requested)
        if !reusable {
            SQLiteDatabase.excludeFromBackup(url, logger: logger, what: "the event journal")
            guard Self.reserve(descriptor, capacity: capacity) else {
                logger.error(
                    "cannot reserve \(capacity) bytes for the event journal (errno \(errno)); events are stored without it"
                )
                close(descriptor)
                return nil
            }
        }
        #if os(Linux) || os(Android)
        let flags = MAP_SHARED | MAP_POPULATE
        #else
        let flags = MAP_SHARED
        #endif
        let mapped = mmap(nil, capacity, PROT_READ | PROT_WRITE, flags, descriptor, 0)
        guard let base = mapped, base != MAP_FAILED else {
            logger.error("cannot map the event journal (errno \(errno)); events are stored without it")
            close(descriptor)
            return nil
        }
        var start = reusable ? (committed ?? .origin) : JournalPosition(offset: 0, sequence: committed?.sequence ?? 1)
        if start.offset < 0 || start.offset >= capacity || start.offset % 8 != 0 { start.offset = 0 }
        return EventJournal(descriptor: descriptor, base: base, capacity: capacity, committed: start)
    }

    static func clamped(_ capacity: Int) -> Int {
        min(max(capacity, Self.minimumCapacity), Self.maximumCapacity) & ~7
    }

    /// Gives the file exactly `capacity` bytes of zeros, allocated on disk now.
    private static func reserve(_ descriptor: Int32, capacity: Int) -> Bool {
        guard ftruncate(descriptor, 0) == 0, ftruncate(descriptor, off_t(capacity)) == 0 else { return false }
        #if os(Linux) || os(Android)
        let reserved = posix_fallocate(descriptor, 0, off_t(capacity))
        if reserved != 0 { errno = reserved }
        return reserved == 0
        #else
        // No posix_fallocate: write the zeros, which allocates every block.
        let chunk = [UInt8](repeating: 0, count: 64 << 10)
        var offset = 0
        while offset < capacity {
            let count = min(chunk.count, capacity - offset)
            let written = chunk.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, count, off_t(offset)) }
            guard written == count else { return false }
            offset += count
        }
        return fsync(descriptor) == 0
        #endif
    }
}
