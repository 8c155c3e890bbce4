package import Foundation
package import JoryioCore

/// A ``SecureStore`` for platforms without a Keychain: one 0600 file per item in a 0700 directory.
///
/// The directory is created with mode 0700, and an existing one is forced to 0700. Each item is
/// written atomically (temp file, `fsync`, `rename`), so a crash leaves the old value or the new one.
/// Keys follow ``StorageKey`` and may only use `A-Z a-z 0-9 _ . -`, because they name the files.
///
/// This protects the items from other users of the machine, not from the app's own user: it is the
/// Linux counterpart of the Keychain's "this device only" class, without encryption at rest.
///
/// `FileSecureStore` is `Sendable`; a lock serializes calls. Use one instance per directory.
package final class FileSecureStore: SecureStore {
    /// The directory holding one file per item.
    package let directory: URL
    private let lock = Locked(())

    /// Opens the store in `directory`, creating it or forcing it to mode 0700.
    ///
    /// Temp files left by an interrupted write are deleted.
    ///
    /// - Throws: ``StorageError`` with code `.cannotOpen` when the directory cannot be created or
    ///   restricted, `.io` when it cannot be read.
    package init(directory: URL) throws(StorageError) {
        self.directory = directory
        try FileSystem.createDirectory(directory, forcePrivateMode: true)
        for name in try FileSystem.contentsOfDirectory(directory) where Self.isTemporary(name) {
            try FileSystem.removeFile(directory.appendingPathComponent(name))
        }
    }

    /// The item stored under `key`, or `nil`.
    ///
    /// - Throws: ``StorageError`` with code `.invalidKey` for a key that breaks the rules, `.io` when
    ///   the file cannot be read.
    package func data(forKey key: String) throws(StorageError) -> Data? {
        try SecureStoreKey.validate(key)
        return try self.lock.withLockThrowing { _ throws(StorageError) in
            try FileSystem.readFile(self.itemURL(key))
        }
    }

    /// Writes the item's file atomically (mode 0600), or deletes it when `data` is `nil`.
    ///
    /// - Throws: ``StorageError`` with code `.invalidKey` for a key that breaks the rules, `.full` or
    ///   `.io` when the file cannot be written (the previous value is then intact).
    package func set(_ data: Data?, forKey key: String) throws(StorageError) {
        try SecureStoreKey.validate(key)
        try self.lock.withLockThrowing { _ throws(StorageError) in
            if let data {
                try FileSystem.replaceAtomically(self.itemURL(key), with: data)
            } else {
                try FileSystem.removeFile(self.itemURL(key))
            }
        }
    }

    /// Deletes every item file (and leftover temp file) in the directory; other files are kept.
    package func removeAll() throws(StorageError) {
        try self.lock.withLockThrowing { _ throws(StorageError) in
            for name in try FileSystem.contentsOfDirectory(self.directory)
            where Self.isTemporary(name) || StorageKey.isValid(name) {
                try FileSystem.removeFile(self.directory.appendingPathComponent(name))
            }
        }
    }

    private func itemURL(_ key: String) -> URL {
        self.directory.appendingPathComponent(key)
    }

    /// Temp files are `.<key>.tmp` (see ``FileSystem/temporaryURL(for:)``).
    private static func isTemporary(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(".tmp")
    }
}
