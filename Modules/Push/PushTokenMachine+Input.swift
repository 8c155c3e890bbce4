extension PushTokenMachine {
    /// Identifies one explicit `registerPushToken(_:onResult:)` call, so its answer finds its
    /// callback. The engine numbers the calls; the machine never makes ids.
    package struct RequestID: Sendable, Equatable, Hashable, CustomStringConvertible {
        /// The engine's number for the call.
        package var rawValue: UInt64

        /// Creates an id.
        package init(_ rawValue: UInt64) {
            self.rawValue = rawValue
        }

        /// `#<number>`.
        package var description: String { "#\(self.rawValue)" }
    }

    /// Something that happened to push registration.
    package enum Input: Sendable, Equatable {
        /// `initialize()` finished resolving what push needs (INIT-17 step 7).
        case start(Start)
        /// `didRegisterForRemoteNotifications(deviceToken:)`: the token iOS gave, as hex (PUSH-7).
        /// Registered when privacy allows and no unregister is in force (PUSH-6, PUSH-15).
        case tokenReceived(String)
        /// `registerPushToken(_:onResult:)`: cancels `unregisterPush()` and registers the token; the
        /// call is answered exactly once with an ``Action/answer(_:_:)`` (PUSH-10, PUSH-12, PUSH-13).
        case registerPushToken(String, request: RequestID)
        /// `requestPushPermission()` was called: cancels `unregisterPush()`, whatever the user
        /// answers (PUSH-3, PUSH-13).
        case permissionRequested
        /// `unregisterPush()` (PUSH-15).
        case unregisterPush
        /// Push registration is allowed (opted in and consent granted) or not (PUSH-6,
        /// CONSENT-16). Pending consent is not allowed. Becoming not allowed does not unregister a
        /// registered token (GAP-38).
        case collection(allowed: Bool)
        /// `identify(_:)` made `userId` current (PUSH-18). An empty id is ignored.
        case identify(userId: String)
        /// `reset()` made `anonymousId` current, with no user (PUSH-18).
        case reset(anonymousId: String)
        /// `wipeData()`, with the anonymous id that replaces the deleted one (WIPE-1, WIPE-2, WIPE-5).
        case wipe(anonymousId: String)
        /// The request in flight finished (PUSH-17).
        case requestFinished(Outcome)
        /// The backoff after a retryable failure is over (GAP-19): requests may go again.
        case retryDue
    }

    /// What `initialize()` hands the machine.
    package struct Start: Sendable, Equatable {
        /// The state read from the secure store, or ``State/empty``.
        package var stored: State
        /// The current identity, after the launch's identity work.
        package var owner: Owner
        /// Whether registration is allowed after the launch's privacy decisions (INIT-10).
        package var collectionAllowed: Bool
        /// `false` when `initialize()` refused the SDK key or host (INIT-13, GAP-6).
        package var credentialsAccepted: Bool

        /// Creates a start.
        package init(stored: State, owner: Owner, collectionAllowed: Bool, credentialsAccepted: Bool = true) {
            self.stored = stored
            self.owner = owner
            self.collectionAllowed = collectionAllowed
            self.credentialsAccepted = credentialsAccepted
        }
    }

    /// How the request in flight ended.
    package enum Outcome: Sendable, Equatable {
        /// The server confirmed it (a 2xx with `success` not `false`).
        case confirmed
        /// It failed; the engine's delivery rules classify the failure (DURABLE-6 … DURABLE-9).
        case failed(Failure)
    }

    /// A failed request, classified by the engine.
    package struct Failure: Sendable, Equatable {
        /// What went wrong, for the log and the answer.
        package var message: String
        /// Transient (offline, timeout, 402, 429, 5xx, `success: false`, an SDK-auth 401 within its
        /// retry budget): the request is tried again after ``Input/retryDue``. Otherwise the server
        /// refused it for good (400, 403, 409, 413, 422, or the retry budget is spent) and it is
        /// dropped (DURABLE-6, DURABLE-8).
        package var isRetryable: Bool
        /// The server refused the SDK authentication (a 401).
        package var isUnauthorized: Bool

        /// Creates a failure.
        package init(message: String, isRetryable: Bool, isUnauthorized: Bool = false) {
            self.message = message
            self.isRetryable = isRetryable
            self.isUnauthorized = isUnauthorized
        }
    }
}
