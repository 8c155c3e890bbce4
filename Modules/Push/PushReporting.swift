package import Foundation

/// What a notification's handling reports about a Joryio push, by its `trackingId` (PUSH-19,
/// PUSH-27, PUSH-33): the receipts-and-clicks feature implements it, the notification handling
/// and the facade's `reportPushDelivered(_:)` / `trackPushClick(trackingId:)` call it.
///
/// Reports are data-collecting: an implementation drops them while the person is opted out or has
/// denied consent, and keeps them until they are delivered otherwise. Called on the engine's
/// executor.
package protocol PushReporting: AnyObject, Sendable {
    /// A Joryio notification reached the app (a receipt, protocol.md 5.11).
    func reportDelivered(trackingId: String, at timestamp: Date)
    /// The person tapped a Joryio notification (a click, protocol.md 5.11).
    func reportClicked(trackingId: String, at timestamp: Date)
}
