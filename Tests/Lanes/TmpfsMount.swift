package import Foundation
package import Testing

#if canImport(Glibc)
import Glibc
#endif

extension Tag {
    /// Tests that mount a small tmpfs to fill a real file system (a full disk): they need root and a
    /// working `mount(2)`, and are skipped with the reason otherwise (``TmpfsMount/unavailableReason``).
    ///
    /// They run in the sandbox lane (`make test-sandbox-swift`), never in the unit lane: their suite
    /// also carries ``sandbox`` and its type name starts with `Sandbox`.
    @Tag package static var tmpfs: Self
}

/// A tmpfs of a fixed size mounted on a fresh directory, for tests of a really full disk.
///
/// Linux only, and only as root: ``unavailableReason`` says why not otherwise, for
/// `.enabled(if: TmpfsMount.isAvailable, TmpfsMount.skipComment)`.
package final class TmpfsMount {
    /// The mount point.
    package let directory: URL
    private var mounted = true

    /// Why no tmpfs can be mounted here, or `nil` when it can (probed once, by mounting one).
    package static let unavailableReason: String? = probe()

    /// Whether a tmpfs can be mounted here.
    package static var isAvailable: Bool { unavailableReason == nil }

    /// The comment a skipped test carries.
    package static var skipComment: Comment {
        Comment(
            rawValue:
                "a tmpfs cannot be mounted here (\(unavailableReason ?? "")); run as root on Linux to fill a real disk"
        )
    }

    /// Mounts a tmpfs of `bytes` (rounded up to pages) on a fresh directory under the temporary directory.
    package init(bytes: Int) throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("joryio-tmpfs-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if let failure = Self.mount(at: directory.path, bytes: bytes) {
            try? FileManager.default.removeItem(at: directory)
            throw TmpfsError(message: failure)
        }
        self.directory = directory
    }

    deinit {
        self.unmount()
    }

    /// Unmounts the tmpfs (everything in it is gone) and removes the mount point. Idempotent.
    package func unmount() {
        guard self.mounted else { return }
        self.mounted = false
        #if canImport(Glibc)
        _ = umount2(self.directory.path, Int32(MNT_DETACH))
        #endif
        try? FileManager.default.removeItem(at: self.directory)
    }

    /// Bytes still free for an unprivileged writer.
    package var freeBytes: Int {
        #if canImport(Glibc)
        var stats = statvfs()
        guard statvfs(self.directory.path, &stats) == 0 else { return 0 }
        return Int(stats.f_bavail) * Int(stats.f_frsize)
        #else
        return 0
        #endif
    }

    /// Writes `name` with zeros until the file system is full (`ENOSPC`), leaving `slack` bytes
    /// free. Returns the file's URL; delete it to give the space back.
    @discardableResult
    package func fill(name: String = "filler", leaving slack: Int = 0) throws -> URL {
        let url = self.directory.appendingPathComponent(name)
        #if canImport(Glibc)
        // Close-on-exec: a child another test spawns meanwhile (the crash test's) must not inherit
        // the descriptor, or the file's space stays held after it is deleted.
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw TmpfsError(message: "cannot create \(name): errno \(errno)") }
        defer { close(descriptor) }
        let chunk = [UInt8](repeating: 0, count: 4_096)
        while true {
            let wanted = min(chunk.count, self.freeBytes - slack)
            guard wanted > 0 else { break }
            let written = chunk.withUnsafeBytes { write(descriptor, $0.baseAddress, wanted) }
            if written < 0 {
                guard errno == ENOSPC else { throw TmpfsError(message: "writing \(name): errno \(errno)") }
                break
            }
        }
        #endif
        return url
    }

    private static func probe() -> String? {
        #if canImport(Glibc)
        guard geteuid() == 0 else { return "not running as root" }
        do {
            let probe = try TmpfsMount(bytes: 65_536)
            probe.unmount()
            return nil
        } catch {
            return "\(error)"
        }
        #else
        return "tmpfs is Linux only"
        #endif
    }

    /// `mount -t tmpfs -o size=<bytes>,mode=0700 tmpfs <path>`; returns why it failed, or `nil`.
    private static func mount(at path: String, bytes: Int) -> String? {
        #if canImport(Glibc)
        let result = "size=\(bytes),mode=0700".withCString { options in
            Glibc.mount("tmpfs", path, "tmpfs", 0, options)
        }
        return result == 0 ? nil : "mount(2) failed: \(String(cString: strerror(errno)))"
        #else
        return "tmpfs is Linux only"
        #endif
    }
}

/// Why a tmpfs could not be mounted or filled.
package struct TmpfsError: Error, CustomStringConvertible {
    /// What failed.
    package var message: String

    /// The message.
    package var description: String { self.message }
}
