#if canImport(CJoryioCurl)
public import JoryioCore

/// A ``Transport`` over libcurl, with its own small pool of worker threads (Linux and Android).
///
/// ``send(_:completion:)`` queues the request and returns at once. One of `workerCount` threads (2 by
/// default) picks it up in FIFO order, runs it on that thread's reused easy handle (keep-alive
/// connections survive between requests) and calls `completion` exactly once on the same thread.
///
/// Per request it sets the method, URL, headers (plus `Expect:`, so bodies are sent without a
/// `100-continue` round trip), the body with its exact size, and `CURLOPT_TIMEOUT_MS` from
/// ``HTTPRequest/timeout`` covering the whole exchange. Only `http` and `https` are allowed and
/// redirects are not followed: a `3xx` is returned as a response.
///
/// > Important: TLS verification is never disabled. The transport leaves `CURLOPT_SSL_VERIFYPEER` and
/// > `CURLOPT_SSL_VERIFYHOST` at libcurl's secure defaults; there is deliberately no option to change them.
///
/// Failures map to ``TransportError/Code``: `.timeout`; `.cannotConnect` (resolve or connect failed);
/// `.connectionLost` (nothing received, send/receive error, partial response); `.tls`;
/// `.invalidRequest` (bad URL or scheme, malformed method or header); `.cancelled` (closed); `.other`.
///
/// `CurlTransport` is `Sendable`. ``close()`` (also run by `deinit`) stops the workers: the request in
/// flight is aborted and queued ones fail with ``TransportError/Code/cancelled``.
public final class CurlTransport: Transport {
    private let pool: CurlWorkerPool

    /// Creates a transport and starts its worker threads.
    ///
    /// - Parameters:
    ///   - workerCount: How many requests run in parallel (at least 1); each worker keeps its own
    ///     connections alive.
    ///   - maxResponseBytes: A larger response body fails the request with ``TransportError/Code/other``.
    public convenience init(workerCount: Int = 2, maxResponseBytes: Int = 16 << 20) {
        self.init(workerCount: workerCount, maxResponseBytes: maxResponseBytes, logger: .disabled)
    }

    /// Creates a transport that logs failed requests to `logger` at `.debug`.
    package init(workerCount: Int = 2, maxResponseBytes: Int = 16 << 20, logger: Logger) {
        self.pool = CurlWorkerPool(
            workerCount: workerCount,
            maxResponseBytes: maxResponseBytes,
            logger: logger.scoped("transport")
        )
    }

    deinit {
        self.pool.close()
    }

    /// Queues `request`; `completion` runs once on a worker thread with the response or the error.
    ///
    /// After ``close()``, `completion` runs immediately on the caller's thread with
    /// ``TransportError/Code/cancelled``.
    public func send(
        _ request: HTTPRequest,
        completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void
    ) {
        guard self.pool.submit(CurlJob(request: request, completion: completion)) else {
            completion(.failure(TransportError(.cancelled, "transport is closed")))
            return
        }
    }

    /// Stops the transport: aborts the request in flight, fails queued requests with
    /// ``TransportError/Code/cancelled`` (on the worker threads) and lets the threads exit.
    ///
    /// Returns without waiting. Idempotent; later ``send(_:completion:)`` calls fail at once.
    public func close() {
        self.pool.close()
    }
}
#endif
