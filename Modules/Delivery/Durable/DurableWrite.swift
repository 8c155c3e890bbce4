package import Foundation

/// A server write kept on the device until the server confirms it (DURABLE-1, DURABLE-2).
package struct DurableWrite: Sendable, Equatable {
    /// What the write asks the server to do.
    package enum Kind: Sendable, Equatable {
        /// `identify(_:)`: joins `anonymousId`'s history to `userId` (IDENT-1).
        case identify
        /// `addAlias(_:name:)`: a labelled second identifier (IDENT-12).
        case alias(label: String, name: String)
        /// `setSubscription(channel:status:)`.
        case subscription(channel: String, status: String)
        /// `addToSubscriptionGroup` (`join: true`) or `removeFromSubscriptionGroup` (`join: false`).
        case subscriptionGroup(channel: String, groupId: String, join: Bool)
        /// The `tracking_opted_out` profile record (OPTOUT-5).
        case optOutRecord(optedOut: Bool)
        /// The server part of `unregisterPush()` / `wipeData()` (WIPE-2).
        case pushUnregister(token: String)

        /// An unsubscribe, a group removal, the opt-out record or a push unregister (DURABLE-13).
        package var isWithdrawal: Bool {
            switch self {
            case .identify, .alias: false
            case .subscription(_, let status): status == "unsubscribed"
            case .subscriptionGroup(_, _, let join): !join
            case .optOutRecord, .pushUnregister: true
            }
        }

        /// A name for logs: never an id, a token or a value.
        package var name: String {
            switch self {
            case .identify: "identify"
            case .alias: "alias"
            case .subscription(_, let status): status == "unsubscribed" ? "unsubscribe" : "subscription"
            case .subscriptionGroup(_, _, let join): join ? "group join" : "group leave"
            case .optOutRecord: "opt-out record"
            case .pushUnregister: "push unregister"
            }
        }
    }

    /// Unique per write: the server applies a write id once.
    package var id: String
    /// The change.
    package var kind: Kind
    /// The user id current when the write was made (the identified user for ``Kind/identify``).
    package var userId: String?
    /// The anonymous id current when the write was made.
    package var anonymousId: String?
    /// When the app made the call.
    package var timestamp: Date

    /// Creates a write.
    package init(id: String, kind: Kind, userId: String?, anonymousId: String?, timestamp: Date) {
        self.id = id
        self.kind = kind
        self.userId = userId
        self.anonymousId = anonymousId
        self.timestamp = timestamp
    }

    /// Withdrawals are sent whatever the consent or opt-out, and survive `wipeData()` (DURABLE-13).
    package var isWithdrawal: Bool { self.kind.isWithdrawal }

    /// Writes with the same key are changes to the same thing by the same person: a newer one
    /// replaces the one still waiting (DURABLE-4).
    package var replacementKey: String {
        let person = self.userId.map { "u:\($0)" } ?? "a:\(self.anonymousId ?? "")"
        switch self.kind {
        case .identify: return "identify|\(person)|\(self.anonymousId ?? "")"
        case .alias(let label, _): return "alias|\(person)|\(label)"
        case .subscription(let channel, _): return "sub|\(person)|\(channel)"
        case .subscriptionGroup(let channel, let groupId, _): return "group|\(person)|\(channel)|\(groupId)"
        case .optOutRecord: return "optout|\(person)"
        case .pushUnregister(let token): return "unregister|\(token)"
        }
    }
}
