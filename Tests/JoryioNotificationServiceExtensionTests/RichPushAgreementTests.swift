import Foundation
import JoryioCore
import JoryioNotificationServiceExtension
import JoryioPush
import Testing

/// The extension duplicates the app side's sound rule, because it may depend on nothing (PKG-13):
/// this target, which may depend on both, checks that the two copies agree (SOUND-5, GAP-78).
@Suite("Rich push and JoryioPush agree")
struct RichPushAgreementTests {
    static func same(_ push: PushSound, _ rich: RichPushSound) -> Bool {
        switch (push, rich) {
        case (.none, .none), (.defaultSound, .defaultSound): true
        case (.named(let a), .named(let b)): a == b
        default: false
        }
    }

    static let names = [
        "", "default", "Default", "chime.caf", "chime.CAF", "Chime.Wav", "bell.aif", "bell.AIF", "bell.aiff",
        "song.mp3", "chime", ".caf", ".wav", "a.caf.mp3", "a.mp3.caf", "sounds/chime.caf", "../chime.caf",
        "ring tone.wav", "ringtöne.wav", "chime.caf ", " chime.caf", String(repeating: "a", count: 251) + ".caf",
        String(repeating: "a", count: 252) + ".caf", String(repeating: "é", count: 126) + ".caf",
    ]

    @Test("SOUND-5 / GAP-78: every name of the table is decided alike", arguments: names)
    func sameDecision(_ name: String) {
        var warnings: [PushWarning] = []
        #expect(Self.same(PushSound.decide(name, warnings: &warnings), RichPushSound.decide(name)))
    }

    static let payloadDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("JoryioPushTests/Payloads")

    @Test("SOUND-5: every payload file of JoryioPushTests gets the same sound from both readers")
    func samePayloads() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.payloadDirectory.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        #expect(names.count >= 10)
        for name in names {
            let data = try Data(contentsOf: Self.payloadDirectory.appendingPathComponent(name))
            guard let push = PushPayload(json: data),
                let userInfo = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { continue }
            let rich = RichPushPayload(userInfo: userInfo)
            #expect(Self.same(push.sound, rich.sound), "\(name)")
        }
    }
}
