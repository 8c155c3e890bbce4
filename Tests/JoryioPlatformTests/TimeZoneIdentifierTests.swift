import JoryioPlatform
import Testing

@Suite struct TimeZoneIdentifierTests {
    @Test func tzVariable() {
        #expect(TimeZoneIdentifier.fromTZ("Europe/Paris") == "Europe/Paris")
        #expect(TimeZoneIdentifier.fromTZ(":America/Argentina/Buenos_Aires") == "America/Argentina/Buenos_Aires")
        #expect(TimeZoneIdentifier.fromTZ("/usr/share/zoneinfo/Asia/Tokyo") == "Asia/Tokyo")
        #expect(TimeZoneIdentifier.fromTZ(":/usr/share/zoneinfo/Etc/GMT+5") == "Etc/GMT+5")
        #expect(TimeZoneIdentifier.fromTZ("") == "UTC")
        #expect(TimeZoneIdentifier.fromTZ("UTC") == "UTC")
        // Syntactically plausible, but not a zone: resolve() checks with the database.
        #expect(TimeZoneIdentifier.fromTZ("CET-1CEST") == "CET-1CEST")
        for garbage in [
            "<+03>-3", "/etc/passwd", "../../etc/shadow", "Europe//Paris", "Europe/Paris/", "a b", "Zürich",
        ] {
            #expect(TimeZoneIdentifier.fromTZ(garbage) == nil, "\(garbage)")
        }
        #expect(TimeZoneIdentifier.fromTZ(String(repeating: "A", count: 65)) == nil)
    }

    @Test func localtimeLinkTargets() {
        #expect(TimeZoneIdentifier.fromZoneinfoPath("/usr/share/zoneinfo/Etc/UTC") == "Etc/UTC")
        #expect(TimeZoneIdentifier.fromZoneinfoPath("../usr/share/zoneinfo/Europe/Berlin") == "Europe/Berlin")
        #expect(TimeZoneIdentifier.fromZoneinfoPath("/usr/share/zoneinfo/posix/Asia/Kolkata") == "Asia/Kolkata")
        #expect(TimeZoneIdentifier.fromZoneinfoPath("/usr/share/zoneinfo/right/America/New_York") == "America/New_York")
        #expect(TimeZoneIdentifier.fromZoneinfoPath("/var/db/timezone/zoneinfo/Europe/Paris") == "Europe/Paris")
        #expect(TimeZoneIdentifier.fromZoneinfoPath("/etc/localtime.bak") == nil)
        #expect(TimeZoneIdentifier.fromZoneinfoPath("/usr/share/zoneinfo/") == nil)
        #expect(TimeZoneIdentifier.fromZoneinfoPath("/usr/share/zoneinfo/../../../etc/passwd") == nil)
    }

    @Test func timezoneFile() {
        #expect(TimeZoneIdentifier.fromTimezoneFile("Etc/UTC\n") == "Etc/UTC")
        #expect(TimeZoneIdentifier.fromTimezoneFile("# set by installer\n\n  Europe/Lisbon  \r\n") == "Europe/Lisbon")
        #expect(TimeZoneIdentifier.fromTimezoneFile("") == nil)
        #expect(TimeZoneIdentifier.fromTimezoneFile("\u{0}\u{1}garbage\u{FFFD}") == nil)
        #expect(TimeZoneIdentifier.fromTimezoneFile("Europe/Paris extra words") == nil)
    }

    @Test func resolutionOrder() {
        let known: Set<String> = ["Europe/Paris", "Asia/Tokyo", "Etc/UTC", "UTC"]
        func resolve(_ tz: String?, _ link: String?, _ file: String?) -> String {
            TimeZoneIdentifier.resolve(
                tz: tz,
                localtimeLink: link,
                timezoneFile: file,
                isKnown: { known.contains($0) },
                fallback: { "Fallback/Zone" }
            )
        }
        let link = "/usr/share/zoneinfo/Asia/Tokyo"
        #expect(resolve("Europe/Paris", link, "Etc/UTC") == "Europe/Paris")
        #expect(resolve("", link, nil) == "UTC")
        // A TZ that is not a known zone decides alone: /etc describes the host, not this process.
        #expect(resolve("CET-1CEST", link, "Etc/UTC") == "Fallback/Zone")
        #expect(resolve(nil, link, "Etc/UTC") == "Asia/Tokyo")
        #expect(resolve(nil, "/usr/share/zoneinfo/Mars/Olympus", "Etc/UTC") == "Etc/UTC")
        #expect(resolve(nil, nil, "Europe/Paris\n") == "Europe/Paris")
        #expect(resolve(nil, nil, "garbage here") == "Fallback/Zone")
        let empty = TimeZoneIdentifier.resolve(
            tz: nil,
            localtimeLink: nil,
            timezoneFile: nil,
            isKnown: { _ in true },
            fallback: { "" }
        )
        #expect(empty == "UTC")
    }
}
