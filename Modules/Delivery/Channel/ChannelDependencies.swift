import Foundation
package import JoryioCore

/// What a send channel takes from the engine, the same for every channel: the transport, the
/// engine's scheduler and clock, randomness for backoff and ids, a logger, SDK authentication and
/// where request results go. Settings stay per channel.
package struct ChannelDependencies: Sendable {
    /// The HTTP transport.
    package var transport: any Transport
    /// The engine's serial scheduler: every channel method runs on it, and so do answers.
    package var scheduler: any Scheduler
    /// Timestamps and due times.
    package var clock: any Clock
    /// Backoff jitter.
    package var jitter: any JitterSource
    /// Idempotency keys and other ids a channel makes.
    package var identifiers: any IdentifierGenerator
    /// The channel's logger (see ``scoped(_:)``).
    package var logger: Logger
    /// SDK-auth tokens, read when a request leaves, and the 401 flow.
    package var authorization: RequestAuthorization
    /// Hears every request's failure, or `nil` after a success.
    package var onResult: @Sendable (JoryioTransportError?) -> Void

    /// Creates the set.
    package init(
        transport: any Transport,
        scheduler: any Scheduler,
        clock: any Clock,
        jitter: any JitterSource,
        identifiers: any IdentifierGenerator,
        logger: Logger,
        authorization: RequestAuthorization = .disabled,
        onResult: @escaping @Sendable (JoryioTransportError?) -> Void
    ) {
        self.transport = transport
        self.scheduler = scheduler
        self.clock = clock
        self.jitter = jitter
        self.identifiers = identifiers
        self.logger = logger
        self.authorization = authorization
        self.onResult = onResult
    }

    /// The same set with the logger scoped to `module`.
    package func scoped(_ module: String) -> Self {
        var copy = self
        copy.logger = self.logger.scoped(module)
        return copy
    }

    /// The same set reporting results to `onResult` instead.
    package func reporting(to onResult: @escaping @Sendable (JoryioTransportError?) -> Void) -> Self {
        var copy = self
        copy.onResult = onResult
        return copy
    }

    /// Sends `request` with `credentials` and hands the answer to `handle` on the scheduler: an
    /// SDK-auth 401 as ``ChannelAnswer/tokenRejected(_:)`` (the one 401 flow, run there first),
    /// anything else as ``ChannelAnswer/result(_:)``.
    package func send(
        _ request: HTTPRequest,
        credentials: SentCredentials?,
        _ handle: @escaping @Sendable (ChannelAnswer) -> Void
    ) {
        self.transport.send(request.authorized(credentials)) { [self] result in
            self.scheduler.enqueue {
                if let rejection = self.authorization.rejection(of: result, sentWith: credentials) {
                    handle(.tokenRejected(rejection))
                } else {
                    handle(.result(result))
                }
            }
        }
    }
}

/// The answer to a channel's request, after the 401 flow.
package enum ChannelAnswer: Sendable {
    /// The server rejected the request's SDK-auth token.
    case tokenRejected(TokenRejection)
    /// Any other answer (or none), for the channel's ``ResponseTable``.
    case result(Result<HTTPResponse, TransportError>)
}
