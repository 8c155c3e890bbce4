/// Every SDK-authentication token the SDK keeps, indexed by the user each one proves (AUTH-5, AUTH-6).
///
/// A request of user `U` is stamped at send time with `U`'s token and never with anyone else's, so
/// a user's leftovers keep their own token after a logout (`reset()`) or a switch to another user
/// (IDENT-4, IDENT-10), and a token set for the next user before their `identify` waits for them.
/// The book is a value: the engine persists ``encoded()`` in the secure store under ``storeKey``
/// (STORE-3, AUTH-13) after every change, and calls ``prune(keeping:currentUser:)`` once queued
/// items are sent or dropped.
///
/// Which tokens a book keeps:
/// - the current user's token (never pruned);
/// - **next-user tokens**: tokens whose `sub` is not the current user, set since the last
///   ``identified(_:)``. They are kept whether or not that user has queued items, across
///   ``reset(currentUser:)`` too, until the next ``identified(_:)`` (of anyone) ends the wait;
/// - **leftover tokens**: tokens of users who are no longer current, kept while that user still
///   has queued items, then dropped by ``prune(keeping:currentUser:)``;
/// - an **unbound token**: one whose `sub` cannot be read, set while nobody was identified; the
///   next ``identified(_:)`` binds it to that user.
package struct AuthTokenBook: Sendable, Equatable {
    /// The secure-store item holding ``encoded()``.
    package static let storeKey = "jry_auth_tokens"

    /// What ``setToken(_:currentUser:)`` did with a token.
    package enum SetOutcome: Sendable, Equatable {
        /// The token's `sub` was read: it is stored for that user (the current one or the next one).
        case stored(userId: String)
        /// The `sub` could not be read, so the token was bound to the current user (worth a warning:
        /// if it was meant for the next user, the current user's leftovers will be rejected).
        case boundToCurrentUser(userId: String)
        /// The `sub` could not be read and nobody is identified: the token waits for the next
        /// identified user (worth a warning).
        case heldForNextUser
        /// An empty token was ignored (worth a warning); nothing changed. `reset()` is the way to
        /// clear the current token.
        case ignoredEmpty

        /// The user whose token changed, for ``AuthRefreshCoordinator/Input/tokenSet(for:)``.
        package var userId: String? {
            switch self {
            case .stored(let userId), .boundToCurrentUser(let userId): userId
            case .heldForNextUser, .ignoredEmpty: nil
            }
        }
    }

    /// Tokens by user id.
    package private(set) var tokens: [String: String]
    /// The identified user whose token is current, as last told by the engine.
    package private(set) var currentUserId: String?
    /// Users whose token was set as a next-user token since the last ``identified(_:)``.
    package private(set) var nextUserIds: Set<String>
    /// A token with an unreadable `sub`, waiting for the next identified user.
    package private(set) var unboundToken: String?
    /// Whether a token was ever supplied: this turns the header on, with or without
    /// `enableSdkAuthentication` (AUTH-3), and keeps users in separate batches (AUTH-7).
    package private(set) var isEnabled: Bool

    /// An empty book: no tokens, nobody identified, authentication off.
    package init() {
        self.init(tokens: [:], currentUserId: nil, nextUserIds: [], unboundToken: nil, isEnabled: false)
    }

    /// A book with exactly this content (the codec's and tests' initializer).
    package init(
        tokens: [String: String],
        currentUserId: String?,
        nextUserIds: Set<String>,
        unboundToken: String?,
        isEnabled: Bool
    ) {
        self.tokens = tokens
        self.currentUserId = currentUserId
        self.nextUserIds = nextUserIds
        self.unboundToken = unboundToken
        self.isEnabled = isEnabled
    }

    // MARK: - Reading

    /// The token to stamp on a request of `userId`, read at send time: `nil` for an anonymous
    /// request (`nil` or empty user id) and for a user without a token.
    package func token(for userId: String?) -> String? {
        guard let userId = Self.user(userId) else { return nil }
        return self.tokens[userId]
    }

    /// The current user's token.
    package var currentToken: String? {
        self.token(for: self.currentUserId)
    }

    // MARK: - Changes

    /// Records a token from `setSdkAuthenticationToken(_:)` or the configuration (AUTH-3, AUTH-6).
    ///
    /// A token whose `sub` decodes is stored for that user, replacing their earlier token; when
    /// that user is not `currentUser` it is a next-user token, and the current user's own token
    /// stays as it is. A readable token also supersedes an earlier unbound one. A token whose `sub`
    /// cannot be read is bound to `currentUser`, or held for the next identified user when nobody
    /// is identified.
    @discardableResult
    package mutating func setToken(_ token: String, currentUser: String?) -> SetOutcome {
        guard !token.isEmpty else { return .ignoredEmpty }
        let current = Self.user(currentUser)
        self.currentUserId = current
        self.isEnabled = true
        if let subject = JWT.decode(token)?.subject {
            self.tokens[subject] = token
            self.unboundToken = nil
            if subject == current {
                self.nextUserIds.remove(subject)
            } else {
                self.nextUserIds.insert(subject)
            }
            return .stored(userId: subject)
        }
        if let current {
            self.tokens[current] = token
            return .boundToCurrentUser(userId: current)
        }
        self.unboundToken = token
        return .heldForNextUser
    }

    /// `identify(userId)` made `userId` current (also a switch without `reset()`, IDENT-4).
    ///
    /// An unbound token becomes this user's. The previous user's token stays, bound to their
    /// leftovers. Next-user tokens set for anyone else stop being protected: they are kept only
    /// while their user has queued items.
    package mutating func identified(_ userId: String) {
        guard let user = Self.user(userId) else { return }
        if let unbound = self.unboundToken {
            self.tokens[user] = unbound
            self.unboundToken = nil
        }
        self.currentUserId = user
        self.nextUserIds.removeAll()
    }

    /// `reset()` logged `currentUser` out (AUTH-5, IDENT-10).
    ///
    /// Their token stops being current but stays bound to their leftovers until those are sent or
    /// dropped. Next-user tokens and an unbound token set before the reset are kept for the next
    /// `identify`.
    package mutating func reset(currentUser: String?) {
        if let user = Self.user(currentUser) ?? self.currentUserId {
            self.nextUserIds.remove(user)
        }
        self.currentUserId = nil
    }

    /// `wipeData()` deleted `currentUser`'s data (AUTH-6, WIPE-10).
    ///
    /// Kept tokens are deleted: next-user tokens, the unbound token and leftover tokens, except
    /// (a) the wiped user's own token (`currentUser` is whoever is identified, including a user
    /// identified while tracking was off, IDENT-5), which becomes a leftover token for the
    /// withdrawals `wipeData()` keeps (WIPE-6), (b) the token of every user in `usersWithItems`
    /// (what is still queued after the wipe: withdrawals), and (c) `keepLaunchToken`: when a
    /// pre-init `wipeData()` runs at start, the token supplied for this launch, recorded again
    /// afterwards as if just set with nobody identified. ``isEnabled`` stays as it was: the app
    /// still uses SDK authentication.
    package mutating func wiped(currentUser: String?, keepLaunchToken: String?, usersWithItems: Set<String>) {
        let wipedUser = Self.user(currentUser)
        self.tokens = self.tokens.filter { user, _ in user == wipedUser || usersWithItems.contains(user) }
        self.nextUserIds = []
        self.unboundToken = nil
        self.currentUserId = nil
        if let keepLaunchToken {
            self.setToken(keepLaunchToken, currentUser: nil)
        }
    }

    /// Drops leftover tokens whose user has no queued item left (AUTH-5: "until they are sent or
    /// dropped").
    ///
    /// Kept: the token of `currentUser`, next-user tokens set since the last ``identified(_:)``,
    /// the unbound token, and the token of every user in `usersWithItems` (any queue: events,
    /// attribute writes, durable writes, pending push unregisters).
    ///
    /// - Returns: The users whose token was dropped, sorted.
    @discardableResult
    package mutating func prune(keeping usersWithItems: Set<String>, currentUser: String?) -> [String] {
        let current = Self.user(currentUser)
        self.currentUserId = current
        let dropped = self.tokens.keys.filter { user in
            user != current && !usersWithItems.contains(user) && !self.nextUserIds.contains(user)
        }
        for user in dropped {
            self.tokens[user] = nil
        }
        return dropped.sorted()
    }

    /// `nil` for an anonymous user id (`nil` or empty).
    private static func user(_ userId: String?) -> String? {
        guard let userId, !userId.isEmpty else { return nil }
        return userId
    }
}
