import Foundation
import JoryioCore
import JoryioStorage
import JoryioTesting
import Testing

/// A key-value backend the contract suite runs over.
enum KeyValueBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case file
    case userDefaults
    case inMemory

    var isPersistent: Bool {
        self != .inMemory
    }

    var testDescription: String {
        self.rawValue
    }
}

/// Opens key-value stores of one backend over one temp directory (or one unique defaults suite).
struct KeyValueHarness {
    let backend: KeyValueBackend
    let directory: URL
    let suiteName = "io.joryio.storage-tests.\(UUID().uuidString)"
    private let memory = InMemoryKeyValueStore()

    init(backend: KeyValueBackend, directory: URL) {
        self.backend = backend
        self.directory = directory
    }

    /// A store over the harness's storage; a second call sees what the first one wrote.
    func open() throws -> any KeyValueStore {
        switch self.backend {
        case .file:
            try FileKeyValueStore(
                fileURL: self.directory.appendingPathComponent("settings.json"),
                clock: StorageTestClock(),
                logger: .disabled
            )
        case .userDefaults:
            try UserDefaultsKeyValueStore(suiteName: self.suiteName)
        case .inMemory:
            self.memory
        }
    }

    /// Deletes the defaults suite.
    func cleanUp() {
        if self.backend == .userDefaults {
            UserDefaults(suiteName: self.suiteName)?.removePersistentDomain(forName: self.suiteName)
        }
    }
}

func withKeyValueHarness<T>(_ backend: KeyValueBackend, _ body: (KeyValueHarness) throws -> T) throws -> T {
    try withTemporaryDirectory { directory in
        let harness = KeyValueHarness(backend: backend, directory: directory)
        defer { harness.cleanUp() }
        return try body(harness)
    }
}

/// The ``KeyValueStore`` contract, run over every backend.
@Suite("KeyValueStore contract")
struct KeyValueStoreContractTests {
    @Test("values round-trip, are replaced and removed", arguments: KeyValueBackend.allCases)
    func roundTrip(backend: KeyValueBackend) throws {
        try withKeyValueHarness(backend) { harness in
            let store = try harness.open()
            #expect(store.data(forKey: "jry_anonymous_id") == nil)

            try store.set(Data("one".utf8), forKey: "jry_anonymous_id")
            try store.set(Data(), forKey: "joryio_empty")
            try store.set(Data([0, 255, 10]), forKey: "jry_binary")
            #expect(store.data(forKey: "jry_anonymous_id") == Data("one".utf8))
            #expect(store.data(forKey: "joryio_empty") == Data())
            #expect(store.data(forKey: "jry_binary") == Data([0, 255, 10]))

            try store.set(Data("two".utf8), forKey: "jry_anonymous_id")
            #expect(store.data(forKey: "jry_anonymous_id") == Data("two".utf8))
            try store.set(nil, forKey: "jry_binary")
            try store.set(nil, forKey: "jry_never_set")
            #expect(store.data(forKey: "jry_binary") == nil)
            #expect(store.allKeys() == ["joryio_empty", "jry_anonymous_id"])
        }
    }

    @Test("keys without the jry_ / joryio_ prefix are refused", arguments: KeyValueBackend.allCases)
    func invalidKeys(backend: KeyValueBackend) throws {
        try withKeyValueHarness(backend) { harness in
            let store = try harness.open()
            for key in ["", "anonymous_id", "jry_", "joryio_", "JRY_id", "xjry_id"] {
                #expect {
                    try store.set(Data("x".utf8), forKey: key)
                } throws: { error in
                    (error as? StorageError)?.code == .invalidKey
                }
                #expect(store.data(forKey: key) == nil)
            }
            #expect(store.allKeys().isEmpty)
        }
    }

    @Test("values survive reopening", arguments: KeyValueBackend.allCases.filter(\.isPersistent))
    func survivesReopen(backend: KeyValueBackend) throws {
        try withKeyValueHarness(backend) { harness in
            let first = try harness.open()
            try first.set(Data("device".utf8), forKey: "jry_device_id")
            try first.set(Data("gone".utf8), forKey: "jry_removed")
            try first.set(nil, forKey: "jry_removed")

            let second = try harness.open()
            #expect(second.data(forKey: "jry_device_id") == Data("device".utf8))
            #expect(second.data(forKey: "jry_removed") == nil)
            #expect(second.allKeys() == ["jry_device_id"])
        }
    }
}
