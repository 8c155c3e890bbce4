extension PushTokenMachine {
    /// What survives a relaunch, kept in the secure store (STORE-3, PUSH-31): the token, whether
    /// `unregisterPush()` or `wipeData()` is in force, and the unregisters the server has not
    /// confirmed yet (durable withdrawals, DURABLE-14).
    ///
    /// Codable so the engine can store it as one secure item; a decoded state equals the encoded
    /// one exactly.
    package struct State: Sendable, Equatable, Hashable, Codable {
        /// The APNs device token (lowercase hex), or `nil` (`getDeviceToken()`, PUSH-16).
        package var token: String?
        /// `unregisterPush()` or `wipeData()` is in force: a token is kept but not registered until
        /// `registerPushToken` or `requestPushPermission()` (PUSH-13, PUSH-15, WIPE-5).
        package var isPushOff: Bool
        /// Tokens whose unregister the server has not confirmed, oldest first, each at most once.
        /// Sent whatever the privacy state (DURABLE-13) and before any registration (PUSH-17).
        package var pendingUnregisters: [String]
        /// The token the server may hold for this installation: set when its register is sent (a
        /// lost answer may still have registered it), cleared when its unregister is confirmed or
        /// refused for good. When another token replaces it, its unregister is queued, so the server
        /// holds at most one token of this installation (PUSH-17, WIPE-2).
        package var registeredToken: String?

        /// Creates a state.
        package init(
            token: String?,
            isPushOff: Bool,
            pendingUnregisters: [String],
            registeredToken: String? = nil
        ) {
            self.token = token
            self.isPushOff = isPushOff
            self.pendingUnregisters = pendingUnregisters
            self.registeredToken = registeredToken
        }

        /// Nothing stored: a first launch, or a store that could not be read.
        package static let empty = State(token: nil, isPushOff: false, pendingUnregisters: [])
    }

    /// Whom a registration is made for: the current anonymous id and, once identified, the user id
    /// (PUSH-18). The identity machine owns these ids; this machine only follows them.
    package struct Owner: Sendable, Equatable, Hashable {
        /// The current anonymous id.
        package var anonymousId: String
        /// The current user id, or `nil` when anonymous.
        package var userId: String?

        /// Creates an owner.
        package init(anonymousId: String, userId: String?) {
            self.anonymousId = anonymousId
            self.userId = userId
        }
    }

    /// One token registered for one owner.
    package struct Registration: Sendable, Equatable, Hashable {
        /// The token (lowercase hex).
        package var token: String
        /// Whom it is registered for.
        package var owner: Owner

        /// Creates a registration.
        package init(token: String, owner: Owner) {
            self.token = token
            self.owner = owner
        }
    }

    /// The one request that may be on its way to the server (PUSH-17).
    package enum Request: Sendable, Equatable, Hashable {
        /// Registering a token for an owner.
        case register(Registration)
        /// Unregistering a token.
        case unregister(String)
    }

    /// An explicit `registerPushToken` call still owed its answer, with the token it registers.
    package struct Waiter: Sendable, Equatable, Hashable {
        /// The call.
        package var request: RequestID
        /// The token the call registers.
        package var token: String

        /// Creates a waiter.
        package init(request: RequestID, token: String) {
            self.request = request
            self.token = token
        }
    }

    /// Where the machine is in the SDK's lifecycle.
    package enum Phase: Sendable, Equatable {
        /// Before `initialize()`: push calls wait, in order (PUSH-8, INIT-6).
        case waiting([Input])
        /// `initialize()` refused the SDK key or host: `registerPushToken` answers failure at
        /// once; other push calls keep waiting for a correct `initialize()` (INIT-13, GAP-6).
        case refused([Input])
        /// Started: requests are sent.
        case running
    }
}
