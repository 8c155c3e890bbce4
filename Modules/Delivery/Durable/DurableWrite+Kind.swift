package import JoryioCore

/// What a durable write does, as open data.
extension DurableWrite {
    /// What a durable write asks the server to do, as data: the request it becomes, which waiting
    /// write it replaces, whether it is a withdrawal, and any response rule of its own.
    ///
    /// Today's kinds are the static constructors in `DurableWrite+Kinds.swift` (``identify``,
    /// ``alias(label:name:)``, ``subscription(channel:status:)`` …). A feature module declares its
    /// own the same way, in its own module; the channel, the request builder and the store need no
    /// change, because a stored write keeps its whole kind (``DurableWriteCodec``).
    package struct Kind: Sendable, Equatable {
        /// A name for logs (`"unsubscribe"`, `"group join"`): never an id, a token or a value.
        package var name: String
        /// The HTTP method.
        package var method: String
        /// The endpoint path, relative to `apiHost` (`"v1/subscriptions"`).
        package var path: String
        /// The kind's own JSON body fields, next to the `writeId`, `timestamp`, `sentAt` and ids
        /// every durable request carries (those win a clash).
        package var fields: [String: JSONValue]
        /// Which waiting write a newer one replaces (DURABLE-4).
        package var replacement: Replacement
        /// An unsubscribe, a group removal, the opt-out record or a push unregister: sent whatever
        /// the consent or opt-out, and kept by `wipeData()` (DURABLE-13).
        package var isWithdrawal: Bool
        /// Answers this kind treats its own way, on top of the channel's table (``DurableOutcome``).
        package var responseRules: [Int: ResponseRule]

        /// Creates a kind.
        package init(
            name: String,
            method: String = "POST",
            path: String,
            fields: [String: JSONValue] = [:],
            replacement: Replacement,
            isWithdrawal: Bool,
            responseRules: [Int: ResponseRule] = [:]
        ) {
            self.name = name
            self.method = method
            self.path = path
            self.fields = fields
            self.replacement = replacement
            self.isWithdrawal = isWithdrawal
            self.responseRules = responseRules
        }
    }

    /// Which waiting write a newer write replaces: the same ``key`` within the same ``scope``
    /// (DURABLE-4).
    package struct Replacement: Sendable, Equatable {
        /// Whose writes a key is compared within.
        package enum Scope: String, Sendable, Equatable, CaseIterable {
            /// Any write with the same key, whoever made it (a push token's unregister).
            case everyone
            /// Writes of the same person: the user id, or the anonymous id when there is none.
            case person
            /// Writes of the same person made with the same anonymous id (identify).
            case personAndAnonymousId
        }

        /// What is changed, such as `"sub|email"`; never shown in logs.
        package var key: String
        /// Whose writes the key is compared within.
        package var scope: Scope
        /// A newer write with this key is dropped while an earlier one waits, instead of replacing
        /// it at the end of the queue: the earlier one's place is what matters (identify: the first
        /// identify of an anonymous id decides whose history it joins, GAP-32).
        package var keepsWaiting: Bool

        /// Creates a replacement rule.
        package init(key: String, scope: Scope, keepsWaiting: Bool = false) {
            self.key = key
            self.scope = scope
            self.keepsWaiting = keepsWaiting
        }
    }

    /// How a kind treats an answer status its own way (``Kind/responseRules``).
    package enum ResponseRule: String, Sendable, Equatable, CaseIterable {
        /// Rejected for good: dropped and logged (``DurableOutcome/rejected(status:)``).
        case reject
        /// Retried with backoff, counted against the write (``DurableOutcome/counted(_:retryAfter:)``).
        case countedRetry
        /// Retried with backoff, never counted (``DurableOutcome/retry(_:retryAfter:)``).
        case retry
        /// The profile does not exist yet: retried after the queued events, counted
        /// (``DurableOutcome/profileNotFound(retryAfter:)``, DURABLE-7).
        case afterEvents
    }
}
