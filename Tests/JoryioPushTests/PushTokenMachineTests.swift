import Foundation
import JoryioCore
import JoryioPush
import Testing

private let tokenA = Fixture.tokenA
private let tokenB = Fixture.tokenB
private let anonymous = Fixture.anonymous
private typealias RequestID = PushTokenMachine.RequestID

/// The token format (PUSH-7, PUSH-10).
@Suite struct PushTokenFormatTests {
    @Test("PUSH-10: \"must be the APNs device token as a hex string\": even-length hex of 32 … 200 bytes, lowercased")
    func acceptedTokens() {
        #expect(PushTokenFormat.check(tokenA) == .valid(tokenA))
        #expect(PushTokenFormat.check(tokenA.uppercased()) == .valid(tokenA))
        let mixed = "0123456789ABCDEFabcdef" + String(repeating: "0", count: 42)
        #expect(PushTokenFormat.check(mixed) == .valid(mixed.lowercased()))
        #expect(PushTokenFormat.check(String(repeating: "f", count: 400)) == .valid(String(repeating: "f", count: 400)))
        // Lengths vary: 64 is not hard-coded (PUSH-10).
        #expect(PushTokenFormat.check(String(repeating: "0", count: 66)) == .valid(String(repeating: "0", count: 66)))
    }

    @Test(
        "PUSH-10: \"Anything else, such as a Firebase (FCM) registration token, is rejected\"",
        arguments: [
            ("", "empty"),
            (Fixture.fcm, "Firebase (FCM)"),
            (String(repeating: "g", count: 64), "other than 0-9 and a-f"),
            (String(repeating: "a", count: 63), "odd number"),
            (String(repeating: "a", count: 62), "31 bytes"),
            (String(repeating: "a", count: 402), "201 bytes"),
            (" " + String(repeating: "a", count: 64), "other than 0-9 and a-f"),
            ("0x" + String(repeating: "a", count: 64), "other than 0-9 and a-f"),
        ]
    )
    func refusedTokens(token: String, reason: String) {
        guard case .invalid(let message) = PushTokenFormat.check(token) else {
            Issue.record("accepted \(token)")
            return
        }
        #expect(message.contains(reason))
        #expect(token.isEmpty || !message.contains(token))  // the log never carries the token
    }
}

/// The token rules, one ordering at a time, each named after the rule it shows.
@Suite struct PushTokenMachineTests {
    // MARK: PUSH-10, PUSH-12, PUSH-14 / INIT-13: answers

    @Test("PUSH-10: \"onResult reports success: false and the SDK logs the reason\" for an FCM token")
    func fcmTokenIsAnsweredAndLogged() {
        var (machine, _) = Fixture.started()
        let actions = machine.handle(.registerPushToken(Fixture.fcm, request: RequestID(1)))
        #expect(actions.count == 2)
        #expect(actions.logs.count == 1 && actions.logs[0].contains("Firebase (FCM)"))
        #expect(actions.answers.map(\.0) == [RequestID(1)])
        #expect(actions.answers.first?.1.success == false)
        #expect(actions.answers.first?.1.isRetryable == false)
        #expect(machine.state == .empty && machine.waiters.isEmpty)
    }

    @Test("PUSH-10: a malformed token is answered at once even before initialize()")
    func malformedTokenBeforeStart() {
        var machine = TokenMachine()
        let actions = machine.handle(.registerPushToken("abc", request: RequestID(1)))
        #expect(actions.answers.count == 1 && actions.answers[0].1.success == false)
        #expect(machine.phase == .waiting([]))
    }

    @Test("PUSH-7: a malformed token from iOS is logged and not stored")
    func malformedTokenFromIOS() {
        var (machine, _) = Fixture.started()
        let actions = machine.handle(.tokenReceived("zz"))
        #expect(actions.logs.count == 1 && actions.count == 1)
        #expect(machine.state.token == nil)
    }

