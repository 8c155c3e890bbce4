import Foundation
import JoryioCore
import JoryioPush
import Testing

/// The payload files in `Payloads/` (real APNs payloads, and hostile ones).
enum Payloads {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Payloads"
    )

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: self.directory.appendingPathComponent(name + ".json"))
    }

    static func payload(_ name: String) throws -> PushPayload {
        try #require(PushPayload(json: try self.data(name)))
    }
}

@Suite struct PushPayloadTests {
    @Test("a deep-link payload: tracking id, link, sound, badge, alert (GAP-14, GAP-71)")
    func deepLink() throws {
        let payload = try Payloads.payload("deep-link")
        #expect(payload.isJoryio)
        #expect(payload.trackingId == "trk_01HF8ZQ4V7")
        #expect(payload.link?.route == .openURL)
        #expect(payload.link?.url.absoluteString == "myshop://promotion?id=42")
        #expect(payload.sound == .named("chime.caf"))
        #expect(payload.hasAlert && payload.hasBadge && !payload.sync)
        #expect(payload.warnings.isEmpty)
    }

    @Test("an https link is a universal link (ULINK-1, ULINK-7)")
    func universalLink() throws {
        let payload = try Payloads.payload("universal-link")
        #expect(payload.link?.route == .universalLink)
        #expect(payload.link?.url.host == "shop.example.com")
        #expect(payload.sound == .defaultSound)
    }

