import Foundation
import Joryio
import JoryioCore
import Testing

/// The rows of ``HostileInputTests``.
enum HostileTable {
    static let rows: [HostileRow] =
        Self.events + Self.properties + Self.identity + Self.attributes
        + Self.aliasesAndSubscriptions + Self.tokens + Self.privacy

    static let tenMegabytes = String(repeating: "x", count: 10 << 20)

    // MARK: - Event names (EVT-3, EVT-5)

    static let events: [HostileRow] = [
        HostileRow("track", "empty name", .refused("empty")) { $0.track("") },
        HostileRow("track", "255 characters", .accepted, sent: Sent.event(String(repeating: "a", count: 255))) {
            $0.track(String(repeating: "a", count: 255))
        },
        HostileRow("track", "256 characters", .refused("256 characters")) {
            $0.track(String(repeating: "a", count: 256))
        },
        HostileRow("track", "control characters", .accepted, sent: Sent.event("a\u{1}\n\tb\u{7F}")) {
            $0.track("a\u{1}\n\tb\u{7F}")
        },
        HostileRow("track", "NUL", .accepted, sent: Sent.event("a\0b")) { $0.track("a\0b") },
        HostileRow(
            "track",
            "lone UTF-16 surrogate (becomes U+FFFD)",
            .accepted,
            sent: Sent.event("a\u{FFFD}b")
        ) { $0.track(String(decoding: [0x61, 0xD800, 0x62] as [UInt16], as: UTF16.self)) },
        HostileRow(
            "track",
            "RTL override and zero-width characters",
            .accepted,
            sent: Sent.event("\u{202E}abc\u{200B}\u{200D}\u{FEFF}")
        ) { $0.track("\u{202E}abc\u{200B}\u{200D}\u{FEFF}") },
        HostileRow("track", "10 MB name", .refused("10485760 characters")) { $0.track(Self.tenMegabytes) },
        HostileRow("trackScreen", "empty name", .refused("empty")) { $0.trackScreen("") },
        HostileRow(
            "trackScreen",
            "control characters and NUL",
            .accepted,
            sent: Sent.event("Screen Viewed") { $0["screen_name"] == "a\0\n" }
        ) { $0.trackScreen("a\0\n") },
        HostileRow(
            "trackScreen",
            "10 MB name",
            .refused("the screen name is 10485760 bytes"),
            sent: \.isEmpty
        ) { $0.trackScreen(Self.tenMegabytes) },
    ]

    // MARK: - Properties (EVT-4, EVT-5)

