import Foundation
import JoryioPush
import Testing

/// Every ordering of the calls the token rules name, checked after every step (PUSH-6, PUSH-8,
/// PUSH-12, PUSH-13, PUSH-15, PUSH-17, PUSH-18, WIPE-5, INIT-13, STORE-3).
///
/// A small model (the token, whether push is off, the owner, whether registration is allowed) is
/// kept beside the machine; each step checks the machine's actions against it.
@Suite struct PushTokenSequenceTests {
    /// One thing that can happen.
    enum Symbol: String, CaseIterable, CustomStringConvertible {
        case tokenA, tokenB, registerA, registerB, permission, unregister
        case allow, deny, identify, reset, wipe
        case confirmed, failedRetryable, failedPermanent, retryDue, restart

        var description: String { self.rawValue }

        /// The calls an app can make before `initialize()` (and the inputs that are ignored then).
        static let beforeStart: [Symbol] = [
            .tokenA, .tokenB, .registerA, .registerB, .permission, .unregister, .wipe, .allow, .identify,
        ]
    }

    /// The machine, the model beside it, and every answer seen.
    struct Harness {
        var machine = TokenMachine()
        var started = false
        var refusedStart = false
        // The model.
        var token: String?
        var isOff = false
        var owner = Fixture.anonymous
        var allowed = true
        var inFlight: TokenMachine.Request?
        /// What the server holds, from the confirmed requests: survives a relaunch.
        var server: TokenMachine.Registration?
        // Explicit calls of this process still owed an answer.
        var owed: Set<UInt64> = []
        var answeredEver: Set<UInt64> = []
        var nextRequest: UInt64 = 0
        var nextId = 0
        var trace: [(step: String, actions: [TokenAction])] = []

        init() {}

        /// Starts from `stored`, with calls made before `initialize()` already applied by `step`.
        init(started stored: TokenState, allowed: Bool) throws {
            self.allowed = allowed
            self.token = stored.token
            self.isOff = stored.isPushOff
            try self.start(stored: stored, accepted: true)
        }

        /// `initialize()`: the machine loads `stored` and applies the kept calls.
        mutating func start(stored: TokenState, accepted: Bool) throws {
            let actions = self.machine.handle(
                .start(
                    .init(
                        stored: stored,
                        owner: self.owner,
                        collectionAllowed: self.allowed,
                        credentialsAccepted: accepted
                    )
                )
            )
            self.trace.append(("start(accepted: \(accepted))", actions))
            if !accepted {
                // INIT-13: every kept registerPushToken is answered now, with a failure; nothing is sent.
                try self.check(actions.sends.isEmpty, "a refused start sent a request")
                try self.checkAnswers(actions, successAllowed: false)
                try self.check(self.owed.isEmpty, "a refused start left registerPushToken calls unanswered")
                self.refusedStart = true
                return
            }
            self.started = true
            try self.checkPersist(actions, baseline: stored)
            try self.checkStep(actions, successAllowed: false)
        }

        // MARK: Steps

