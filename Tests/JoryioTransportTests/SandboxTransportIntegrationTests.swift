import Foundation
import JoryioCore
import JoryioTestLanes
import JoryioTesting
import JoryioTransport
import Testing

/// Every transport against a real HTTP peer: the Python sandbox on 127.0.0.1, one per test.
@Suite("Transport integration (sandbox)", .tags(.sandbox))
struct SandboxTransportIntegrationTests {
    @Test("200: status, response headers and JSON body; request headers reach the server", arguments: TransportKind.all)
    func success(kind: TransportKind) async throws {
        let sandbox = try await startSandbox()
        defer { sandbox.stop() }
        let transport = kind.make()
        defer { transport.close() }
        let body = Wire.batch(count: 2)

        let response = try await exchange(transport, Wire.events(sandbox, body: body)).get()

        #expect(response.status == 200)
        #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
        #expect(response.header("cache-control") == "no-store")
        let json = try Wire.json(response)
        #expect(json["success"] as? Bool == true)
        #expect(json["accepted"] as? Int == 2)

        let recorded = try #require(try await sandbox.requests(path: "/api/v1/events").first)
        #expect(recorded.method == "POST")
        #expect(recorded.header("X-Joryio-Sdk-Key") == Wire.sdkKey)
        #expect(recorded.header("content-type") == "application/json")
        #expect(recorded.header("user-agent") == "joryio-swift-tests/1.0")
        #expect(recorded.header("expect") == nil)
        #expect(recorded.gzip == false)
        #expect(recorded.rawBytes == body.count)
        #expect(recorded.bodyJSON == (try SandboxServer.canonicalJSON(body)))
        #expect(try await sandbox.events().count == 2)
    }

