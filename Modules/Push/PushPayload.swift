package import Foundation
package import JoryioCore

/// A remote notification's payload as the SDK reads it (docs/protocol.md, "Push payload").
///
/// A payload is Joryio's exactly when its top level has the key `joryio` (PUSH-21); every other
/// payload is foreign and is forwarded unchanged (PUSH-22). Inside `joryio` (an object):
/// `trackingId` (the receipt and click key, PUSH-27), `sync` (the silent-sync marker, PUSH-25) and
/// `url` (the deep or universal link, DEEPLINK-5, ULINK-7). The sound is the standard `aps.sound`
/// (SOUND-5). A field of the wrong type or out of bounds is ignored with a ``PushWarning``; parsing
/// never fails for a payload that is a JSON object (GAP-14, GAP-71).
package struct PushPayload: Sendable, Equatable {
    /// The key that marks a payload as Joryio's.
    package static let joryioKey = "joryio"
    /// The key of the push's tracking id inside `joryio`.
    package static let trackingIdKey = "trackingId"
    /// The key of the silent-sync marker inside `joryio` (`true` asks for an in-app sync).
    package static let syncKey = "sync"
    /// The key of the link inside `joryio`.
    package static let urlKey = "url"
    /// The longest tracking id kept, in characters.
    package static let maxTrackingIdLength = 128

    /// Whether the payload carries the `joryio` key.
    package var isJoryio: Bool
    /// The tracking id (1 … 128 characters, no control characters), or `nil`.
    package var trackingId: String?
    /// Whether `joryio.sync` is `true`.
    package var sync: Bool
    /// The link, when `joryio.url` is a link the SDK follows.
    package var link: PushLink?
    /// What to play: from `aps.sound`.
    package var sound: PushSound
    /// Whether `aps` has an alert (a title or body): a visible notification.
    package var hasAlert: Bool
    /// Whether `aps.badge` is a number.
    package var hasBadge: Bool
    /// Whether `aps.content-available` is 1 (a background push).
    package var contentAvailable: Bool
    /// The fields left out, one warning each (the SDK logs them).
    package var warnings: [PushWarning]

    /// Reads a parsed payload; `nil` when it is not a JSON object (not a notification payload).
    package init?(_ value: JSONValue) {
        guard let root = value.objectValue else { return nil }
        var warnings: [PushWarning] = []
        let aps = root["aps"]?.objectValue ?? [:]
        self.hasAlert = Self.hasAlert(aps["alert"])
        self.hasBadge = aps["badge"]?.intValue != nil
        self.contentAvailable = aps["content-available"]?.intValue == 1
        self.sound = PushSound(aps["sound"], warnings: &warnings)

        guard let joryio = root[Self.joryioKey] else {
            self.isJoryio = false
            self.trackingId = nil
            self.sync = false
            self.link = nil
            self.warnings = []
            return
        }
        self.isJoryio = true
        let fields = joryio.objectValue ?? [:]
        if joryio.objectValue == nil { warnings.append(.joryioNotAnObject) }
        self.trackingId = Self.trackingId(fields[Self.trackingIdKey], warnings: &warnings)
        self.sync = fields[Self.syncKey] == .bool(true)
        if let marker = fields[Self.syncKey], marker.boolValue == nil { warnings.append(.syncNotABoolean) }
        switch fields[Self.urlKey] {
        case nil, .null?:
            self.link = nil
        case .string(let text)?:
            switch PushLink.parse(text) {
            case .success(let link): self.link = link
            case .failure(let refusal):
                self.link = nil
                warnings.append(.linkRefused(refusal))
            }
        case _?:
            self.link = nil
            warnings.append(.linkRefused(.notAString))
        }
        self.warnings = warnings
    }

    /// Parses JSON bytes (a payload as sent to APNs); `nil` when they are not a JSON object.
    package init?(json: Data) {
        guard let value = JSONValue.parse(json) else { return nil }
        self.init(value)
    }

    /// Reads the `userInfo` of a notification: keys that are not strings and values that are not
    /// JSON are left out before reading (APNs payloads are JSON, so a real one loses nothing).
    package init?(userInfo: [AnyHashable: Any]) {
        var dictionary: [String: Any] = [:]
        for (key, value) in userInfo {
            guard let key = key.base as? String else { continue }
            dictionary[key] = value
        }
        self.init(JSONValue.object(JSONValue.convert(dictionary).value))
    }

    private static func hasAlert(_ alert: JSONValue?) -> Bool {
        switch alert {
        case .string(let text)?: !text.isEmpty
        case .object(let members)?: !members.isEmpty
        default: false
        }
    }

    private static func trackingId(_ value: JSONValue?, warnings: inout [PushWarning]) -> String? {
        guard let value else {
            warnings.append(.trackingIdMissing)
            return nil
        }
        guard let text = value.stringValue, Self.isValidTrackingId(text) else {
            warnings.append(.trackingIdInvalid)
            return nil
        }
        return text
    }

    /// Whether `text` is a tracking id the SDK reports: 1 … ``maxTrackingIdLength`` characters, no
    /// control characters (PUSH-27). The one check for payloads and for the facade's
    /// `reportPushDelivered(_:)` and `trackPushClick(trackingId:)` (PUSH-19).
    package static func isValidTrackingId(_ text: String) -> Bool {
        !text.isEmpty && text.count <= Self.maxTrackingIdLength
            && !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    }
}

/// Something in a Joryio payload the SDK left out; the SDK logs one warning each.
package enum PushWarning: Sendable, Equatable {
    /// `joryio` is not an object: the payload is Joryio's, but carries nothing to act on.
    case joryioNotAnObject
    /// `joryio.trackingId` is absent: no receipt or click can be reported.
    case trackingIdMissing
    /// `joryio.trackingId` is not a string of 1 … 128 characters without control characters.
    case trackingIdInvalid
    /// `joryio.sync` is present but not a boolean (only `true` asks for a sync).
    case syncNotABoolean
    /// `joryio.url` was not followed, and why.
    case linkRefused(PushLink.Refusal)
    /// `aps.sound` names a file that is not `.aif`, `.caf` or `.wav`: the default sound plays.
    case soundIgnored(String)
}
