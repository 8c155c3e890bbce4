import Foundation
import JoryioNotificationServiceExtension
import Testing

/// The file extension of an attachment, from the `Content-Type` and the first bytes (NSE-7, VIDEO-8).
@Suite("Rich push media types: MIME table and sniffing")
struct RichPushMediaTypeTests {
    /// (Content-Type, type, file extension)
    static let mimeTable: [(String, RichPushMediaType, String)] = [
        ("image/jpeg", .jpeg, "jpg"), ("image/jpg", .jpeg, "jpg"), ("IMAGE/JPEG; charset=binary", .jpeg, "jpg"),
        ("image/pjpeg", .jpeg, "jpg"), ("image/png", .png, "png"), ("image/x-png", .png, "png"),
        ("image/gif", .gif, "gif"), ("video/mp4", .mp4, "mp4"), ("application/mp4", .mp4, "mp4"),
        ("video/quicktime", .mov, "mov"), ("video/x-m4v", .m4v, "m4v"), ("video/m4v", .m4v, "m4v"),
        ("audio/mpeg", .mp3, "mp3"), ("audio/mp3", .mp3, "mp3"), ("audio/mp4", .m4a, "m4a"),
        ("audio/x-m4a", .m4a, "m4a"), ("audio/aac", .m4a, "m4a"), ("audio/wav", .wav, "wav"),
        ("audio/x-wav", .wav, "wav"), ("audio/wave", .wav, "wav"), ("audio/aiff", .aiff, "aif"),
        ("audio/x-aiff", .aiff, "aif"), (" video/mp4 ", .mp4, "mp4"),
    ]

    @Test("NSE-7 / VIDEO-8: each MIME type gives its extension", arguments: 0..<mimeTable.count)
    func mime(_ index: Int) {
        let (mime, type, fileExtension) = Self.mimeTable[index]
        #expect(RichPushMediaType(mimeType: mime) == type)
        #expect(RichPushMediaType(mimeType: mime)?.fileExtension == fileExtension)
    }

    @Test("Unknown, generic and missing types name nothing (the bytes decide)")
    func unknownMime() {
        for mime in [
            nil, "", "application/octet-stream", "text/plain", "text/html; charset=utf-8", "image/webp",
            "image/heic", "video/webm", "image", "jpeg",
        ] as [String?] {
            #expect(RichPushMediaType(mimeType: mime) == nil, "\(String(describing: mime))")
        }
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// (first bytes, type shown)
    static let signatures: [([UInt8], RichPushMediaType?)] = [
        ([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10] + bytes("JFIF"), .jpeg),
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], .png),
        (bytes("GIF89a") + [1, 0, 1, 0], .gif),
        (bytes("GIF87a"), .gif),
        ([0, 0, 0, 0x20] + bytes("ftypisom"), .mp4),
        ([0, 0, 0, 0x18] + bytes("ftypmp42"), .mp4),
        ([0, 0, 0, 0x14] + bytes("ftypqt  "), .mov),
        ([0, 0, 0, 0x1C] + bytes("ftypM4V "), .m4v),
        ([0, 0, 0, 0x1C] + bytes("ftypM4A "), .m4a),
        (bytes("RIFF") + [0x24, 0, 0, 0] + bytes("WAVE"), .wav),
        (bytes("FORM") + [0, 0, 0, 0x24] + bytes("AIFF"), .aiff),
        (bytes("FORM") + [0, 0, 0, 0x24] + bytes("AIFC"), .aiff),
        (bytes("ID3") + [4, 0, 0], .mp3),
        ([0xFF, 0xFB, 0x90, 0x64], .mp3),
        (bytes("RIFF") + [0x24, 0, 0, 0] + bytes("WEBP"), nil),
        (bytes("<html><body>"), nil),
        (bytes("{\"error\":1}"), nil),
        ([0, 0, 0, 0x20] + bytes("ftyp"), nil),
        ([0xFF, 0xD8], nil),
        ([], nil),
    ]

    @Test("A wrong or missing type: the first bytes show the file's type", arguments: 0..<signatures.count)
    func sniff(_ index: Int) {
        let (bytes, type) = Self.signatures[index]
        #expect(RichPushMediaType.sniff(bytes) == type)
    }

    @Test("The bytes win over a declared type; a declared type is kept when the bytes show nothing")
    func resolve() {
        #expect(RichPushMediaType.resolve(declared: .jpeg, sniffed: .png) == .png)
        #expect(RichPushMediaType.resolve(declared: nil, sniffed: .gif) == .gif)
        #expect(RichPushMediaType.resolve(declared: .mp4, sniffed: nil) == .mp4)
        #expect(RichPushMediaType.resolve(declared: nil, sniffed: nil) == nil)
    }

    @Test("VIDEO-8: caps per family, the largest while the type is unknown")
    func caps() {
        let limits = RichPushLimits.standard
        #expect(limits.deadline < 30)
        #expect(limits.maxBytes(for: .gif) == 10_000_000)
        #expect(limits.maxBytes(for: .mov) == 50_000_000)
        #expect(limits.maxBytes(for: .wav) == 5_000_000)
        #expect(limits.maxBytes(for: nil) == 50_000_000)
    }
}
