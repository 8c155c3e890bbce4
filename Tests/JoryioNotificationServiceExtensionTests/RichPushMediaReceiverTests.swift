import Foundation
import JoryioNotificationServiceExtension
import Testing

/// Streaming a body to a file: the type, the cap, the failures (NSE-7, VIDEO-8).
@Suite("Rich push media receiver: streaming to a file")
struct RichPushMediaReceiverTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 1, 2, 3]
    static let small = RichPushLimits(
        deadline: 5,
        maxImageBytes: 100,
        maxVideoBytes: 1000,
        maxAudioBytes: 50,
        maxRedirects: 1
    )

    func receive(
        _ chunks: [[UInt8]],
        mime: String?,
        length: Int64 = -1,
        status: Int = 200,
        limits: RichPushLimits = small,
        in directory: ScratchDirectory
    ) -> Result<RichPushMediaFile, RichPushFailure> {
        var receiver = RichPushMediaReceiver(directory: directory.url, limits: limits, name: "m")
        do throws(RichPushFailure) {
            try receiver.begin(status: status, mimeType: mime, expectedLength: length)
            for chunk in chunks { try receiver.append(Data(chunk)) }
            return .success(try receiver.finish())
        } catch {
            receiver.abandon()
            return .failure(error)
        }
    }

    @Test("NSE-7: a PNG served as text/plain arrives in chunks and is named .png")
    func wrongType() throws {
        let directory = ScratchDirectory()
        defer { directory.remove() }
        let file = try self.receive([[0x89, 0x50], Array(Self.png.dropFirst(2))], mime: "text/plain", in: directory)
            .get()
        #expect(file.type == .png)
        #expect(file.url.lastPathComponent == "m.png")
        #expect(file.byteCount == Self.png.count)
        #expect(file.peakBufferedBytes == Self.png.count - 2)
        #expect(try Data(contentsOf: file.url) == Data(Self.png))
        #expect(directory.files == ["m.png"])
    }

    @Test("A declared type the bytes do not show is kept (MP3 without an ID3 tag)")
    func declaredKept() throws {
        let directory = ScratchDirectory()
        defer { directory.remove() }
        let file = try self.receive([[1, 2, 3, 4]], mime: "audio/mpeg", in: directory).get()
        #expect(file.type == .mp3)
        #expect(file.url.pathExtension == "mp3")
    }

    @Test("NSE-7: neither the type nor the bytes show a media type: refused, nothing left behind")
    func unsupported() {
        let directory = ScratchDirectory()
        defer { directory.remove() }
        let result = self.receive([Array("<html>".utf8)], mime: "text/html", in: directory)
        #expect(result == .failure(.unsupportedType))
        #expect(directory.files.isEmpty)
    }

    @Test("VIDEO-8: a Content-Length over the cap is refused before any byte is written")
    func announcedTooLarge() {
        let directory = ScratchDirectory()
        defer { directory.remove() }
        #expect(self.receive([], mime: "image/png", length: 101, in: directory) == .failure(.tooLarge(101)))
        #expect(self.receive([], mime: nil, length: 1001, in: directory) == .failure(.tooLarge(1001)))
        #expect(directory.files.isEmpty)
    }

    @Test("VIDEO-8: a body that outgrows its type's cap stops at the chunk that crosses it")
    func streamedTooLarge() {
        let directory = ScratchDirectory()
        defer { directory.remove() }
        // Served as video (cap 1000), but the bytes are a PNG (cap 100).
        let chunks = [Self.png] + Array(repeating: [UInt8](repeating: 0, count: 40), count: 10)
        #expect(self.receive(chunks, mime: "video/mp4", in: directory) == .failure(.tooLarge(135)))
        #expect(directory.files.isEmpty)
    }

    @Test("NSE-7: an error status or an empty body is a failure")
    func statusAndEmpty() {
        let directory = ScratchDirectory()
        defer { directory.remove() }
        #expect(self.receive([Self.png], mime: "image/png", status: 404, in: directory) == .failure(.httpStatus(404)))
        #expect(self.receive([], mime: "image/png", in: directory) == .failure(.empty))
        #expect(directory.files.isEmpty)
    }
}
