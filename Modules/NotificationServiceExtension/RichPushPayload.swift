package import Foundation

/// What the extension reads from a notification's `userInfo` (docs/protocol.md §7.3): the media
/// URL and the sound.
///
/// The media keys live at the top level of the payload, beside `aps` and `joryio` (NSE-4, NSE-5,
/// GAP-14): `jry_image_url`, then `jry_video_url`, then `attachment-url`. The first key whose value
/// is a URL the extension may fetch (``RichPushURLPolicy``) wins; a key that is absent, not a string,
/// not a URL, or not `https` is skipped (VIDEO-8, GAP-71). Any key may carry any media type: the
/// response decides the file type, not the key. The sound is `aps.sound` (SOUND-5).
package struct RichPushPayload: Sendable, Equatable {
    /// The media keys, most preferred first.
    package static let mediaKeys = ["jry_image_url", "jry_video_url", "attachment-url"]

    /// The URL to download, or `nil` when no key holds one.
    package var mediaURL: URL?
    /// The key ``mediaURL`` came from.
    package var mediaKey: String?
    /// Keys that were present but skipped, in key order.
    package var skippedKeys: [String]
    /// The sound from `aps.sound`.
    package var sound: RichPushSound
    /// Whether `aps.sound` named a custom sound that is not applied (the default sound plays).
    package var soundIgnored: Bool

    /// Reads a notification's `userInfo`.
    package init(userInfo: [AnyHashable: Any]) {
        self.mediaURL = nil
        self.mediaKey = nil
        self.skippedKeys = []
        for key in Self.mediaKeys {
            guard let value = userInfo[key] else { continue }
            guard let url = RichPushURLPolicy.url(from: value) else {
                self.skippedKeys.append(key)
                continue
            }
            self.mediaURL = url
            self.mediaKey = key
            break
        }
        let aps = userInfo["aps"] as? [String: Any]
        self.sound = RichPushSound(apsSound: aps?["sound"])
        let name = (aps?["sound"] as? String) ?? ((aps?["sound"] as? [String: Any])?["name"] as? String)
        self.soundIgnored = self.sound == .defaultSound && name.map { !$0.isEmpty && $0 != "default" } == true
    }

    /// Whether delivering this notification needs more than the original content: media to attach,
    /// or a custom sound name to replace with the default one (a valid name is what iOS already plays).
    package var needsWork: Bool {
        self.mediaURL != nil || self.soundIgnored
    }

}
