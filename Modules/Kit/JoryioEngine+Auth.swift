internal import Foundation
package import JoryioAuth
internal import JoryioCore
internal import JoryioDelivery
internal import JoryioFeature
internal import JoryioIdentity

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
    static func loadAuth(config: JoryioConfig, stores: JoryioStores, currentUser: String?, logger: Logger) -> AuthState
    {
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

    /// The seam every channel uses: tokens read at send time, rejections decided here.
    static func requestAuthorization(reference: EngineReference) -> RequestAuthorization {
        RequestAuthorization(
            isEnabled: { reference.engine?.state.value.auth.isEnabled ?? false },
            token: { userId in reference.engine?.state.value.auth.book.token(for: userId) },
            rejected: { userId, token, body in
                reference.engine?.authRejected(userId: userId, token: token, body: body) ?? .drop
            }
        )
    }

    /// A request of `userId` was rejected with a 401: hold for a fresh token (current user) or drop
    /// the leftovers of a departed user (AUTH-8, AUTH-9).
    private func authRejected(userId: String?, token: String?, body: Data) -> AuthVerdict {
        let currentUser = self.state.value.identity.userId
        let actions = self.state.withValue { state in
            state.auth.coordinator.handle(
                .rejected(
                    userId: userId,
                    reason: AuthRejection.parse(body: body),
                    currentUser: currentUser,
                    tokenUsed: token,
                    newestToken: state.auth.book.token(for: userId)
                )
            )
        }
        Self.askHandler(for: actions, self.state.value.auth.handler)
        return actions.contains { if case .dropLeftovers = $0 { true } else { false } } ? .drop : .hold
    }

    /// `setSdkAuthenticationToken(_:)`: stored for the user its `sub` names, used from the next
    /// request on (AUTH-3, AUTH-6); held requests go again.
    func setAuthToken(_ token: String) {
        let currentUser = self.state.value.identity.userId
        let outcome = self.state.withValue { $0.auth.book.setToken(token, currentUser: currentUser) }
        switch outcome {
        case .ignoredEmpty:
            self.logger.warning("setSdkAuthenticationToken: the token is empty; ignored")
            return
        case .boundToCurrentUser:
            self.logger.warning(
                "setSdkAuthenticationToken: the token's subject cannot be read; it is used for the current user"
            )
        case .heldForNextUser:
            self.logger.warning(
                "setSdkAuthenticationToken: the token's subject cannot be read and nobody is identified; it is kept for the next identified user"
            )
        case .stored:
            break
        }
        self.persistAuth()
        self.performAuth(self.state.withValue { $0.auth.coordinator.handle(.tokenSet(for: outcome.userId)) })
        self.features.each { $0.authorizationChanged() }
    }

    /// Sets or clears the app's error handler (AUTH-4); an owed handler request is made now.
    func setAuthHandler(_ handler: AuthErrorHandler?) {
        let actions = self.state.withValue { state in
            state.auth.handler = handler
            return state.auth.coordinator.handle(.handlerSet(handler != nil))
        }
        self.performAuth(actions)
    }

    /// The current user changed (`identify`, `reset()`, `wipeData()`): the token book follows.
    func authUserChanged(_ change: IdentityChange) {
        let current = self.state.value.identity.userId
        let keep = self.features.usersWithPendingItems
        let launchToken = self.state.value.launchToken
        self.state.withValue { state in
            switch change {
            case .identified(_, let userId): state.auth.book.identified(userId)
            case .reset(let previous): state.auth.book.reset(currentUser: previous)
            case .wiped(let previous):
                state.auth.book.wiped(currentUser: previous, keepLaunchToken: launchToken, usersWithItems: keep)
            }
        }
        self.persistAuth()
        self.performAuth(self.state.withValue { $0.auth.coordinator.handle(.currentUserChanged(current)) })
        self.features.each { $0.authorizationChanged() }
    }

    /// A request was accepted: the current user's token works (restarts the handler bound).
    func authAccepted() {
        let user = self.state.value.identity.userId
        self.state.withValue { state in
            guard state.auth.isEnabled else { return }
            _ = state.auth.coordinator.handle(.accepted(userId: user))
        }
    }

    /// Forgets departed users' tokens once nothing of theirs is queued (AUTH-5).
    func pruneAuthTokens() {
        guard self.queuedCount() == 0 else { return }
        let users = self.features.usersWithPendingItems
        let current = self.state.value.identity.userId
        let dropped = self.state.withValue { $0.auth.book.prune(keeping: users, currentUser: current) }
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
        Self.askHandler(for: actions, self.state.value.auth.handler)
        if actions.contains(where: { if case .retry = $0 { true } else { false } }) {
            self.features.each { $0.authorizationChanged() }
        }
    }

    private func persistAuth() {
        let book = self.state.value.auth.book
        do {
            try self.stores.secure.set(book == AuthTokenBook() ? nil : book.encoded(), forKey: AuthTokenBook.storeKey)
        } catch {
            self.logger.error("cannot store the SDK-auth tokens: \(error)")
        }
    }
}
