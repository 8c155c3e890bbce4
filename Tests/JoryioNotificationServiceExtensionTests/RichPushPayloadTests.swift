import Foundation
import JoryioNotificationServiceExtension
import Testing

/// Which URL the extension downloads, and which sound it applies (NSE-4, NSE-5, VIDEO-8, SOUND-5).
@Suite("Rich push payload: media keys and sound")
struct RichPushPayloadTests {
    static let image = "https://cdn.example.com/a.jpg"
    static let video = "https://cdn.example.com/v.mp4"
    static let other = "https://cdn.example.com/o.png"

    /// (userInfo, the URL chosen, the key it came from, the keys skipped)
    static let precedence: [([String: any Sendable], String?, String?, [String])] = [
        (["jry_image_url": image, "attachment-url": other], image, "jry_image_url", []),
        (["attachment-url": other, "jry_image_url": image, "jry_video_url": video], image, "jry_image_url", []),
        (["jry_video_url": video, "attachment-url": other], video, "jry_video_url", []),
        (["attachment-url": other], other, "attachment-url", []),
        (
            ["jry_image_url": "http://cdn.example.com/a.jpg", "attachment-url": other], other, "attachment-url",
            ["jry_image_url"]
        ),
        (
            ["jry_image_url": 42, "jry_video_url": "not a url", "attachment-url": other], other, "attachment-url",
            ["jry_image_url", "jry_video_url"]
        ),
        (
            ["jry_image_url": "", "attachment-url": "ftp://cdn.example.com/x"], nil, nil,
            ["jry_image_url", "attachment-url"]
        ),
        (["jry_image_url": "javascript:alert(1)"], nil, nil, ["jry_image_url"]),
        (["jry_image_url": "file:///etc/passwd"], nil, nil, ["jry_image_url"]),
        (["jry_image_url": "https://"], nil, nil, ["jry_image_url"]),
        (["jry_image_url": "  \(image)\n"], image, "jry_image_url", []),
        (["jry_image_url": "http://127.0.0.1:8080/a.jpg"], "http://127.0.0.1:8080/a.jpg", "jry_image_url", []),
        (["jry_image_url": "http://localhost/a.jpg"], "http://localhost/a.jpg", "jry_image_url", []),
        (["joryio": ["jry_image_url": image]], nil, nil, []),
        (["image": image, "url": image], nil, nil, []),
        ([:], nil, nil, []),
    ]

    @Test(
        "NSE-5 / VIDEO-8: jry_image_url, then jry_video_url, then attachment-url; invalid values skipped",
        arguments: 0..<precedence.count
    )
    func keyPrecedence(_ index: Int) {
        let (userInfo, url, key, skipped) = Self.precedence[index]
        let payload = RichPushPayload(userInfo: userInfo)
        #expect(payload.mediaURL?.absoluteString == url.map { $0 })
        #expect(payload.mediaKey == key)
        #expect(payload.skippedKeys == skipped)
        #expect(payload.needsWork == (url != nil))
    }

    @Test("VIDEO-6, SOUND-2 differ (GAP-71): the Pushwoosh keys ios_attachment and ios_sound are not read")
    func pushwooshKeysNotRead() {
        let payload = RichPushPayload(userInfo: [
            "aps": ["alert": "Hi", "mutable-content": 1],
            "ios_attachment": Self.video,
            "ios_sound": "chime.caf",
        ])
        #expect(payload.mediaURL == nil && payload.mediaKey == nil && payload.skippedKeys.isEmpty)
        #expect(payload.sound == RichPushSound.none && !payload.soundIgnored)
        #expect(!payload.needsWork)
    }

    @Test("NSE-4: a URL longer than 2048 bytes is skipped")
    func longURL() {
        let long = "https://cdn.example.com/" + String(repeating: "a", count: 2100)
        #expect(RichPushPayload(userInfo: ["jry_image_url": long]).mediaURL == nil)
    }

    @Test("http only to loopback hosts; https anywhere; other schemes never")
    func urlPolicy() throws {
        let allowed = ["https://a.example/x.jpg", "HTTPS://A.EXAMPLE/x", "http://127.0.0.1/x", "http://[::1]:80/x"]
        let refused = ["http://a.example/x.jpg", "http://10.0.0.1/x", "ftp://a.example/x", "data:image/png;base64,AA"]
        for text in allowed { #expect(RichPushURLPolicy.allows(try #require(URL(string: text))), "\(text)") }
        for text in refused {
            if let url = URL(string: text) { #expect(!RichPushURLPolicy.allows(url), "\(text)") }
        }
    }

    /// An `aps.sound` value as it appears in `userInfo`.
    enum SoundValue: Sendable {
        case absent
        case null
        case string(String)
        case critical(name: String?)
        case number

        var value: Any? {
            switch self {
            case .absent: nil
            case .null: NSNull()
            case .string(let text): text
            case .critical(let name?): ["critical": 1, "name": name, "volume": 1.0] as [String: Any]
            case .critical(nil): ["critical": 1] as [String: Any]
            case .number: 7
            }
        }
    }

    /// (aps.sound, the sound, whether it was ignored)
    static let sounds: [(SoundValue, RichPushSound, Bool)] = [
        (.absent, .none, false),
        (.null, .none, false),
        (.string("default"), .defaultSound, false),
        (.string(""), .defaultSound, false),
        (.string("chime.caf"), .named("chime.caf"), false),
        (.string("Chime.WAV"), .named("Chime.WAV"), false),
        (.string("bell.aif"), .named("bell.aif"), false),
        (.string("bell.aiff"), .defaultSound, true),
        (.string("song.mp3"), .defaultSound, true),
        (.string("chime"), .defaultSound, true),
        (.string(".caf"), .defaultSound, true),
        (.string("sounds/chime.caf"), .defaultSound, true),
        (.string(String(repeating: "a", count: 252) + ".caf"), .defaultSound, true),
        (.critical(name: "alarm.caf"), .named("alarm.caf"), false),
        (.critical(name: "alarm.mp3"), .defaultSound, true),
        (.critical(name: nil), .defaultSound, false),
        (.number, .defaultSound, false),
    ]

    // SOUND-3: a name without one of the three extensions is not applied.
    @Test(
        "SOUND-5 / GAP-78: a custom sound only when it ends in .aif, .caf or .wav, any case",
        arguments: 0..<sounds.count
    )
    func sound(_ index: Int) {
        let (value, sound, ignored) = Self.sounds[index]
        var aps: [String: Any] = ["alert": "Hi"]
        if let value = value.value { aps["sound"] = value }
        let payload = RichPushPayload(userInfo: ["aps": aps])
        #expect(payload.sound == sound)
        #expect(payload.soundIgnored == ignored)
        #expect(payload.needsWork == ignored)
    }
}