    static let properties: [HostileRow] = [
        HostileRow("track", "empty property key", .accepted, sent: Sent.event("e") { $0 == ["": 1] }) {
            $0.track("e", properties: ["": 1])
        },
        HostileRow(
            "track",
            "keys with dots and $",
            .accepted,
            sent: Sent.event("e") { $0 == ["a.b": 1, "$x": "y"] }
        ) { $0.track("e", properties: ["a.b": 1, "$x": "y"]) },
        HostileRow("track", "NaN value", .partDropped("price"), sent: Sent.event("e") { $0 == ["ok": 1] }) {
            $0.track("e", properties: ["price": Double.nan, "ok": 1])
        },
        HostileRow(
            "track",
            "infinite value in an array",
            .partDropped("list"),
            sent: Sent.event("e") { $0 == ["list": [.double(1)]] }
        ) {
            $0.track("e", properties: ["list": [1, -Double.infinity]])
        },
        HostileRow("track", "NaN Date", .partDropped("when"), sent: Sent.event("e") { $0.isEmpty }) {
            $0.track("e", properties: ["when": Date(timeIntervalSince1970: .nan)])
        },
        HostileRow("track", "200 keys", .accepted, sent: Sent.event("e") { $0.count == 200 }) {
            $0.track("e", properties: Dictionary(uniqueKeysWithValues: (0..<200).map { ("k\($0)", $0) }))
        },
        HostileRow("track", "201 keys", .refused("201 top-level keys")) {
            $0.track("e", properties: Dictionary(uniqueKeysWithValues: (0..<201).map { ("k\($0)", $0) }))
        },
        HostileRow("track", "51 KB string", .refused("bytes (at most 51200)")) {
            $0.track("e", properties: ["s": String(repeating: "x", count: 51 * 1024)])
        },
        HostileRow("track", "a million-element array", .refused("bytes (at most 51200)")) {
            $0.track("e", properties: ["a": [Int](repeating: 7, count: 1_000_000)])
        },
        HostileRow("track", "10 MB property value", .refused("bytes (at most 51200)")) {
            $0.track("e", properties: ["s": Self.tenMegabytes])
        },
        // An NSArray or NSDictionary containing itself is left out: on Linux, swift-corelibs-foundation
        // bridges an element to Swift, recursively, as soon as it is read (even by `for … in`), so
        // such a value overflows the stack in Foundation itself (docs/decisions.md, Hardening).
        HostileRow(
            "track",
            "NSArray nested in a Swift array",
            .accepted,
            sent: Sent.event("e") { $0 == ["a": [[1, "x"]]] }
        ) { $0.track("e", properties: ["a": [NSArray(array: [1, "x"])]]) },
        HostileRow("track", "[Int: Any] value", .partDropped("map"), sent: Sent.event("e") { $0 == ["ok": true] }) {
            $0.track("e", properties: ["map": [1: "one"] as [Int: Any], "ok": true])
        },
        HostileRow("track", "NSNull", .accepted, sent: Sent.event("e") { $0 == ["n": .null] }) {
            $0.track("e", properties: ["n": NSNull()])
        },
        HostileRow("track", "nested Optional", .accepted, sent: Sent.event("e") { $0 == ["some": 3, "none": .null] }) {
            let some: Int?? = .some(.some(3))
            let none: Int?? = .some(nil)
            $0.track("e", properties: ["some": some as Any, "none": none as Any])
        },
        HostileRow(
            "trackScreen",
            "NaN value",
            .partDropped("x"),
            sent: Sent.event("Screen Viewed") { $0 == ["screen_name": "Home"] }
        ) { $0.trackScreen("Home", properties: ["x": Double.nan]) },
    ]

    // MARK: - identify (IDENT-2)

    static let identity: [HostileRow] = [
        HostileRow("identify", "empty id", .refused("empty")) { $0.identify("") },
        HostileRow("identify", "whitespace only", .refused("blank")) { $0.identify(" \t\n") },
        // The protocol sets no length limit on user ids (docs/protocol.md §3.3).
        HostileRow(
            "identify",
            "10 KB id",
            .accepted,
            sent: Sent.one("identify") { $0["userId"]?.stringValue?.count == 10 * 1024 }
        ) { $0.identify(String(repeating: "u", count: 10 * 1024)) },
        HostileRow(
            "identify",
            "control characters",
            .accepted,
            sent: Sent.one("identify") { $0["userId"] == "u\u{1}\0\n1" }
        ) { $0.identify("u\u{1}\0\n1") },
    ]

    // MARK: - Attributes (ATTR-5, ATTR-6, ATTR-21, GAP-31)

