import Foundation
import JoryioCore
import JoryioStorage
import JoryioTesting
import Testing

/// A secure-store backend the tests run over.
enum SecureBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case file
    case inMemory

    var testDescription: String {
        self.rawValue
    }
}

/// ``SecureStore`` behaviour over every backend available on this platform, plus file specifics.
@Suite("SecureStore")
struct SecureStoreTests {
    @Test("items round-trip, are replaced, deleted and all removed", arguments: SecureBackend.allCases)
    func roundTrip(backend: SecureBackend) throws {
        try withTemporaryDirectory { directory in
            let store = try self.open(backend, directory)
            #expect(try store.data(forKey: "jry_user_id") == nil)
            try store.set(Data("user-1".utf8), forKey: "jry_user_id")
            try store.set(Data("token".utf8), forKey: "joryio_push.token-v1")
            try store.set(Data("user-2".utf8), forKey: "jry_user_id")
            #expect(try store.data(forKey: "jry_user_id") == Data("user-2".utf8))

            try store.set(nil, forKey: "jry_user_id")
            try store.set(nil, forKey: "jry_never_set")
            #expect(try store.data(forKey: "jry_user_id") == nil)
            #expect(try store.data(forKey: "joryio_push.token-v1") == Data("token".utf8))

            try store.removeAll()
            #expect(try store.data(forKey: "joryio_push.token-v1") == nil)
            try store.set(Data("again".utf8), forKey: "jry_user_id")
            #expect(try store.data(forKey: "jry_user_id") == Data("again".utf8))
        }
    }

    @Test("invalid keys are refused", arguments: SecureBackend.allCases)
    func invalidKeys(backend: SecureBackend) throws {
        try withTemporaryDirectory { directory in
            let store = try self.open(backend, directory)
            let keys = [
                "", "user_id", "jry_", "jry_a/b", "jry_../../etc", "jry_with space", "jry_é",
                String(repeating: "jry_x", count: 50),
            ]
            for key in keys {
                #expect {
                    try store.set(Data("x".utf8), forKey: key)
                } throws: { error in
                    (error as? StorageError)?.code == .invalidKey
                }
                #expect {
                    _ = try store.data(forKey: key)
                } throws: { error in
                    (error as? StorageError)?.code == .invalidKey
                }
            }
            if backend == .file {
                #expect(try fileNames(in: directory.appendingPathComponent("secure")).isEmpty)
            }
        }
    }

    @Test("the file store's directory is 0700, its files 0600, and items survive reopening")
    func fileModesAndReopen() throws {
        try withTemporaryDirectory { directory in
            let secure = directory.appendingPathComponent("secure")
            try FileManager.default.createDirectory(
                at: secure,
                withIntermediateDirectories: false,
                attributes: [.posixPermissions: 0o755]
            )
            try FileSecureStore(directory: secure).set(Data("user".utf8), forKey: "jry_user_id")
            try Data("partial".utf8).write(to: secure.appendingPathComponent(".jry_token.tmp"))
            try Data("foreign".utf8).write(to: secure.appendingPathComponent("README"))

            let reopened = try FileSecureStore(directory: secure)
            #expect(try posixPermissions(secure) == 0o700)
            #expect(try posixPermissions(secure.appendingPathComponent("jry_user_id")) == 0o600)
            #expect(try reopened.data(forKey: "jry_user_id") == Data("user".utf8))
            #expect(try fileNames(in: secure) == ["README", "jry_user_id"])

            try reopened.removeAll()
            #expect(try fileNames(in: secure) == ["README"])
            #expect(try FileSecureStore(directory: secure).data(forKey: "jry_user_id") == nil)
        }
    }

    private func open(_ backend: SecureBackend, _ directory: URL) throws -> any SecureStore {
        switch backend {
        case .file:
            try FileSecureStore(directory: directory.appendingPathComponent("secure"))
        case .inMemory:
            InMemorySecureStore()
        }
    }
}
