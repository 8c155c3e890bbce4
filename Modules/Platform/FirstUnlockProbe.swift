internal import Foundation

/// Decides whether the SDK's storage is readable yet, from a small file kept with
/// `completeUntilFirstUserAuthentication` protection (INIT-14, INIT-15): before the first unlock
/// since power-on it cannot be read or created ("no permission"); once the device has been unlocked,
/// even if it is locked again, it can. Any other failure (a missing directory, a full disk) is not
/// this wait: the stores are opened and report their own error.
///
/// The file operations are passed in, so the decision is tested on Linux; on Apple platforms they
/// are `Data(contentsOf:)` and `Data.write(to:options:)` with the protection option.
public struct FirstUnlockProbe: Sendable {
    /// Reads the probe file.
    public var read: @Sendable () throws -> Void
    /// Creates it with the protection class.
    public var create: @Sendable () throws -> Void

    /// A probe over these operations.
    public init(read: @escaping @Sendable () throws -> Void, create: @escaping @Sendable () throws -> Void) {
        self.read = read
        self.create = create
    }

    /// Whether the storage can be read now.
    public func isReadable() -> Bool {
        do {
            try self.read()
            return true
        } catch {
            if Self.isProtectionError(error) { return false }
        }
        do {
            try self.create()
            return true
        } catch {
            return !Self.isProtectionError(error)
        }
    }

    /// Whether `error` is the file system refusing a protected file (the device has not been
    /// unlocked since it started), as opposed to any other failure.
    public static func isProtectionError(_ error: any Error) -> Bool {
        if let cocoa = error as? CocoaError {
            return cocoa.code == .fileReadNoPermission || cocoa.code == .fileWriteNoPermission
        }
        if let posix = error as? POSIXError {
            return posix.code == .EPERM || posix.code == .EACCES
        }
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain {
            return nsError.code == Int(EPERM) || nsError.code == Int(EACCES)
        }
        return false
    }
}
