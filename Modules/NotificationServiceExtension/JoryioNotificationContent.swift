#if canImport(UserNotificationsUI) && canImport(UIKit) && canImport(AVKit)
internal import AVFoundation
internal import AVKit
public import UIKit
@preconcurrency public import UserNotifications
@preconcurrency public import UserNotificationsUI

/// An optional Notification Content Extension view controller that plays a push's attached video
/// (or audio) as soon as the notification is expanded (VIDEO-1, VIDEO-2, VIDEO-9, GAP-77).
///
/// Subclass it with no body in a Notification Content Extension target, which links only the
/// `JoryioNotificationServiceExtension` product; set the extension's `NSExtensionPrincipalClass` to
/// the subclass (no storyboard needed) and `UNNotificationExtensionUserInteractionEnabled` to
/// `true` so the player's controls respond:
///
/// ```swift
/// import JoryioNotificationServiceExtension
///
/// class NotificationViewController: JoryioNotificationContent {}
/// ```
///
/// The attachment's file belongs to the system's attachment store: it is read inside
/// `startAccessingSecurityScopedResource()` / `stopAccessingSecurityScopedResource()`, held for as
/// long as the player shows it.
@MainActor
open class JoryioNotificationContent: UIViewController, UNNotificationContentExtension {
    private var playerController: AVPlayerViewController?
    private var access: ScopedAccess?

    /// The file extensions played, lowercased.
    static let playableExtensions: Set<String> = ["mp4", "mov", "m4v", "mp3", "m4a", "wav", "aif", "aiff"]

    open func didReceive(_ notification: UNNotification) {
        self.stopPlaying()
        guard
            let attachment = notification.request.content.attachments.first(where: {
                Self.playableExtensions.contains($0.url.pathExtension.lowercased())
            })
        else { return }
        let access = ScopedAccess(attachment.url)
        let player = AVPlayer(url: attachment.url)
        let controller = AVPlayerViewController()
        controller.player = player
        self.addChild(controller)
        controller.view.frame = self.view.bounds
        controller.view.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        self.view.addSubview(controller.view)
        controller.didMove(toParent: self)
        self.playerController = controller
        self.access = access
        player.play()
    }

    open override func viewDidDisappear(_ animated: Bool) {
        super.viewDidDisappear(animated)
        self.stopPlaying()
    }

    private func stopPlaying() {
        self.playerController?.player?.pause()
        self.playerController?.willMove(toParent: nil)
        self.playerController?.view.removeFromSuperview()
        self.playerController?.removeFromParent()
        self.playerController = nil
        self.access = nil  // ends the security-scoped access
    }
}

/// Security-scoped access to an attachment's file, from creation until release.
private final class ScopedAccess: Sendable {
    private let url: URL
    private let started: Bool

    init(_ url: URL) {
        self.url = url
        self.started = url.startAccessingSecurityScopedResource()
    }

    deinit {
        if self.started { self.url.stopAccessingSecurityScopedResource() }
    }
}
#endif
