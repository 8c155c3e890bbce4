import Foundation
import JoryioNotificationServiceExtension
import JoryioTestLanes
import JoryioTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The extension's real downloader (URLSession) against the sandbox's media fixtures over loopback
/// (docs/protocol.md §6.2, `/_sandbox/media`): real bytes, real types, real time (NSE-4, NSE-7,
/// VIDEO-8).
@Suite("Rich push downloads against the sandbox", .tags(.sandbox))
struct SandboxRichPushDownloadTests {
    /// Downloads `url` with the live downloader and waits for its one answer.
    static func download(
        _ url: URL,
        limits: RichPushLimits = .standard,
        into directory: ScratchDirectory,
        chunkWritten: (@Sendable () -> Void)? = nil
    ) async -> Result<RichPushMediaFile, RichPushFailure> {
        await withCheckedContinuation { continuation in
            let downloader = URLSessionRichPushDownloader(chunkWritten: chunkWritten)
            _ = downloader.download(url, limits: limits, into: directory.url) { result in
                continuation.resume(returning: result)
            }
        }
    }

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

    /// (fixture, query, expected type)
    static let fixtures: [(String, [String: String], RichPushMediaType)] = [
        ("image.jpg", [:], .jpeg),
        ("image.png", [:], .png),
        ("image.gif", [:], .gif),
        ("video.mp4", [:], .mp4),
        ("audio.wav", [:], .wav),
        ("video.mp4", ["type": "video/quicktime"], .mp4),  // the bytes win over the header
        ("image.png", ["type": "text/plain"], .png),
        ("image.gif", ["type": "application/octet-stream"], .gif),
        ("image.jpg", ["type": "none"], .jpeg),
        ("audio.wav", ["type": "none", "length": "0"], .wav),
    ]

    @Test("NSE-7 / VIDEO-8: each fixture downloaded and named after its type, wrong or missing types sniffed")
    func fixturesDownloaded() async throws {
        let sandbox = try await startSandbox()
        defer { sandbox.stop() }
        let directory = ScratchDirectory()
        defer { directory.remove() }
        for (name, query, type) in Self.fixtures {
            let file = try await Self.download(try Self.media(sandbox, name, query), into: directory).get()
            #expect(file.type == type, "\(name) \(query)")
            #expect(file.url.pathExtension == type.fileExtension)
            #expect(file.url.deletingLastPathComponent().standardizedFileURL == directory.url.standardizedFileURL)
            let bytes = try Data(contentsOf: file.url)
            #expect(bytes.count == file.byteCount)
            #expect(RichPushMediaType.sniff(bytes) == type)
        }
        #expect(directory.files.allSatisfy { !$0.hasSuffix(".part") })
    }

    @Test("VIDEO-8: an oversize file is refused from its Content-Length, or mid-stream without one")
    func oversize() async throws {
        let sandbox = try await startSandbox()
        defer { sandbox.stop() }
        let directory = ScratchDirectory()
        defer { directory.remove() }
        let announced = try Self.media(sandbox, "image.jpg", ["bytes": "10000001"])
        #expect(await Self.download(announced, into: directory) == .failure(.tooLarge(10_000_001)))
        var limits = RichPushLimits.standard
        limits.maxImageBytes = 200_000
        let streamed = try Self.media(sandbox, "image.jpg", ["bytes": "5000000", "length": "0", "chunkBytes": "16384"])
        let result = await Self.download(streamed, limits: limits, into: directory)
        guard case .failure(.tooLarge(let seen)) = result else {
            Issue.record("expected tooLarge, got \(result)")
            return
        }
        #expect(seen > 200_000 && seen < 200_000 + 1_048_576)
        #expect(directory.files.isEmpty)
    }

    @Test("NSE-7: a redirect to an http URL is refused; one to an allowed URL is followed")
    func redirects() async throws {
        let sandbox = try await startSandbox()
        defer { sandbox.stop() }
        let directory = ScratchDirectory()
        defer { directory.remove() }
        let toHTTP = try Self.media(sandbox, "redirect", ["to": "http://media.example.com/image.jpg"])
        #expect(await Self.download(toHTTP, into: directory) == .failure(.redirectRefused))
        let toFile = try Self.media(sandbox, "redirect", ["to": "file:///etc/passwd"])
        let fileResult = await Self.download(toFile, into: directory)
        #expect(fileResult == .failure(.redirectRefused), "\(fileResult)")
        let png = try Self.media(sandbox, "image.png").absoluteString
        let toLoopback = try Self.media(sandbox, "redirect", ["to": png, "status": "307"])
        #expect(try await Self.download(toLoopback, into: directory).get().type == .png)
        var once = RichPushLimits.standard
        once.maxRedirects = 1
        let twice = try Self.media(sandbox, "redirect", ["to": toLoopback.absoluteString])
        #expect(await Self.download(twice, limits: once, into: directory) == .failure(.tooManyRedirects))
        #expect(directory.files.allSatisfy { $0.hasSuffix(".png") })
    }

    @Test("NSE-4: a URL that is not https is never fetched")
    func notHTTPS() async throws {
        let directory = ScratchDirectory()
        let url = try #require(URL(string: "http://media.example.com/image.jpg"))
        #expect(await Self.download(url, into: directory) == .failure(.urlNotAllowed))
    }

    @Test("NSE-7: a 404 from the server is a failure, nothing left behind")
    func notFound() async throws {
        let sandbox = try await startSandbox()
        defer { sandbox.stop() }
        let directory = ScratchDirectory()
        defer { directory.remove() }
        let url = sandbox.baseURL.appendingPathComponent("_sandbox/media/none.jpg")
        #expect(await Self.download(url, into: directory) == .failure(.httpStatus(404)))
        #expect(directory.files.isEmpty)
    }
}
