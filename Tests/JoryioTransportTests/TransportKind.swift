import Foundation
import JoryioCore
import JoryioTesting
import JoryioTransport
import Testing

/// A transport the integration suite can also shut down.
protocol ClosableTransport: Transport {
    func close()
}

#if os(Linux) || os(Android)
extension CurlTransport: ClosableTransport {}
#endif
extension URLSessionTransport: ClosableTransport {}

/// The transports every integration test runs against.
enum TransportKind: String, Sendable, CustomTestStringConvertible {
    #if os(Linux) || os(Android)
    case curl
    #endif
    case urlSession

    #if os(Linux) || os(Android)
    static let all: [TransportKind] = [.curl, .urlSession]
    #else
    static let all: [TransportKind] = [.urlSession]
    #endif

    var testDescription: String { self.rawValue }

    /// A new transport; `workers` only matters for curl.
    func make(workers: Int = 2) -> any ClosableTransport {
        switch self {
        #if os(Linux) || os(Android)
        case .curl:
            return CurlTransport(workerCount: workers)
        #endif
        case .urlSession:
            return URLSessionTransport()
        }
    }
}

/// Sends `request` and waits for its completion (which must arrive exactly once).
func exchange(_ transport: any Transport, _ request: HTTPRequest) async -> Result<HTTPResponse, TransportError> {
    await timedExchange(transport, request).result
}

/// Like ``exchange(_:_:)``, also returning when the completion ran (read on the transport's thread, so
/// the time does not include waiting for a free Swift-concurrency thread).
func timedExchange(
    _ transport: any Transport,
    _ request: HTTPRequest
) async -> (result: Result<HTTPResponse, TransportError>, completedAt: ContinuousClock.Instant) {
    let calls = Locked(0)
    return await withCheckedContinuation { continuation in
        transport.send(request) { result in
            let completedAt = ContinuousClock.now
            let first = calls.withLock { count in
                count += 1
                return count == 1
            }
            if first {
                continuation.resume(returning: (result, completedAt))
            } else {
                Issue.record("completion called more than once")
            }
        }
    }
}

/// Builders for the events endpoint.
enum Wire {
    static let sdkKey = "jry_sdk_transport_tests"

    /// A valid batch of `count` track events with fresh message ids.
    static func batch(count: Int = 1, event: String = "Viewed Product") -> Data {
        let events = (0..<count).map { index in
            """
            {"messageId":"\(UUID().uuidString)","type":"track","event":"\(event)",\
            "properties":{"sku":"SKU-\(index)","price":9.5,"tags":["a","b"]},\
            "timestamp":"2026-11-30T19:21:59.123Z","anonymousId":"anon-1"}
            """
        }
        let document = #"{"sentAt":"2026-11-30T19:21:59.123Z","batch":["# + events.joined(separator: ",") + "]}"
        return Data(document.utf8)
    }

    /// `POST {apiHost}/v1/events` with the SDK headers.
    static func events(
        _ sandbox: SandboxServer,
        body: Data,
        sdkKey: String? = Self.sdkKey,
        extraHeaders: [(name: String, value: String)] = [],
        timeout: TimeInterval = 10
    ) -> HTTPRequest {
        var headers: [(name: String, value: String)] = [
            ("Content-Type", "application/json"),
            ("User-Agent", "joryio-swift-tests/1.0"),
        ]
        if let sdkKey {
            headers.append(("X-Joryio-Sdk-Key", sdkKey))
        }
        return HTTPRequest(
            method: "POST",
            url: sandbox.apiHost.appendingPathComponent("v1/events"),
            headers: headers + extraHeaders,
            body: body,
            timeout: timeout
        )
    }

    /// The JSON object in `response`'s body.
    static func json(_ response: HTTPResponse) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }
}
