public import Foundation
public import JoryioCore

/// An event on its way into the queue, as event plugins see it.
public struct JoryioEvent: Sendable, Equatable {
    /// The event name, such as `Product Viewed`.
    public var name: String
    /// The properties, already converted from `[String: Any]`.
    public var properties: [String: JSONValue]
    /// The unique id the server deduplicates by.
    public let messageId: String
    /// When the app recorded the event (taken on the caller's thread).
    public let timestamp: Date
    /// The anonymous id the event was recorded with.
    public let anonymousId: String
    /// The user id the event was recorded with, if any.
    public let userId: String?

    /// Creates an event.
    public init(
        name: String,
        properties: [String: JSONValue],
        messageId: String,
        timestamp: Date,
        anonymousId: String,
        userId: String?
    ) {
        self.name = name
        self.properties = properties
        self.messageId = messageId
        self.timestamp = timestamp
        self.anonymousId = anonymousId
        self.userId = userId
    }
}

/// Modifies or drops events before they are stored: scrub personal data, add context.
///
/// Plugins run on the SDK's engine, in registration order, after validation; an event a plugin
/// changes is validated again. Keep them fast and free of blocking work.
///
/// ```swift
/// struct ScrubEmail: JoryioEventPlugin {
///     func process(_ event: JoryioEvent) -> JoryioEvent? {
///         var event = event
///         event.properties["email"] = nil
///         return event
///     }
/// }
/// Joryio.shared.add(plugin: ScrubEmail())
/// ```
public protocol JoryioEventPlugin: Sendable {
    /// The event to store instead, or `nil` to drop it.
    func process(_ event: JoryioEvent) -> JoryioEvent?
}
