internal import Foundation
public import JoryioCore

/// A `Transport` that records every request and answers each with the same configurable outcome.
///
/// By default it answers `200` with `{"success":true}`. Change ``outcome`` at any time to simulate an
/// outage. Completions run synchronously inside ``send(_:completion:)`` unless a `deliver` hook is given.
/// `Sendable`.
public final class RecordingTransport: Transport {
    private struct State {
        var outcome: Result<HTTPResponse, TransportError>
        var requests: [HTTPRequest] = []
    }

    private let state: Locked<State>
    private let deliver: @Sendable (_ work: @escaping @Sendable () -> Void) -> Void

    /// The response every request receives unless ``outcome`` is changed.
    public static let defaultResponse = HTTPResponse(
        status: 200,
        headers: ["Content-Type": "application/json"],
        body: Data(#"{"success":true}"#.utf8)
    )

    /// Creates a recording transport.
    ///
    /// - Parameters:
    ///   - outcome: What every request receives.
    ///   - deliver: Runs each completion; by default immediately, on the caller's thread.
    public init(
        outcome: Result<HTTPResponse, TransportError> = .success(RecordingTransport.defaultResponse),
        deliver: @escaping @Sendable (_ work: @escaping @Sendable () -> Void) -> Void = { $0() }
    ) {
        self.state = Locked(State(outcome: outcome))
        self.deliver = deliver
    }

    /// What the next requests receive.
    public var outcome: Result<HTTPResponse, TransportError> {
        get { self.state.withLock { $0.outcome } }
        set { self.state.withLock { $0.outcome = newValue } }
    }

    /// Every request sent so far, oldest first.
    public var requests: [HTTPRequest] {
        self.state.withLock { $0.requests }
    }

    /// Records `request` and completes with ``outcome``.
    public func send(
        _ request: HTTPRequest,
        completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void
    ) {
        let outcome = self.state.withLock { state in
            state.requests.append(request)
            return state.outcome
        }
        self.deliver { completion(outcome) }
    }
}
