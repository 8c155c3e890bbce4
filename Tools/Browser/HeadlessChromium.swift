package import Foundation
internal import JoryioCore

/// Chromium, run headless as a command: one process per page, nothing shared between runs (each gets
/// a fresh profile directory), no network (every host name resolves to nothing, on top of the pages'
/// own CSP). The browser lane (Tests/JoryioBrowserTests) and `joryio-tools preview-campaign` use it.
///
/// Debian's `chromium` is installed by the project's set-up (`make deps-browser`); `JORYIO_CHROMIUM`
/// names another binary.
package struct HeadlessChromium: Sendable {
    /// A run that did not end well.
    package enum Failure: Error, CustomStringConvertible {
        /// The browser exited with `status`; `output` is the end of what it wrote.
        case exited(status: Int32, output: String)
        /// The browser was still running after `seconds` and was stopped.
        case timedOut(seconds: Int)
        /// The browser could not be started.
        case launch(String)

        package var description: String {
            switch self {
            case .exited(let status, let output): "chromium exited with status \(status): \(output)"
            case .timedOut(let seconds): "chromium did not finish within \(seconds) s"
            case .launch(let reason): "chromium could not start: \(reason)"
            }
        }
    }

    /// The browser's executable.
    package let executable: URL

    /// The executable's names searched for on `PATH`, in order.
    package static let candidateNames = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]

    /// The browser named by `JORYIO_CHROMIUM`, else the first of ``candidateNames`` on `PATH`; `nil`
    /// when there is none.
    package static func locate(
        environment: [String: String] = ProcessInfo.processInfo.environment
    )
        -> HeadlessChromium?
    {
        let manager = FileManager.default
        if let named = environment["JORYIO_CHROMIUM"], !named.isEmpty {
            return manager.isExecutableFile(atPath: named)
                ? HeadlessChromium(executable: URL(fileURLWithPath: named)) : nil
        }
        let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        for name in candidateNames {
            for folder in folders {
                let path = "\(folder)/\(name)"
                if manager.isExecutableFile(atPath: path) {
                    return HeadlessChromium(executable: URL(fileURLWithPath: path))
                }
            }
        }
        return nil
    }

    /// A browser at `executable`.
    package init(executable: URL) {
        self.executable = executable
    }

    /// The serialised DOM of `html` after it loaded and `virtualMilliseconds` of virtual time passed
    /// (timers run, nothing waits in real time).
    package func dumpDOM(of html: String, virtualMilliseconds: Int = 2_000) throws -> String {
        try self.withPage(html) { page in
            let output = try self.run([
                "--virtual-time-budget=\(virtualMilliseconds)", "--dump-dom", page.absoluteString,
            ])
            return String(decoding: output, as: UTF8.self)
        }
    }

    /// A PNG screenshot of `html` at `width` × `height` CSS pixels (device scale `scale`), in the dark
    /// colour scheme when `dark`, written to `destination`.
    package func screenshot(
        of html: String,
        width: Int,
        height: Int,
        scale: Int = 1,
        dark: Bool,
        to destination: URL
    ) throws {
        try self.withPage(html) { page in
            var arguments = [
                "--window-size=\(width),\(height)", "--force-device-scale-factor=\(scale)", "--hide-scrollbars",
                "--virtual-time-budget=1000", "--screenshot=\(destination.path)",
            ]
            if dark { arguments += ["--force-dark-mode", "--blink-settings=preferredColorScheme=0"] }
            arguments.append(page.absoluteString)
            _ = try self.run(arguments)
        }
    }

    private func withPage<T>(_ html: String, _ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "joryio-chromium-\(UUID().uuidString)",
            isDirectory: true
        )
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("page.html")
        try Data(html.utf8).write(to: page)
        return try body(page)
    }

    private func run(_ pageArguments: [String], timeoutSeconds: Int = 60) throws -> Data {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "joryio-chromium-profile-\(UUID().uuidString)",
            isDirectory: true
        )
        defer { try? FileManager.default.removeItem(at: profile) }
        let process = Process()
        process.executableURL = self.executable
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-default-apps", "--mute-audio",
                "--host-resolver-rules=MAP * ~NOTFOUND", "--user-data-dir=\(profile.path)",
            ] + pageArguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw Failure.launch("\(error)")
        }
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(timeoutSeconds), execute: watchdog)
        // Both pipes are drained while the browser runs, so neither can fill up and stall it.
        let errorData = Locked(Data())
        let drained = DispatchGroup()
        DispatchQueue.global().async(group: drained) {
            let bytes = errors.fileHandleForReading.readDataToEndOfFile()
            errorData.withLock { $0 = bytes }
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        process.waitUntilExit()
        watchdog.cancel()
        if process.terminationReason == .uncaughtSignal, process.terminationStatus == SIGTERM {
            throw Failure.timedOut(seconds: timeoutSeconds)
        }
        guard process.terminationStatus == 0 else {
            let tail = String(decoding: errorData.withLock { $0 }.suffix(2_000), as: UTF8.self)
            throw Failure.exited(status: process.terminationStatus, output: tail)
        }
        return data
    }
}
