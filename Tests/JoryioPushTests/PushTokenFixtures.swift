import JoryioPush

/// The machine under test.
typealias TokenMachine = PushTokenMachine
/// Its actions.
typealias TokenAction = PushTokenMachine.Action
/// Its inputs.
typealias TokenInput = PushTokenMachine.Input
/// Whom a registration is for.
typealias Owner = PushTokenMachine.Owner
/// What is persisted.
typealias TokenState = PushTokenMachine.State

/// Tokens and ids the tests use.
enum Fixture {
    /// An APNs token (32 bytes, lowercase hex).
    static let tokenA = String(repeating: "a1", count: 32)
    /// Another APNs token.
    static let tokenB = String(repeating: "b2", count: 32)
    /// A Firebase (FCM) registration token: refused (PUSH-10).
    static let fcm = "abc:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx"
    /// The anonymous owner the tests start with.
    static let anonymous = Owner(anonymousId: "anon-0", userId: nil)

    /// A running machine: `stored` restored, registration `allowed` or not, every start action
    /// checked by the caller through `startActions`.
    static func started(
        stored: TokenState = .empty,
        owner: Owner = Fixture.anonymous,
        allowed: Bool = true
    ) -> (machine: TokenMachine, startActions: [TokenAction]) {
        var machine = TokenMachine()
        let actions = machine.handle(.start(.init(stored: stored, owner: owner, collectionAllowed: allowed)))
        return (machine, actions)
    }

    /// A running machine with `tokenA` registered and confirmed for `owner`.
    static func registered(owner: Owner = Fixture.anonymous) -> TokenMachine {
        var (machine, _) = Self.started(
            stored: TokenState(token: tokenA, isPushOff: false, pendingUnregisters: []),
            owner: owner
        )
        _ = machine.handle(.requestFinished(.confirmed))
        return machine
    }
}

extension [PushTokenMachine.Action] {
    /// The requests among the actions, in order.
    var sends: [PushTokenMachine.Action] {
        self.filter {
            switch $0 {
            case .sendRegister, .sendUnregister: true
            default: false
            }
        }
    }

    /// The answers among the actions, in order.
    var answers: [(PushTokenMachine.RequestID, PushRegistrationResult)] {
        self.compactMap {
            if case .answer(let request, let result) = $0 { (request, result) } else { nil }
        }
    }

    /// The log messages among the actions.
    var logs: [String] {
        self.compactMap {
            if case .log(_, let message) = $0 { message } else { nil }
        }
    }
}

/// A retryable failure (for example `success: false` on a 200, PUSH-12, DURABLE-8).
let retryable = PushTokenMachine.Failure(message: "success: false", isRetryable: true)
/// A permanent refusal (for example HTTP 422, DURABLE-6).
let permanent = PushTokenMachine.Failure(message: "HTTP 422", isRetryable: false)