    @Test("4xx are responses, not errors: 403, 400, 422, 404", arguments: TransportKind.all)
    func clientErrors(kind: TransportKind) async throws {
        let sandbox = try await startSandbox()
        defer { sandbox.stop() }
        let transport = kind.make()
        defer { transport.close() }

        let noKey = try await exchange(transport, Wire.events(sandbox, body: Wire.batch(), sdkKey: nil)).get()
        #expect(noKey.status == 403)
        #expect(try Wire.json(noKey)["error"] as? String == "invalid_sdk_key")

        let badJSON = try await exchange(transport, Wire.events(sandbox, body: Data("{\"batch\": [".utf8))).get()
        #expect(badJSON.status == 400)
        #expect(try Wire.json(badJSON)["error"] as? String == "invalid_json")

        let invalidEvent = Data(#"{"sentAt":"2026-11-30T19:21:59.123Z","batch":[{"type":"track","event":"E"}]}"#.utf8)
        let unprocessable = try await exchange(transport, Wire.events(sandbox, body: invalidEvent)).get()
        #expect(unprocessable.status == 422)
        #expect(try Wire.json(unprocessable)["error"] as? String == "invalid_event")

        var unknown = Wire.events(sandbox, body: Wire.batch())
        unknown.url = sandbox.apiHost.appendingPathComponent("v1/nowhere")
        let notFound = try await exchange(transport, unknown).get()
        #expect(notFound.status == 404)

        #expect(try await sandbox.events().isEmpty)
    }

    @Test("5xx with Retry-After, then success", arguments: TransportKind.all)
    func serverErrorWithRetryAfter(kind: TransportKind) async throws {
        let sandbox = try await startSandbox()
        defer { sandbox.stop() }
        let transport = kind.make()
        defer { transport.close() }
        try await sandbox.addFault(path: "/api/v1/events", status: 503, retryAfter: "3")

        let failed = try await exchange(transport, Wire.events(sandbox, body: Wire.batch())).get()
        #expect(failed.status == 503)
        #expect(failed.retryAfter(now: Date(timeIntervalSince1970: 1_000_000)) == 3)
        #expect(try Wire.json(failed)["error"] as? String == "injected_fault")

        let retried = try await exchange(transport, Wire.events(sandbox, body: Wire.batch())).get()
        #expect(retried.status == 200)
        #expect(try await sandbox.requests(path: "/api/v1/events").map(\.fault) == ["status", nil])
    }

    @Test("a slow server hits the request timeout quickly", arguments: TransportKind.all)
    func timeout(kind: TransportKind) async throws {
        let sandbox = try await startSandbox()
        defer { sandbox.stop() }
        let transport = kind.make()
        defer { transport.close() }
        // Far past the 10 s bound below, so never what decides, however loaded the machine (the
        // sandbox is stopped, not waited for, at the end).
        try await sandbox.addFault(path: "/api/v1/events", delayMs: 30_000)

        let start = ContinuousClock.now
        let (result, completedAt) = await timedExchange(
            transport,
            Wire.events(sandbox, body: Wire.batch(), timeout: 0.3)
        )
        let elapsed = completedAt - start

        #expect(result.failureCode == .timeout, "\(result)")
        #expect(elapsed >= .milliseconds(250))
        #expect(elapsed < .seconds(10))
    }

    @Test("a dropped connection is connectionLost", arguments: TransportKind.all)
    func droppedConnection(kind: TransportKind) async throws {
        let sandbox = try await startSandbox()
        defer { sandbox.stop() }
        let transport = kind.make()
        defer { transport.close() }
        try await sandbox.addFault(path: "/api/v1/events", drop: true)

        let result = await exchange(transport, Wire.events(sandbox, body: Wire.batch()))
        #expect(result.failureCode == .connectionLost, "\(result)")

        let next = try await exchange(transport, Wire.events(sandbox, body: Wire.batch())).get()
        #expect(next.status == 200)
    }

    @Test("a closed port is cannotConnect", arguments: TransportKind.all)
    func connectionRefused(kind: TransportKind) async throws {
        let transport = kind.make()
        defer { transport.close() }
        let closed = try RefusingPort()
        let request = HTTPRequest(
            method: "POST",
            url: try #require(URL(string: "http://127.0.0.1:\(closed.port)/api/v1/events")),
            headers: [("Content-Type", "application/json")],
            body: Wire.batch(),
            timeout: 5
        )

        let result = await exchange(transport, request)
        withExtendedLifetime(closed) {}
        #expect(result.failureCode == .cannotConnect, "\(result)")
    }

    @Test("a gzip body is decoded by the server", arguments: TransportKind.all)
    func gzipBody(kind: TransportKind) async throws {
        let sandbox = try await startSandbox()
        defer { sandbox.stop() }
        let transport = kind.make()
        defer { transport.close() }
        let body = Wire.batch(count: 20)
        let compressed = try Gzip.compress(body)

        let request = Wire.events(sandbox, body: compressed, extraHeaders: [("Content-Encoding", "gzip")])
        let response = try await exchange(transport, request).get()

        #expect(response.status == 200)
        #expect(try Wire.json(response)["accepted"] as? Int == 20)
        let recorded = try #require(try await sandbox.requests(path: "/api/v1/events").first)
        #expect(recorded.gzip)
        #expect(recorded.rawBytes == compressed.count)
        #expect(recorded.bodyBytes == body.count)
        #expect(recorded.bodyJSON == (try SandboxServer.canonicalJSON(body)))
    }

    @Test("concurrent requests each complete exactly once", arguments: TransportKind.all)
    func concurrentRequests(kind: TransportKind) async throws {
        let sandbox = try await startSandbox()
        defer { sandbox.stop() }
        let transport = kind.make()
        defer { transport.close() }
        let count = 12

        let statuses = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<count {
                group.addTask {
                    let result = await exchange(transport, Wire.events(sandbox, body: Wire.batch()))
                    return (try? result.get().status) ?? -1
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }

        #expect(statuses == Array(repeating: 200, count: count))
        #expect(try await sandbox.requests(path: "/api/v1/events").count == count)
        #expect(try await sandbox.events().count == count)
    }

    @Test("GET and DELETE reach the server", arguments: TransportKind.all)
    func otherMethods(kind: TransportKind) async throws {
        let sandbox = try await startSandbox()
        defer { sandbox.stop() }
        let transport = kind.make()
        defer { transport.close() }
        try await sandbox.addFault(path: "/api/v1/events", status: 500)

        let health = HTTPRequest(method: "GET", url: sandbox.baseURL.appendingPathComponent("_sandbox/health"))
        let healthResponse = try await exchange(transport, health).get()
        #expect(healthResponse.status == 200)
        #expect(try Wire.json(healthResponse)["ok"] as? Bool == true)

        let clear = HTTPRequest(method: "DELETE", url: sandbox.baseURL.appendingPathComponent("_sandbox/faults"))
        #expect(try await exchange(transport, clear).get().status == 200)
        let after = try await exchange(transport, Wire.events(sandbox, body: Wire.batch())).get()
        #expect(after.status == 200)
    }

    @Test("TLS to a plain-HTTP port fails as tls (URLSession on Linux: other)", arguments: TransportKind.all)
    func tlsFailure(kind: TransportKind) async throws {
        let sandbox = try await startSandbox()
        defer { sandbox.stop() }
        let transport = kind.make()
        defer { transport.close() }
        var components = try #require(URLComponents(url: sandbox.apiHost, resolvingAgainstBaseURL: false))
        components.scheme = "https"
        var request = Wire.events(sandbox, body: Wire.batch(), timeout: 5)
        request.url = try #require(components.url).appendingPathComponent("v1/events")

        let result = await exchange(transport, request)
        #if canImport(FoundationNetworking)
        // FoundationNetworking maps libcurl's TLS errors to URLError.unknown, which carries nothing to refine.
        let expected: TransportError.Code = kind == .urlSession ? .other : .tls
        #else
        let expected: TransportError.Code = .tls
        #endif
        #expect(result.failureCode == expected, "\(result)")
    }

    @Test("malformed requests are invalidRequest, without touching the network", arguments: TransportKind.all)
    func invalidRequests(kind: TransportKind) async throws {
        let transport = kind.make()
        defer { transport.close() }
        let url = try #require(URL(string: "http://127.0.0.1:1/api/v1/events"))
        let requests = [
            HTTPRequest(method: "GET", url: try #require(URL(string: "ftp://127.0.0.1/file"))),
            HTTPRequest(method: "GET", url: try #require(URL(string: "file:///etc/hostname"))),
            HTTPRequest(method: "PO ST", url: url),
            HTTPRequest(method: "POST", url: url, headers: [("X-Injected", "a\r\nX-Evil: 1")]),
            HTTPRequest(method: "POST", url: url, headers: [("Bad Name", "x")]),
        ]
        for request in requests {
            let result = await exchange(transport, request)
            #expect(result.failureCode == .invalidRequest, "\(request.method) \(request.url): \(result)")
        }
    }

    @Test("close() cancels the request in flight and queued ones; later sends fail", arguments: TransportKind.all)
    func closeCancels(kind: TransportKind) async throws {
        let sandbox = try await startSandbox()
        defer { sandbox.stop() }
        let transport = kind.make(workers: 1)
        try await sandbox.addFault(path: "/api/v1/events", count: -1, delayMs: 30_000)

        enum Outcome: Sendable {
            case completed(TransportError.Code?, at: ContinuousClock.Instant)
            case closed(at: ContinuousClock.Instant)
        }
        let outcomes = await withTaskGroup(of: Outcome.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    let (result, completedAt) = await timedExchange(transport, Wire.events(sandbox, body: Wire.batch()))
                    return .completed(result.failureCode, at: completedAt)
                }
            }
            group.addTask {
                // Close once the first request reached the server (at most 200 polls; either way every
                // request must end up cancelled).
                for _ in 0..<200 {
                    // (`for … where` would not stop polling once the request arrived: it filters.)
                    if (try? await sandbox.requests(path: "/api/v1/events").isEmpty) == false { break }
                    await Task.yield()
                }
                let closedAt = ContinuousClock.now
                transport.close()
                return .closed(at: closedAt)
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        var codes: [TransportError.Code?] = []
        var completions: [ContinuousClock.Instant] = []
        var closedAt: ContinuousClock.Instant?
        for outcome in outcomes {
            switch outcome {
            case .completed(let code, let at):
                codes.append(code)
                completions.append(at)
            case .closed(let at):
                closedAt = at
            }
        }
        #expect(codes == [.cancelled, .cancelled, .cancelled])
        // The server holds each request for 30 s; closing must not wait for that (curl polls its abort
        // flag at least once a second). The 10 s bound leaves room for a loaded machine.
        let closed = try #require(closedAt)
        #expect(completions.allSatisfy { $0 - closed < .seconds(10) }, "\(completions.map { $0 - closed })")

        let late = await exchange(transport, Wire.events(sandbox, body: Wire.batch()))
        #expect(late.failureCode == .cancelled)
    }

    #if os(Linux)
    @Test("curl's connections are close-on-exec: a child process the host starts does not inherit them")
    func curlSocketsAreCloseOnExec() async throws {
        let sandbox = try await startSandbox()
        defer { sandbox.stop() }
        let transport = TransportKind.curl.make(workers: 1)
        defer { transport.close() }
        let port = try #require(sandbox.apiHost.port)

        // The worker keeps the connection for the next request, so it is still open here.
        #expect(try await exchange(transport, Wire.events(sandbox, body: Wire.batch())).get().status == 200)

        let sockets = Self.descriptorsConnected(toPort: port)
        #expect(!sockets.isEmpty, "no open connection to the sandbox was found")
        for descriptor in sockets {
            #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0, "descriptor \(descriptor) is inherited by children")
        }
    }

    /// This process's descriptors that are TCP sockets connected to 127.0.0.1:`port` (each test's
    /// sandbox has a port of its own, so these are the test's own connections).
    private static func descriptorsConnected(toPort port: Int) -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap(Int32.init).filter { descriptor in
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let status = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &length) }
            }
            return status == 0 && address.sin_family == sa_family_t(AF_INET)
                && Int(UInt16(bigEndian: address.sin_port)) == port
        }
    }
    #endif
}

extension Result where Failure == TransportError {
    /// The error code, or `nil` for a response.
    var failureCode: TransportError.Code? {
        guard case .failure(let error) = self else { return nil }
        return error.code
    }
}
