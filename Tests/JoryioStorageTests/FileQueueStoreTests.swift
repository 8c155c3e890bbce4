import Foundation
import JoryioCore
import JoryioStorage
import JoryioTesting
import Testing

/// File-store specifics: modes, leftovers of an interrupted append, foreign files.
@Suite("FileQueueStore")
struct FileQueueStoreTests {
    @Test("the directory is 0700 and every record file 0600")
    func modes() throws {
        try withTemporaryDirectory { directory in
            let queue = directory.appendingPathComponent("events")
            try FileManager.default.createDirectory(
                at: queue,
                withIntermediateDirectories: false,
                attributes: [.posixPermissions: 0o755]
            )
            let store = try FileQueueStore(directory: queue, capacity: 10, logger: .disabled)
            try store.append(payloads(3))

            #expect(try posixPermissions(queue) == 0o700)
            let names = try fileNames(in: queue)
            #expect(names == ["00000000000000000001.rec", "00000000000000000002.rec", "00000000000000000003.rec"])
            for name in names {
                #expect(try posixPermissions(queue.appendingPathComponent(name)) == 0o600)
            }
        }
    }

    @Test("temp files of an interrupted append are deleted at open; foreign files are ignored")
    func leftovers() throws {
        try withTemporaryDirectory { directory in
            let queue = directory.appendingPathComponent("events")
            let ids = try FileQueueStore(directory: queue, capacity: 10, logger: .disabled).append(payloads(2)).ids
            try Data("half".utf8).write(to: queue.appendingPathComponent("00000000000000000003.rec.tmp"))
            try Data("other".utf8).write(to: queue.appendingPathComponent("notes.txt"))

            let sink = InMemoryLogSink()
            let store = try FileQueueStore(directory: queue, capacity: 10, logger: sink.logger())
            #expect(try fileNames(in: queue).filter { $0.hasSuffix(".tmp") }.isEmpty)
            #expect(try allRecords(store).map(\.id) == ids)
            #expect(try store.append(payloads(1)).ids == [3])
            #expect(sink.records(at: .warning).count == 1)
            #expect(FileManager.default.fileExists(atPath: queue.appendingPathComponent("notes.txt").path))
        }
    }

    @Test("a failed append leaves no file behind and earlier records intact")
    func failedAppend() throws {
        try withTemporaryDirectory { directory in
            let queue = directory.appendingPathComponent("events")
            let store = try FileQueueStore(directory: queue, capacity: 10, logger: .disabled)
            let ids = try store.append(payloads(2)).ids
            // A directory where the second temp file would go makes that write fail.
            try FileManager.default.createDirectory(
                at: queue.appendingPathComponent("00000000000000000004.rec.tmp"),
                withIntermediateDirectories: false
            )

            #expect(throws: StorageError.self) {
                try store.append(payloads(2, prefix: "failed"))
            }
            #expect(
                try fileNames(in: queue) == [
                    "00000000000000000001.rec", "00000000000000000002.rec", "00000000000000000004.rec.tmp",
                ]
            )
            #expect(try allRecords(store).map(\.id) == ids)
            #expect(try store.count() == 2)
        }
    }
}
