public import JoryioCore

/// A `Transport` that keeps every request on the wire until the test answers it, so a test sees
/// exactly what is in flight and decides when, and how, each request completes.
///
/// ```swift
/// let transport = HoldingTransport()
/// // … the code under test sends a request …
/// #expect(transport.inFlight == 1)
/// transport.answer(.success(HTTPResponse(status: 503)))
/// ```
///
/// Answers go to the oldest request waiting, and its completion runs inside ``answer(_:)``, on the
/// caller's thread. `Sendable`.
public final class HoldingTransport: Transport {
    private struct State {
        var requests: [HTTPRequest] = []
        var waiting: [@Sendable (Result<HTTPResponse, TransportError>) -> Void] = []
    }

    private let state = Locked(State())

    /// Creates a transport with nothing on the wire.
    public init() {}

    /// Every request sent so far, oldest first.
    public var requests: [HTTPRequest] {
        self.state.withLock { $0.requests }
    }

    /// How many requests wait for an answer.
    public var inFlight: Int {
        self.state.withLock { $0.waiting.count }
    }

    /// Records `request` and holds it until ``answer(_:)``.
    public func send(
        _ request: HTTPRequest,
        completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void
    ) {
        self.state.withLock { state in
            state.requests.append(request)
            state.waiting.append(completion)
        }
    }

    /// Completes the oldest request waiting with `result`.
    ///
    /// - Returns: `false` when no request waits.
    @discardableResult
    public func answer(_ result: Result<HTTPResponse, TransportError>) -> Bool {
        let completion = self.state.withLock { state in state.waiting.isEmpty ? nil : state.waiting.removeFirst() }
        completion?(result)
        return completion != nil
    }
}