    static let attributes: [HostileRow] = [
        HostileRow("setAttribute", "empty key", .refused("empty")) { $0.setAttribute("", value: 1) },
        HostileRow("setAttribute", "256-character key", .refused("longer than 255")) {
            $0.setAttribute(String(repeating: "k", count: 256), value: 1)
        },
        HostileRow("setAttribute", "reserved key tracking_opted_out", .refused("written by the SDK itself")) {
            $0.setAttribute("tracking_opted_out", value: false)
        },
        HostileRow("setAttribute", "reserved key push_permission", .refused("written by the SDK itself")) {
            $0.setAttribute("push_permission", value: true)
        },
        HostileRow("setAttribute", "NaN", .partDropped("non-finite")) { $0.setAttribute("score", value: Double.nan) },
        HostileRow(
            "setAttribute",
            "Double.greatestFiniteMagnitude",
            .accepted,
            sent: Sent.attributes(["big"]) { $0["big"]?["value"] == .double(.greatestFiniteMagnitude) }
        ) { $0.setAttribute("big", value: Double.greatestFiniteMagnitude) },
        HostileRow("setAttribute", "51 KB value", .refused("limit 51200")) {
            $0.setAttribute("blob", value: String(repeating: "x", count: 51 * 1024))
        },
        HostileRow(
            "setAttributes",
            "NSNull and nested nil Optional unset",
            .accepted,
            sent: Sent.attributes(["a", "b"]) { $0["a"]?["op"] == "unset" && $0["b"]?["op"] == "unset" }
        ) {
            let none: Int?? = .some(nil)
            $0.setAttributes(["a": NSNull(), "b": none as Any])
        },
        HostileRow(
            "setAttributes",
            "one bad key among good ones",
            .partDropped("empty"),
            sent: Sent.attributes(["ok"])
        ) { $0.setAttributes(["": 1, "ok": 2]) },
        HostileRow("incrementAttribute", "NaN delta", .refused("not a finite number")) {
            $0.incrementAttribute("n", by: .nan)
        },
        HostileRow("incrementAttribute", "infinite delta", .refused("not a finite number")) {
            $0.incrementAttribute("n", by: -.infinity)
        },
        HostileRow(
            "incrementAttribute",
            "Double.greatestFiniteMagnitude",
            .accepted,
            sent: Sent.attributes(["n"]) { $0["n"]?["by"] == .double(.greatestFiniteMagnitude) }
        ) { $0.incrementAttribute("n", by: .greatestFiniteMagnitude) },
        HostileRow(
            "incrementAttribute",
            "0",
            .accepted,
            sent: Sent.attributes(["n"]) { $0["n"]?["by"] == 0 }
        ) { $0.incrementAttribute("n", by: 0) },
        HostileRow("incrementAttribute", "reserved key", .refused("written by the SDK itself")) {
            $0.incrementAttribute("push_permission")
        },
        HostileRow("unsetAttribute", "empty key", .refused("empty")) { $0.unsetAttribute("") },
        HostileRow("unsetAttribute", "reserved key", .refused("written by the SDK itself")) {
            $0.unsetAttribute("tracking_opted_out")
        },
        HostileRow(
            "unsetAttribute",
            "control characters",
            .accepted,
            sent: Sent.attributes(["a\0\n"]) { $0["a\0\n"]?["op"] == "unset" }
        ) { $0.unsetAttribute("a\0\n") },
    ]

    // MARK: - Aliases and subscriptions (IDENT-13, GAP-24, SUB-10)

