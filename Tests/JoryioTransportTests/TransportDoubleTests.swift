import Foundation
import JoryioCore
import JoryioTesting
import Testing

@Suite("StubTransport and RecordingTransport")
struct TransportDoubleTests {
    static let url = URL(fileURLWithPath: "/v1/events")

    @Test("StubTransport answers in script order and records requests")
    func stubScript() async {
        let stub = StubTransport([
            .success(HTTPResponse(status: 503, headers: ["Retry-After": "3"])),
            .failure(TransportError(.timeout, "scripted")),
        ])
        stub.enqueue(.success(HTTPResponse(status: 200)))
        #expect(stub.remaining == 3)

        var statuses: [Int?] = []
        var codes: [TransportError.Code?] = []
        for index in 0..<3 {
            let result = await exchange(stub, HTTPRequest(method: "POST", url: Self.url, body: Data([UInt8(index)])))
            statuses.append(try? result.get().status)
            codes.append(result.failureCode)
        }

        #expect(statuses == [503, nil, 200])
        #expect(codes == [nil, .timeout, nil])
        #expect(stub.requests.map(\.body) == [Data([0]), Data([1]), Data([2])])
        #expect(stub.remaining == 0)
        #expect(stub.issues.isEmpty)
    }

    @Test("StubTransport fails and records an issue when the script runs out")
    func stubExhausted() async {
        let stub = StubTransport()
        let result = await exchange(stub, HTTPRequest(method: "GET", url: Self.url))

        #expect(result == .failure(TransportError(.other, "StubTransport: no scripted response")))
        #expect(stub.issues.count == 1)
        #expect(stub.issues.first?.contains("GET /v1/events") == true)
        #expect(stub.requests.count == 1)
    }

    @Test("completions run through the deliver hook")
    func deliverHook() {
        let pending = Locked<[@Sendable () -> Void]>([])
        let received = Locked<[Int]>([])
        let hook: @Sendable (@escaping @Sendable () -> Void) -> Void = { work in pending.withLock { $0.append(work) } }
        let stub = StubTransport([.success(HTTPResponse(status: 201))], deliver: hook)
        let recording = RecordingTransport(deliver: hook)

        for transport in [stub, recording] as [any Transport] {
            transport.send(HTTPRequest(method: "POST", url: Self.url)) { result in
                received.withLock { $0.append((try? result.get().status) ?? -1) }
            }
        }
        #expect(received.value.isEmpty)

        for work in pending.value {
            work()
        }
        #expect(received.value == [201, 200])
    }

    @Test("RecordingTransport records every request and returns the configured outcome")
    func recording() async throws {
        let recording = RecordingTransport()
        let first = try await exchange(recording, HTTPRequest(method: "POST", url: Self.url)).get()
        #expect(first == RecordingTransport.defaultResponse)

        recording.outcome = .failure(TransportError(.cannotConnect, "offline"))
        let second = await exchange(recording, HTTPRequest(method: "PUT", url: Self.url))
        #expect(second.failureCode == .cannotConnect)

        #expect(recording.requests.map(\.method) == ["POST", "PUT"])
    }
}