    @Test("ULINK-3, SOUND-2 differ (GAP-71): the Pushwoosh keys url, l and ios_sound are not read")
    func pushwooshKeysNotRead() throws {
        let json = #"""
            {"aps":{"alert":"Spring sale"},"joryio":{"trackingId":"trk_pw"},
             "url":"https://shop.example.com/promotion?id=123","l":"myshop://promotion?id=123","ios_sound":"chime.caf"}
            """#
        let payload = try #require(PushPayload(json: Data(json.utf8)))
        #expect(payload.isJoryio && payload.trackingId == "trk_pw")
        #expect(payload.link == nil)
        #expect(payload.sound == PushSound.none)
        #expect(payload.warnings.isEmpty)
    }

    @Test("the silent-sync marker is joryio.sync == true (PUSH-25)")
    func silentSync() throws {
        let payload = try Payloads.payload("silent-sync")
        #expect(payload.sync && payload.contentAvailable && !payload.hasAlert)
        #expect(payload.trackingId == "trk_sync_1")
        #expect(payload.sound == PushSound.none)
    }

    @Test("without the joryio key a payload is foreign, whatever else it carries (PUSH-21, PUSH-22)")
    func foreign() throws {
        let payload = try Payloads.payload("foreign")
        #expect(!payload.isJoryio)
        #expect(payload.link == nil && payload.trackingId == nil && payload.warnings.isEmpty)
    }

    @Test("the same payload read from userInfo and from JSON bytes")
    func userInfoMatchesJSON() throws {
        let data = try Payloads.data("deep-link")
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var userInfo: [AnyHashable: Any] = [:]
        for (key, value) in object { userInfo[AnyHashable(key)] = value }
        userInfo[AnyHashable(7)] = "a non-string key is left out"
        #expect(PushPayload(userInfo: userInfo) == (try Payloads.payload("deep-link")))
    }

    @Test("userInfo built in code, with Swift values")
    func userInfoInCode() throws {
        let userInfo: [AnyHashable: Any] = [
            "aps": ["alert": ["title": "Hi"], "sound": "Bell.WAV"],
            "joryio": ["trackingId": "t1", "sync": true, "url": "https://example.com/a"],
        ]
        let payload = try #require(PushPayload(userInfo: userInfo))
        #expect(payload.trackingId == "t1" && payload.sync)
        #expect(payload.sound == .named("Bell.WAV"))
        #expect(payload.link?.route == .universalLink)
    }

    @Test("bytes that are not a JSON object are not a payload")
    func notAnObject() {
        for text in ["", "[]", "\"joryio\"", "42", "{", "null", "{\"joryio\":"] {
            #expect(PushPayload(json: Data(text.utf8)) == nil, "\(text)")
            let decision = PushDecision.decide(
                PushPayload(json: Data(text.utf8)),
                PushContext(arrival: .remoteNotification, appIsActive: true)
            )
            #expect(decision == PushDecision.decide(nil, PushContext(arrival: .remoteNotification, appIsActive: true)))
            #expect(!decision.isJoryio && decision.backgroundResult == .noData)
        }
    }

    @Test("wrong types are ignored, one warning each, and the payload stays Joryio's")
    func wrongTypes() throws {
        let payload = try Payloads.payload("hostile-types")
        #expect(payload.isJoryio)
        #expect(payload.trackingId == nil && !payload.sync && payload.link == nil)
        #expect(!payload.hasAlert && !payload.hasBadge && !payload.contentAvailable)
        #expect(payload.sound == .defaultSound)
        #expect(payload.warnings == [.trackingIdInvalid, .syncNotABoolean, .linkRefused(.notAString)])
    }

    @Test("nested junk is ignored; a link that is not a URL is refused")
    func nestedJunk() throws {
        let payload = try Payloads.payload("hostile-nested")
        #expect(payload.trackingId == "trk_nested")
        #expect(payload.hasAlert)
        #expect(payload.link == nil)
        #expect(payload.warnings == [.linkRefused(.malformed)])
    }

    @Test("joryio that is not an object: ours, but nothing to act on")
    func joryioNotAnObject() throws {
        let payload = try Payloads.payload("hostile-joryio-not-object")
        #expect(payload.isJoryio && payload.trackingId == nil)
        #expect(payload.warnings == [.joryioNotAnObject, .trackingIdMissing])
    }

    @Test("an empty joryio object, no aps")
    func missingKeys() throws {
        let payload = try Payloads.payload("hostile-missing")
        #expect(payload.isJoryio && !payload.hasAlert && payload.sound == PushSound.none)
        #expect(payload.warnings == [.trackingIdMissing])
    }

    @Test("javascript: and file: links are refused (DEEPLINK-5)")
    func refusedSchemes() throws {
        #expect(try Payloads.payload("hostile-javascript").warnings == [.linkRefused(.refusedScheme("javascript"))])
        #expect(try Payloads.payload("hostile-file").warnings == [.linkRefused(.refusedScheme("file"))])
        #expect(try Payloads.payload("hostile-javascript").link == nil)
    }

    @Test("huge strings: tracking id, link and sound refused, no crash")
    func hugeStrings() throws {
        let huge = String(repeating: "x", count: 100_000)
        let json = JSONValue.object([
            "aps": .object(["alert": .string("Big"), "sound": .string(huge + ".caf")]),
            "joryio": .object(["trackingId": .string(huge), "url": .string("myapp://" + huge)]),
        ])
        let payload = try #require(PushPayload(json: json.encoded()))
        #expect(payload.trackingId == nil && payload.link == nil && payload.sound == .defaultSound)
        #expect(payload.warnings.count == 3)
        #expect(payload.warnings.contains(.linkRefused(.malformed)))
    }

    @Test("tracking ids: 1 … 128 characters without control characters")
    func trackingIdBounds() {
        func trackingId(_ value: JSONValue) -> String? {
            PushPayload(.object(["joryio": .object(["trackingId": value])]))?.trackingId
        }
        #expect(trackingId(.string(String(repeating: "a", count: 128))) != nil)
        #expect(trackingId(.string(String(repeating: "a", count: 129))) == nil)
        #expect(trackingId(.string("")) == nil)
        #expect(trackingId(.string("a\nb")) == nil)
        #expect(trackingId(.string("trk-é-✓")) == "trk-é-✓")
        #expect(trackingId(.null) == nil)
        #expect(trackingId(.int(5)) == nil)
    }
}

@Suite struct PushLinkTests {
    // DEEPLINK-1: the guide's example scheme `com.pushwoosh` (dots in a scheme) is opened like any custom scheme.
    @Test(
        "links followed, and their routes (DEEPLINK-5, ULINK-7)",
        arguments: [
            ("myapp://promotion?id=7", PushLink.Route.openURL),
            ("com.pushwoosh://promotion", .openURL),
            ("MyApp+x-1.y:open", .openURL),
            ("tel:+15551234", .openURL),
            ("mailto:help@example.com", .openURL),
            ("https://example.com", .universalLink),
            ("HTTPS://Example.com/Path?q=1#f", .universalLink),
            ("https://example.com:8443/a%20b", .universalLink),
        ]
    )
    func followed(text: String, route: PushLink.Route) throws {
        let link = try PushLink.parse(text).get()
        #expect(link.route == route)
        #expect(link.url.absoluteString == text)
    }

    @Test(
        "links refused",
        arguments: [
            ("javascript:alert(1)", PushLink.Refusal.refusedScheme("javascript")),
            ("JavaScript:alert(1)", .refusedScheme("javascript")),
            ("vbscript:msgbox", .refusedScheme("vbscript")),
            ("data:text/html;base64,PHNjcmlwdD4=", .refusedScheme("data")),
            ("file:///etc/passwd", .refusedScheme("file")),
            ("http://example.com", .refusedScheme("http")),
            ("about:blank", .refusedScheme("about")),
            ("", .malformed),
            ("not a url", .malformed),
            ("myapp://a b", .malformed),
            ("myapp://é", .malformed),
            (" https://example.com", .malformed),
            ("https://example.com\u{0}", .malformed),
            ("example.com/path", .noScheme),
            ("://x", .noScheme),
            ("1app://x", .noScheme),
            ("my_app://x", .noScheme),
            ("https:/path-only", .noHost),
            ("https:", .noHost),
        ]
    )
    func refused(text: String, refusal: PushLink.Refusal) {
        #expect(throws: Never.self) {
            if case .failure(let reason) = PushLink.parse(text) {
                #expect(reason == refusal, "\(text)")
            } else {
                Issue.record("\(text) was followed")
            }
        }
    }

    @Test("the length limit is 2,048 bytes")
    func lengthLimit() {
        let base = "myapp://"
        let fits = base + String(repeating: "a", count: PushLink.maxLength - base.utf8.count)
        #expect((try? PushLink.parse(fits).get()) != nil)
        #expect((try? PushLink.parse(fits + "a").get()) == nil)
    }
}

@Suite struct PushSoundTests {
    @Test(
        "custom sound names: .aif, .caf, .wav in any case (SOUND-3, SOUND-5, SOUND-6, GAP-78)",
        arguments: ["a.aif", "chime.caf", "Bell.WAV", "x.Caf", "with space.wav"]
    )
    func valid(name: String) {
        var warnings: [PushWarning] = []
        #expect(PushSound.decide(name, warnings: &warnings) == .named(name))
        #expect(warnings.isEmpty)
    }

    @Test(
        "other names play the default sound, with a warning (SOUND-3, SOUND-5)",
        arguments: ["alarm.mp3", "chime", ".caf", "caf", "Sounds/chime.caf", "chime.caf.mp3", "chime.cafx"]
    )
    func ignored(name: String) {
        var warnings: [PushWarning] = []
        #expect(PushSound.decide(name, warnings: &warnings) == .defaultSound)
        #expect(warnings == [.soundIgnored(name)])
    }

    @Test("\"default\" and the critical-alert dictionary")
    func forms() throws {
        var warnings: [PushWarning] = []
        #expect(PushSound(.string("default"), warnings: &warnings) == .defaultSound)
        #expect(
            PushSound(.object(["name": .string("siren.caf"), "critical": .int(1)]), warnings: &warnings)
                == .named("siren.caf")
        )
        #expect(PushSound(.object(["critical": .int(1)]), warnings: &warnings) == .defaultSound)
        #expect(PushSound(nil, warnings: &warnings) == .none)
        #expect(PushSound(.null, warnings: &warnings) == .none)
        #expect(warnings.isEmpty)
        #expect(try Payloads.payload("bad-sound").warnings == [.soundIgnored("alarm.mp3")])
    }
}
