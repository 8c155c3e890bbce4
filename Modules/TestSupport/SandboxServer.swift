#if os(Linux) || os(macOS)
public import Foundation
internal import JoryioCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The local Joryio sandbox backend (`Tools/sandbox/sandbox.py`) running as a child process on
/// 127.0.0.1, for integration tests.
///
/// Each instance starts its own `python3 sandbox.py --port 0 --exit-on-stdin-eof --quiet`, keeps a pipe
/// on its stdin (so the sandbox exits with the test process, even after a crash) and waits, bounded by
/// `startupTimeout`, for the line `JORYIO_SANDBOX_URL=http://127.0.0.1:PORT`. ``stop()`` (also run by
/// `deinit`) closes that pipe and waits for the process to exit.
///
/// ```swift
/// let sandbox = try SandboxServer()
/// defer { sandbox.stop() }
/// let url = sandbox.apiHost.appendingPathComponent("v1/events")
/// // … send requests …
/// let recorded = try sandbox.requests(path: "/api/v1/events")
/// ```
///
/// The script is `$JORYIO_SANDBOX_SCRIPT` when set, otherwise `Tools/sandbox/sandbox.py` in the package
/// that contains this file. `Sendable`; the control methods (``requests(path:)``, ``events()``,
/// `addFault(…)`, ``clearFaults()``, ``reset()``, ``measure(_:)``) are synchronous and may be called from
/// any thread.
public final class SandboxServer: Sendable {
    /// The sandbox root, such as `http://127.0.0.1:49152`; control routes live under `/_sandbox`.
    public let baseURL: URL
    /// The SDK's API host: ``baseURL`` + `/api`.
    public var apiHost: URL { self.baseURL.appendingPathComponent("api") }

    private let process: Process
    private let stdinPipe: Pipe
    private let stdoutPipe: Pipe
    private let exited: DispatchSemaphore
    private let stopped = Locked(false)
    /// Used by the control methods through ``startTask(_:completion:)``; invalidated by ``stop()``.
    private let session: URLSession

    /// Starts a sandbox and waits until it accepts connections.
    ///
    /// - Parameters:
    ///   - scriptPath: The `sandbox.py` to run; `nil` uses ``locateScript(filePath:)``.
    ///   - startupTimeout: How long to wait for the sandbox to print its URL.
    /// - Throws: ``SandboxError`` when the script is missing, cannot start, or does not report a URL in time.
    public init(scriptPath: String? = nil, startupTimeout: TimeInterval = 30) throws(SandboxError) {
        guard let script = scriptPath ?? Self.locateScript() else {
            throw SandboxError("sandbox.py not found: set JORYIO_SANDBOX_SCRIPT or run inside the SDK package")
        }
        guard FileManager.default.fileExists(atPath: script) else {
            throw SandboxError("sandbox script \(script) does not exist")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, "--port", "0", "--exit-on-stdin-eof", "--quiet"]
        let stdinPipe = Pipe()
        let stdoutPipe = Pipe()
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe

        let output = Locked((text: "", url: URL?.none))
        let started = DispatchSemaphore(value: 0)
        let exited = DispatchSemaphore(value: 0)
        stdoutPipe.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            if chunk.isEmpty {
                handle.readabilityHandler = nil  // EOF: stop polling
            }
            let found = output.withLock { state -> Bool in
                guard state.url == nil else { return false }
                state.text += String(decoding: chunk, as: UTF8.self)
                state.url = Self.parseURL(state.text)
                return state.url != nil || chunk.isEmpty
            }
            if found {
                started.signal()
            }
        }
        process.terminationHandler = { _ in
            started.signal()
            exited.signal()
        }
        do {
            try process.run()
        } catch {
            stdoutPipe.fileHandleForReading.readabilityHandler = nil
            throw SandboxError("cannot start python3 \(script): \(error)")
        }

        let timedOut = started.wait(timeout: .now() + startupTimeout) == .timedOut
        guard !timedOut, let url = output.value.url else {
            stdoutPipe.fileHandleForReading.readabilityHandler = nil
            Self.terminate(process, stdin: stdinPipe, exited: exited)
            let reason =
                timedOut ? "did not report its URL within \(startupTimeout) s" : "exited before reporting its URL"
            throw SandboxError("sandbox \(reason); output: \(output.value.text)")
        }
        self.baseURL = url
        self.process = process
        self.stdinPipe = stdinPipe
        self.stdoutPipe = stdoutPipe
        self.exited = exited
        self.session = URLSession(configuration: .ephemeral)
    }

    deinit {
        self.stop()
    }

    /// Terminates the sandbox and waits for it to exit. Idempotent.
    public func stop() {
        let alreadyStopped = self.stopped.withLock { stopped in
            defer { stopped = true }
            return stopped
        }
        guard !alreadyStopped else { return }
        self.session.invalidateAndCancel()
        self.stdoutPipe.fileHandleForReading.readabilityHandler = nil
        Self.terminate(self.process, stdin: self.stdinPipe, exited: self.exited)
    }

    /// Creates and resumes a data task on the control session, or returns `nil` once ``stop()`` ran
    /// (a task on an invalidated session traps, so the check and the creation share the lock).
    func startTask(
        _ request: URLRequest,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionDataTask? {
        self.stopped.withLock { stopped in
            guard !stopped else { return nil }
            let task = self.session.dataTask(with: request, completionHandler: completion)
            task.resume()
            return task
        }
    }

    /// `$JORYIO_SANDBOX_SCRIPT` if set; otherwise `Tools/sandbox/sandbox.py` under the nearest directory
    /// above this source file that holds `Package.swift`; `nil` when neither exists.
    public static func locateScript(filePath: String = #filePath) -> String? {
        if let path = ProcessInfo.processInfo.environment["JORYIO_SANDBOX_SCRIPT"], !path.isEmpty {
            return path
        }
        var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while directory.path != "/" && !directory.path.isEmpty {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                let script = directory.appendingPathComponent("Tools/sandbox/sandbox.py")
                return FileManager.default.fileExists(atPath: script.path) ? script.path : nil
            }
            directory.deleteLastPathComponent()
        }
        return nil
    }

    /// The URL from the first `JORYIO_SANDBOX_URL=` line of `text`, once that line is complete.
    private static func parseURL(_ text: String) -> URL? {
        let prefix = "JORYIO_SANDBOX_URL="
        guard let start = text.range(of: prefix), let end = text[start.upperBound...].firstIndex(of: "\n") else {
            return nil
        }
        return URL(string: text[start.upperBound..<end].trimmingCharacters(in: .whitespaces))
    }

    /// Closes the sandbox's stdin, which makes `--exit-on-stdin-eof` exit it at once, and waits; SIGKILL
    /// after 5 s.
    ///
    /// Not SIGTERM: on Linux, `Process` children started from a Dispatch or Swift-concurrency thread
    /// inherit that thread's signal mask, in which SIGTERM is blocked, so the signal would never arrive.
    private static func terminate(_ process: Process, stdin: Pipe, exited: DispatchSemaphore) {
        try? stdin.fileHandleForWriting.close()
        if exited.wait(timeout: .now() + 5) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            _ = exited.wait(timeout: .now() + 10)
        }
    }
}

/// A sandbox that could not start, or a control request that failed.
public struct SandboxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public var message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    /// `SandboxError: message`.
    public var description: String { "SandboxError: \(self.message)" }
}
#endif