        mutating func step(_ symbol: Symbol) throws {
            let before = self.machine.state
            let input: TokenInput
            switch symbol {
            case .tokenA, .tokenB:
                let token = symbol == .tokenA ? Fixture.tokenA : Fixture.tokenB
                input = .tokenReceived(token)
                self.token = token
            case .registerA, .registerB:
                let token = symbol == .registerA ? Fixture.tokenA : Fixture.tokenB
                self.nextRequest += 1
                input = .registerPushToken(token, request: .init(self.nextRequest))
                self.owed.insert(self.nextRequest)
                if !self.refusedStart {
                    self.token = token
                    self.isOff = false
                }
            case .permission:
                input = .permissionRequested
                self.isOff = false
            case .unregister:
                input = .unregisterPush
                self.isOff = true
            case .allow, .deny:
                input = .collection(allowed: symbol == .allow)
                if self.started { self.allowed = symbol == .allow }
            case .identify:
                self.nextId += 1
                input = .identify(userId: "user-\(self.nextId)")
                if self.started { self.owner.userId = "user-\(self.nextId)" }
            case .reset:
                self.nextId += 1
                input = .reset(anonymousId: "anon-\(self.nextId)")
                if self.started { self.owner = Owner(anonymousId: "anon-\(self.nextId)", userId: nil) }
            case .wipe:
                self.nextId += 1
                input = .wipe(anonymousId: "anon-\(self.nextId)")
                self.token = nil
                self.isOff = true
                if self.started { self.owner = Owner(anonymousId: "anon-\(self.nextId)", userId: nil) }
            case .confirmed:
                input = .requestFinished(.confirmed)
            case .failedRetryable:
                input = .requestFinished(.failed(retryable))
            case .failedPermanent:
                input = .requestFinished(.failed(permanent))
            case .retryDue:
                input = .retryDue
            case .restart:
                try self.restart()
                return
            }
            let finished = self.inFlight
            if case .requestFinished = input { self.inFlight = nil }
            if symbol == .confirmed {
                switch finished {
                case .register(let registration): self.server = registration
                case .unregister(let token) where self.server?.token == token: self.server = nil
                default: break
                }
            }
            if symbol == .failedPermanent, case .unregister(let token) = finished, self.server?.token == token {
                self.server = nil  // DURABLE-6: dropped; the server does not hold it as far as the device can tell
            }
            let actions = self.machine.handle(input)
            self.trace.append((symbol.rawValue, actions))
            guard self.started else {
                if self.refusedStart, case .registerPushToken = input {
                    // INIT-13: answered at once with a failure, and nothing else happens.
                    try self.check(actions.count == 1 && actions.answers.count == 1, "not answered at once")
                    try self.checkAnswers(actions, successAllowed: false)
                    return
                }
                // Before initialize(): valid calls are kept, nothing is done yet (PUSH-8).
                try self.check(actions.isEmpty, "a call before initialize() acted at once")
                return
            }
            try self.checkPersist(actions, baseline: before)
            var successAllowed = false
            if case .confirmed = symbol, case .register = finished { successAllowed = true }
            try self.checkStep(actions, successAllowed: successAllowed)
            if case .register(let registration) = finished, symbol == .confirmed {
                // Only calls for the confirmed token were answered with success.
                for (_, result) in actions.answers where result.success {
                    try self.check(registration.token == self.machine.confirmed?.token, "success for another token")
                }
            }
            if symbol == .registerA || symbol == .registerB, let token = self.token {
                // PUSH-17: re-registering a token cancels its own unsent unregister.
                try self.check(
                    !self.machine.state.pendingUnregisters.contains(token) || self.inFlight == .unregister(token),
                    "an explicit registration kept its own unsent unregister"
                )
            }
        }

        /// A relaunch: the state goes through the secure store (JSON), the machine starts again,
        /// and calls of the old process are owed nothing any more.
        mutating func restart() throws {
            let data = try JSONEncoder().encode(self.machine.state)
            let decoded = try JSONDecoder().decode(TokenState.self, from: data)
            try self.check(decoded == self.machine.state, "the stored state did not round-trip")
            self.machine = TokenMachine()
            self.inFlight = nil
            self.owed.removeAll()
            self.trace.append(("restart", []))
            try self.start(stored: decoded, accepted: true)
        }

        /// Runs every request to success, retrying after backoffs, then checks that nothing is left.
        mutating func drain() throws {
            var rounds = 0
            while self.machine.inFlight != nil || self.machine.isBackingOff {
                rounds += 1
                try self.check(rounds < 20, "the requests never settled")
                try self.step(self.machine.inFlight != nil ? .confirmed : .retryDue)
            }
            try self.check(self.owed.isEmpty, "registerPushToken calls never answered: \(self.owed.sorted())")
            try self.check(self.machine.state.pendingUnregisters.isEmpty, "an unregister was never sent")
            if self.allowed, !self.isOff, let token = self.token, self.machine.refused == nil {
                try self.check(
                    self.server == .init(token: token, owner: self.owner),
                    "the server was not left with the token registered for the current owner"
                )
            }
            if self.isOff, let token = self.token {
                try self.check(self.server?.token != token, "the server still holds a token after unregisterPush()")
            }
        }

