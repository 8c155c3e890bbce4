internal import Foundation
public import JoryioCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ``Transport`` over Foundation's `URLSession` (Apple platforms; also works on Linux).
///
/// Uses an ephemeral session without cookies, credentials storage or cache, and does not follow
/// redirects (a `3xx` is returned as a response). ``send(_:completion:)`` starts a data task and returns
/// at once; `completion` runs exactly once, on the session's private serial delegate queue.
///
/// ``HTTPRequest/timeout`` bounds the whole exchange: besides `URLRequest.timeoutInterval` (an
/// inactivity timeout on Apple platforms, truncated to whole seconds on Linux), the transport cancels
/// the task at the deadline and reports ``TransportError/Code/timeout``.
///
/// `URLError` codes map to ``TransportError/Code`` (`.timedOut` → `.timeout`, `.cannotConnectToHost` →
/// `.cannotConnect`, `.networkConnectionLost` / `.badServerResponse` → `.connectionLost`, certificate and
/// secure-connection failures → `.tls`, `.badURL` / `.unsupportedURL` → `.invalidRequest`, `.cancelled` →
/// `.cancelled`, anything else → `.other`).
///
/// > Important: TLS is verified by the system; the transport implements no authentication-challenge
/// > handling that could weaken it.
///
/// `URLSessionTransport` is `Sendable`. ``close()`` cancels tasks in flight (they fail with
/// ``TransportError/Code/cancelled``); `deinit` lets running tasks finish.
public final class URLSessionTransport: Transport {
    private let session: URLSession
    private let isClosed = Locked(false)
    private let logger: Logger

    /// Creates a transport with its own ephemeral session.
    public convenience init() {
        self.init(logger: .disabled)
    }

    /// Creates a transport that logs failed requests to `logger` at `.debug`.
    package init(logger: Logger) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCredentialStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let queue = OperationQueue()
        queue.name = "io.joryio.transport.urlsession"
        queue.maxConcurrentOperationCount = 1
        self.session = URLSession(configuration: configuration, delegate: NoRedirectDelegate(), delegateQueue: queue)
        self.logger = logger.scoped("transport")
    }

    deinit {
        self.session.finishTasksAndInvalidate()
    }

    /// Starts `request`; `completion` runs once on the session's delegate queue.
    public func send(
        _ request: HTTPRequest,
        completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void
    ) {
        let logger = self.logger
        let method = request.method
        let report: @Sendable (Result<HTTPResponse, TransportError>) -> Void = { result in
            if case .failure(let error) = result {
                logger.debug("\(method) request failed: \(error)")
            }
            completion(result)
        }
        if let problem = request.wireProblem() {
            self.session.delegateQueue.addOperation { report(.failure(problem)) }
            return
        }
        let deadline = request.timeout
        let timedOut = Locked(false)
        let started = self.isClosed.withLock { closed -> Bool in
            guard !closed else { return false }
            let task = self.session.dataTask(with: Self.urlRequest(for: request)) { data, response, error in
                report(Self.outcome(data: data, response: response, error: error, timedOut: timedOut.value, deadline))
            }
            task.resume()
            DispatchQueue.global().asyncAfter(deadline: .now() + max(0, deadline)) { [weak task] in
                guard let task, task.state == .running else { return }
                timedOut.withLock { $0 = true }
                task.cancel()
            }
            return true
        }
        if !started {
            self.session.delegateQueue.addOperation {
                report(.failure(TransportError(.cancelled, "transport is closed")))
            }
        }
    }

    /// Cancels every task in flight (each fails with ``TransportError/Code/cancelled``) and invalidates the
    /// session. Idempotent; later ``send(_:completion:)`` calls fail with `.cancelled`.
    public func close() {
        let wasClosed = self.isClosed.withLock { closed in
            defer { closed = true }
            return closed
        }
        if !wasClosed {
            self.session.invalidateAndCancel()
        }
    }

    /// The Foundation request for `request`.
    private static func urlRequest(for request: HTTPRequest) -> URLRequest {
        // Whole seconds, rounded up and one more: Linux truncates this value, and the transport's own
        // deadline (exact) must fire first.
        let timeoutInterval = request.timeout.isFinite ? (max(0, request.timeout)).rounded(.up) + 1 : 3600
        var urlRequest = URLRequest(
            url: request.url,
            cachePolicy: .reloadIgnoringLocalCacheData,
            timeoutInterval: timeoutInterval
        )
        urlRequest.httpMethod = request.method
        urlRequest.httpShouldHandleCookies = false
        for header in request.headers {
            urlRequest.addValue(header.value, forHTTPHeaderField: header.name)
        }
        urlRequest.httpBody = request.body
        return urlRequest
    }
}
