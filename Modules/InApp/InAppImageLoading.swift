package import Foundation
package import JoryioCore
package import JoryioKit

/// How a native message's image is fetched (GAP-44): `https` only, at most
/// ``maxBytes`` of body, within ``timeout`` seconds, and only an image (by its `Content-Type` or its
/// first bytes).
package struct InAppImageLimits: Sendable, Equatable {
    /// The largest body accepted, in bytes.
    package var maxBytes: Int
    /// How long the message waits for its image, in seconds; then it shows without it.
    package var timeout: TimeInterval
    /// Whether plain `http` to a loopback host is fetched: `false` in the SDK, `true` only in the
    /// tests that fetch from the local sandbox.
    package var allowsLoopbackHTTP: Bool

    /// Limits.
    package init(maxBytes: Int, timeout: TimeInterval, allowsLoopbackHTTP: Bool = false) {
        self.maxBytes = max(0, maxBytes)
        self.timeout = max(0, timeout)
        self.allowsLoopbackHTTP = allowsLoopbackHTTP
    }

    /// 5 MB and 5 s: a message image is a photo or an illustration, a few hundred kilobytes when
    /// sized for a phone; 5 MB leaves room for a large one and bounds what a mistaken URL (a video,
    /// an archive) costs in memory and data. 5 s: a message is shown because of what the person
    /// just did; later than that it is better shown without its image.
    package static let standard = InAppImageLimits(maxBytes: 5 * 1024 * 1024, timeout: 5)

    /// The hosts plain `http` may reach when ``allowsLoopbackHTTP``.
    package static let loopbackHosts: Set<String> = ["127.0.0.1", "localhost", "::1", "[::1]"]

    /// Whether `url` may be fetched: `https` with a host (or loopback `http` when allowed).
    package func allows(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else {
            return false
        }
        switch scheme {
        case "https": return true
        case "http": return self.allowsLoopbackHTTP && Self.loopbackHosts.contains(host)
        default: return false
        }
    }
}

/// Why a message's image was not drawn.
package enum InAppImageFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL is not `https` (or has no host).
    case notAllowed
    /// A redirect went to a URL that is not allowed.
    case redirectRefused
    /// More redirects than the fetcher follows.
    case tooManyRedirects
    /// The body is larger than the limit (bytes).
    case tooLarge(limit: Int)
    /// The server answered something other than 200…299.
    case status(Int)
    /// Neither the `Content-Type` (`image/*`) nor the first bytes (PNG, JPEG, GIF, WebP) say image.
    case notAnImage(contentType: String?)
    /// The fetch failed.
    case network(String)
    /// The image did not arrive within the limit (seconds).
    case timedOut(TimeInterval)

    /// For logs.
    package var description: String {
        switch self {
        case .notAllowed: "not an https URL; refused"
        case .redirectRefused: "redirected to a URL that is not https; refused"
        case .tooManyRedirects: "redirected too many times; refused"
        case .tooLarge(let limit): "larger than \(limit) bytes; refused"
        case .status(let status): "the server answered \(status)"
        case .notAnImage(let type): "not an image (Content-Type \(type ?? "none"))"
        case .network(let error): "the fetch failed: \(error)"
        case .timedOut(let seconds): "not loaded within \(seconds) s"
        }
    }
}

/// What a fetch brought back.
package struct InAppImageResponse: Sendable, Equatable {
    /// The HTTP status.
    package var status: Int
    /// The `Content-Type`'s media type, if any.
    package var mimeType: String?
    /// The body.
    package var data: Data

    /// A response.
    package init(status: Int, mimeType: String?, data: Data) {
        self.status = status
        self.mimeType = mimeType
        self.data = data
    }
}

/// Fetches an image's bytes: ``URLSessionInAppImageFetcher`` in the SDK, a fake in tests.
package protocol InAppImageFetching: Sendable {
    /// Fetches `url` (already allowed by `limits`), following redirects only to URLs `limits`
    /// allows and stopping once the body passes `limits.maxBytes`; calls `completion` once, on any
    /// thread. Returns what cancels it.
    func fetch(
        _ url: URL,
        limits: InAppImageLimits,
        completion: @escaping @Sendable (Result<InAppImageResponse, InAppImageFailure>) -> Void
    ) -> @Sendable () -> Void
}

