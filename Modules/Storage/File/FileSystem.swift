internal import Foundation
internal import JoryioCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

/// POSIX file operations shared by the file-backed stores: exact modes, `fsync` and atomic renames.
///
/// Errors name only the last path component, never a full path (it can contain a user name).
enum FileSystem {
    /// `rw-------`: every file a store writes.
    static let privateFileMode: mode_t = 0o600
    /// `rwx------`: every directory a store owns.
    static let privateDirectoryMode: mode_t = 0o700

    /// Creates `url` and its missing parents (new directories get mode 0700).
    ///
    /// With `forcePrivateMode`, an existing directory is also set to 0700.
    static func createDirectory(_ url: URL, forcePrivateMode: Bool) throws(StorageError) {
        do {
            try FileManager.default.createDirectory(
                at: url,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: Int(Self.privateDirectoryMode)]
            )
        } catch {
            throw StorageError(
                .cannotOpen,
                "cannot create directory \(url.lastPathComponent) (\(Self.code(of: error)))"
            )
        }
        if forcePrivateMode, chmod(url.path, Self.privateDirectoryMode) != 0 {
            throw Self.error(errno, "chmod", url, default: .cannotOpen)
        }
    }

    /// The names of the entries of `directory`.
    static func contentsOfDirectory(_ directory: URL) throws(StorageError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw StorageError(.io, "cannot list \(directory.lastPathComponent) (\(Self.code(of: error)))")
        }
    }

    /// Writes `data` to a file with mode 0600 and `fsync`s it before returning.
    ///
    /// With `replacing: false` the file must not exist yet. A failed write removes the file again.
    static func writeFile(_ data: Data, to url: URL, replacing: Bool) throws(StorageError) {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (replacing ? O_TRUNC : O_EXCL)
        let descriptor = open(url.path, flags, Self.privateFileMode)
        guard descriptor >= 0 else {
            throw Self.error(errno, "create", url)
        }
        var failure: (code: Int32, operation: String)?
        if fchmod(descriptor, Self.privateFileMode) != 0 {
            failure = (errno, "chmod")
        } else if let code = Self.writeAll(data, to: descriptor) {
            failure = (code, "write")
        } else if fsync(descriptor) != 0 {
            failure = (errno, "fsync")
        }
        if close(descriptor) != 0, failure == nil {
            failure = (errno, "close")
        }
        if let failure {
            unlink(url.path)
            throw Self.error(failure.code, failure.operation, url)
        }
    }

    /// Replaces `url` with `data` atomically: a 0600 temp file in the same directory, `fsync`, `rename`,
    /// then an `fsync` of the directory. Readers see the old or the new contents, never a mix.
    static func replaceAtomically(_ url: URL, with data: Data) throws(StorageError) {
        let temporary = Self.temporaryURL(for: url)
        try Self.writeFile(data, to: temporary, replacing: true)
        do {
            try Self.renameItem(temporary, to: url)
        } catch {
            unlink(temporary.path)
            throw error
        }
        Self.syncDirectory(url.deletingLastPathComponent())
    }

    /// The temp file ``replaceAtomically(_:with:)`` uses for `url`: `.<name>.tmp` next to it.
    static func temporaryURL(for url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp")
    }

    /// Reads a whole file, or returns `nil` when it does not exist.
    static func readFile(_ url: URL) throws(StorageError) -> Data? {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            throw Self.error(code, "open", url)
        }
        defer { close(descriptor) }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.error(errno, "read", url)
            }
            data.append(contentsOf: chunk[0..<count])
        }
    }

    /// The size of a file in bytes, or `nil` when it does not exist.
    ///
    /// Measured with `lseek(SEEK_END)` on a descriptor, not with `stat`/`lstat`: Apple lists the
    /// `stat` family as file-timestamp required-reason APIs whatever field is read (STORE-10,
    /// PRIVACY-7). Like ``readFile(_:)``, it follows a symlink, so the size is that of what a read
    /// returns (a record file is never a symlink unless something else planted it).
    static func fileSize(_ url: URL) throws(StorageError) -> Int? {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            throw Self.error(code, "open", url)
        }
        defer { close(descriptor) }
        let end = lseek(descriptor, 0, SEEK_END)
        guard end >= 0 else {
            throw Self.error(errno, "seek", url)
        }
        return Int(end)
    }

    /// Renames `source` to `destination`, replacing it.
    static func renameItem(_ source: URL, to destination: URL) throws(StorageError) {
        guard rename(source.path, destination.path) == 0 else {
            throw Self.error(errno, "rename", source)
        }
    }

    /// Deletes a file; a missing file is not an error.
    static func removeFile(_ url: URL) throws(StorageError) {
        guard unlink(url.path) == 0 || errno == ENOENT else {
            throw Self.error(errno, "delete", url)
        }
    }

    /// Best effort `fsync` of a directory, so renames and new entries in it survive a power loss.
    static func syncDirectory(_ directory: URL) {
        let descriptor = open(directory.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    /// Maps `errno` to a ``StorageError``: no space or quota is `.full`, anything else `fallback`.
    static func error(
        _ code: Int32,
        _ operation: String,
        _ url: URL,
        default fallback: StorageError.Code = .io
    ) -> StorageError {
        let kind: StorageError.Code = (code == ENOSPC || code == EDQUOT) ? .full : fallback
        let reason = String(cString: strerror(code))
        return StorageError(kind, "\(operation) \(url.lastPathComponent) failed: \(reason) (errno \(code))")
    }

    private static func writeAll(_ data: Data, to descriptor: Int32) -> Int32? {
        data.withUnsafeBytes { buffer -> Int32? in
            guard let base = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }

    private static func code(of error: any Error) -> String {
        let nsError = error as NSError
        return "\(nsError.domain) \(nsError.code)"
    }
}
