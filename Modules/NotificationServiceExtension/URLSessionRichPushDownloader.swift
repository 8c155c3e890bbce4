package import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ``RichPushDownloader`` over Foundation's `URLSession` (part of the OS on Apple platforms and of
/// the Swift toolchain on Linux: no package dependency).
///
/// One ephemeral session per download (no cache, no cookies, no credential storage) with a delegate
/// on a serial queue: the body arrives chunk by chunk and goes straight to the file through
/// ``RichPushMediaReceiver``; a redirect is followed only to an allowed URL and at most
/// ``RichPushLimits/maxRedirects`` times; the request and resource timeouts are the deadline.
package struct URLSessionRichPushDownloader: RichPushDownloader {
    /// Called after each chunk is written (tests sample memory there); `nil` in the extension.
    private let chunkWritten: (@Sendable () -> Void)?

    /// The live downloader; `chunkWritten` runs after each chunk reaches the file.
    package init(chunkWritten: (@Sendable () -> Void)? = nil) {
        self.chunkWritten = chunkWritten
    }

    package func download(
        _ url: URL,
        limits: RichPushLimits,
        into directory: URL,
        completion: @escaping @Sendable (Result<RichPushMediaFile, RichPushFailure>) -> Void
    ) -> @Sendable () -> Void {
        guard RichPushURLPolicy.allows(url) else {
            completion(.failure(.urlNotAllowed))
            return {}
        }
        let receiver = RichPushMediaReceiver(directory: directory, limits: limits, name: UUID().uuidString)
        let delegate = RichPushDownloadDelegate(
            receiver: receiver,
            limits: limits,
            chunkWritten: self.chunkWritten,
            completion: completion
        )
        let configuration = URLSessionConfiguration.ephemeral
        // A backstop: the session's own deadline ends the download first. Whole seconds, because
        // swift-corelibs-foundation times a fraction of a second out at once.
        let timeout = limits.deadline.rounded(.up) + 1
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        configuration.httpMaximumConnectionsPerHost = 1
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
        let request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        let task = session.dataTask(with: request)
        task.resume()
        // The session lets go of its delegate once the task is done.
        session.finishTasksAndInvalidate()
        return { delegate.cancel(task) }
    }
}

/// The delegate of one download: feeds the receiver, enforces the redirect rule, reports once.
private final class RichPushDownloadDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct State {
        var receiver: RichPushMediaReceiver
        var failure: RichPushFailure?
        var redirects = 0
        var completion: (@Sendable (Result<RichPushMediaFile, RichPushFailure>) -> Void)?
    }

    private let state: RichPushLock<State>
    private let limits: RichPushLimits
    private let chunkWritten: (@Sendable () -> Void)?

    init(
        receiver: RichPushMediaReceiver,
        limits: RichPushLimits,
        chunkWritten: (@Sendable () -> Void)?,
        completion: @escaping @Sendable (Result<RichPushMediaFile, RichPushFailure>) -> Void
    ) {
        self.state = RichPushLock(State(receiver: receiver, completion: completion))
        self.limits = limits
        self.chunkWritten = chunkWritten
    }

    /// Stops the download; the completion reports ``RichPushFailure/cancelled`` unless another
    /// failure came first.
    func cancel(_ task: URLSessionTask) {
        self.fail(.cancelled)
        task.cancel()
    }

    /// Records the first failure (later ones are consequences of it).
    private func fail(_ failure: RichPushFailure) {
        self.state.withLock { state in
            if state.failure == nil { state.failure = failure }
        }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let failure: RichPushFailure? = self.state.withLock { state -> RichPushFailure? in
            if let failure = state.failure { return failure }
            do throws(RichPushFailure) {
                try state.receiver.begin(
                    status: status,
                    mimeType: response.mimeType,
                    expectedLength: response.expectedContentLength
                )
                return nil
            } catch {
                state.failure = error
                return error
            }
        }
        completionHandler(failure == nil ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let failed = self.state.withLock { state in
            guard state.failure == nil else { return true }
            do throws(RichPushFailure) {
                try state.receiver.append(data)
                return false
            } catch {
                state.failure = error
                return true
            }
        }
        if failed {
            dataTask.cancel()
        } else {
            self.chunkWritten?()
        }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let refusal: RichPushFailure? = self.state.withLock { state in
            state.redirects += 1
            let failure: RichPushFailure? =
                if state.redirects > self.limits.maxRedirects {
                    .tooManyRedirects
                } else if let next = request.url, RichPushURLPolicy.allows(next),
                    Self.location(of: response).map(RichPushURLPolicy.allows) ?? true
                {
                    nil
                } else {
                    .redirectRefused
                }
            if let failure, state.failure == nil { state.failure = failure }
            return failure
        }
        if refusal != nil {
            completionHandler(nil)
            task.cancel()
        } else {
            completionHandler(request)
        }
    }

    /// The redirect's own `Location`, resolved against the response's URL: checked as well as the
    /// loader's next request, because swift-corelibs-foundation rewrites some targets (a `file:`
    /// Location becomes a path on the same http host).
    private static func location(of response: HTTPURLResponse) -> URL? {
        let header = response.allHeaderFields.first { ($0.key as? String)?.lowercased() == "location" }
        guard let text = header?.value as? String else { return nil }
        return URL(string: text, relativeTo: response.url)?.absoluteURL
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (completion, result) = self.state.withLock { state in
            let completion = state.completion
            state.completion = nil
            let result: Result<RichPushMediaFile, RichPushFailure>
            if let failure = state.failure {
                result = .failure(failure)
            } else if let error {
                result = .failure(.network(String(describing: error)))
            } else {
                do throws(RichPushFailure) {
                    result = .success(try state.receiver.finish())
                } catch {
                    result = .failure(error)
                }
            }
            if case .failure = result { state.receiver.abandon() }
            return (completion, result)
        }
        completion?(result)
    }
}