        // MARK: Checks

        /// Persist is emitted exactly when the stored state changed, and carries the new state.
        func checkPersist(_ actions: [TokenAction], baseline: TokenState) throws {
            let persisted = actions.compactMap { if case .persist(let state) = $0 { state } else { nil } }
            if self.machine.state == baseline {
                try self.check(persisted.isEmpty, "persisted an unchanged state")
            } else {
                try self.check(persisted == [self.machine.state], "the changed state was not persisted once")
            }
            let firstSend = actions.firstIndex {
                switch $0 {
                case .sendRegister, .sendUnregister: true
                default: false
                }
            }
            let persist = actions.firstIndex { if case .persist = $0 { true } else { false } }
            if let firstSend, let persist {
                try self.check(persist < firstSend, "a request went before the state it depends on was stored")
            }
        }

        mutating func checkStep(_ actions: [TokenAction], successAllowed: Bool) throws {
            let sends = actions.sends
            // PUSH-17: one request at a time.
            try self.check(sends.count <= 1, "more than one request in one step")
            if let send = sends.first {
                try self.check(self.inFlight == nil, "a request was sent while another was in flight")
                switch send {
                case .sendRegister(let token, let owner):
                    // PUSH-6, PUSH-15, WIPE-5: only while allowed and no unregister in force.
                    try self.check(self.allowed, "registered while registration is not allowed")
                    try self.check(!self.isOff, "registered while unregisterPush() or wipeData() is in force")
                    try self.check(token == self.token, "registered a token other than the stored one")
                    // PUSH-18: always for the current owner.
                    try self.check(owner == self.owner, "registered for \(owner) instead of \(self.owner)")
                    // PUSH-17: unconfirmed unregisters go first.
                    try self.check(self.machine.state.pendingUnregisters.isEmpty, "registered before an unregister")
                    // WIPE-2: the server never holds two tokens of this installation.
                    try self.check(self.server == nil || self.server?.token == token, "registered a second token")
                    self.inFlight = .register(.init(token: token, owner: owner))
                case .sendUnregister(let token):
                    try self.check(
                        self.machine.state.pendingUnregisters.first == token,
                        "unregistered a token that was not the oldest pending one"
                    )
                    // PUSH-17: a token registered again has no unregister left to send.
                    try self.check(self.isOff || token != self.token, "unregistered a token that is wanted")
                    self.inFlight = .unregister(token)
                default: break
                }
            }
            try self.check(self.machine.inFlight == self.inFlight, "the machine's request in flight differs")
            // DURABLE-13: an unregister waits only for the request in flight or a backoff, never for privacy.
            if self.machine.inFlight == nil, !self.machine.isBackingOff {
                try self.check(self.machine.state.pendingUnregisters.isEmpty, "an unregister is blocked")
            }
            try self.check(self.machine.state.token == self.token, "the stored token differs from the model")
            try self.check(self.machine.state.isPushOff == self.isOff, "push on/off differs from the model")
            try self.checkAnswers(actions, successAllowed: successAllowed)
            // PUSH-12: a call still owed its answer always has something coming.
            if !self.machine.waiters.isEmpty {
                try self.check(
                    self.machine.inFlight != nil || self.machine.isBackingOff,
                    "a registerPushToken call waits for nothing"
                )
            }
        }

        /// PUSH-12: each call is answered at most once; success only when a registration was confirmed.
        mutating func checkAnswers(_ actions: [TokenAction], successAllowed: Bool) throws {
            for (request, result) in actions.answers {
                try self.check(!self.answeredEver.contains(request.rawValue), "\(request) answered twice")
                try self.check(self.owed.contains(request.rawValue), "\(request) answered but not owed")
                try self.check(!result.success || successAllowed, "\(request) answered success without a confirmation")
                try self.check(result.success || result.message != nil, "a failure without a message")
                self.owed.remove(request.rawValue)
                self.answeredEver.insert(request.rawValue)
            }
            try self.check(
                Set(self.machine.waiters.map(\.request.rawValue)) == self.owed || !self.started,
                "the machine's waiting calls differ from the calls owed an answer"
            )
        }