    @Test("PUSH-12: \"calls onResult exactly once\": success once the server confirms")
    func answeredOnceOnConfirmation() {
        var (machine, _) = Fixture.started()
        #expect(
            machine.handle(.registerPushToken(tokenA.uppercased(), request: RequestID(7))) == [
                .persist(TokenState(token: tokenA, isPushOff: false, pendingUnregisters: [], registeredToken: tokenA)),
                .sendRegister(token: tokenA, owner: anonymous),
            ]
        )
        #expect(machine.handle(.requestFinished(.confirmed)) == [.answer(RequestID(7), .succeeded)])
        #expect(machine.handle(.requestFinished(.confirmed)).answers.isEmpty)
        #expect(machine.waiters.isEmpty)
    }

    @Test("PUSH-12: \"A 200 response with success: false is reported as a failure, never as a success\"")
    func successFalseIsAFailure() {
        var (machine, _) = Fixture.started()
        _ = machine.handle(.registerPushToken(tokenA, request: RequestID(1)))
        let failed = machine.handle(.requestFinished(.failed(retryable)))
        #expect(
            failed.answers.map(\.1) == [
                PushRegistrationResult(
                    success: false,
                    message: "success: false",
                    isUnauthorized: false,
                    isRetryable: true
                )
            ]
        )
        #expect(failed.sends.isEmpty && machine.isBackingOff)
        // The SDK retries by itself after the backoff; the call was already answered.
        #expect(machine.handle(.retryDue) == [.sendRegister(token: tokenA, owner: anonymous)])
        #expect(machine.handle(.requestFinished(.confirmed)).answers.isEmpty)
        #expect(machine.confirmed == .init(token: tokenA, owner: anonymous))
    }

    @Test("PUSH-12: the result carries isUnauthorized for an SDK-auth 401")
    func unauthorizedIsReported() {
        var (machine, _) = Fixture.started()
        _ = machine.handle(.registerPushToken(tokenA, request: RequestID(1)))
        let failure = PushTokenMachine.Failure(message: "HTTP 401 expired", isRetryable: true, isUnauthorized: true)
        let answer = machine.handle(.requestFinished(.failed(failure))).answers.first?.1
        #expect(answer?.isUnauthorized == true && answer?.isRetryable == true && answer?.success == false)
    }

    @Test("PUSH-12: a permanent refusal is answered, logged, and not retried until something changes")
    func permanentRefusal() {
        var (machine, _) = Fixture.started()
        _ = machine.handle(.registerPushToken(tokenA, request: RequestID(1)))
        let actions = machine.handle(.requestFinished(.failed(permanent)))
        #expect(actions.answers.map(\.1.isRetryable) == [false])
        #expect(actions.logs.count == 1 && actions.sends.isEmpty)
        #expect(machine.handle(.retryDue).isEmpty)
        #expect(
            machine.handle(.identify(userId: "u1")).sends == [
                .sendRegister(token: tokenA, owner: .init(anonymousId: "anon-0", userId: "u1"))
            ]
        )
    }

    @Test("PUSH-12: a call whose token is replaced before it is sent is answered with a failure")
    func replacedBeforeSent() {
        var (machine, _) = Fixture.started(stored: .init(token: nil, isPushOff: false, pendingUnregisters: [tokenB]))
        _ = machine.handle(.registerPushToken(tokenA, request: RequestID(1)))  // waits behind the unregister
        let actions = machine.handle(.tokenReceived(tokenB))
        #expect(actions.answers.map(\.0) == [RequestID(1)])
        #expect(actions.answers.first?.1.message?.contains("newer token") == true)
    }

    @Test(
        "PUSH-14 / INIT-13: \"If initialize() rejected the SDK key or host, registerPushToken answers success: false immediately\""
    )
    func refusedCredentials() {
        var machine = TokenMachine()
        _ = machine.handle(.tokenReceived(tokenA))
        _ = machine.handle(.registerPushToken(tokenB, request: RequestID(1)))  // made before initialize()
        let refused = machine.handle(
            .start(.init(stored: .empty, owner: anonymous, collectionAllowed: true, credentialsAccepted: false))
        )
        #expect(refused == [.answer(RequestID(1), .refused(PushTokenMachine.credentialsRefusedMessage))])
        #expect(
            machine.handle(.registerPushToken(tokenA, request: RequestID(2))) == [
                .answer(RequestID(2), .refused(PushTokenMachine.credentialsRefusedMessage))
            ]
        )
        // GAP-6: the other calls keep waiting for a correct initialize().
        #expect(machine.phase == .refused([.tokenReceived(tokenA)]))
        let started = machine.handle(.start(.init(stored: .empty, owner: anonymous, collectionAllowed: true)))
        #expect(
            started == [
                .persist(.init(token: tokenA, isPushOff: false, pendingUnregisters: [], registeredToken: tokenA)),
                .sendRegister(token: tokenA, owner: anonymous),
            ]
        )
    }

    // MARK: PUSH-6

    @Test("PUSH-6: \"registered with Joryio only while the user is opted in AND tracking consent is granted\"")
    func registeredOnlyWhileAllowed() {
        var (machine, _) = Fixture.started(allowed: false)
        #expect(
            machine.handle(.tokenReceived(tokenA)) == [
                .persist(.init(token: tokenA, isPushOff: false, pendingUnregisters: []))
            ]
        )
        // "Otherwise it stays on the device and is registered when that changes."
        #expect(
            machine.handle(.collection(allowed: true)) == [
                .persist(.init(token: tokenA, isPushOff: false, pendingUnregisters: [], registeredToken: tokenA)),
                .sendRegister(token: tokenA, owner: anonymous),
            ]
        )
    }

    @Test("PUSH-6: an explicit call while not allowed is answered at once; the token is kept and registered later")
    func explicitCallWhileNotAllowed() {
        var (machine, _) = Fixture.started(allowed: false)
        let actions = machine.handle(.registerPushToken(tokenA, request: RequestID(1)))
        #expect(actions.sends.isEmpty)
        #expect(actions.answers.count == 1 && actions.answers[0].1.success == false)
        #expect(actions.answers[0].1.message?.contains("opted in") == true)
        #expect(machine.handle(.collection(allowed: true)).sends == [.sendRegister(token: tokenA, owner: anonymous)])
    }

    @Test("GAP-38: an opt-out or denial stops registering but does not unregister a registered token")
    func optOutDoesNotUnregister() {
        var machine = Fixture.registered()
        #expect(machine.handle(.collection(allowed: false)).isEmpty)
        #expect(machine.state.pendingUnregisters.isEmpty)
        // Opting in again with nothing changed sends nothing; a changed owner is registered (PUSH-18).
        #expect(machine.handle(.collection(allowed: true)).isEmpty)
        _ = machine.handle(.collection(allowed: false))
        #expect(machine.handle(.identify(userId: "u1")).isEmpty)  // IDENT-5: nothing sent while opted out
        #expect(
            machine.handle(.collection(allowed: true)) == [
                .sendRegister(token: tokenA, owner: .init(anonymousId: "anon-0", userId: "u1"))
            ]
        )
    }

    // MARK: PUSH-8

    @Test("PUSH-8: \"A token that arrives before initialize() is kept and registered when the SDK starts\"")
    func tokenBeforeInitialize() {
        var machine = TokenMachine()
        #expect(machine.handle(.tokenReceived(tokenA)).isEmpty)
        #expect(machine.handle(.collection(allowed: false)).isEmpty)  // resolved by the start instead
        #expect(
            machine.handle(.start(.init(stored: .empty, owner: anonymous, collectionAllowed: true))) == [
                .persist(.init(token: tokenA, isPushOff: false, pendingUnregisters: [], registeredToken: tokenA)),
                .sendRegister(token: tokenA, owner: anonymous),
            ]
        )
    }

    @Test("PUSH-8 / INIT-10: a wipeData() before initialize() takes effect before the start registers anything")
    func wipeBeforeInitialize() {
        var machine = TokenMachine()
        _ = machine.handle(.wipe(anonymousId: "anon-9"))
        let stored = TokenState(token: tokenA, isPushOff: false, pendingUnregisters: [])
        #expect(
            machine.handle(.start(.init(stored: stored, owner: anonymous, collectionAllowed: true))) == [
                .persist(.init(token: nil, isPushOff: true, pendingUnregisters: [tokenA])),
                .sendUnregister(token: tokenA),
            ]
        )
        #expect(machine.owner == anonymous)  // the start's owner is the one in force
    }

    @Test(
        "INIT-17: a stored token is registered at every start when allowed; nothing is persisted when nothing changed"
    )
    func storedTokenAtStart() {
        let stored = TokenState(token: tokenA, isPushOff: false, pendingUnregisters: [], registeredToken: tokenA)
        let (_, actions) = Fixture.started(stored: stored)
        #expect(actions == [.sendRegister(token: tokenA, owner: anonymous)])
    }

    // MARK: PUSH-13, PUSH-15

    @Test("PUSH-15: \"unregisterPush() removes the token on the Joryio server and with iOS\"")
    func unregisterRemovesOnServerAndWithIOS() {
        var machine = Fixture.registered()
        #expect(
            machine.handle(.unregisterPush) == [
                .unregisterWithSystem,
                .persist(.init(token: tokenA, isPushOff: true, pendingUnregisters: [tokenA], registeredToken: tokenA)),
                .sendUnregister(token: tokenA),
            ]
        )
        #expect(
            machine.handle(.requestFinished(.confirmed)) == [
                .persist(.init(token: tokenA, isPushOff: true, pendingUnregisters: []))
            ]
        )
        #expect(machine.confirmed == nil)
        #expect(machine.state.token == tokenA)  // kept on the device (getDeviceToken(), PUSH-16)
    }

    @Test(
        "PUSH-15: \"It is remembered across launches: a token iOS delivers in a later launch is kept on the device but not registered\""
    )
    func unregisterIsRememberedAcrossLaunches() throws {
        var machine = Fixture.registered()
        _ = machine.handle(.unregisterPush)
        _ = machine.handle(.requestFinished(.confirmed))
        let stored = try JSONDecoder().decode(TokenState.self, from: JSONEncoder().encode(machine.state))
        var (relaunched, atStart) = Fixture.started(stored: stored)
        #expect(atStart.isEmpty)
        let later = relaunched.handle(.tokenReceived(tokenB))
        #expect(later.sends.isEmpty)
        #expect(later.contains(.persist(.init(token: tokenB, isPushOff: true, pendingUnregisters: []))))
        // "… until the app calls registerPushToken(_:onResult:) or requestPushPermission() again."
        #expect(relaunched.handle(.permissionRequested).sends == [.sendRegister(token: tokenB, owner: anonymous)])
    }

    @Test("PUSH-15: the server part of unregisterPush() is a durable withdrawal: it survives a relaunch unconfirmed")
    func unconfirmedUnregisterSurvivesRelaunch() {
        var machine = Fixture.registered()
        _ = machine.handle(.unregisterPush)  // in flight, then the process dies
        let (_, atStart) = Fixture.started(stored: machine.state, allowed: false)
        #expect(atStart == [.sendUnregister(token: tokenA)])
    }

    @Test(
        "PUSH-13: \"registerPushToken(_:onResult:) and requestPushPermission() cancel unregisterPush()\"",
        arguments: [true, false]
    )
    func explicitCallsCancelUnregister(viaRegisterPushToken: Bool) {
        var (machine, _) = Fixture.started(allowed: true)
        _ = machine.handle(.tokenReceived(tokenA))
        _ = machine.handle(.requestFinished(.confirmed))
        _ = machine.handle(.unregisterPush)
        _ = machine.handle(.requestFinished(.confirmed))
        let input: TokenInput =
            viaRegisterPushToken ? .registerPushToken(tokenA, request: RequestID(1)) : .permissionRequested
        let actions = machine.handle(input)
        #expect(!machine.state.isPushOff)
        #expect(actions.sends == [.sendRegister(token: tokenA, owner: anonymous)])
        #expect(
            actions.contains(
                .persist(.init(token: tokenA, isPushOff: false, pendingUnregisters: [], registeredToken: tokenA))
            )
        )
    }

    @Test("GAP-37: requestPushPermission() does not send again a token already registered for the current owner")
    func permissionDoesNotReRegister() {
        var machine = Fixture.registered()
        #expect(machine.handle(.permissionRequested).isEmpty)
    }

    @Test("PUSH-13: an unregisterPush() made before initialize() and cancelled before it stays cancelled")
    func cancelledBeforeStart() {
        var machine = TokenMachine()
        _ = machine.handle(.unregisterPush)
        _ = machine.handle(.permissionRequested)
        let stored = TokenState(token: tokenA, isPushOff: false, pendingUnregisters: [])
        let actions = machine.handle(.start(.init(stored: stored, owner: anonymous, collectionAllowed: true)))
        #expect(
            actions == [
                .unregisterWithSystem, .log(.info, "requestPushPermission() cancelled unregisterPush()"),
                .persist(.init(token: tokenA, isPushOff: false, pendingUnregisters: [], registeredToken: tokenA)),
                .sendRegister(token: tokenA, owner: anonymous),
            ]
        )
    }

    // MARK: PUSH-17

    @Test("PUSH-17: \"Register and unregister run one at a time\"")
    func oneAtATime() {
        var (machine, _) = Fixture.started()
        _ = machine.handle(.tokenReceived(tokenA))  // register in flight
        #expect(machine.handle(.unregisterPush).sends.isEmpty)  // waits for the register
        #expect(machine.handle(.requestFinished(.confirmed)) == [.sendUnregister(token: tokenA)])
    }

    @Test(
        "PUSH-17: \"Re-registering a token cancels its own unregister if that unregister has not reached the server yet\""
    )
    func reRegisterCancelsOwnUnsentUnregister() {
        var (machine, _) = Fixture.started()
        _ = machine.handle(.tokenReceived(tokenA))  // register in flight
        _ = machine.handle(.unregisterPush)  // queued behind it
        let actions = machine.handle(.registerPushToken(tokenA, request: RequestID(1)))
        #expect(machine.state.pendingUnregisters.isEmpty)
        #expect(actions.sends.isEmpty)  // the first register is still in flight
        #expect(machine.handle(.requestFinished(.confirmed)) == [.answer(RequestID(1), .succeeded)])
        #expect(machine.inFlight == nil)
    }

    @Test("PUSH-17: an unregister already on its way is not cancelled: the token is registered again after it")
    func reRegisterAfterUnregisterInFlight() {
        var machine = Fixture.registered()
        _ = machine.handle(.unregisterPush)  // unregister in flight
        let actions = machine.handle(.registerPushToken(tokenA, request: RequestID(1)))
        #expect(actions.sends.isEmpty && machine.state.pendingUnregisters == [tokenA])
        #expect(
            machine.handle(.requestFinished(.confirmed)) == [
                .persist(.init(token: tokenA, isPushOff: false, pendingUnregisters: [], registeredToken: tokenA)),
                .sendRegister(token: tokenA, owner: anonymous),
            ]
        )
        #expect(machine.handle(.requestFinished(.confirmed)) == [.answer(RequestID(1), .succeeded)])
    }

    @Test("PUSH-17: an in-flight unregister that fails after its token was re-registered is dropped, not retried")
    func failedUnregisterOfReRegisteredToken() {
        var machine = Fixture.registered()
        _ = machine.handle(.unregisterPush)
        _ = machine.handle(.registerPushToken(tokenA, request: RequestID(1)))
        let actions = machine.handle(.requestFinished(.failed(retryable)))
        #expect(machine.state.pendingUnregisters.isEmpty)
        #expect(actions.sends == [.sendRegister(token: tokenA, owner: anonymous)])
    }

    @Test("PUSH-17: \"An unconfirmed unregister of a different token is sent before any new registration\"")
    func otherTokensUnregisterGoesFirst() {
        var machine = Fixture.registered()
        _ = machine.handle(.unregisterPush)
        _ = machine.handle(.requestFinished(.failed(retryable)))  // unregister of A not confirmed
        let actions = machine.handle(.registerPushToken(tokenB, request: RequestID(1)))
        #expect(actions.sends == [.sendUnregister(token: tokenA)])
        #expect(machine.handle(.requestFinished(.confirmed)).sends == [.sendRegister(token: tokenB, owner: anonymous)])
        #expect(machine.handle(.requestFinished(.confirmed)).answers.map(\.1) == [.succeeded])
    }

    @Test("PUSH-17 / WIPE-2: a new token unregisters the one the server holds before it is registered")
    func rotationUnregistersTheOldToken() {
        var machine = Fixture.registered()
        #expect(
            machine.handle(.tokenReceived(tokenB)) == [
                .persist(.init(token: tokenB, isPushOff: false, pendingUnregisters: [tokenA], registeredToken: tokenA)),
                .sendUnregister(token: tokenA),
            ]
        )
        #expect(
            machine.handle(.requestFinished(.confirmed)) == [
                .persist(.init(token: tokenB, isPushOff: false, pendingUnregisters: [], registeredToken: tokenB)),
                .sendRegister(token: tokenB, owner: anonymous),
            ]
        )
    }

    @Test("PUSH-17: a token from iOS that comes back before its unregister was sent cancels that unregister")
    func rotationBack() {
        var (machine, _) = Fixture.started()
        _ = machine.handle(.tokenReceived(tokenA))  // register A in flight
        _ = machine.handle(.tokenReceived(tokenB))  // unregister A queued behind it
        _ = machine.handle(.tokenReceived(tokenA))  // back to A: the unregister is moot
        #expect(machine.state.pendingUnregisters.isEmpty)
        #expect(machine.handle(.requestFinished(.confirmed)).sends.isEmpty)
        #expect(machine.confirmed == .init(token: tokenA, owner: anonymous))
    }

    @Test("PUSH-17: an unregister in flight when the process ended, of a token registered again, is not sent at start")
    func mootUnregisterAtStart() {
        let stored = TokenState(
            token: tokenA,
            isPushOff: false,
            pendingUnregisters: [tokenB, tokenA],
            registeredToken: tokenA
        )
        let (_, actions) = Fixture.started(stored: stored)
        #expect(
            actions == [
                .persist(.init(token: tokenA, isPushOff: false, pendingUnregisters: [tokenB], registeredToken: tokenA)),
                .sendUnregister(token: tokenB),
            ]
        )
    }

    @Test(
        "WIPE-2: \"nothing more is sent to this installation\": a rotated-away token is unregistered even while opted out"
    )
    func rotationWhileOptedOutThenWipe() {
        var machine = Fixture.registered()
        _ = machine.handle(.collection(allowed: false))
        #expect(machine.handle(.tokenReceived(tokenB)).sends == [.sendUnregister(token: tokenA)])
        #expect(machine.handle(.wipe(anonymousId: "anon-1")).sends.isEmpty)  // one request at a time
        #expect(machine.handle(.requestFinished(.confirmed)).sends == [.sendUnregister(token: tokenB)])
        #expect(
            machine.handle(.requestFinished(.confirmed)) == [
                .persist(.init(token: nil, isPushOff: true, pendingUnregisters: []))
            ]
        )
    }

    // MARK: PUSH-18

    @Test("PUSH-18, IDENT-1: \"identify(_:) re-registers the push token under the user\"")
    func identifyReRegisters() {
        var machine = Fixture.registered()
        let user = Owner(anonymousId: "anon-0", userId: "u1")
        #expect(machine.handle(.identify(userId: "u1")) == [.sendRegister(token: tokenA, owner: user)])
        _ = machine.handle(.requestFinished(.confirmed))
        #expect(machine.handle(.identify(userId: "u1")).isEmpty)  // the same user again: nothing
        #expect(machine.handle(.identify(userId: "")).isEmpty)
    }

    @Test("PUSH-18, IDENT-8: \"reset() re-registers it under the new anonymous identity\"")
    func resetReRegisters() {
        var machine = Fixture.registered(owner: .init(anonymousId: "anon-0", userId: "u1"))
        #expect(
            machine.handle(.reset(anonymousId: "anon-1")) == [
                .sendRegister(token: tokenA, owner: .init(anonymousId: "anon-1", userId: nil))
            ]
        )
    }

    @Test("PUSH-18: an identify while a registration is in flight registers again under the user afterwards")
    func identifyDuringRegister() {
        var (machine, _) = Fixture.started()
        _ = machine.handle(.tokenReceived(tokenA))
        #expect(machine.handle(.identify(userId: "u1")).sends.isEmpty)
        #expect(
            machine.handle(.requestFinished(.confirmed)) == [
                .sendRegister(token: tokenA, owner: .init(anonymousId: "anon-0", userId: "u1"))
            ]
        )
    }

    // MARK: WIPE-5, DURABLE-13

    // WIPE-12: the wipe's unregister, confirmed, then an explicit registerPushToken registers again.
    @Test(
        "WIPE-5: \"Afterwards, push stays off until the app calls registerPushToken again or asks for permission again\""
    )
    func wipeLeavesPushOff() {
        var machine = Fixture.registered()
        #expect(
            machine.handle(.wipe(anonymousId: "anon-1")) == [
                .persist(.init(token: nil, isPushOff: true, pendingUnregisters: [tokenA], registeredToken: tokenA)),
                .sendUnregister(token: tokenA),
            ]
        )
        _ = machine.handle(.requestFinished(.confirmed))
        // "A token arriving in a later launch is not registered automatically."
        #expect(machine.handle(.tokenReceived(tokenA)).sends.isEmpty)
        #expect(machine.handle(.collection(allowed: true)).isEmpty)
        let again = machine.handle(.registerPushToken(tokenA, request: RequestID(1)))
        #expect(again.sends == [.sendRegister(token: tokenA, owner: .init(anonymousId: "anon-1", userId: nil))])
    }

    @Test("WIPE-5: a call waiting for its answer when wipeData() runs is answered with a failure")
    func wipeAnswersWaitingCalls() {
        var (machine, _) = Fixture.started(stored: .init(token: nil, isPushOff: false, pendingUnregisters: [tokenB]))
        _ = machine.handle(.registerPushToken(tokenA, request: RequestID(1)))
        let actions = machine.handle(.wipe(anonymousId: "anon-1"))
        #expect(actions.answers.map(\.0) == [RequestID(1)])
        #expect(actions.answers.first?.1.success == false)
    }

    @Test("DURABLE-13: the unregister is a withdrawal, sent while opted out or denied")
    func unregisterIgnoresPrivacy() {
        var machine = Fixture.registered()
        _ = machine.handle(.collection(allowed: false))
        #expect(machine.handle(.unregisterPush).sends == [.sendUnregister(token: tokenA)])
    }

    @Test("DURABLE-6: an unregister the server refuses for good is dropped and logged")
    func refusedUnregisterIsDropped() {
        var machine = Fixture.registered()
        _ = machine.handle(.unregisterPush)
        let actions = machine.handle(.requestFinished(.failed(permanent)))
        #expect(actions.logs.count == 1)
        #expect(actions.contains(.persist(.init(token: tokenA, isPushOff: true, pendingUnregisters: []))))
        #expect(actions.sends.isEmpty)
    }

    @Test("STORE-3: the stored state round-trips through JSON exactly")
    func stateRoundTrips() throws {
        for state in [
            TokenState.empty,
            TokenState(token: tokenA, isPushOff: true, pendingUnregisters: [tokenB, tokenA]),
            TokenState(token: nil, isPushOff: true, pendingUnregisters: []),
        ] {
            #expect(try JSONDecoder().decode(TokenState.self, from: JSONEncoder().encode(state)) == state)
        }
    }

    @Test("a request result with nothing in flight is ignored")
    func strayResult() {
        var (machine, _) = Fixture.started()
        #expect(machine.handle(.requestFinished(.confirmed)).sends.isEmpty)
        #expect(machine.handle(.start(.init(stored: .empty, owner: anonymous, collectionAllowed: true))).isEmpty)
    }
}
