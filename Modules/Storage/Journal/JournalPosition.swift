/// Where one record of an ``EventJournal`` starts: its byte offset in the ring and the journal
/// sequence number the record there must carry to be valid.
///
/// Sequence numbers increase by one per record (and per wrap marker) for the life of the file, so a
/// stale record left from an earlier lap of the ring never passes for the next one.
package struct JournalPosition: Sendable, Equatable, CustomStringConvertible {
    /// Byte offset in the ring, a multiple of 8 below the capacity.
    package var offset: Int
    /// The sequence number the record at ``offset`` must carry.
    package var sequence: UInt64

    /// Creates a position.
    package init(offset: Int, sequence: UInt64) {
        self.offset = offset
        self.sequence = sequence
    }

    /// The start of a new journal.
    package static let origin = JournalPosition(offset: 0, sequence: 1)

    /// The largest sequence number a stored position may carry: 2^62, more records than a device
    /// will ever write. A larger one can only come from a damaged or hostile file, and the journal
    /// starts again rather than count towards an overflow.
    package static let maximumSequence: UInt64 = 1 << 62

    /// The value stored as the SQLite mark: `offset/sequence`.
    package var mark: String { "\(self.offset)/\(self.sequence)" }

    /// Parses ``mark``; `nil` for anything else.
    package init?(mark: String) {
        let parts = mark.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let offset = Int(parts[0]), let sequence = UInt64(parts[1]), offset >= 0,
            offset % 8 == 0, sequence > 0, sequence <= Self.maximumSequence
        else { return nil }
        self.init(offset: offset, sequence: sequence)
    }

    package var description: String { self.mark }
}