        func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
            if !condition {
                let steps = self.trace.map { "\($0.step) -> \($0.actions)" }
                throw Failure(message: message() + "\n  " + steps.joined(separator: "\n  "))
            }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { self.message }
    }

    /// Every sequence over `alphabet` of length 0 … `length`.
    static func sequences(of alphabet: [Symbol], upTo length: Int) -> [[Symbol]] {
        var all: [[Symbol]] = [[]]
        var layer: [[Symbol]] = [[]]
        for _ in 0..<length {
            layer = layer.flatMap { prefix in alphabet.map { prefix + [$0] } }
            all += layer
        }
        return all
    }

    /// The stored states a launch may find.
    static let storedStates: [TokenState] = [
        .empty,
        TokenState(token: Fixture.tokenA, isPushOff: false, pendingUnregisters: []),
        TokenState(token: Fixture.tokenA, isPushOff: true, pendingUnregisters: [Fixture.tokenA]),
        TokenState(token: Fixture.tokenB, isPushOff: false, pendingUnregisters: [Fixture.tokenA]),
    ]

    // WIPE-12: wipeData() among the calls: its unregister and any later registration one at a time (PUSH-17).
    @Test(
        "every sequence of up to 4 calls after start keeps the invariants, then settles",
        arguments: [false, true]
    )
    func everySequenceAfterStart(startsWithToken: Bool) throws {
        let stored = startsWithToken ? Self.storedStates[1] : .empty
        var count = 0
        for sequence in Self.sequences(of: Symbol.allCases, upTo: 4) {
            var harness = try Harness(started: stored, allowed: true)
            for symbol in sequence {
                try harness.step(symbol)
            }
            try harness.drain()
            count += 1
        }
        #expect(count == 1 + 16 + 256 + 4096 + 65536)
    }

    @Test(
        "every sequence of up to 3 calls before initialize(), then a start, keeps the invariants (PUSH-8, INIT-13)",
        arguments: [true, false]
    )
    func everySequenceBeforeStart(accepted: Bool) throws {
        for stored in Self.storedStates {
            for allowed in [true, false] {
                for sequence in Self.sequences(of: Symbol.beforeStart, upTo: 3) {
                    var harness = Harness()
                    harness.allowed = allowed
                    harness.token = stored.token
                    harness.isOff = stored.isPushOff
                    for symbol in sequence {
                        try harness.step(symbol)
                    }
                    if !accepted {
                        try harness.start(stored: stored, accepted: false)
                        // INIT-13: later calls are answered at once, too.
                        try harness.step(.registerA)
                        try harness.check(harness.owed.isEmpty, "a call after a refused start was not answered at once")
                        // A correct initialize() then runs the calls that kept waiting (GAP-6).
                        var replay = Harness()
                        replay.allowed = allowed
                        replay.token = stored.token
                        replay.isOff = stored.isPushOff
                        for symbol in sequence where symbol != .registerA && symbol != .registerB {
                            try replay.step(symbol)
                        }
                        // The refused calls changed nothing: the rest must match a machine that never saw them.
                        var refusedThenStarted = harness.machine
                        var reference = replay.machine
                        let start = TokenInput.start(
                            .init(stored: stored, owner: Fixture.anonymous, collectionAllowed: allowed)
                        )
                        #expect(refusedThenStarted.handle(start) == reference.handle(start))
                        #expect(refusedThenStarted.state == reference.state)
                        continue
                    }
                    try harness.start(stored: stored, accepted: true)
                    // PUSH-8: a token kept before initialize() is registered at start when allowed.
                    if allowed, !harness.isOff, harness.token != nil, stored.pendingUnregisters.isEmpty,
                        harness.machine.state.pendingUnregisters.isEmpty
                    {
                        try harness.check(harness.inFlight != nil, "a kept token was not registered at start")
                    }
                    try harness.drain()
                }
            }
        }
    }
}