    static let aliasesAndSubscriptions: [HostileRow] = [
        HostileRow("addAlias", "upper-case label", .refused("lowercase letters")) { $0.addAlias("Loyalty", name: "1") },
        HostileRow("addAlias", "empty label", .refused("lowercase letters")) { $0.addAlias("", name: "1") },
        HostileRow("addAlias", "label with a line break", .refused("lowercase letters")) {
            $0.addAlias("a\nb", name: "1")
        },
        HostileRow("addAlias", "65-character label", .refused("1–64")) {
            $0.addAlias(String(repeating: "a", count: 65), name: "1")
        },
        HostileRow("addAlias", "empty name", .refused("empty")) { $0.addAlias("loyalty_id", name: "") },
        HostileRow("addAlias", "256-character name", .refused("longer than 255")) {
            $0.addAlias("loyalty_id", name: String(repeating: "n", count: 256))
        },
        HostileRow(
            "addAlias",
            "64-character label, 255-character name",
            .accepted,
            sent: Sent.one("alias") { _ in true }
        ) { $0.addAlias(String(repeating: "a", count: 64), name: String(repeating: "n", count: 255)) },
        HostileRow("setSubscription", "unknown channel", .refused("unknown channel")) {
            $0.setSubscription(channel: "pigeon", status: "subscribed")
        },
        HostileRow("setSubscription", "channel in another case", .refused("unknown channel")) {
            $0.setSubscription(channel: "EMAIL", status: "subscribed")
        },
        HostileRow("setSubscription", "channel with a line break and NUL", .refused(#"unknown channel "e\nmail\0""#)) {
            $0.setSubscription(channel: "e\nmail\0", status: "subscribed")
        },
        HostileRow("setSubscription", "unknown status", .refused("unknown status")) {
            $0.setSubscription(channel: "email", status: "maybe")
        },
        HostileRow("setSubscription", "empty channel", .refused("unknown channel")) {
            $0.setSubscription(channel: "", status: "")
        },
        HostileRow("addToSubscriptionGroup", "empty group id", .refused("1–128")) {
            $0.addToSubscriptionGroup("", channel: "email")
        },
        HostileRow("addToSubscriptionGroup", "129-character group id", .refused("1–128")) {
            $0.addToSubscriptionGroup(String(repeating: "g", count: 129), channel: "email")
        },
        HostileRow("removeFromSubscriptionGroup", "unknown channel", .refused("unknown channel")) {
            $0.removeFromSubscriptionGroup("g", channel: "fax")
        },
    ]

    // MARK: - SDK-auth tokens (AUTH-3, GAP-5)

    /// A JWT (unsigned) with `payload` as its claims.
    static func jwt(_ payload: String) -> String {
        let header = Self.base64URL(#"{"alg":"HS256","typ":"JWT"}"#)
        return "\(header).\(Self.base64URL(payload)).c2lnbmF0dXJl"
    }

    static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static let goodToken = Self.jwt(#"{"sub":"user-1"}"#)

    /// `setSdkAuthenticationToken(token)` after `identify("user-1")`, then one event.
    static func token(
        _ value: String,
        _ token: String,
        _ outcome: HostileRow.Outcome,
        header: String?
    ) -> HostileRow {
        HostileRow(
            "setSdkAuthenticationToken",
            value,
            outcome,
            secret: token,
            sent: { requests in
                let events = requests.filter { $0.url.path.hasSuffix("/v1/events") }
                return events.count == 1 && events[0].header("Authorization") == header
            }
        ) { joryio in
            joryio.identify("user-1")
            joryio.setSdkAuthenticationToken(token)
            joryio.track("e")
        }
    }

    static let tokens: [HostileRow] = [
        Self.token("a JWT for the user", Self.goodToken, .accepted, header: "Bearer " + Self.goodToken),
        Self.token("empty", "", .refused("empty"), header: nil),
        Self.token(
            "not a JWT (used for the current user)",
            "opaque-token-123",
            .partDropped("subject"),
            header: "Bearer opaque-token-123"
        ),
        Self.token(
            "JWT without sub (used for the current user)",
            Self.jwt(#"{"exp":1}"#),
            .partDropped("subject"),
            header: "Bearer " + Self.jwt(#"{"exp":1}"#)
        ),
        Self.token("line break", Self.goodToken + "\r\nX-Evil: 1", .refused("line break"), header: nil),
        Self.token("NUL", Self.goodToken + "\0", .refused("control character"), header: nil),
        Self.token("space inside", "Bearer " + Self.goodToken, .refused("a space"), header: nil),
        Self.token("non-ASCII", Self.goodToken + "é", .refused("non-ASCII"), header: nil),
        Self.token(
            "1 MB token",
            Self.jwt(#"{"sub":"user-1","pad":""# + String(repeating: "p", count: 1 << 20) + #""}"#),
            .refused("characters"),
            header: nil
        ),
    ]

    // MARK: - Privacy calls, repeated (CONSENT, OPTOUT)

    static let privacy: [HostileRow] = [
        HostileRow("optOut", "three times", .accepted, sent: { $0.allSatisfy { !$0.url.path.hasSuffix("/v1/events") } })
        {
            $0.optOut()
            $0.optOut()
            $0.optOut()
            $0.track("e")
        },
        HostileRow("updateConsent", "granted, denied, pending, granted ×2", .accepted, sent: Sent.event("after")) {
            $0.updateConsent(.granted)
            $0.updateConsent(.denied)
            $0.track("lost")
            $0.updateConsent(.pending)
            $0.updateConsent(.granted)
            $0.updateConsent(.granted)
            $0.track("after")
        },
    ]
}
