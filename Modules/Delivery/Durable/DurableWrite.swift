package import Foundation

/// A server write kept on the device until the server confirms it (DURABLE-1, DURABLE-2).
///
/// What the write does is its ``Kind``: open data (endpoint, body fields, replacement, response
/// rules), so a feature module declares its own kinds without changing this module.
package struct DurableWrite: Sendable, Equatable {
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
    /// replaces the one still waiting (DURABLE-4). The person is the user id, or the anonymous id
    /// of an anonymous write.
    package var replacementKey: String {
        let replacement = self.kind.replacement
        let person = self.userId.map { "u:\($0)" } ?? "a:\(self.anonymousId ?? "")"
        switch replacement.scope {
        case .everyone: return replacement.key
        case .person: return "\(replacement.key)|\(person)"
        case .personAndAnonymousId: return "\(replacement.key)|\(person)|\(self.anonymousId ?? "")"
        }
    }
}
