internal import Foundation
package import JoryioAuth
internal import JoryioCore
internal import JoryioDelivery

/// The app's SDK-authentication error handler.
package typealias AuthErrorHandler = @Sendable (JoryioAuthError) -> Void

/// SDK authentication state on the engine (AUTH): the tokens by user and the refresh coordinator.
struct AuthState: Sendable {
    var book: AuthTokenBook
    var coordinator: AuthRefreshCoordinator
    var handler: AuthErrorHandler?
    /// `JoryioConfig.enableSdkAuthentication`: the header is on even before a token arrives.
    var configEnabled: Bool

    var isEnabled: Bool { self.configEnabled || self.book.isEnabled }
}

extension JoryioEngine {
    /// The tokens stored by earlier launches (STORE-3), or an empty book.
    static func loadAuth(config: JoryioConfig, stores: JoryioStores, currentUser: String?, logger: Logger) -> AuthState {
        var book = AuthTokenBook()
        do {
            if let data = try stores.secure.data(forKey: AuthTokenBook.storeKey) {
                if let stored = AuthTokenBook(data: data) {
                    book = stored
                } else {
                    logger.error("the stored SDK-auth tokens are unreadable; starting without them")
                }
            }
        } catch {
            logger.error("cannot read the stored SDK-auth tokens: \(error)")
        }
        return AuthState(
            book: book,
            coordinator: AuthRefreshCoordinator(hasHandler: false, currentUser: currentUser),
            handler: nil,
            configEnabled: config.enableSdkAuthentication
        )
    }

    /// The seam the three channels use: tokens read at send time, rejections decided here.
    static func requestAuthorization(auth: Locked<AuthState>, identity: Locked<Identity>) -> RequestAuthorization {
        RequestAuthorization(
            isEnabled: { auth.withLock { $0.isEnabled } },
            token: { userId in auth.withLock { $0.book.token(for: userId) } },
            rejected: { userId, token, body in
                let currentUser = identity.withLock { $0.userId }
                let (actions, handler) = auth.withLock { state in
                    let actions = state.coordinator.handle(
                        .rejected(
                            userId: userId,
                            reason: AuthRejection.parse(body: body),
                            currentUser: currentUser,
                            tokenUsed: token,
                            newestToken: state.book.token(for: userId)
                        )
                    )
                    return (actions, state.handler)
                }
                Self.askHandler(for: actions, handler)
                return actions.contains { if case .dropLeftovers = $0 { true } else { false } } ? .drop : .hold
            }
        )
    }

    /// `setSdkAuthenticationToken(_:)`: stored for the user its `sub` names, used from the next
    /// request on (AUTH-3, AUTH-6); held requests go again.
    func setAuthToken(_ token: String) {
        let currentUser = self.identity.value.userId
        let outcome = self.auth.withLock { $0.book.setToken(token, currentUser: currentUser) }
        switch outcome {
        case .ignoredEmpty:
            self.logger.warning("setSdkAuthenticationToken: the token is empty; ignored")
            return
        case .boundToCurrentUser:
            self.logger.warning("setSdkAuthenticationToken: the token's subject cannot be read; it is used for the current user")
        case .stored, .heldForNextUser:
            break
        }
        self.persistAuth()
        self.performAuth(self.auth.withLock { $0.coordinator.handle(.tokenSet(for: outcome.userId)) })
        self.authorizationChanged()
    }

    /// Sets or clears the app's error handler (AUTH-4); an owed handler request is made now.
    func setAuthHandler(_ handler: AuthErrorHandler?) {
        let actions = self.auth.withLock { state in
            state.handler = handler
            return state.coordinator.handle(.handlerSet(handler != nil))
        }
        self.performAuth(actions)
    }

    /// The current user changed (`identify`, `reset()`, `wipeData()`).
    func authUserChanged(previous: String?, reason: IdentityChange) {
        let current = self.identity.value.userId
        self.auth.withLock { state in
            switch reason {
            case .identified(_, let userId): state.book.identified(userId)
            case .reset: state.book.reset(currentUser: previous)
            case .wiped:
                let keep = self.durable.pending.compactMap(\.userId)
                state.book.wiped(currentUser: previous, keepLaunchToken: self.launchToken, usersWithItems: Set(keep))
            }
        }
        self.persistAuth()
        self.performAuth(self.auth.withLock { $0.coordinator.handle(.currentUserChanged(current)) })
        self.authorizationChanged()
        self.pruneAuthTokens()
    }

    /// A request was accepted: the current user's token works (restarts the handler bound).
    static func authAccepted(auth: Locked<AuthState>, identity: Locked<Identity>) {
        let user = identity.withLock { $0.userId }
        auth.withLock { state in
            guard state.isEnabled else { return }
            _ = state.coordinator.handle(.accepted(userId: user))
        }
    }

    /// Forgets departed users' tokens once nothing of theirs is queued (AUTH-5).
    func pruneAuthTokens() {
        guard self.queuedCount() == 0 else { return }
        var users = Set(self.durable.pending.compactMap(\.userId))
        let queue = self.attributes.queue
        users.formUnion((queue.batches.flatMap(\.writes) + queue.waiting).compactMap(\.userId))
        let current = self.identity.value.userId
        let dropped = self.auth.withLock { $0.book.prune(keeping: users, currentUser: current) }
        if !dropped.isEmpty { self.persistAuth() }
    }

    /// Calls the app's handler for each `askHandler` action.
    private static func askHandler(for actions: [AuthRefreshCoordinator.Action], _ handler: AuthErrorHandler?) {
        for case .askHandler(let error) in actions {
            handler?(error)
        }
    }

    /// Runs the coordinator's actions outside a rejection: handler calls, and resends on `retry`.
    private func performAuth(_ actions: [AuthRefreshCoordinator.Action]) {
        Self.askHandler(for: actions, self.auth.withLock { $0.handler })
        if actions.contains(where: { if case .retry = $0 { true } else { false } }) {
            self.authorizationChanged()
        }
    }

    private func authorizationChanged() {
        self.uploader.authorizationChanged()
        self.attributes.authorizationChanged()
        self.durable.authorizationChanged()
    }

    private func persistAuth() {
        let book = self.auth.withLock { $0.book }
        do {
            try self.stores.secure.set(book == AuthTokenBook() ? nil : book.encoded(), forKey: AuthTokenBook.storeKey)
        } catch {
            self.logger.error("cannot store the SDK-auth tokens: \(error)")
        }
    }
}