/// Whether bytes are an image the SDK draws.
package enum InAppImageFormat: String, Sendable, Equatable {
    case png, jpeg, gif, webp

    /// The format the first bytes say, if any.
    package static func sniff(_ data: Data) -> InAppImageFormat? {
        let bytes = [UInt8](data.prefix(12))
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return .gif }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return .webp
        }
        return nil
    }

    /// A response is an image when its status is 2xx, its body within the limit and not empty, and
    /// its `Content-Type` is `image/*` or its first bytes are PNG, JPEG, GIF or WebP.
    package static func check(
        _ response: InAppImageResponse,
        limits: InAppImageLimits
    ) -> Result<Data, InAppImageFailure> {
        guard (200..<300).contains(response.status) else { return .failure(.status(response.status)) }
        guard response.data.count <= limits.maxBytes else { return .failure(.tooLarge(limit: limits.maxBytes)) }
        let type = response.mimeType?.lowercased()
        let typeSaysImage = type.map { $0.hasPrefix("image/") } ?? false
        guard !response.data.isEmpty, typeSaysImage || Self.sniff(response.data) != nil else {
            return .failure(.notAnImage(contentType: response.mimeType))
        }
        return .success(response.data)
    }
}

/// Loads the images of one message (GAP-44): checks the URL, fetches, checks the answer, and hands
/// the bytes over, or `nil` once the timeout passes or the image is refused, so the message never
/// waits for an image for ever. Results are kept in memory by URL for as long as the loader lives,
/// one message's presentation: asking again, or while a fetch runs, does not fetch again.
package final class InAppImageLoader: Sendable {
    private enum Entry {
        case loading(waiters: [@Sendable (Data?) -> Void], cancel: @Sendable () -> Void)
        case done(Data?)
    }

    private let fetcher: any InAppImageFetching
    private let scheduler: any Scheduler
    private let limits: InAppImageLimits
    private let log: @Sendable (LogLevel, String) -> Void
    private let entries = Locked<[URL: Entry]>([:])

    /// A loader fetching with `fetcher` and timing out on `scheduler`.
    package init(
        fetcher: any InAppImageFetching,
        scheduler: any Scheduler,
        limits: InAppImageLimits = .standard,
        log: @escaping @Sendable (LogLevel, String) -> Void
    ) {
        self.fetcher = fetcher
        self.scheduler = scheduler
        self.limits = limits
        self.log = log
    }

    /// Calls `ready` once with the image at `url`, or `nil` (no URL, refused, failed or timed
    /// out). A refusal and a failure are logged.
    package func load(_ url: URL, ready: @escaping @Sendable (Data?) -> Void) {
        guard self.limits.allows(url) else {
            self.log(.warning, "in-app image \(url.absoluteString): \(InAppImageFailure.notAllowed)")
            self.entries.withLock { $0[url] = .done(nil) }
            return ready(nil)
        }
        enum Step {
            case answer(Data?)
            case wait
            case start
        }
        let step = self.entries.withLock { entries -> Step in
            switch entries[url] {
            case .done(let data): return .answer(data)
            case .loading(var waiters, let cancel):
                waiters.append(ready)
                entries[url] = .loading(waiters: waiters, cancel: cancel)
                return .wait
            case nil:
                entries[url] = .loading(waiters: [ready], cancel: {})
                return .start
            }
        }
        switch step {
        case .answer(let data): return ready(data)
        case .wait: return
        case .start: break
        }
        let timeout = self.limits.timeout
        let timer = self.scheduler.schedule(after: timeout) { [self] in
            self.finish(url, with: .failure(.timedOut(timeout)))
        }
        let cancel = self.fetcher.fetch(url, limits: self.limits) { [self] result in
            timer.cancel()
            self.finish(url, with: result.flatMap { InAppImageFormat.check($0, limits: self.limits) })
        }
        self.entries.withLock { entries in
            // Not when the fetch already answered (a fake may answer before returning).
            guard case .loading(let waiters, _) = entries[url] else { return }
            entries[url] = .loading(waiters: waiters, cancel: cancel)
        }
    }

    /// Calls `ready` with the image of a native message that has one, and with `nil` at once for
    /// any other message.
    package func load(imageOf message: InAppMessage, ready: @escaping @Sendable (Data?) -> Void) {
        guard case .native(let content) = message.content, let url = content.imageURL else { return ready(nil) }
        self.load(url, ready: ready)
    }

    /// Records the first outcome for `url` and answers its waiters; later outcomes are ignored
    /// (a fetch that ends after the timeout).
    private func finish(_ url: URL, with result: Result<Data, InAppImageFailure>) {
        let (waiters, cancel) = self.entries.withLock {
            entries -> ([@Sendable (Data?) -> Void], (@Sendable () -> Void)?) in
            guard case .loading(let waiters, let cancel) = entries[url] else { return ([], nil) }
            entries[url] = .done(try? result.get())
            return (waiters, cancel)
        }
        guard !waiters.isEmpty else { return }
        switch result {
        case .success(let data):
            self.log(.debug, "in-app image \(url.absoluteString): \(data.count) bytes loaded")
        case .failure(let failure):
            if case .timedOut = failure { cancel?() }
            self.log(.warning, "in-app image \(url.absoluteString): \(failure); the message shows without it")
        }
        let data = try? result.get()
        for waiter in waiters { waiter(data) }
    }
}
