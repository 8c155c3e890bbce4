import Foundation
import JoryioCore

/// Answers every request at once with HTTP 503 and no `Retry-After`, on the calling thread.
///
/// With `retryBackoffMs` at its 300 s maximum the uploader then backs off for minutes, so at most one
/// request per SDK instance is ever built during a measurement, and nothing leaves the queue (a 503
/// keeps every event). Unlike a transport that never answers, nothing stays in flight.
final class FailFastTransport: Transport {
    private let sent = Locked(0)

    /// Requests answered so far.
    var requestCount: Int { self.sent.value }

    func send(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void) {
        self.sent.withLock { $0 += 1 }
        completion(.success(HTTPResponse(status: 503)))
    }
}

/// Forwards to a real transport while open; while closed, answers 503 at once like
/// ``FailFastTransport``. Times each forwarded exchange (send → completion).
final class GatedTransport: Transport {
    private struct State {
        var open = false
        var rejected = 0
        var exchanges: [Double] = []
        var bodyBytes: [Int] = []
    }

    private let inner: any Transport
    private let state = Locked(State())

    init(inner: any Transport) {
        self.inner = inner
    }

    /// Whether requests reach the inner transport.
    var isOpen: Bool {
        get { self.state.withLock { $0.open } }
        set { self.state.withLock { $0.open = newValue } }
    }

    /// Requests answered with 503 while closed.
    var rejectedCount: Int { self.state.withLock { $0.rejected } }

    /// Milliseconds from `send` to completion of every forwarded request.
    var exchangeMilliseconds: [Double] { self.state.withLock { $0.exchanges } }

    /// Wire body sizes (after gzip) of every forwarded request.
    var forwardedBodyBytes: [Int] { self.state.withLock { $0.bodyBytes } }

    func send(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void) {
        let open = self.state.withLock { state -> Bool in
            if !state.open { state.rejected += 1 }
            return state.open
        }
        guard open else {
            completion(.success(HTTPResponse(status: 503)))
            return
        }
        let start = Monotonic.nanoseconds()
        let bytes = request.body?.count ?? 0
        self.inner.send(request) { [state] result in
            let elapsed = Monotonic.milliseconds(from: start, to: Monotonic.nanoseconds())
            state.withLock {
                $0.exchanges.append(elapsed)
                $0.bodyBytes.append(bytes)
            }
            completion(result)
        }
    }
}
