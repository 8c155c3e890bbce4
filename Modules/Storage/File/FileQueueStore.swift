package import Foundation
package import JoryioCore

/// A ``QueueStore`` that keeps each record in its own file: `<20-digit id>.rec` in a 0700 directory.
///
/// Every record file is written to a 0600 temp file, `fsync`ed, then renamed into place. An append
/// first writes the temp files of all its payloads and only then renames them, so a failed append
/// (a full disk, say) leaves nothing behind and every earlier record intact. A crash *between* the
/// renames can leave a prefix of that append; order is still preserved, and leftover temp files are
/// deleted at the next open.
///
/// The next id is one more than the largest id ever given: the largest record on disk, or the
/// high-water mark in the `sequence` file, which is written before the newest record is removed, so
/// ids are never reused, even across a reopen.
///
/// ``count()`` is O(1): the sorted ids live in memory. `FileQueueStore` is `Sendable`; a lock
/// serializes calls. Use one instance per directory.
package final class FileQueueStore: QueueStore {
    struct State {
        /// Ids of the record files, ascending.
        var ids: [Int64]
        var nextID: Int64
    }

    static let recordExtension = ".rec"
    static let temporaryExtension = ".tmp"
    static let sequenceFileName = "sequence"

    /// The directory holding the record files.
    package let directory: URL
    /// The most records kept; an append beyond it evicts the oldest.
    package let capacity: Int
    let logger: Logger
    private let state: Locked<State>

    /// Opens the store in `directory`, creating it (mode 0700) when missing.
    ///
    /// Temp files left by an interrupted append are deleted.
    ///
    /// - Parameters:
    ///   - directory: The store's own directory; other files in it are ignored.
    ///   - capacity: The most records kept (values below 1 count as 1).
    ///   - logger: Told about leftovers and files that could not be evicted.
    /// - Throws: ``StorageError`` with code `.cannotOpen` when the directory cannot be created, `.io`
    ///   when it cannot be read.
    package init(directory: URL, capacity: Int, logger: Logger) throws(StorageError) {
        self.directory = directory
        self.capacity = max(capacity, 1)
        self.logger = logger
        try FileSystem.createDirectory(directory, forcePrivateMode: true)
        var ids: [Int64] = []
        var leftovers = 0
        for name in try FileSystem.contentsOfDirectory(directory) {
            if name.hasSuffix(Self.temporaryExtension) {
                try FileSystem.removeFile(directory.appendingPathComponent(name))
                leftovers += 1
            } else if let id = Self.id(fromFileName: name) {
                ids.append(id)
            }
        }
        ids.sort()
        let sequenceData = try FileSystem.readFile(directory.appendingPathComponent(Self.sequenceFileName))
        let highWater = sequenceData.flatMap { Int64(String(decoding: $0, as: UTF8.self)) } ?? 0
        self.state = Locked(State(ids: ids, nextID: max(ids.last ?? 0, highWater) + 1))
        if leftovers > 0 {
            logger.warning("deleted temp files of an interrupted queue append", ["count": "\(leftovers)"])
        }
    }

    // MARK: - QueueStore

    /// Writes every payload to a temp file, renames them all into place, then evicts the oldest files.
    @discardableResult
    package func append(_ payloads: [Data]) throws(StorageError) -> QueueAppendResult {
        guard !payloads.isEmpty else { return QueueAppendResult(ids: [], evicted: 0) }
        return try self.state.withLockThrowing { state throws(StorageError) in
            let ids = (0..<Int64(payloads.count)).map { state.nextID + $0 }
            try self.writeRecords(Array(zip(ids, payloads)))
            state.ids.append(contentsOf: ids)
            state.nextID += Int64(ids.count)
            let evicted = self.evictBeyondCapacity(&state)
            return QueueAppendResult(ids: ids, evicted: evicted)
        }
    }

    /// The oldest records within `limit` and `maxBytes`, sized first (`FileSystem.fileSize`) so larger files are not read.
    package func peek(limit: Int, maxBytes: Int) throws(StorageError) -> [QueueRecord] {
        guard limit > 0 else { return [] }
        return try self.state.withLockThrowing { state throws(StorageError) in
            var records: [QueueRecord] = []
            var bytes = 0
            for id in state.ids {
                guard records.count < limit else { break }
                let url = self.recordURL(id)
                guard let size = try FileSystem.fileSize(url) else { continue }
                if !records.isEmpty, size > maxBytes - bytes { break }
                guard let payload = try FileSystem.readFile(url) else { continue }
                records.append(QueueRecord(id: id, payload: payload))
                bytes += payload.count
            }
            return records
        }
    }

    /// Deletes the files of these ids; unknown ids are ignored.
    package func remove(ids: [Int64]) throws(StorageError) {
        let doomed = Set(ids)
        try self.state.withLockThrowing { state throws(StorageError) in
            let targets = state.ids.filter { doomed.contains($0) }
            try self.delete(targets, from: &state)
        }
    }

    /// Deletes every record file (ids keep increasing afterwards).
    package func removeAll() throws(StorageError) {
        try self.state.withLockThrowing { state throws(StorageError) in
            try self.delete(state.ids, from: &state)
        }
    }

    /// The number of records stored.
    package func count() throws(StorageError) -> Int {
        self.state.withLock { $0.ids.count }
    }
}
