package import Foundation
internal import JoryioCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ``InAppImageFetching`` over Foundation's `URLSession` (the OS's on Apple platforms, the
/// toolchain's FoundationNetworking on Linux). One ephemeral session per image (no disk cache, no
/// cookies, no credentials); the body is collected in memory and the fetch stopped as soon as the
/// announced or received length passes the limit; a redirect is followed only to a URL the limits
/// allow. The loader's timer is the deadline; the session's own timeout is a backstop behind it.
package struct URLSessionInAppImageFetcher: InAppImageFetching {
    /// The live fetcher.
    package init() {}

    package func fetch(
        _ url: URL,
        limits: InAppImageLimits,
        completion: @escaping @Sendable (Result<InAppImageResponse, InAppImageFailure>) -> Void
    ) -> @Sendable () -> Void {
        guard limits.allows(url) else {
            completion(.failure(.notAllowed))
            return {}
        }
        let delegate = InAppImageFetchDelegate(limits: limits, completion: completion)
        let configuration = URLSessionConfiguration.ephemeral
        // Whole seconds: swift-corelibs-foundation times a fraction of a second out at once.
        let timeout = limits.timeout.rounded(.up) + 1
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.setValue("image/*", forHTTPHeaderField: "Accept")
        let task = session.dataTask(with: request)
        task.resume()
        session.finishTasksAndInvalidate()
        return { task.cancel() }
    }
}

/// The delegate of one fetch: collects the body within the limit, holds redirects to the rule,
/// answers once.
private final class InAppImageFetchDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct State {
        var redirects = 0
        var status = 0
        var mimeType: String?
        var data = Data()
        var failure: InAppImageFailure?
        var completion: (@Sendable (Result<InAppImageResponse, InAppImageFailure>) -> Void)?
    }

    private let limits: InAppImageLimits
    private let state: Locked<State>

    init(
        limits: InAppImageLimits,
        completion: @escaping @Sendable (Result<InAppImageResponse, InAppImageFailure>) -> Void
    ) {
        self.limits = limits
        self.state = Locked(State(completion: completion))
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let refused = self.state.withLock { state -> Bool in
            state.status = (response as? HTTPURLResponse)?.statusCode ?? 0
            state.mimeType = response.mimeType
            if response.expectedContentLength > Int64(self.limits.maxBytes) {
                state.failure = .tooLarge(limit: self.limits.maxBytes)
            }
            return state.failure != nil
        }
        completionHandler(refused ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over = self.state.withLock { state -> Bool in
            guard state.failure == nil else { return true }
            guard state.data.count + data.count <= self.limits.maxBytes else {
                state.failure = .tooLarge(limit: self.limits.maxBytes)
                state.data = Data()
                return true
            }
            state.data.append(data)
            return false
        }
        if over { dataTask.cancel() }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Both the next request and the redirect's own Location are checked (swift-corelibs-foundation
        // rewrites some targets, as the rich-push downloader notes), and at most a few are followed.
        let refused = self.state.withLock { state -> Bool in
            state.redirects += 1
            let failure: InAppImageFailure? =
                if state.redirects > Self.maxRedirects {
                    .tooManyRedirects
                } else if request.url.map(self.limits.allows) == true,
                    Self.location(of: response).map(self.limits.allows) ?? true
                {
                    nil
                } else {
                    .redirectRefused
                }
            if let failure, state.failure == nil { state.failure = failure }
            return failure != nil
        }
        if refused {
            completionHandler(nil)
            task.cancel()
        } else {
            completionHandler(request)
        }
    }

    /// The most redirects one image follows.
    static let maxRedirects = 5

    /// The redirect's `Location`, resolved against the response's URL.
    private static func location(of response: HTTPURLResponse) -> URL? {
        let header = response.allHeaderFields.first { ($0.key as? String)?.lowercased() == "location" }
        guard let text = header?.value as? String else { return nil }
        return URL(string: text, relativeTo: response.url)?.absoluteURL
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (completion, result) = self.state.withLock { state in
            let completion = state.completion
            state.completion = nil
            let result: Result<InAppImageResponse, InAppImageFailure> =
                if let failure = state.failure {
                    .failure(failure)
                } else if let error {
                    .failure(.network(String(describing: error)))
                } else {
                    .success(InAppImageResponse(status: state.status, mimeType: state.mimeType, data: state.data))
                }
            return (completion, result)
        }
        completion?(result)
    }
}
