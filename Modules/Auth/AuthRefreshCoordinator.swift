/// What to do when the server rejects a request's SDK-authentication token (AUTH-8, AUTH-9,
/// AUTH-12, AUTH-14; GAP-34 … GAP-36).
///
/// A value: rejections, token changes and handler changes in, actions out. The engine performs the
/// actions; the coordinator holds no clock and does no I/O.
///
/// Rules:
/// - **Newer token first.** A rejected request whose token is no longer the newest token for its
///   user was sent before a new token arrived: ``Action/retry(userId:)`` at once, no handler call.
/// - **Leftovers are dropped** (AUTH-8). A request of a user who is not current is dropped on any
///   reason (``Action/dropLeftovers(userId:)``), unless the newer-token rule applies.
/// - **Anonymous requests are dropped** (GAP-35). They are only rejected under strict identity, and
///   the SDK never stamps a token on them, so no token could ever make them pass; the handler is
///   not called (it is there to fetch a user's token).
/// - **Only the current user's requests reach the handler** (AUTH-9, AUTH-12), and their items are
///   kept (``Action/waitForToken(userId:)``) until ``Input/tokenSet(for:)`` for that user answers
///   with ``Action/retry(userId:)``.
/// - **Single flight** (GAP-36). At most one handler request per user is outstanding: however many
///   requests fail together, the handler is asked once, and again only after a token arrived and
///   was rejected too.
/// - **Bounded** (GAP-36). After ``maximumHandlerRequests`` handler requests without any accepted
///   request of that user, the handler is no longer asked; the items are kept and each
///   `setSdkAuthenticationToken` for that user still retries them once. An accepted request
///   (``Input/accepted(userId:)``) restarts the count. Every retry waits for a token change or an
///   accepted request, so rejections can never loop on their own.
/// - **No handler set**: the items wait; the request is owed and made when a handler is set. A
///   handler cleared while a request is outstanding leaves it owed to the next handler (its answer
///   may never come); that request counts towards the bound too.
/// - **User changes**: when the current user changes, a departed user's waiting items are retried
///   once, so they are either accepted or rejected and dropped (AUTH-8).
///
/// The state is per launch: after a restart the kept items are simply sent again.
package struct AuthRefreshCoordinator: Sendable, Equatable {
    /// How many handler requests are made for a user without an accepted request in between.
    package static let defaultMaximumHandlerRequests = 3

    /// What happened.
    package enum Input: Sendable, Equatable {
        /// A request of `userId` (`nil`: anonymous) was answered 401 with `reason`. `currentUser` is
        /// who is current now (including a user identified while tracking is off, AUTH-12),
        /// `tokenUsed` the token stamped on the request, `newestToken` the token the book holds for
        /// `userId` now. With `enableSdkAuthentication` and no token for the current user (GAP-34),
        /// the engine may report `.missing` with both tokens `nil` instead of sending.
        case rejected(
            userId: String?,
            reason: AuthRejection,
            currentUser: String?,
            tokenUsed: String?,
            newestToken: String?
        )
        /// A request of `userId` was accepted: its token works.
        case accepted(userId: String?)
        /// The token of `userId` was set or replaced (``AuthTokenBook/SetOutcome/userId``).
        case tokenSet(for: String?)
        /// The app set (`true`) or cleared (`false`) the error handler (AUTH-10, AUTH-11).
        case handlerSet(Bool)
        /// `identify`, `reset()` or `wipeData()` changed who is current.
        case currentUserChanged(String?)
    }

    /// What the engine must do.
    package enum Action: Sendable, Equatable {
        /// Call the app's error handler with this error.
        case askHandler(JoryioAuthError)
        /// Drop the rejected items of `userId` (a departed user, AUTH-8; `nil`: anonymous, GAP-35).
        case dropLeftovers(userId: String?)
        /// Keep the rejected items of `userId` and do not resend them until ``retry(userId:)``.
        case waitForToken(userId: String)
        /// Send the kept items of `userId` now, each stamped with that user's newest token.
        case retry(userId: String)
    }

    private struct Waiting: Sendable, Equatable {
        /// The latest rejection's reason, for an owed handler request.
        var reason: AuthRejection
        /// Handler requests since the last accepted request.
        var requests = 0
        /// A handler request is outstanding: no token arrived since.
        var outstanding = false
        /// A handler request is due but no handler was set.
        var owed = false
    }

    /// The bound on handler requests per user without an accepted request.
    package let maximumHandlerRequests: Int
    private var hasHandler: Bool
    private var currentUserId: String?
    private var waiting: [String: Waiting] = [:]

    /// A coordinator for a launch.
    ///
    /// - Parameters:
    ///   - hasHandler: Whether an error handler is set (a pre-init handler is applied at start).
    ///   - currentUser: Who is current at start.
    ///   - maximumHandlerRequests: The bound (GAP-36).
    package init(
        hasHandler: Bool,
        currentUser: String?,
        maximumHandlerRequests: Int = Self.defaultMaximumHandlerRequests
    ) {
        self.hasHandler = hasHandler
        self.currentUserId = Self.user(currentUser)
        self.maximumHandlerRequests = maximumHandlerRequests
    }

    /// The users whose items wait for a token, sorted.
    package var waitingUsers: [String] {
        self.waiting.keys.sorted()
    }

    /// Applies an input.
    package mutating func handle(_ input: Input) -> [Action] {
        switch input {
        case .rejected(let userId, let reason, let currentUser, let tokenUsed, let newestToken):
            var actions = self.changeCurrentUser(to: currentUser)
            actions += self.rejected(Self.user(userId), reason, tokenUsed: tokenUsed, newestToken: newestToken)
            return actions
        case .accepted(let userId):
            if let user = Self.user(userId) {
                self.waiting[user] = nil
            }
            return []
        case .tokenSet(let userId):
            guard let user = Self.user(userId), var entry = self.waiting[user] else { return [] }
            entry.outstanding = false
            entry.owed = false
            self.waiting[user] = entry
            return [.retry(userId: user)]
        case .handlerSet(let isSet):
            return self.handlerSet(isSet)
        case .currentUserChanged(let userId):
            return self.changeCurrentUser(to: userId)
        }
    }

    // MARK: - Transitions

    private mutating func rejected(
        _ user: String?,
        _ reason: AuthRejection,
        tokenUsed: String?,
        newestToken: String?
    ) -> [Action] {
        guard let user else { return [.dropLeftovers(userId: nil)] }
        if let newestToken, newestToken != tokenUsed {
            return [.retry(userId: user)]
        }
        guard user == self.currentUserId else { return [.dropLeftovers(userId: user)] }
        var entry = self.waiting[user] ?? Waiting(reason: reason)
        entry.reason = reason
        var actions: [Action] = []
        if !entry.outstanding, entry.requests < self.maximumHandlerRequests {
            if self.hasHandler {
                entry.requests += 1
                entry.outstanding = true
                entry.owed = false
                actions.append(.askHandler(JoryioAuthError(reason: reason.publicReason, userId: user)))
            } else {
                entry.owed = true
            }
        }
        self.waiting[user] = entry
        actions.append(.waitForToken(userId: user))
        return actions
    }

    private mutating func handlerSet(_ isSet: Bool) -> [Action] {
        self.hasHandler = isSet
        var actions: [Action] = []
        for user in self.waiting.keys.sorted() {
            guard var entry = self.waiting[user] else { continue }
            if !isSet {
                if entry.outstanding {
                    entry.outstanding = false
                    entry.owed = true
                }
            } else if entry.owed, entry.requests < self.maximumHandlerRequests {
                entry.requests += 1
                entry.outstanding = true
                entry.owed = false
                actions.append(.askHandler(JoryioAuthError(reason: entry.reason.publicReason, userId: user)))
            }
            self.waiting[user] = entry
        }
        return actions
    }

    private mutating func changeCurrentUser(to userId: String?) -> [Action] {
        let current = Self.user(userId)
        guard current != self.currentUserId else { return [] }
        self.currentUserId = current
        let departed = self.waiting.keys.filter { $0 != current }.sorted()
        for user in departed {
            self.waiting[user] = nil
        }
        return departed.map { .retry(userId: $0) }
    }

    /// `nil` for an anonymous user id (`nil` or empty).
    private static func user(_ userId: String?) -> String? {
        guard let userId, !userId.isEmpty else { return nil }
        return userId
    }
}
