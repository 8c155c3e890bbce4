internal import Foundation
internal import JoryioCore

extension FileQueueStore {
    /// `00000000000000000042.rec`: zero-padded, so a plain name sort is an id sort.
    static func fileName(for id: Int64) -> String {
        let digits = String(id)
        return String(repeating: "0", count: max(20 - digits.count, 0)) + digits + Self.recordExtension
    }

    /// The id in a record file's name, or `nil` for any other file.
    static func id(fromFileName name: String) -> Int64? {
        guard name.hasSuffix(Self.recordExtension) else { return nil }
        let digits = name.dropLast(Self.recordExtension.count)
        guard digits.count == 20, digits.allSatisfy(\.isASCII), let id = Int64(digits), id > 0 else { return nil }
        return id
    }

    func recordURL(_ id: Int64) -> URL {
        self.directory.appendingPathComponent(Self.fileName(for: id))
    }

    /// Writes all temp files, then renames them all; on failure removes whatever this call created.
    func writeRecords(_ records: [(id: Int64, payload: Data)]) throws(StorageError) {
        var temporaries: [URL] = []
        var finals: [URL] = []
        do throws(StorageError) {
            for record in records {
                let temporary = self.directory.appendingPathComponent(
                    Self.fileName(for: record.id) + Self.temporaryExtension
                )
                temporaries.append(temporary)
                try FileSystem.writeFile(record.payload, to: temporary, replacing: true)
            }
            for (record, temporary) in zip(records, temporaries) {
                let final = self.recordURL(record.id)
                try FileSystem.renameItem(temporary, to: final)
                finals.append(final)
            }
        } catch {
            for url in temporaries + finals {
                try? FileSystem.removeFile(url)
            }
            throw error
        }
        FileSystem.syncDirectory(self.directory)
    }

    /// Deletes the oldest files beyond capacity; a file that cannot be deleted is logged and kept.
    func evictBeyondCapacity(_ state: inout State) -> Int {
        let excess = state.ids.count - self.capacity
        guard excess > 0 else { return 0 }
        var evicted = 0
        for id in state.ids.prefix(excess) {
            do throws(StorageError) {
                try FileSystem.removeFile(self.recordURL(id))
                evicted += 1
            } catch {
                self.logger.error("could not evict a queue record", ["error": error.message])
                break
            }
        }
        state.ids.removeFirst(evicted)
        return evicted
    }

    /// Deletes the files of `targets` (ascending ids present in `state`).
    ///
    /// When the newest record is among them, the high-water mark is saved first, so its id is never
    /// given again after a reopen.
    func delete(_ targets: [Int64], from state: inout State) throws(StorageError) {
        guard !targets.isEmpty else { return }
        if targets.last == state.ids.last {
            let highWater = Data(String(state.nextID - 1).utf8)
            try FileSystem.replaceAtomically(
                self.directory.appendingPathComponent(Self.sequenceFileName),
                with: highWater
            )
        }
        var deleted = Set<Int64>()
        defer { state.ids.removeAll { deleted.contains($0) } }
        for id in targets {
            try FileSystem.removeFile(self.recordURL(id))
            deleted.insert(id)
        }
    }
}
