import Foundation
import JoryioCore
import JoryioTesting
import JoryioTransport
import Testing

@Suite("SandboxServer control API")
struct SandboxServerTests {
    @Test("requests, events, faults, measure and reset")
    func controlAPI() async throws {
        let sandbox = try SandboxServer()
        defer { sandbox.stop() }
        let transport = URLSessionTransport()
        defer { transport.close() }
        #expect(sandbox.apiHost.absoluteString == sandbox.baseURL.absoluteString + "/api")
        #expect(sandbox.baseURL.host == "127.0.0.1")

        #expect(try sandbox.measure(Data(#"{"b": [1, 2], "a": "é"}"#.utf8)) == #"{"b":[1,2],"a":"é"}"#.utf8.count)

        try sandbox.addFault(path: "/api/v1/*", count: 2, status: 500, body: ["error": "boom"])
        try sandbox.clearFaults()
        let accepted = try await exchange(transport, Wire.events(sandbox, body: Wire.batch(count: 3))).get()
        #expect(accepted.status == 200)
        #expect(try sandbox.requests(path: "/api/v1/*").count == 1)
        #expect(try sandbox.requests(path: "/api/v2/*").isEmpty)
        #expect(try sandbox.events().compactMap { $0["type"] as? String } == ["track", "track", "track"])

        let unknown = try #require(try sandbox.requests().first)
        #expect(unknown.seq == 1)
        #expect(unknown.status == 200)
        #expect(unknown.fault == nil)
        #expect(((unknown.body as? [String: Any])?["batch"] as? [Any])?.count == 3)

        try sandbox.reset()
        #expect(try sandbox.requests().isEmpty)
        #expect(try sandbox.events().isEmpty)
    }

    @Test("profiles, profile lookups, unregistered push tokens and the version 2 fault fields")
    func profileAPI() async throws {
        let sandbox = try SandboxServer()
        defer { sandbox.stop() }
        let transport = URLSessionTransport()
        defer { transport.close() }
        #expect(try sandbox.profiles().isEmpty)
        #expect(try sandbox.profile(userId: "u1") == nil)
        #expect(try sandbox.profile(anonymousId: "anon-1") == nil)
        #expect(try sandbox.pushUnregistered().isEmpty)

        try sandbox.addFault(path: "/api/v1/events", dropAfterProcessing: true)
        let dropped = await exchange(transport, Wire.events(sandbox, body: Wire.batch(count: 1)))
        #expect((try? dropped.get()) == nil)
        let profile = try #require(try sandbox.profile(anonymousId: "anon-1"))
        #expect(profile["userId"] is NSNull)
        #expect(profile["anonymousIds"] as? [String] == ["anon-1"])
        #expect(try sandbox.profiles().count == 1)
        #expect(try sandbox.requests().first?.fault == "dropAfterProcessing")

        try sandbox.addFault(path: "/api/v1/attributes", rejectAttributeKeys: ["secret"])
        #expect(throws: SandboxError.self) {
            try sandbox.addFault(path: "/api/v1/attributes", status: 500, rejectAttributeKeys: ["secret"])
        }
        try sandbox.reset()
        #expect(try sandbox.profiles().isEmpty)
    }

    @Test("a bad fault is reported as a thrown error, not a crash")
    func invalidFault() throws {
        let sandbox = try SandboxServer()
        defer { sandbox.stop() }
        #expect(throws: SandboxError.self) {
            try sandbox.addFault(path: "no-leading-slash", status: 500)
        }
    }

    @Test("a missing script is a thrown error")
    func missingScript() {
        #expect(throws: SandboxError.self) {
            _ = try SandboxServer(scriptPath: "/nonexistent/sandbox.py", startupTimeout: 10)
        }
    }

    @Test("stop() is idempotent and the control API then fails cleanly")
    func stopTwice() throws {
        let sandbox = try SandboxServer()
        sandbox.stop()
        sandbox.stop()
        #expect(throws: SandboxError.self) { try sandbox.requests() }
    }
}
