#if canImport(UserNotifications) && (os(iOS) || os(visionOS) || os(macOS))
internal import Foundation
internal import JoryioKit
internal import JoryioPush
import UserNotifications
#if os(macOS)
import AppKit
#else
import UIKit
#endif

/// The SDK's `UNUserNotificationCenter` delegate (INIT-16, PUSH-20 … PUSH-22), deliberately thin:
/// what to do with a notification is decided by ``Joryio/notificationWillPresent(_:)`` and
/// ``Joryio/notificationResponse(_:action:appIsActive:)``, tested on Linux.
///
/// Installed by `initialize()` once it accepted its key (``install(_:)``), in place of the delegate the app had set, which it keeps
/// **weakly** (as the center itself did: that delegate lives exactly as long as it would without
/// the SDK) and chains to. It acts only on Joryio payloads (the `joryio` key); every other
/// notification goes to the previous delegate unchanged, and so does every other delegate method
/// (`openSettingsFor` included): this class does not implement them, and Objective-C forwarding
/// (``responds(to:)``, ``forwardingTarget(for:)``) sends them on, so the center sees exactly the
/// methods the app's delegate has. Each completion handler is called exactly once: here for
/// Joryio's notifications, else by the previous delegate, else here with the system's defaults
/// (not presented; nothing to do).
final class NotificationCenterDelegate: NSObject, UNUserNotificationCenterDelegate {
    private weak var joryio: Joryio?
    private weak var previous: (any UNUserNotificationCenterDelegate)?

    private init(joryio: Joryio, previous: (any UNUserNotificationCenterDelegate)?) {
        self.joryio = joryio
        self.previous = previous
        super.init()
    }

    /// The installed delegate: the center holds its delegate weakly, so this keeps it for the
    /// process's life (it forwards to the instance weakly). Touched on the main thread only.
    nonisolated(unsafe) private static var installed: NotificationCenterDelegate?

    /// Installs a delegate for `joryio`, called by `initialize()` once it accepted its key, before
    /// any first-unlock wait: synchronously when `initialize()` runs on the main thread (as it does
    /// from `didFinishLaunching`, so the tap that launched the app reaches it even while the SDK
    /// waits for the unlock; taps made before the engine starts wait in the pre-init list), else
    /// at the main queue's next turn, which may be after the system delivered that tap (the
    /// README's troubleshooting says so). Only the first instance installs one: a second (another
    /// workspace) would otherwise take the first one's taps.
    static func install(_ joryio: Joryio) {
        #if os(macOS)
        // A command-line tool or test runner has no app bundle: the center would raise.
        guard NotificationCenterAvailability.thisProcess else { return }
        #endif
        let install: @Sendable () -> Void = {
            let center = UNUserNotificationCenter.current()
            guard !(center.delegate is NotificationCenterDelegate), Self.installed == nil else { return }
            let delegate = NotificationCenterDelegate(joryio: joryio, previous: center.delegate)
            Self.installed = delegate
            center.delegate = delegate
        }
        if Thread.isMainThread {
            install()
        } else {
            DispatchQueue.main.async(execute: install)
        }
    }

    /// Joryio's: presented as decided, receipt and sync on the engine. Others: the previous
    /// delegate's, or not presented when it has no such method.
    func userNotificationCenter(
        _ center: UNUserNotificationCenter,
        willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void
    ) {
        let payload = PushPayload(userInfo: notification.request.content.userInfo)
        if let joryio = self.joryio, let presentation = joryio.notificationWillPresent(payload) {
            completionHandler(Self.options(presentation))
            return
        }
        let forwarded: Void? = self.previous?.userNotificationCenter?(
            center,
            willPresent: notification,
            withCompletionHandler: completionHandler
        )
        if forwarded == nil { completionHandler([]) }
    }

    /// Joryio's: click, link and sync on the engine. Others: the previous delegate's.
    func userNotificationCenter(
        _ center: UNUserNotificationCenter,
        didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping @Sendable () -> Void
    ) {
        let payload = PushPayload(userInfo: response.notification.request.content.userInfo)
        // Only a debug hint: the link itself waits on the platform, which checks the state again.
        let active = Thread.isMainThread && MainActor.assumeIsolated { Self.applicationIsActive }
        let action = Self.action(response.actionIdentifier)
        if let joryio = self.joryio, joryio.notificationResponse(payload, action: action, appIsActive: active) {
            completionHandler()
            return
        }
        let forwarded: Void? = self.previous?.userNotificationCenter?(
            center,
            didReceive: response,
            withCompletionHandler: completionHandler
        )
        if forwarded == nil { completionHandler() }
    }

    /// Also the methods of the previous delegate (forwarded, see ``forwardingTarget(for:)``).
    override func responds(to aSelector: Selector!) -> Bool {
        super.responds(to: aSelector) || (self.previous?.responds(to: aSelector) ?? false)
    }

    /// The previous delegate, for the methods only it implements (`openSettingsFor`, PUSH-22).
    override func forwardingTarget(for aSelector: Selector!) -> Any? {
        if let previous = self.previous, previous.responds(to: aSelector) { return previous }
        return super.forwardingTarget(for: aSelector)
    }

    /// Whether the application is active; on the main thread.
    @MainActor
    private static var applicationIsActive: Bool {
        #if os(macOS)
        NSApplication.shared.isActive
        #else
        UIApplication.shared.applicationState == .active
        #endif
    }

    private static func action(_ identifier: String) -> PushResponseAction {
        switch identifier {
        case UNNotificationDefaultActionIdentifier: .open
        case UNNotificationDismissActionIdentifier: .dismiss
        default: .custom(identifier)
        }
    }

    private static func options(_ presentation: PushPresentation) -> UNNotificationPresentationOptions {
        var options: UNNotificationPresentationOptions = []
        if presentation.contains(.banner) { options.insert(.banner) }
        if presentation.contains(.list) { options.insert(.list) }
        if presentation.contains(.sound) { options.insert(.sound) }
        if presentation.contains(.badge) { options.insert(.badge) }
        return options
    }
}
#else
internal import JoryioKit

/// No notification center here (Linux, tvOS, watchOS): nothing to install.
enum NotificationCenterDelegate {
    static func install(_ joryio: Joryio) {}
}
#endif
