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
/// `deinit`) closes that pipe, on which the sandbox exits at once.
///
/// In `async` code (Swift Testing's `async` tests), start it with ``start(scriptPath:startupTimeout:)``
/// and `await` the control methods, so no thread is blocked while the sandbox answers:
///
/// ```swift
/// let sandbox = try await SandboxServer.start()
/// defer { sandbox.stop() }
/// let url = sandbox.apiHost.appendingPathComponent("v1/events")
/// // … send requests …
/// let recorded = try await sandbox.requests(path: "/api/v1/events")
/// ```
///
/// Synchronous code (a command-line tool) uses ``init(scriptPath:startupTimeout:)`` and the synchronous
/// form of each control method (`requests(path:)`, `events()`, `addFault(…)`, `clearFaults()`,
/// `reset()`, `measure(_:)`, …), which blocks the calling thread until the sandbox answers. Every control
/// method comes in both forms; in an `async` context the compiler picks the `async` one.
///
/// The script is `$JORYIO_SANDBOX_SCRIPT` when set, otherwise `Tools/sandbox/sandbox.py` in the package
/// that contains this file. `Sendable`; the control methods may be called from any thread.
public final class SandboxServer: Sendable {
    /// The sandbox root, such as `http://127.0.0.1:49152`; control routes live under `/_sandbox`.
    public let baseURL: URL
    /// The SDK's API host: ``baseURL`` + `/api`.
    public var apiHost: URL { self.baseURL.appendingPathComponent("api") }

    private let child: Child
    private let stopped = Locked(false)
    /// Used by the control methods through ``startTask(_:completion:)``; invalidated by ``stop()``.
    private let session: URLSession

    /// Starts a sandbox and blocks the calling thread until it accepts connections.
    ///
    /// In `async` code, use ``start(scriptPath:startupTimeout:)`` instead: it suspends rather than blocks.
    ///
    /// - Parameters:
    ///   - scriptPath: The `sandbox.py` to run; `nil` uses ``locateScript(filePath:)``.
    ///   - startupTimeout: How long to wait for the sandbox to print its URL.
    /// - Throws: ``SandboxError`` when the script is missing, cannot start, or does not report a URL in time.
    public convenience init(scriptPath: String? = nil, startupTimeout: TimeInterval = 30) throws(SandboxError) {
        let outcome = Locked<Result<URL, SandboxError>?>(nil)
        let started = DispatchSemaphore(value: 0)
        let child = try Child(scriptPath: scriptPath, startupTimeout: startupTimeout) { result in
            outcome.withLock { $0 = result }
            started.signal()
        }
        started.wait()  // bounded: the startup timeout reports a result
        guard let result = outcome.value else {
            throw SandboxError("sandbox startup reported nothing")
        }
        self.init(child: child, baseURL: try result.get())
    }

    /// Starts a sandbox and suspends, without blocking a thread, until it accepts connections.
    ///
    /// - Parameters:
    ///   - scriptPath: The `sandbox.py` to run; `nil` uses ``locateScript(filePath:)``.
    ///   - startupTimeout: How long to wait for the sandbox to print its URL.
    /// - Returns: The running sandbox.
    /// - Throws: ``SandboxError`` when the script is missing, cannot start, or does not report a URL in time.
    public static func start(
        scriptPath: String? = nil,
        startupTimeout: TimeInterval = 30
    ) async throws(SandboxError) -> SandboxServer {
        let box = Locked<Child?>(nil)
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<URL, SandboxError>, Never>) in
            do throws(SandboxError) {
                let child = try Child(scriptPath: scriptPath, startupTimeout: startupTimeout) { result in
                    continuation.resume(returning: result)
                }
                box.withLock { $0 = child }
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }
        guard let child = box.value else {
            throw SandboxError("sandbox startup reported nothing")
        }
        return SandboxServer(child: child, baseURL: try result.get())
    }

    private init(child: Child, baseURL: URL) {
        self.child = child
        self.baseURL = baseURL
        self.session = URLSession(configuration: .ephemeral)
    }

    deinit {
        self.stop()
    }

    /// Terminates the sandbox. Idempotent; never blocks.
    ///
    /// It closes the sandbox's stdin, on which the sandbox exits at once; a sandbox still running 5 s
    /// later is killed. Control methods called afterwards throw ``SandboxError``.
    public func stop() {
        let alreadyStopped = self.stopped.withLock { stopped in
            defer { stopped = true }
            return stopped
        }
        guard !alreadyStopped else { return }
        self.session.invalidateAndCancel()
        self.child.terminate()
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
}

