import Foundation
import JoryioCore
import JoryioStorage
import JoryioTesting
import Testing

/// File key-value specifics: mode, atomic replacement, unusable files.
@Suite("FileKeyValueStore")
struct FileKeyValueStoreTests {
    private let clock = StorageTestClock()

    @Test("the file is 0600 and each write replaces it atomically")
    func modeAndAtomicRewrite() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("settings.json")
            let store = try FileKeyValueStore(fileURL: url, clock: self.clock, logger: .disabled)
            try store.set(Data("a".utf8), forKey: "jry_first")
            #expect(try posixPermissions(url) == 0o600)
            let firstInode = try self.inode(url)

            try store.set(Data("b".utf8), forKey: "jry_second")
            // A rename gives the path a new inode; an in-place rewrite would keep it.
            #expect(try self.inode(url) != firstInode)
            #expect(try posixPermissions(url) == 0o600)
            #expect(try fileNames(in: directory) == ["settings.json"])

            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
            let values = json?["values"] as? [String: String]
            #expect(values == ["jry_first": Data("a".utf8).base64EncodedString(), "jry_second": "Yg=="])
        }
    }

    @Test("a leftover temp file is ignored and deleted")
    func leftoverTemp() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("settings.json")
            try FileKeyValueStore(fileURL: url, clock: self.clock, logger: .disabled)
                .set(Data("kept".utf8), forKey: "jry_kept")
            try Data("{\"version\":1,\"val".utf8).write(to: directory.appendingPathComponent(".settings.json.tmp"))

            let store = try FileKeyValueStore(fileURL: url, clock: self.clock, logger: .disabled)
            #expect(store.data(forKey: "jry_kept") == Data("kept".utf8))
            #expect(try fileNames(in: directory) == ["settings.json"])
        }
    }

    @Test(
        "a corrupt file is moved aside with an error log, and the store starts empty",
        arguments: [
            ("not json at all", "corrupt"),
            ("{\"version\":1,\"values\":{\"jry_a\":\"***\"}}", "corrupt"),
            ("{\"version\":2,\"values\":{}}", "newer"),
        ]
    )
    func unusableFile(contents: String, reason: String) throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("settings.json")
            try Data(contents.utf8).write(to: url)
            let sink = InMemoryLogSink()

            let store = try FileKeyValueStore(fileURL: url, clock: self.clock, logger: sink.logger())
            #expect(store.allKeys().isEmpty)
            try store.set(Data("fresh".utf8), forKey: "jry_fresh")
            #expect(store.data(forKey: "jry_fresh") == Data("fresh".utf8))

            let quarantined = directory.appendingPathComponent("settings.json.\(reason)-\(self.clock.millis)")
            #expect(try Data(contentsOf: quarantined) == Data(contents.utf8))
            #expect(sink.records(at: .error).count == 1)
        }
    }

    private func inode(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try #require(attributes[.systemFileNumber] as? NSNumber).intValue
    }
}
