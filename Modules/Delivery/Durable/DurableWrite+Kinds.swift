import JoryioCore

/// The durable writes of DURABLE-1, as ``DurableWrite/Kind`` values.
extension DurableWrite.Kind {
    /// `identify(_:)`: joins `anonymousId`'s history to `userId` (IDENT-1).
    package static let identify = DurableWrite.Kind(
        name: "identify",
        path: "v1/identify",
        replacement: .init(key: "identify", scope: .personAndAnonymousId, keepsWaiting: true),
        isWithdrawal: false
    )

    /// `addAlias(_:name:)`: a labelled second identifier (IDENT-12).
    package static func alias(label: String, name: String) -> Self {
        Self(
            name: "alias",
            path: "v1/alias",
            fields: ["label": .string(label), "name": .string(name)],
            replacement: .init(key: "alias|\(label)", scope: .person),
            isWithdrawal: false
        )
    }

    /// `setSubscription(channel:status:)`; `"unsubscribed"` is a withdrawal. A 404 means the
    /// profile does not exist yet (DURABLE-7).
    package static func subscription(channel: String, status: String) -> Self {
        let withdrawal = status == "unsubscribed"
        return Self(
            name: withdrawal ? "unsubscribe" : "subscription",
            path: "v1/subscriptions",
            fields: ["channel": .string(channel), "status": .string(status)],
            replacement: .init(key: "sub|\(channel)", scope: .person),
            isWithdrawal: withdrawal,
            responseRules: [404: .afterEvents]
        )
    }

    /// `addToSubscriptionGroup` (`join: true`) or `removeFromSubscriptionGroup` (`join: false`,
    /// a withdrawal). A 404 means the profile does not exist yet (DURABLE-7).
    package static func subscriptionGroup(channel: String, groupId: String, join: Bool) -> Self {
        Self(
            name: join ? "group join" : "group leave",
            path: "v1/subscriptions",
            fields: ["channel": .string(channel), "groupId": .string(groupId), "action": join ? "join" : "leave"],
            replacement: .init(key: "group|\(channel)|\(groupId)", scope: .person),
            isWithdrawal: !join,
            responseRules: [404: .afterEvents]
        )
    }

    /// The `tracking_opted_out` profile record (OPTOUT-5), a withdrawal.
    package static func optOutRecord(optedOut: Bool) -> Self {
        Self(
            name: "opt-out record",
            path: "v1/opt-out",
            fields: ["optedOut": .bool(optedOut)],
            replacement: .init(key: "optout", scope: .person),
            isWithdrawal: true
        )
    }

    /// The server part of `unregisterPush()` / `wipeData()` (WIPE-2), a withdrawal.
    package static func pushUnregister(token: String) -> Self {
        Self(
            name: "push unregister",
            path: "v1/push/unregister",
            fields: ["token": .string(token)],
            replacement: .init(key: "unregister|\(token)", scope: .everyone),
            isWithdrawal: true
        )
    }
}
