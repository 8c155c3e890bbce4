package import Foundation
internal import JoryioCore

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// An exclusive advisory lock (`flock`) on a file in a storage directory: one SDK instance, in this
/// process or another, owns a directory's stores at a time (issue 13). The lock ends with
/// ``release()``, when the object is freed, or when the process ends, however it ends.
package final class StorageLock: Sendable {
    // Confined: owns the descriptor; `release` is the only other access, under the lock.
    private let descriptor: Locked<Int32>

    /// Why ``acquire(_:)`` did not lock.
    package enum Failure: Error, Equatable {
        /// Another instance holds it.
        case inUse
        /// The lock file cannot be opened (errno); the directory's other files may still work.
        case cannotOpen(Int32)
    }

    private init(descriptor: Int32) {
        self.descriptor = Locked(descriptor)
    }

    deinit {
        self.release()
    }

    /// Opens (creating, mode 0600) and locks `url`, without waiting.
    package static func acquire(_ url: URL) -> Result<StorageLock, Failure> {
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return .failure(.cannotOpen(errno)) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return .failure(.inUse)
        }
        return .success(StorageLock(descriptor: descriptor))
    }

    /// Unlocks and closes the file (once).
    package func release() {
        self.descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            flock(descriptor, LOCK_UN)
            close(descriptor)
            descriptor = -1
        }
    }
}
