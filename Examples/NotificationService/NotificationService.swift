#if canImport(UserNotifications)
import JoryioNotificationServiceExtension  // CocoaPods: import Joryio

/// The Notification Service Extension's principal class, as the DocC article "Rich push"
/// (`JoryioNotificationServiceExtension`) writes it: a subclass with no body. It attaches the
/// payload's image, GIF, video or audio and applies its custom sound.
class NotificationService: JoryioNotificationService {}
#endif
