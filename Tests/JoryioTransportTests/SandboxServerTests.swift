import Foundation
import JoryioCore
import JoryioTestLanes
import JoryioTesting
import JoryioTransport
import Testing

@Suite("SandboxServer control API", .tags(.sandbox))
struct SandboxServerTests {
    @Test("requests, events, faults, measure and reset")
    func controlAPI() async throws {
        let sandbox = try await startSandbox()
        defer { sandbox.stop() }
        let transport = URLSessionTransport()
        defer { transport.close() }
        #expect(sandbox.apiHost.absoluteString == sandbox.baseURL.absoluteString + "/api")
        #expect(sandbox.baseURL.host == "127.0.0.1")

        #expect(try await sandbox.measure(Data(#"{"b": [1, 2], "a": "é"}"#.utf8)) == #"{"b":[1,2],"a":"é"}"#.utf8.count)

        try await sandbox.addFault(path: "/api/v1/*", count: 2, status: 500, body: ["error": "boom"])
        try await sandbox.clearFaults()
        let accepted = try await exchange(transport, Wire.events(sandbox, body: Wire.batch(count: 3))).get()
        #expect(accepted.status == 200)
        #expect(try await sandbox.requests(path: "/api/v1/*").count == 1)
        #expect(try await sandbox.requests(path: "/api/v2/*").isEmpty)
        #expect(try await sandbox.events().compactMap { $0["type"] as? String } == ["track", "track", "track"])

        let unknown = try #require(try await sandbox.requests().first)
        #expect(unknown.seq == 1)
        #expect(unknown.status == 200)
        #expect(unknown.fault == nil)
        #expect(((unknown.body as? [String: Any])?["batch"] as? [Any])?.count == 3)

        try await sandbox.reset()
        #expect(try await sandbox.requests().isEmpty)
        #expect(try await sandbox.events().isEmpty)
    }

    @Test("profiles, profile lookups, unregistered push tokens and the version 2 fault fields")
    func profileAPI() async throws {
        let sandbox = try await startSandbox()
        defer { sandbox.stop() }
        let transport = URLSessionTransport()
        defer { transport.close() }
        #expect(try await sandbox.profiles().isEmpty)
        #expect(try await sandbox.profile(userId: "u1") == nil)
        #expect(try await sandbox.profile(anonymousId: "anon-1") == nil)
        #expect(try await sandbox.pushUnregistered().isEmpty)

        try await sandbox.addFault(path: "/api/v1/events", dropAfterProcessing: true)
        let dropped = await exchange(transport, Wire.events(sandbox, body: Wire.batch(count: 1)))
        #expect((try? dropped.get()) == nil)
        let profile = try #require(try await sandbox.profile(anonymousId: "anon-1"))
        #expect(profile["userId"] is NSNull)
        #expect(profile["anonymousIds"] as? [String] == ["anon-1"])
        #expect(try await sandbox.profiles().count == 1)
        #expect(try await sandbox.requests().first?.fault == "dropAfterProcessing")

        try await sandbox.addFault(path: "/api/v1/attributes", rejectAttributeKeys: ["secret"])
        await #expect(throws: SandboxError.self) {
            try await sandbox.addFault(path: "/api/v1/attributes", status: 500, rejectAttributeKeys: ["secret"])
        }
        try await sandbox.reset()
        #expect(try await sandbox.profiles().isEmpty)
    }

    @Test("SDK authentication: settings, minted tokens, 401 reasons, authSub and reset")
    func authAPI() async throws {
        let sandbox = try await startSandbox()
        defer { sandbox.stop() }
        let transport = URLSessionTransport()
        defer { transport.close() }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        try await sandbox.configureAuth(now: now)

        /// A one-event batch for user `u1`, sent with `token` (if any); the answer's status and `reason`.
        func send(_ token: String?) async throws -> (status: Int, reason: String?) {
            let body = Data(
                """
                {"sentAt":"2026-11-30T19:21:59.123Z","batch":[{"messageId":"\(UUID().uuidString)",\
                "type":"track","event":"Login","timestamp":"2026-11-30T19:21:59.123Z","userId":"u1"}]}
                """.utf8
            )
            let headers = token.map { [(name: "Authorization", value: "Bearer \($0)")] } ?? []
            let response = try await exchange(transport, Wire.events(sandbox, body: body, extraHeaders: headers)).get()
            return (response.status, try Wire.json(response)["reason"] as? String)
        }

        let token = try await sandbox.mintToken(sub: "u1")
        #expect(try await send(token) == (200, nil))
        #expect(try await send(nil) == (401, "missing"))
        #expect(try await send(try await sandbox.mintToken(sub: "u2")) == (401, "sub_mismatch"))
        #expect(
            try await send(try await sandbox.mintToken(sub: "u1", expiresIn: 60, secret: "other")) == (401, "invalid")
        )
        #expect(try await send(try await sandbox.mintToken(sub: "u1", exp: now)) == (401, "expired"))
        #expect(try await send(try await sandbox.mintToken(sub: "u1", expiresIn: 1)) == (200, nil))
        try await sandbox.configureAuth(now: now.addingTimeInterval(3600))
        #expect(try await send(token) == (401, "expired"))

        let recorded = try await sandbox.requests()
        #expect(recorded.map(\.authSub) == ["u1", nil, "u2", "u1", "u1", "u1", "u1"])
        #expect(recorded.map(\.status) == [200, 401, 401, 401, 401, 200, 401])
        #expect(try await sandbox.events().count == 2)

        try await sandbox.reset()
        #expect(try await send(nil) == (200, nil))
        await #expect(throws: SandboxError.self) { _ = try await sandbox.mintToken(sub: "u1") }
    }

    @Test("a bad fault is reported as a thrown error, not a crash")
    func invalidFault() async throws {
        let sandbox = try await startSandbox()
        defer { sandbox.stop() }
        await #expect(throws: SandboxError.self) {
            try await sandbox.addFault(path: "no-leading-slash", status: 500)
        }
    }

    @Test("a missing script is a thrown error")
    func missingScript() async {
        #expect(throws: SandboxError.self) {
            _ = try SandboxServer(scriptPath: "/nonexistent/sandbox.py", startupTimeout: 10)
        }
        await #expect(throws: SandboxError.self) {
            _ = try await SandboxServer.start(scriptPath: "/nonexistent/sandbox.py", startupTimeout: 10)
        }
    }

    @Test("the blocking init and control methods, for synchronous callers, work off the test's threads")
    func blockingForm() async throws {
        // On a thread of its own, so the blocking calls never hold a Swift-concurrency thread.
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Int, SandboxError>, Never>) in
            Thread.detachNewThread {
                continuation.resume(
                    returning: Result { () throws(SandboxError) -> Int in
                        let sandbox = try SandboxServer()
                        defer { sandbox.stop() }
                        try sandbox.addFault(path: "/api/v1/events", status: 503)
                        try sandbox.clearFaults()
                        return try sandbox.measure(Data("[1]".utf8)) + sandbox.requests().count + sandbox.events().count
                    }
                )
            }
        }
        #expect(try result.get() == 3)
    }

    @Test("stop() is idempotent and the control API then fails cleanly")
    func stopTwice() async throws {
        let sandbox = try await startSandbox()
        sandbox.stop()
        sandbox.stop()
        await #expect(throws: SandboxError.self) { try await sandbox.requests() }
    }
}
