#if canImport(UserNotifications) && !os(tvOS)
@preconcurrency public import UserNotifications
internal import Foundation

/// The Notification Service Extension that attaches a push's image, GIF, video or audio and applies
/// its custom sound (NSE-1 … NSE-7, VIDEO-8, SOUND-5).
///
/// Subclass it with no body in the extension target, which links only the
/// `JoryioNotificationServiceExtension` product (CocoaPods: `Joryio/NotificationServiceExtension`):
///
/// ```swift
/// import JoryioNotificationServiceExtension   // CocoaPods: import Joryio
///
/// class NotificationService: JoryioNotificationService {}
/// ```
///
/// It downloads the URL under `jry_image_url`, `jry_video_url` or `attachment-url` (`https` only, in
/// that order), streams it to a file named after its type, and attaches it. On any failure, after
/// 25 seconds, or when the system calls ``serviceExtensionTimeWillExpire()``, it delivers the
/// original content unmodified, exactly once. The push needs `mutable-content: 1` (NSE-6).
open class JoryioNotificationService: UNNotificationServiceExtension {
    private var session: RichPushSession?

    open override func didReceive(
        _ request: UNNotificationRequest,
        withContentHandler contentHandler: @escaping @Sendable (UNNotificationContent) -> Void
    ) {
        let original = request.content
        let session = RichPushSession(
            payload: RichPushPayload(userInfo: original.userInfo),
            directory: RichPushSession.defaultDirectory,
            downloader: URLSessionRichPushDownloader(),
            timer: DispatchRichPushTimer()
        ) { outcome in
            contentHandler(Self.content(original, outcome))
        }
        self.session = session
        session.start()
    }

    open override func serviceExtensionTimeWillExpire() {
        self.session?.timeWillExpire()
    }

    /// The content to deliver: the original, or a copy with the attachment and sound.
    private static func content(_ original: UNNotificationContent, _ outcome: RichPushOutcome) -> UNNotificationContent
    {
        guard case .modified(let changes) = outcome,
            let content = original.mutableCopy() as? UNMutableNotificationContent
        else { return original }
        if let file = changes.attachment {
            // The system moves the file into its own store; a file it refuses leaves the original.
            guard
                let attachment = try? UNNotificationAttachment(identifier: "joryio-media", url: file.url, options: nil)
            else {
                try? FileManager.default.removeItem(at: file.url)
                return original
            }
            content.attachments = [attachment]
        }
        switch changes.sound {
        case .none: break
        case .defaultSound: content.sound = .default
        case .named(let name): content.sound = UNNotificationSound(named: UNNotificationSoundName(rawValue: name))
        }
        return content
    }
}
#endif
