import Foundation
import JoryioCore
import JoryioInApp
import JoryioTestLanes
import JoryioTesting
import Testing

/// Native message images fetched for real (GAP-44): ``URLSessionInAppImageFetcher`` behind
/// ``InAppImageLoader`` against the sandbox's media fixtures (`/_sandbox/media`, docs/protocol.md
/// §6.2) over loopback `http`, which only these tests allow (the SDK fetches `https` only).
@Suite("In-app images against the sandbox", .tags(.sandbox))
struct SandboxInAppImageTests {
    /// Loopback `http` allowed, the standard cap, a timeout no loopback fetch comes near.
    static let limits = InAppImageLimits(
        maxBytes: InAppImageLimits.standard.maxBytes,
        timeout: 10,
        allowsLoopbackHTTP: true
    )

    static func media(_ sandbox: SandboxServer, _ name: String, _ query: [String: String] = [:]) throws -> URL {
        var components = try #require(
            URLComponents(
                url: sandbox.baseURL.appendingPathComponent("_sandbox/media/\(name)"),
                resolvingAgainstBaseURL: false
            )
        )
        if !query.isEmpty {
            components.queryItems = query.sorted(by: { $0.key < $1.key }).map {
                URLQueryItem(name: $0.key, value: $0.value)
            }
        }
        return try #require(components.url)
    }

    /// Loads `url` with the live fetcher and a real-time scheduler; the image (or `nil`) and the log.
    static func load(_ url: URL, limits: InAppImageLimits = Self.limits) async -> (Data?, [String]) {
        let logs = Locked<[String]>([])
        let loader = InAppImageLoader(
            fetcher: URLSessionInAppImageFetcher(),
            scheduler: SerialQueueScheduler(label: "in-app image test"),
            limits: limits,
            log: { level, text in logs.withLock { $0.append("\(level) \(text)") } }
        )
        let data = await withCheckedContinuation { continuation in
            loader.load(url) { data in continuation.resume(returning: data) }
        }
        return (data, logs.withLock { $0 })
    }

    @Test("GAP-44: the sandbox's PNG, JPEG and GIF are fetched, a wrong Content-Type sniffed from the bytes")
    func fetchesImages() async throws {
        let sandbox = try await startSandbox()
        defer { sandbox.stop() }
        let cases: [(String, [String: String], InAppImageFormat)] = [
            ("image.png", [:], .png),
            ("image.jpg", [:], .jpeg),
            ("image.gif", [:], .gif),
            ("image.png", ["type": "text/plain"], .png),
            ("image.png", ["type": "none", "length": "0"], .png),
        ]
        for (name, query, format) in cases {
            let (data, logs) = await Self.load(try Self.media(sandbox, name, query))
            let bytes = try #require(data, "\(name) \(query): \(logs)")
            #expect(InAppImageFormat.sniff(bytes) == format, "\(name) \(query)")
            #expect(logs.count == 1 && logs[0].hasSuffix("\(bytes.count) bytes loaded"), "\(logs)")
        }
    }

    @Test(
        "GAP-44: not an image (a WAV with its type), an oversize body, a 404, a redirect off loopback and a sixth redirect are refused"
    )
    func refusals() async throws {
        let sandbox = try await startSandbox()
        defer { sandbox.stop() }
        let small = InAppImageLimits(maxBytes: 4096, timeout: 10, allowsLoopbackHTTP: true)
        let cases: [(URL, InAppImageLimits, String)] = [
            (try Self.media(sandbox, "audio.wav"), Self.limits, "not an image (Content-Type audio/wav)"),
            (try Self.media(sandbox, "image.png", ["bytes": "8192"]), small, "larger than 4096 bytes; refused"),
            (
                try Self.media(sandbox, "image.png", ["bytes": "8192", "length": "0"]), small,
                "larger than 4096 bytes; refused"
            ),
            (try Self.media(sandbox, "missing.png"), Self.limits, "the server answered 404"),
            (
                try Self.media(sandbox, "redirect", ["to": "http://example.com/a.png"]), Self.limits,
                "redirected to a URL that is not https; refused"
            ),
        ]
        // Six redirects in a row to a valid image: one more than the fetcher follows.
        var chain = try Self.media(sandbox, "image.png")
        for _ in 0..<6 { chain = try Self.media(sandbox, "redirect", ["to": chain.absoluteString]) }
        for (url, limits, reason) in cases + [(chain, Self.limits, "redirected too many times; refused")] {
            let (data, logs) = await Self.load(url, limits: limits)
            #expect(data == nil, "\(url)")
            #expect(logs == ["warning in-app image \(url.absoluteString): \(reason); the message shows without it"])
        }
    }

    @Test("GAP-44: the SDK's own limits refuse the sandbox's plain-http URL without fetching it")
    func httpRefused() async throws {
        let sandbox = try await startSandbox()
        defer { sandbox.stop() }
        let url = try Self.media(sandbox, "image.png")
        let (data, logs) = await Self.load(url, limits: .standard)
        #expect(data == nil)
        #expect(logs == ["warning in-app image \(url.absoluteString): not an https URL; refused"])
    }

    @Test("GAP-44: a server slower than the timeout: no image once the timeout passes")
    func slowServer() async throws {
        let sandbox = try await startSandbox()
        defer { sandbox.stop() }
        let url = try Self.media(sandbox, "image.png", ["delayMs": "3000"])
        let limits = InAppImageLimits(maxBytes: 4096, timeout: 1, allowsLoopbackHTTP: true)
        let (data, logs) = await Self.load(url, limits: limits)
        // The timeout's own outcome (not a wall-clock bound, which a loaded machine breaks): no image,
        // and the reason is the timeout, not an answer that arrived late.
        #expect(data == nil)
        #expect(
            logs == [
                "warning in-app image \(url.absoluteString): not loaded within 1.0 s; the message shows without it"
            ]
        )
    }
}
