internal import Foundation
public import JoryioCore

/// A `Transport` that answers with scripted outcomes, in order, and records every request.
///
/// When the script runs out, the request fails with
/// `TransportError(.other, "StubTransport: no scripted response")` and the failure is added to
/// ``issues``, so a test can assert `stub.issues.isEmpty` (this module does not import Testing).
///
/// Completions run synchronously inside ``send(_:completion:)`` unless a `deliver` hook is given, such as
/// `{ work in scheduler.enqueue(work) }` to run them under a manual scheduler. `Sendable`.
///
/// ```swift
/// let stub = StubTransport([
///     .success(HTTPResponse(status: 503, headers: ["Retry-After": "3"])),
///     .failure(TransportError(.timeout, "scripted")),
///     .success(RecordingTransport.defaultResponse),  // 200 {"success":true}
/// ])
/// ```
///
/// Only HTTP 200 with a JSON object whose `success` is `true` confirms a request; any other 2xx
/// answer (an empty body, `{}`, a 206 …) is treated as a gateway's, and the SDK keeps and retries
/// what it sent (docs/protocol.md §4).
///
/// ```swift
/// let gateway = StubTransport([.success(HTTPResponse(status: 200))])  // kept, retried
/// ```
public final class StubTransport: Transport {
    private struct State {
        var script: [Result<HTTPResponse, TransportError>]
        var requests: [HTTPRequest] = []
        var issues: [String] = []
    }

    private let state: Locked<State>
    private let deliver: @Sendable (_ work: @escaping @Sendable () -> Void) -> Void

    /// Creates a stub that answers with `script`, first to last.
    ///
    /// - Parameters:
    ///   - script: The outcomes to return, in order.
    ///   - deliver: Runs each completion; by default immediately, on the caller's thread.
    public init(
        _ script: [Result<HTTPResponse, TransportError>] = [],
        deliver: @escaping @Sendable (_ work: @escaping @Sendable () -> Void) -> Void = { $0() }
    ) {
        self.state = Locked(State(script: script))
        self.deliver = deliver
    }

    /// Appends `outcome` to the end of the script.
    public func enqueue(_ outcome: Result<HTTPResponse, TransportError>) {
        self.state.withLock { $0.script.append(outcome) }
    }

    /// Every request sent so far, oldest first.
    public var requests: [HTTPRequest] {
        self.state.withLock { $0.requests }
    }

    /// Scripted outcomes not used yet.
    public var remaining: Int {
        self.state.withLock { $0.script.count }
    }

    /// One message per request that arrived after the script ran out.
    public var issues: [String] {
        self.state.withLock { $0.issues }
    }

    /// Records `request` and completes with the next scripted outcome.
    public func send(
        _ request: HTTPRequest,
        completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void
    ) {
        let outcome = self.state.withLock { state -> Result<HTTPResponse, TransportError> in
            state.requests.append(request)
            guard !state.script.isEmpty else {
                let number = state.requests.count
                state.issues.append(
                    "StubTransport: no scripted response for request \(number), \(request.method) \(request.url.path)"
                )
                return .failure(TransportError(.other, "StubTransport: no scripted response"))
            }
            return state.script.removeFirst()
        }
        self.deliver { completion(outcome) }
    }
}
