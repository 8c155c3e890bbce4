package import JoryioTesting
package import Testing

// The two lanes of Swift tests (Makefile: `make test-unit`, `make test-sandbox-swift`).
//
// The unit lane runs on virtual time and in-process doubles only, so it takes seconds. The sandbox lane
// holds the tests that start the Python sandbox (`SandboxServer`): real HTTP on 127.0.0.1 and real
// time. A sandbox test carries the `.sandbox` tag, and its top-level suite's type name starts with
// `Sandbox`: `swift test` (6.3) cannot select tests by tag, so the Makefile selects the lane by that
// name, a regular expression over test IDs (`<Target>.<Suite>/<test>`). `startSandbox()` checks both,
// so a sandbox test outside the lane fails instead of slowing the unit lane down.

extension Tag {
    /// Tests that talk to the Python sandbox (`SandboxServer`) over real HTTP, in real time.
    ///
    /// They run in the sandbox lane (`make test-sandbox-swift`), never in the unit lane. Their
    /// top-level suite's type name must start with ``SandboxLane/suitePrefix``.
    @Tag package static var sandbox: Self
}

/// The naming convention the Makefile's lanes select sandbox tests by.
package enum SandboxLane {
    /// The start of every sandbox suite's type name (the Makefile's `SANDBOX_TESTS` pattern).
    package static let suitePrefix = "Sandbox"

    /// Why `test` may not start a sandbox, or `nil` when it belongs to the sandbox lane.
    package static func problem(with test: Test) -> String? {
        let suite = test.id.nameComponents.first ?? test.name
        let tagged = test.tags.contains(.sandbox)
        guard !tagged || !suite.hasPrefix(Self.suitePrefix) else { return nil }
        return "\(test.id) starts the sandbox, so it belongs to the sandbox lane: tag it (or its suite) `.sandbox` "
            + "and name its suite `\(Self.suitePrefix)…` (tagged: \(tagged), suite: \(suite))"
    }
}

/// Starts a sandbox for the running test, suspending (never blocking a thread) until it is up.
///
/// Records an issue when the test is not in the sandbox lane (see ``SandboxLane``). Call
/// `stop()` when done, typically in a `defer`.
package func startSandbox(sourceLocation: SourceLocation = #_sourceLocation) async throws -> SandboxServer {
    if let test = Test.current, let problem = SandboxLane.problem(with: test) {
        Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation)
    }
    return try await SandboxServer.start()
}
