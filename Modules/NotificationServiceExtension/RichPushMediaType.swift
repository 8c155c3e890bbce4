internal import Foundation

/// A kind of file the extension attaches, with the file extension `UNNotificationAttachment` needs
/// to accept it (NSE-7, VIDEO-8).
///
/// The type comes from the response's `Content-Type` (``init(mimeType:)``) and from the file's first
/// bytes (``sniff(_:)``); when both are known and disagree, the bytes win, because iOS decodes the
/// file by its extension and a mislabelled file would fail there.
package enum RichPushMediaType: String, Sendable, Equatable, CaseIterable {
    case jpeg
    case png
    case gif
    case mp4
    case mov
    case m4v
    case mp3
    case m4a
    case wav
    case aiff

    /// The three families `UNNotificationAttachment` sizes differently.
    package enum Family: Sendable, Equatable {
        case image
        case video
        case audio
    }

    /// The local file extension, without the dot.
    package var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .gif: "gif"
        case .mp4: "mp4"
        case .mov: "mov"
        case .m4v: "m4v"
        case .mp3: "mp3"
        case .m4a: "m4a"
        case .wav: "wav"
        case .aiff: "aif"
        }
    }

    /// Image, video or audio.
    package var family: Family {
        switch self {
        case .jpeg, .png, .gif: .image
        case .mp4, .mov, .m4v: .video
        case .mp3, .m4a, .wav, .aiff: .audio
        }
    }

    /// The MIME types read as each type (lowercased, without parameters).
    package static let mimeTable: [String: RichPushMediaType] = [
        "image/jpeg": .jpeg, "image/jpg": .jpeg, "image/pjpeg": .jpeg,
        "image/png": .png, "image/x-png": .png,
        "image/gif": .gif,
        "video/mp4": .mp4, "application/mp4": .mp4,
        "video/quicktime": .mov,
        "video/x-m4v": .m4v, "video/m4v": .m4v,
        "audio/mpeg": .mp3, "audio/mp3": .mp3, "audio/mpeg3": .mp3, "audio/x-mpeg-3": .mp3,
        "audio/mp4": .m4a, "audio/m4a": .m4a, "audio/x-m4a": .m4a, "audio/aac": .m4a,
        "audio/wav": .wav, "audio/x-wav": .wav, "audio/wave": .wav, "audio/vnd.wave": .wav,
        "audio/aiff": .aiff, "audio/x-aiff": .aiff,
    ]

    /// The type a `Content-Type` header names, or `nil` when it names none of these (a missing,
    /// generic or wrong type: the bytes decide). Parameters (`; charset=…`) and case are ignored.
    package init?(mimeType: String?) {
        guard let mimeType else { return nil }
        let essence = mimeType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let key = essence.trimmingCharacters(in: .whitespaces).lowercased()
        guard let type = Self.mimeTable[key] else { return nil }
        self = type
    }

    /// How many leading bytes ``sniff(_:)`` looks at.
    package static let sniffLength = 12

    /// The type the first bytes of a file show, or `nil` when they show none of these.
    ///
    /// JPEG `FF D8 FF`; PNG's 8-byte signature; `GIF87a` / `GIF89a`; `RIFF….WAVE`; `FORM….AIFF`
    /// or `AIFC`; ISO media (`….ftyp` + brand: `qt  ` → mov, `M4V…` → m4v, `M4A ` → m4a, any other
    /// brand → mp4); MP3 (`ID3`, or an MPEG audio frame sync).
    package static func sniff(_ bytes: some Collection<UInt8>) -> RichPushMediaType? {
        let b = Array(bytes.prefix(Self.sniffLength))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            b.count >= offset + prefix.count && Array(b[offset..<offset + prefix.count]) == prefix
        }
        func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(ascii("GIF87a")) || starts(ascii("GIF89a")) { return .gif }
        if starts(ascii("RIFF")) && starts(ascii("WAVE"), at: 8) { return .wav }
        if starts(ascii("FORM")) && (starts(ascii("AIFF"), at: 8) || starts(ascii("AIFC"), at: 8)) { return .aiff }
        if starts(ascii("ftyp"), at: 4) {
            if starts(ascii("qt  "), at: 8) { return .mov }
            if starts(ascii("M4V"), at: 8) { return .m4v }
            if starts(ascii("M4A "), at: 8) { return .m4a }
            return b.count >= 12 ? .mp4 : nil
        }
        if starts(ascii("ID3")) { return .mp3 }
        if b.count >= 2, b[0] == 0xFF, b[1] & 0xE0 == 0xE0, b[1] & 0x06 != 0 { return .mp3 }
        return nil
    }

    /// The type to attach: the sniffed one when the bytes show one, else the declared one.
    package static func resolve(declared: RichPushMediaType?, sniffed: RichPushMediaType?) -> RichPushMediaType? {
        sniffed ?? declared
    }
}
