import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One run of `joryio-crash-child` (Tools/CrashChild): a real process whose standard output the
/// test reads line by line, blocking, and which it can kill with SIGKILL at any line.
///
/// Everything here blocks the calling thread on the child's output or exit (event-driven, never on
/// a timer); ``SandboxCrashTests`` runs it on a thread of its own.
final class CrashChildProcess {
    let pid: pid_t
    private var output: Int32
    private var buffer: [UInt8] = []
    private var atEnd = false
    private var reaped = false
    /// Every line read so far, oldest first.
    private(set) var lines: [String] = []

    /// Starts `executable` with `arguments`; its standard error is appended to `stderrPath`.
    init(executable: String, arguments: [String], stderrPath: String) throws(CrashChildError) {
        var fds: [Int32] = [0, 0]
        // (pipe2 is not visible from Swift's Glibc.) Close-on-exec, so that no other process started
        // meanwhile holds the write end open: the output ends when this child dies.
        guard pipe(&fds) == 0 else { throw CrashChildError("pipe: errno \(errno)") }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        defer { close(fds[1]) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        // The child gets nothing else of this process: other suites run meanwhile, and a descriptor
        // they opened without close-on-exec (a file they delete to free space, a socket they close)
        // would otherwise stay open in the child until it dies. (glibc ignores a close that fails
        // because the descriptor was closed since it was listed.)
        for descriptor in Self.openDescriptors() where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }

        // A child started from a Dispatch or Swift-concurrency thread would inherit its signal mask.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard status == 0 else {
            close(fds[0])
            throw CrashChildError("posix_spawn \(executable): errno \(status)")
        }
        self.pid = pid
        self.output = fds[0]
    }

    /// This process's open descriptors (Linux: `/proc/self/fd`; elsewhere none are listed).
    private static func openDescriptors() -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap(Int32.init)
    }

    deinit {
        if !self.reaped {
            kill(self.pid, SIGKILL)
            self.reap()
        }
        if self.output >= 0 { close(self.output) }
    }

    /// The next complete line of output, or `nil` once the child closed its standard output (it
    /// exited or was killed) and every line was read.
    func nextLine() -> String? {
        while true {
            if let newline = self.buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: self.buffer[..<newline], as: UTF8.self)
                self.buffer.removeSubrange(...newline)
                self.lines.append(line)
                return line
            }
            guard !self.atEnd else { return nil }
            var chunk = [UInt8](repeating: 0, count: 4_096)
            let count = chunk.withUnsafeMutableBytes { read(self.output, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                self.atEnd = true
            } else if count == 0 {
                self.atEnd = true
            } else {
                self.buffer.append(contentsOf: chunk[..<count])
            }
        }
    }

    /// SIGKILL, now.
    func sigkill() {
        kill(self.pid, SIGKILL)
    }

    /// Reads the output to its end (the lines written before the child died), then reaps the child.
    /// Returns the lines read by this call.
    @discardableResult
    func finish() -> [String] {
        var rest: [String] = []
        while let line = self.nextLine() { rest.append(line) }
        self.reap()
        return rest
    }

    /// Waits for the child to exit (it has closed its output, or was killed).
    private func reap() {
        guard !self.reaped else { return }
        self.reaped = true
        var status: Int32 = 0
        while waitpid(self.pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// `joryio-crash-child` next to the running test binary (`.build/<triple>/debug`), or
    /// `$JORYIO_CRASH_CHILD`; `nil` when it is not there (build with `make build`).
    static func locate() -> String? {
        if let path = ProcessInfo.processInfo.environment["JORYIO_CRASH_CHILD"], !path.isEmpty {
            return path
        }
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments.first ?? ""
        var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        while directory.path != "/" && !directory.path.isEmpty {
            let candidate = directory.appendingPathComponent("joryio-crash-child").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory.deleteLastPathComponent()
        }
        return nil
    }
}

/// A child that could not be started.
struct CrashChildError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
