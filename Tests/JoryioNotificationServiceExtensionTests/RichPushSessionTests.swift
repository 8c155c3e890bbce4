import Foundation
import JoryioNotificationServiceExtension
import Testing

/// One outcome, delivered exactly once, whatever finishes first (NSE-7): the download, the
/// extension's deadline, or the system's `serviceExtensionTimeWillExpire`. Virtual time throughout.
@Suite("Rich push session: delivered exactly once")
struct RichPushSessionTests {
    static let url = "https://cdn.example.com/a.jpg"

    struct Rig {
        let downloader = ScriptedDownloader()
        let timer = ManualRichPushTimer()
        let deliveries = Deliveries()
        let directory = ScratchDirectory()
        let session: RichPushSession

        init(_ userInfo: [String: any Sendable] = ["jry_image_url": RichPushSessionTests.url]) {
            self.session = RichPushSession(
                payload: RichPushPayload(userInfo: userInfo),
                directory: self.directory.url,
                downloader: self.downloader,
                timer: self.timer,
                deliver: self.deliveries.record
            )
        }

        /// A downloaded file that exists on disk, as the real downloader leaves it.
        func file() throws -> RichPushMediaFile {
            try FileManager.default.createDirectory(at: self.directory.url, withIntermediateDirectories: true)
            let url = self.directory.url.appendingPathComponent("x.jpg")
            try Data([0xFF, 0xD8, 0xFF]).write(to: url)
            return RichPushMediaFile(url: url, type: .jpeg, byteCount: 3, peakBufferedBytes: 3)
        }
    }

    @Test("NSE-4: downloads the payload's URL with the standard limits and a 25 s deadline")
    func starts() {
        let rig = Rig()
        defer { rig.directory.remove() }
        rig.session.start()
        #expect(rig.downloader.calls.map(\.url.absoluteString) == [Self.url])
        #expect(rig.downloader.calls.first?.limits == .standard)
        #expect(rig.timer.scheduled == [25])
        #expect(rig.deliveries.all.isEmpty)
    }

    @Test("NSE-8: a Joryio push's trackingId is not reported: the media is the only request")
    func noReceipt() throws {
        let rig = Rig(["joryio": ["trackingId": "trk_1"], "jry_image_url": Self.url])
        defer { rig.directory.remove() }
        rig.session.start()
        let file = try rig.file()
        rig.downloader.complete(.success(file))
        #expect(rig.downloader.calls.map(\.url.absoluteString) == [Self.url])
        #expect(rig.deliveries.all == [.modified(RichPushChanges(attachment: file, sound: RichPushSound.none))])

        let plain = Rig(["joryio": ["trackingId": "trk_2"], "aps": ["alert": "Hi"]])
        plain.session.start()
        #expect(plain.downloader.calls.isEmpty)
        #expect(plain.deliveries.all == [.original(.nothingToChange)])
    }

    @Test("Nothing to do: the original at once, no download, no timer")
    func nothingToDo() {
        let rig = Rig(["aps": ["alert": "Hi", "sound": "chime.caf"]])
        rig.session.start()
        #expect(rig.deliveries.all == [.original(.nothingToChange)])
        #expect(rig.downloader.calls.isEmpty)
        #expect(rig.timer.scheduled.isEmpty)
    }

    @Test("SOUND-5: an ignored custom sound and no media: the default sound, no download")
    func soundOnly() {
        let rig = Rig(["aps": ["alert": "Hi", "sound": "song.mp3"]])
        rig.session.start()
        #expect(rig.deliveries.all == [.modified(RichPushChanges(attachment: nil, sound: .defaultSound))])
        #expect(rig.downloader.calls.isEmpty)
    }

    @Test("NSE-4 / SOUND-5: the attachment with the valid custom sound")
    func attached() throws {
        let rig = Rig(["jry_image_url": Self.url, "aps": ["sound": "Chime.caf"]])
        defer { rig.directory.remove() }
        rig.session.start()
        let file = try rig.file()
        rig.downloader.complete(.success(file))
        #expect(rig.deliveries.all == [.modified(RichPushChanges(attachment: file, sound: .named("Chime.caf")))])
        #expect(rig.session.isDelivered)
    }

    @Test("NSE-7: a failed download delivers the original, unmodified")
    func failed() {
        let rig = Rig()
        rig.session.start()
        rig.downloader.complete(.failure(.httpStatus(404)))
        #expect(rig.deliveries.all == [.original(.failed(.httpStatus(404)))])
    }

    @Test("NSE-7: download first, then timeWillExpire and the deadline: delivered once, modified")
    func downloadThenExpire() throws {
        let rig = Rig()
        defer { rig.directory.remove() }
        rig.session.start()
        let file = try rig.file()
        rig.downloader.complete(.success(file))
        rig.session.timeWillExpire()
        rig.timer.fire()
        #expect(rig.deliveries.all == [.modified(RichPushChanges(attachment: file, sound: .none))])
        #expect(rig.downloader.cancels == 0)
        #expect(FileManager.default.fileExists(atPath: file.url.path))
    }

    @Test("NSE-7: timeWillExpire first, then the download: delivered once, original; the late file removed")
    func expireThenDownload() throws {
        let rig = Rig()
        defer { rig.directory.remove() }
        rig.session.start()
        rig.session.timeWillExpire()
        #expect(rig.deliveries.all == [.original(.timeWillExpire)])
        #expect(rig.downloader.cancels == 1)
        let file = try rig.file()
        rig.downloader.complete(.success(file))
        rig.session.timeWillExpire()
        rig.timer.fire()
        #expect(rig.deliveries.all == [.original(.timeWillExpire)])
        #expect(!FileManager.default.fileExists(atPath: file.url.path))
        #expect(rig.downloader.cancels == 1)
    }

    @Test("NSE-7: the deadline first, then the download and timeWillExpire: delivered once, original")
    func deadlineThenDownload() throws {
        let rig = Rig()
        defer { rig.directory.remove() }
        rig.session.start()
        rig.timer.fire()
        #expect(rig.deliveries.all == [.original(.deadline)])
        #expect(rig.downloader.cancels == 1)
        rig.downloader.complete(.failure(.cancelled))
        rig.session.timeWillExpire()
        #expect(rig.deliveries.all == [.original(.deadline)])
    }

    @Test("timeWillExpire before start: the original; start then downloads nothing")
    func expireBeforeStart() {
        let rig = Rig()
        rig.session.timeWillExpire()
        rig.session.start()
        #expect(rig.deliveries.all == [.original(.timeWillExpire)])
        #expect(rig.downloader.calls.isEmpty)
    }

    @Test("NSE-7: the download and the expiry racing on two threads: exactly one delivery, 500 times")
    func concurrentRace() async throws {
        for round in 0..<500 {
            let rig = Rig()
            rig.session.start()
            let file = RichPushMediaFile(
                url: rig.directory.url.appendingPathComponent("none.jpg"),
                type: .jpeg,
                byteCount: 1,
                peakBufferedBytes: 1
            )
            await withTaskGroup(of: Void.self) { group in
                group.addTask { rig.downloader.complete(.success(file)) }
                group.addTask { rig.session.timeWillExpire() }
                group.addTask { rig.timer.fire() }
            }
            #expect(rig.deliveries.all.count == 1, "round \(round)")
        }
    }
}
