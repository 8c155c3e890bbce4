import Foundation
import Joryio
import JoryioCore
import Testing

/// Attribute keys, alias values and group ids are counted in Unicode code points, as the server
/// counts them (docs/protocol.md §3.3; GAP-24, GAP-31, SUB-10), not in grapheme clusters
/// (`String.count`), which are fewer whenever a character is several code points. Each row runs
/// like a row of the hostile-input table (``HostileInputTests``).
@Suite struct CodePointLengthTests {
    /// "é" as "e" + U+0301 COMBINING ACUTE ACCENT: 2 code points, 1 grapheme cluster.
    static let decomposedE = "e\u{301}"
    /// 🇫🇷, two regional indicators: 2 code points, 1 grapheme cluster.
    static let flag = "\u{1F1EB}\u{1F1F7}"
    /// 👨‍👩‍👧, three people joined by two ZWJs: 5 code points, 1 grapheme cluster.
    static let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"

    /// `count` code points made of `unit` repeated, then ASCII "x"s to reach it exactly.
    static func text(_ unit: String, codePoints count: Int) -> String {
        let size = unit.unicodeScalars.count
        return String(repeating: unit, count: count / size) + String(repeating: "x", count: count % size)
    }

    static let rows: [HostileRow] = [
        // Attribute keys: 1 … 255 code points (GAP-31).
        HostileRow("setAttribute", "key of 128 decomposed é (256 code points)", .refused("longer than 255")) {
            $0.setAttribute(Self.text(Self.decomposedE, codePoints: 256), value: 1)
        },
        HostileRow(
            "setAttribute",
            "key of 127 decomposed é and an x (255 code points)",
            .accepted,
            sent: Sent.attributes([Self.text(Self.decomposedE, codePoints: 255)])
        ) { $0.setAttribute(Self.text(Self.decomposedE, codePoints: 255), value: 1) },
        HostileRow("setAttributes", "key of 128 flags (256 code points)", .refused("longer than 255")) {
            $0.setAttributes([Self.text(Self.flag, codePoints: 256): 1])
        },
        HostileRow("incrementAttribute", "key of 52 ZWJ families (260 code points)", .refused("longer than 255")) {
            $0.incrementAttribute(String(repeating: Self.family, count: 52))
        },
        HostileRow("unsetAttribute", "key of 128 flags (256 code points)", .refused("longer than 255")) {
            $0.unsetAttribute(Self.text(Self.flag, codePoints: 256))
        },
        // Alias values: 1 … 255 code points (GAP-24).
        HostileRow("addAlias", "name of 52 ZWJ families (260 code points)", .refused("longer than 255")) {
            $0.addAlias("loyalty_id", name: String(repeating: Self.family, count: 52))
        },
        HostileRow(
            "addAlias",
            "name of 51 ZWJ families (255 code points)",
            .accepted,
            sent: Sent.one("alias") { $0["name"]?.stringValue?.unicodeScalars.count == 255 }
        ) { $0.addAlias("loyalty_id", name: String(repeating: Self.family, count: 51)) },
        // Group ids: 1 … 128 code points (SUB-10).
        HostileRow("addToSubscriptionGroup", "group of 65 decomposed é (130 code points)", .refused("1–128")) {
            $0.addToSubscriptionGroup(String(repeating: Self.decomposedE, count: 65), channel: "email")
        },
        HostileRow(
            "addToSubscriptionGroup",
            "group of 64 decomposed é (128 code points)",
            .accepted,
            sent: Sent.one("subscriptions") { $0["groupId"]?.stringValue?.unicodeScalars.count == 128 }
        ) { $0.addToSubscriptionGroup(String(repeating: Self.decomposedE, count: 64), channel: "email") },
        HostileRow("removeFromSubscriptionGroup", "group of 65 flags (130 code points)", .refused("1–128")) {
            $0.removeFromSubscriptionGroup(String(repeating: Self.flag, count: 65), channel: "email")
        },
    ]

    @Test("the test strings have fewer grapheme clusters than code points")
    func stringsDiffer() {
        #expect(Self.decomposedE.count == 1 && Self.decomposedE.unicodeScalars.count == 2)
        #expect(Self.flag.count == 1 && Self.flag.unicodeScalars.count == 2)
        #expect(Self.family.count == 1 && Self.family.unicodeScalars.count == 5)
        #expect(Self.text(Self.decomposedE, codePoints: 256).count == 128)
    }

    @Test(arguments: Self.rows)
    func row(_ row: HostileRow) {
        HostileInputTests().row(row)
    }
}
