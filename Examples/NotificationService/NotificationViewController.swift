#if canImport(UIKit)
import JoryioNotificationServiceExtension  // CocoaPods: import Joryio

/// The optional Notification Content Extension's view controller, as the DocC article "Rich push"
/// ("Play an attached video when the notification expands") writes it: a subclass with no body
/// that plays the first video or audio attachment.
class NotificationViewController: JoryioNotificationContent {}
#endif
