/// Push notifications as a feature on the engine's seam (issue 14): token rules, payload
/// decisions, receipts and clicks. Pure decisions live here as values, tested on Linux; the
/// UserNotifications / UIKit adapter is thin and sits under `#if canImport`.
package enum JoryioPush {
    /// The profile attribute that mirrors the notification permission (PUSH-… `push_permission`).
    package static let permissionAttribute = "push_permission"
}
