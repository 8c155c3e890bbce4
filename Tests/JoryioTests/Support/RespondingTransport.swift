import Foundation
import JoryioCore

/// A ``Transport`` that answers each request by asking a closure, like a tiny fake server, and
/// records every request. Completions run synchronously inside `send`.
///
/// ```swift
/// // Refuse any batch that contains the event "Poison", accept the rest.
/// let server = RespondingTransport { request in
///     request.eventNames.contains("Poison") ? .success(.json(422, "{}")) : .success(.ok)
/// }
/// ```
final class RespondingTransport: Transport {
    private let recorded = Locked<[HTTPRequest]>([])
    private let respond: Locked<@Sendable (HTTPRequest) -> Result<HTTPResponse, TransportError>>

    /// Creates the transport; `respond` may be replaced later with ``answer(with:)``.
    init(_ respond: @escaping @Sendable (HTTPRequest) -> Result<HTTPResponse, TransportError> = { _ in .success(.ok) })
    {
        self.respond = Locked(respond)
    }

    /// Every request sent so far, oldest first.
    var requests: [HTTPRequest] {
        self.recorded.value
    }

    /// Answers later requests with `respond`.
    func answer(with respond: @escaping @Sendable (HTTPRequest) -> Result<HTTPResponse, TransportError>) {
        self.respond.withLock { $0 = respond }
    }

    func send(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void) {
        self.recorded.withLock { $0.append(request) }
        completion(self.respond.value(request))
    }
}
