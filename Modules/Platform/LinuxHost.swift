#if os(Linux)
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What ``LinuxDeviceFactsProvider`` reads from the host, as closures so tests can feed fixtures.
///
/// None of these is a required-reason API (STORE-10): file contents and a symbolic link's target,
/// never file timestamps, uptime or disk space.
package struct LinuxHost: Sendable {
    /// What `uname(2)` reports.
    package struct Kernel: Sendable, Equatable {
        /// The kernel's name (`Linux`).
        package var name: String
        /// The kernel's release (`6.1.0-18-amd64`).
        package var release: String
        /// The hardware (`x86_64`, `aarch64`).
        package var machine: String

        /// Creates a `uname` result.
        package init(name: String, release: String, machine: String) {
            self.name = name
            self.release = release
            self.machine = machine
        }
    }

    /// The process environment.
    package var environment: @Sendable () -> [String: String]
    /// The contents of the file at a path, or `nil` when it cannot be read.
    package var readFile: @Sendable (String) -> String?
    /// The target of the symbolic link at a path, or `nil` when it is not one.
    package var readLink: @Sendable (String) -> String?
    /// The `uname(2)` result, or `nil` when the call fails.
    package var kernel: @Sendable () -> Kernel?

    /// Creates a host from its sources.
    package init(
        environment: @escaping @Sendable () -> [String: String],
        readFile: @escaping @Sendable (String) -> String?,
        readLink: @escaping @Sendable (String) -> String?,
        kernel: @escaping @Sendable () -> Kernel?
    ) {
        self.environment = environment
        self.readFile = readFile
        self.readLink = readLink
        self.kernel = kernel
    }

    /// The real host: the process environment, the file system and the `uname` system call.
    package static func live() -> LinuxHost {
        LinuxHost(
            environment: { ProcessInfo.processInfo.environment },
            readFile: Self.readSmallFile,
            readLink: { path in try? FileManager.default.destinationOfSymbolicLink(atPath: path) },
            kernel: Self.uname
        )
    }

    /// The largest part of a file that is read: the files read here are a few hundred bytes.
    private static let readLimit = 64 * 1024

    /// The first ``readLimit`` bytes of the file at `path`, decoded as UTF-8 (invalid bytes replaced).
    @Sendable private static func readSmallFile(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: Self.readLimit) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The `uname(2)` system call (not a `uname` subprocess).
    @Sendable private static func uname() -> Kernel? {
        var info = utsname()
        #if canImport(Glibc)
        guard Glibc.uname(&info) == 0 else { return nil }
        #else
        guard Musl.uname(&info) == 0 else { return nil }
        #endif
        return Kernel(
            name: Self.string(from: info.sysname),
            release: Self.string(from: info.release),
            machine: Self.string(from: info.machine)
        )
    }

    /// The NUL-terminated C string in a fixed-size `utsname` field.
    private static func string<Field>(from field: Field) -> String {
        withUnsafeBytes(of: field) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
#endif
