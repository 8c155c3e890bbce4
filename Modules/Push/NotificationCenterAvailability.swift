internal import Foundation

/// Whether this process may use `UNUserNotificationCenter` at all (issue 26): on macOS only an app
/// bundle may; a command-line tool or a test runner that links the `Joryio` product has no bundle,
/// and `UNUserNotificationCenter.current()` raises an Objective-C exception there, which crashes the
/// host. Such a process runs push on ``NoPushPlatform`` and installs no notification-center
/// delegate. A value so the rule is tested on Linux.
package enum NotificationCenterAvailability {
    /// `true` for a bundle whose folder ends in `.app` and that has a bundle identifier.
    package static func isUsable(bundlePathExtension: String, bundleIdentifier: String?) -> Bool {
        bundlePathExtension.lowercased() == "app" && !(bundleIdentifier ?? "").isEmpty
    }

    #if os(macOS)
    /// This process: `Bundle.main`.
    package static var thisProcess: Bool {
        Self.isUsable(
            bundlePathExtension: Bundle.main.bundleURL.pathExtension,
            bundleIdentifier: Bundle.main.bundleIdentifier
        )
    }
    #endif
}
