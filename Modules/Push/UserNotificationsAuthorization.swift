#if canImport(UserNotifications) && !os(watchOS)
internal import Foundation
internal import JoryioCore
import UserNotifications

/// What the iOS and macOS push platforms share (issue 26): authorization through
/// `UNUserNotificationCenter`, and running work once the application becomes active.
enum UserNotificationsAuthorization {
    /// `UNUserNotificationCenter.getNotificationSettings`' `authorizationStatus`, mapped.
    static func status(_ completion: @escaping @Sendable (PushAuthorization) -> Void) {
        UNUserNotificationCenter.current().getNotificationSettings { settings in
            completion(Self.map(settings.authorizationStatus))
        }
    }

    /// `requestAuthorization([.alert, .badge, .sound] + .provisional when asked)`.
    static func request(provisional: Bool) async -> Bool {
        var options: UNAuthorizationOptions = [.alert, .badge, .sound]
        if provisional { options.insert(.provisional) }
        return (try? await UNUserNotificationCenter.current().requestAuthorization(options: options)) ?? false
    }

    private static func map(_ status: UNAuthorizationStatus) -> PushAuthorization {
        switch status {
        case .denied: return .denied
        case .authorized: return .authorized
        case .provisional: return .provisional
        case .notDetermined: return .notDetermined
        default:
            #if os(iOS) || os(visionOS)
            if status == .ephemeral { return .ephemeral }
            #endif
            return .notDetermined
        }
    }

    /// `work` on the main queue when `isActive` says the application is active, else at the next
    /// `notification` (once; the observer is removed before `work` runs).
    static func whenActive(
        _ work: @escaping @Sendable () -> Void,
        isActive: @escaping @MainActor @Sendable () -> Bool,
        notification: Notification.Name
    ) {
        DispatchQueue.main.async {
            if MainActor.assumeIsolated({ isActive() }) {
                work()
                return
            }
            let observer = Locked<(any NSObjectProtocol)?>(nil)
            let token = NotificationCenter.default.addObserver(forName: notification, object: nil, queue: .main) { _ in
                let registered = observer.withLock { value -> (any NSObjectProtocol)? in
                    defer { value = nil }
                    return value
                }
                guard let registered else { return }
                NotificationCenter.default.removeObserver(registered)
                work()
            }
            observer.withLock { $0 = token }
        }
    }
}
#endif
