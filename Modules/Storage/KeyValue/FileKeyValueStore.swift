package import Foundation
package import JoryioCore

/// A ``KeyValueStore`` in one JSON file, for platforms without `UserDefaults` semantics worth using.
///
/// The whole map is cached in memory. Every write rewrites the file atomically (a 0600 temp file,
/// `fsync`, `rename`, `fsync` of the directory), so after a crash the file holds the old map or the
/// new one, never a mix. Values are stored as base64 strings inside
/// `{"version": 1, "values": {"jry_…": "…"}}`.
///
/// A file that cannot be decoded (or was written by a newer format version) is renamed to
/// `<name>.corrupt-<millis>` (`.newer-<millis>`), an error is logged, and the store starts empty.
///
/// `FileKeyValueStore` is `Sendable`; a lock serializes calls. Use one instance per file.
package final class FileKeyValueStore: KeyValueStore {
    private struct Envelope: Codable {
        var version: Int
        var values: [String: String]
    }

    /// What ``decode(_:)`` made of a settings file (package access for the fuzz target).
    package enum Loaded {
        case values([String: Data])
        case unusable(reason: String)
    }

    /// The version of the file format this SDK writes.
    static let formatVersion = 1

    /// The file holding the map.
    package let fileURL: URL
    private let values: Locked<[String: Data]>

    /// Opens the store, loading `fileURL` when it exists and creating its directory when it does not.
    ///
    /// - Parameters:
    ///   - fileURL: The JSON file.
    ///   - clock: Supplies the milliseconds in the name of a quarantined file.
    ///   - logger: Receives an error record when the file is quarantined.
    /// - Throws: ``StorageError`` when the directory cannot be created (`.cannotOpen`), the file cannot
    ///   be read (`.io`) or an unusable file cannot be moved aside.
    package init(fileURL: URL, clock: any Clock, logger: Logger) throws(StorageError) {
        self.fileURL = fileURL
        try FileSystem.createDirectory(fileURL.deletingLastPathComponent(), forcePrivateMode: false)
        try FileSystem.removeFile(FileSystem.temporaryURL(for: fileURL))
        var values: [String: Data] = [:]
        if let data = try FileSystem.readFile(fileURL) {
            switch Self.decode(data) {
            case .values(let decoded):
                values = decoded
            case .unusable(let reason):
                let movedTo = try Quarantine.moveAside(fileURL, reason: reason, clock: clock)
                logger.error(
                    "settings file was unusable; moved it aside and started empty",
                    ["file": fileURL.lastPathComponent, "movedTo": movedTo.lastPathComponent]
                )
            }
        }
        self.values = Locked(values)
    }

    /// The value stored under `key`, or `nil` (also for an invalid key).
    package func data(forKey key: String) -> Data? {
        self.values.withLock { $0[key] }
    }

    /// Stores `data` under `key` (or removes the key) and rewrites the file before returning.
    ///
    /// - Throws: ``StorageError`` with code `.invalidKey` for a key without the `jry_` / `joryio_`
    ///   prefix; `.full` or `.io` when the file cannot be written (the stored map is then unchanged).
    package func set(_ data: Data?, forKey key: String) throws(StorageError) {
        try StorageKey.validate(key)
        try self.values.withLockThrowing { values throws(StorageError) in
            var updated = values
            updated[key] = data
            try FileSystem.replaceAtomically(self.fileURL, with: try Self.encode(updated))
            values = updated
        }
    }

    /// Every key stored, sorted.
    package func allKeys() -> [String] {
        self.values.withLock { $0.keys.sorted() }
    }

    // MARK: - Coding

    package static func encode(_ values: [String: Data]) throws(StorageError) -> Data {
        let envelope = Envelope(version: Self.formatVersion, values: values.mapValues { $0.base64EncodedString() })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return try encoder.encode(envelope)
        } catch {
            throw StorageError(.io, "cannot encode the settings file")
        }
    }

    package static func decode(_ data: Data) -> Loaded {
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: data) else {
            return .unusable(reason: "corrupt")
        }
        guard envelope.version <= Self.formatVersion else {
            return .unusable(reason: "newer")
        }
        var values: [String: Data] = [:]
        for (key, encoded) in envelope.values where StorageKey.isValid(key) {
            guard let value = Data(base64Encoded: encoded) else { return .unusable(reason: "corrupt") }
            values[key] = value
        }
        return .values(values)
    }
}