// MARK: - The child process

extension SandboxServer {
    /// The `python3 sandbox.py` process: started at init, which reports its URL (or why there is none)
    /// exactly once, without blocking any thread.
    private final class Child: Sendable {
        private let process: Process
        private let stdinPipe: Pipe
        private let stdoutPipe: Pipe

        /// Starts the sandbox; `onStartup` later receives its URL, or the reason it has none (the script
        /// exited, or `startupTimeout` passed, in which case the process is terminated).
        init(
            scriptPath: String?,
            startupTimeout: TimeInterval,
            onStartup: @escaping @Sendable (Result<URL, SandboxError>) -> Void
        ) throws(SandboxError) {
            guard let script = scriptPath ?? SandboxServer.locateScript() else {
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
            self.process = process
            self.stdinPipe = stdinPipe
            self.stdoutPipe = stdoutPipe

            let output = Locked((text: "", reported: false))
            /// Reports `result` unless something was reported already; a failure also ends the process.
            let report: @Sendable (_ result: (String) -> Result<URL, SandboxError>?) -> Void = { [weak self] make in
                let reported = output.withLock { state -> Result<URL, SandboxError>? in
                    guard !state.reported, let result = make(state.text) else { return nil }
                    state.reported = true
                    return result
                }
                guard let reported else { return }
                if case .failure = reported {
                    self?.terminate()
                }
                onStartup(reported)
            }
            stdoutPipe.fileHandleForReading.readabilityHandler = { handle in
                let chunk = handle.availableData
                if chunk.isEmpty {
                    handle.readabilityHandler = nil  // EOF: stop polling
                }
                output.withLock { $0.text += String(decoding: chunk, as: UTF8.self) }
                report { text in
                    if let url = Self.parseURL(text) { return .success(url) }
                    return chunk.isEmpty
                        ? .failure(SandboxError("sandbox exited before reporting its URL; output: \(text)")) : nil
                }
            }
            process.terminationHandler = { _ in
                report { text in .failure(SandboxError("sandbox exited before reporting its URL; output: \(text)")) }
            }
            do {
                try process.run()
            } catch {
                stdoutPipe.fileHandleForReading.readabilityHandler = nil
                throw SandboxError("cannot start python3 \(script): \(error)")
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + startupTimeout) {
                report { text in
                    .failure(SandboxError("sandbox did not report its URL within \(startupTimeout) s; output: \(text)"))
                }
            }
        }

        /// Closes the sandbox's stdin, which makes `--exit-on-stdin-eof` exit it at once; SIGKILL when it
        /// still runs 5 s later. Returns at once.
        ///
        /// Not SIGTERM: on Linux, `Process` children started from a Dispatch or Swift-concurrency thread
        /// inherit that thread's signal mask, in which SIGTERM is blocked, so the signal would never arrive.
        func terminate() {
            self.stdoutPipe.fileHandleForReading.readabilityHandler = nil
            try? self.stdinPipe.fileHandleForWriting.close()
            let process = self.process
            DispatchQueue.global().asyncAfter(deadline: .now() + 5) {
                if process.isRunning {
                    kill(process.processIdentifier, SIGKILL)
                }
            }
        }

        /// The URL from the first `JORYIO_SANDBOX_URL=` line of `text`, once that line is complete.
        private static func parseURL(_ text: String) -> URL? {
            let prefix = "JORYIO_SANDBOX_URL="
            guard let start = text.range(of: prefix), let end = text[start.upperBound...].firstIndex(of: "\n") else {
                return nil
            }
            return URL(string: text[start.upperBound..<end].trimmingCharacters(in: .whitespaces))
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
