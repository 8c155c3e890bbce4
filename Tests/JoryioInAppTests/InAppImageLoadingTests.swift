import Foundation
import JoryioCore
import JoryioInApp
import JoryioKit
import JoryioTesting
import Testing

/// Native message images (GAP-44): which URLs are fetched, which answers are images, the byte cap,
/// the timeout, the per-message cache, and the message shown when the image arrives or the timeout
/// passes. A scripted fetcher and virtual time: nothing sleeps, nothing goes on the network.
@Suite struct InAppImageLoadingTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D])
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10])
    static let gif = Data("GIF89a\u{1}\u{0}".utf8)
    static let webp = Data("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)
    static let url = URL(string: "https://cdn.example.com/sale.png")

    /// A fetcher that answers when the test says.
    final class ScriptedFetcher: InAppImageFetching {
        let fetched = Locked<[URL]>([])
        let cancelled = Locked<[URL]>([])
        private let pending = Locked<[URL: @Sendable (Result<InAppImageResponse, InAppImageFailure>) -> Void]>([:])
        /// When set, answers at once with it.
        let immediate = Locked<Result<InAppImageResponse, InAppImageFailure>?>(nil)

        func fetch(
            _ url: URL,
            limits: InAppImageLimits,
            completion: @escaping @Sendable (Result<InAppImageResponse, InAppImageFailure>) -> Void
        ) -> @Sendable () -> Void {
            self.fetched.withLock { $0.append(url) }
            if let answer = self.immediate.withLock({ $0 }) {
                completion(answer)
            } else {
                self.pending.withLock { $0[url] = completion }
            }
            return { self.cancelled.withLock { $0.append(url) } }
        }

        func answer(_ url: URL, _ result: Result<InAppImageResponse, InAppImageFailure>) {
            let completion = self.pending.withLock { $0.removeValue(forKey: url) }
            completion?(result)
        }
    }

    final class Rig: Sendable {
        let scheduler = ManualScheduler()
        let fetcher = ScriptedFetcher()
        let logs = Locked<[String]>([])
        let answers = Locked<[Data?]>([])
        let loader: InAppImageLoader

        init(limits: InAppImageLimits = .standard) {
            let logs = self.logs
            self.loader = InAppImageLoader(
                fetcher: self.fetcher,
                scheduler: self.scheduler,
                limits: limits,
                log: { level, text in logs.withLock { $0.append("\(level) \(text)") } }
            )
        }

        func load(_ url: URL) {
            self.loader.load(url) { data in self.answers.withLock { $0.append(data) } }
        }
    }

    static func ok(
        _ data: Data,
        _ type: String? = "image/png",
        status: Int = 200
    ) -> Result<
        InAppImageResponse, InAppImageFailure
    > {
        .success(InAppImageResponse(status: status, mimeType: type, data: data))
    }

    @Test("GAP-44: https is fetched; http, http to loopback, file, data and host-less URLs are refused and logged")
    func onlyHTTPS() throws {
        let limits = InAppImageLimits.standard
        #expect(limits.maxBytes == 5 * 1024 * 1024)
        #expect(limits.timeout == 5)
        let allowed = try #require(Self.url)
        #expect(limits.allows(allowed))
        for text in [
            "http://cdn.example.com/a.png", "http://127.0.0.1:8080/a.png", "file:///tmp/a.png",
            "data:image/png;base64,AAAA", "https:///a.png", "ftp://cdn.example.com/a.png",
        ] {
            let url = try #require(URL(string: text))
            #expect(!limits.allows(url), "\(text)")
            let rig = Rig()
            rig.load(url)
            #expect(rig.answers.withLock { $0 } == [nil], "\(text): answered at once, without the image")
            #expect(rig.fetcher.fetched.withLock { $0 }.isEmpty, "\(text): never fetched")
            #expect(
                rig.logs.withLock { $0 } == ["warning in-app image \(text): not an https URL; refused"]
            )
        }
        let loopback = InAppImageLimits(maxBytes: 10, timeout: 1, allowsLoopbackHTTP: true)
        #expect(try loopback.allows(#require(URL(string: "http://127.0.0.1:8080/a.png"))))
        #expect(try !loopback.allows(#require(URL(string: "http://cdn.example.com/a.png"))))
    }

    @Test(
        "GAP-44: an image is image/* or sniffed PNG, JPEG, GIF or WebP; anything else, an error status or too many bytes is refused"
    )
    func whatIsAnImage() {
        let limits = InAppImageLimits(maxBytes: 16, timeout: 5)
        let check = { (data: Data, type: String?, status: Int) in
            InAppImageFormat.check(InAppImageResponse(status: status, mimeType: type, data: data), limits: limits)
        }
        #expect(InAppImageFormat.sniff(Self.png) == .png)
        #expect(InAppImageFormat.sniff(Self.jpeg) == .jpeg)
        #expect(InAppImageFormat.sniff(Self.gif) == .gif)
        #expect(InAppImageFormat.sniff(Self.webp) == .webp)
        #expect(InAppImageFormat.sniff(Data("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8)) == nil)
        #expect(InAppImageFormat.sniff(Data("<html>".utf8)) == nil)
        #expect(check(Self.png, "image/png", 200) == .success(Self.png))
        #expect(check(Data("xyz".utf8), "image/svg+xml", 200) == .success(Data("xyz".utf8)), "the type says image")
        #expect(check(Self.jpeg, "text/plain", 200) == .success(Self.jpeg), "the bytes say image")
        #expect(check(Self.gif, nil, 200) == .success(Self.gif))
        #expect(check(Data("<html>".utf8), "text/html", 200) == .failure(.notAnImage(contentType: "text/html")))
        #expect(check(Data(), "image/png", 200) == .failure(.notAnImage(contentType: "image/png")))
        #expect(check(Self.png, "image/png", 404) == .failure(.status(404)))
        #expect(check(Self.png, "image/png", 301) == .failure(.status(301)))
        #expect(check(Self.png + Data(count: 16), "image/png", 200) == .failure(.tooLarge(limit: 16)))
        #expect(
            check(Self.png + Data(count: 4), "image/png", 200) == .success(Self.png + Data(count: 4)),
            "16 bytes: at the cap"
        )
    }

    @Test("GAP-44: the image arrives before the timeout: handed over once, the timer does nothing after")
    func arrives() throws {
        let url = try #require(Self.url)
        let rig = Rig()
        rig.load(url)
        #expect(rig.answers.withLock { $0 }.isEmpty, "waits for the image")
        rig.scheduler.advance(by: 4.9)
        rig.fetcher.answer(url, Self.ok(Self.png))
        #expect(rig.answers.withLock { $0 } == [Self.png])
        rig.scheduler.advance(by: 10)
        #expect(rig.answers.withLock { $0 } == [Self.png])
        #expect(rig.fetcher.cancelled.withLock { $0 }.isEmpty)
    }

    @Test("GAP-44: no image within 5 s: answered without it at 5 s, the fetch cancelled, a late answer ignored")
    func timesOut() throws {
        let url = try #require(Self.url)
        let rig = Rig()
        rig.load(url)
        rig.scheduler.advance(by: 4.999)
        #expect(rig.answers.withLock { $0 }.isEmpty)
        rig.scheduler.advance(by: 0.001)
        #expect(rig.answers.withLock { $0 } == [nil])
        #expect(rig.fetcher.cancelled.withLock { $0 } == [url])
        #expect(
            rig.logs.withLock { $0 } == [
                "warning in-app image \(url.absoluteString): not loaded within 5.0 s; the message shows without it"
            ]
        )
        rig.fetcher.answer(url, Self.ok(Self.png))
        #expect(rig.answers.withLock { $0 } == [nil], "the late image is not handed over")
        rig.load(url)
        #expect(rig.answers.withLock { $0 } == [nil, nil], "nor kept: the message is shown without it")
        #expect(rig.fetcher.fetched.withLock { $0 } == [url], "and not fetched again")
    }

    @Test("GAP-44: refused answers (not an image, error status, oversize, network) give no image and are logged")
    func refusals() throws {
        let url = try #require(Self.url)
        let cases: [(Result<InAppImageResponse, InAppImageFailure>, String)] = [
            (Self.ok(Data("<html>".utf8), "text/html"), "not an image (Content-Type text/html)"),
            (Self.ok(Self.png, status: 500), "the server answered 500"),
            (Self.ok(Data(count: 6 * 1024 * 1024)), "larger than 5242880 bytes; refused"),
            (.failure(.tooLarge(limit: 5 * 1024 * 1024)), "larger than 5242880 bytes; refused"),
            (.failure(.redirectRefused), "redirected to a URL that is not https; refused"),
            (.failure(.network("offline")), "the fetch failed: offline"),
        ]
        for (answer, reason) in cases {
            let rig = Rig()
            rig.load(url)
            rig.fetcher.answer(url, answer)
            #expect(rig.answers.withLock { $0 } == [nil], "\(reason)")
            #expect(
                rig.logs.withLock { $0 } == [
                    "warning in-app image \(url.absoluteString): \(reason); the message shows without it"
                ]
            )
        }
    }

    @Test("GAP-44: kept in memory by URL for the loader's life: asked again or while loading, fetched once")
    func cachedByURL() throws {
        let url = try #require(Self.url)
        let other = try #require(URL(string: "https://cdn.example.com/other.png"))
        let rig = Rig()
        rig.load(url)
        rig.load(url)
        #expect(rig.fetcher.fetched.withLock { $0 } == [url], "joins the fetch in flight")
        rig.fetcher.answer(url, Self.ok(Self.png))
        #expect(rig.answers.withLock { $0 } == [Self.png, Self.png])
        rig.load(url)
        #expect(rig.answers.withLock { $0 } == [Self.png, Self.png, Self.png])
        rig.load(other)
        #expect(rig.fetcher.fetched.withLock { $0 } == [url, other])
        let fresh = Rig()
        fresh.load(url)
        #expect(fresh.fetcher.fetched.withLock { $0 } == [url], "another message's loader fetches for itself")
    }

    @Test("GAP-44: a fetcher that answers before returning is handled")
    func immediateAnswer() throws {
        let url = try #require(Self.url)
        let rig = Rig()
        rig.fetcher.immediate.withLock { $0 = Self.ok(Self.jpeg, "image/jpeg") }
        rig.load(url)
        #expect(rig.answers.withLock { $0 } == [Self.jpeg])
        rig.scheduler.advance(by: 10)
        #expect(rig.answers.withLock { $0 } == [Self.jpeg])
        #expect(rig.logs.withLock { $0 } == ["debug in-app image \(url.absoluteString): 6 bytes loaded"])
    }

    // MARK: - Through the platform's loop

    static func message(image: URL?) -> InAppMessage {
        InAppMessage(
            id: "sale",
            type: .modal,
            content: .native(InAppMessage.NativeContent(headline: "Sale", imageURL: image))
        )
    }

    /// Runs the loop the UIKit platform runs, app active and stable, recording what is presented.
    static func present(_ message: InAppMessage, _ rig: Rig, images: Bool = true) -> Locked<[String]> {
        let shown = Locked<[String]>([])
        let loop = InAppPresentationLoop(
            scheduler: rig.scheduler,
            state: { (app: .active, top: .stable) },
            log: { _, _ in }
        )
        let start = rig.scheduler.now()
        loop.run(
            message,
            images: images ? rig.loader : nil,
            present: { image in
                let at = rig.scheduler.now().timeIntervalSince(start)
                shown.withLock { $0.append("\(image.map { "\($0.count) bytes" } ?? "no image") at \(at)") }
                return true
            },
            completion: { _ in }
        )
        return shown
    }

    @Test("GAP-44: the message is shown when its image arrives, with it")
    func shownWhenImageArrives() throws {
        let url = try #require(Self.url)
        let rig = Rig()
        let shown = Self.present(Self.message(image: url), rig)
        rig.scheduler.advance(by: 1.5)
        #expect(shown.withLock { $0 }.isEmpty, "not before the image")
        rig.fetcher.answer(url, Self.ok(Self.png))
        rig.scheduler.runUntilIdle()
        #expect(shown.withLock { $0 } == ["12 bytes at 1.5"])
    }

    @Test("GAP-44: the image never comes: the message is shown without it when the timeout passes")
    func shownAtTimeoutWithoutImage() throws {
        let url = try #require(Self.url)
        let rig = Rig()
        let shown = Self.present(Self.message(image: url), rig)
        rig.scheduler.advance(by: 4.999)
        #expect(shown.withLock { $0 }.isEmpty)
        rig.scheduler.advance(by: 0.001)
        #expect(shown.withLock { $0 }.count == 1)
        #expect(shown.withLock { $0 }.first?.hasPrefix("no image at 5") == true)
    }

    @Test("GAP-44: no image URL, an http one, HTML content or a presenter that draws none: shown at once")
    func shownAtOnce() throws {
        let rig = Rig()
        let none = Self.present(Self.message(image: nil), rig)
        let http = Self.present(Self.message(image: URL(string: "http://cdn.example.com/a.png")), rig)
        let html = Self.present(InAppMessage(id: "h", type: .modal, content: .html("<p>")), rig)
        let own = Self.present(Self.message(image: Self.url), rig, images: false)
        rig.scheduler.runUntilIdle()
        for shown in [none, http, html, own] {
            #expect(shown.withLock { $0 } == ["no image at 0.0"])
        }
        #expect(rig.fetcher.fetched.withLock { $0 }.isEmpty)
    }
}
