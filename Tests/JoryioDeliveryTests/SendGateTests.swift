import Foundation
import JoryioDelivery
import Testing

/// The one send decision of the three channels, checked over every combination of its inputs.
@Suite struct SendGateTests {
    private static let now = Date(timeIntervalSince1970: 1_767_225_600)

    /// The dates a deadline may take relative to `now`: none, past, now, within the tolerance,
    /// just beyond it, and far ahead.
    private static let deadlines: [Date?] = [
        nil,
        now.addingTimeInterval(-5),
        now,
        now.addingTimeInterval(SendGate.tolerance / 2),
        now.addingTimeInterval(0.001),
        now.addingTimeInterval(30),
    ]

    @Test("every combination of flags and deadlines decides as the rules in order say")
    func exhaustive() {
        var cases = 0
        for bits in 0..<32 {
            let flags = (0..<5).map { bits & (1 << $0) != 0 }
            for retryAfter in Self.deadlines {
                for backoff in Self.deadlines {
                    for notBefore in Self.deadlines {
                        let gate = SendGate(
                            stopped: flags[0],
                            held: flags[1],
                            awaitingToken: flags[2],
                            inFlight: flags[3],
                            hasWork: flags[4],
                            retryAfterUntil: retryAfter,
                            backoffUntil: backoff,
                            notBefore: notBefore
                        )
                        #expect(gate.decision(at: Self.now) == Self.expected(gate), "\(gate)")
                        cases += 1
                    }
                }
            }
        }
        #expect(cases == 32 * 6 * 6 * 6)
    }

    /// The rules, written out one by one.
    private static func expected(_ gate: SendGate) -> SendDecision {
        if gate.stopped { return .idle }
        if gate.held { return .idle }
        if gate.awaitingToken { return .idle }
        if gate.inFlight { return .busy }
        if !gate.hasWork { return .idle }
        var latest: Date?
        for date in [gate.retryAfterUntil, gate.backoffUntil, gate.notBefore] {
            if let date, latest.map({ date > $0 }) ?? true { latest = date }
        }
        if let latest, latest.timeIntervalSince(Self.now) > SendGate.tolerance { return .wait(until: latest) }
        return .send
    }

    @Test("stopped, held and waiting for a token win over a request in flight")
    func blockersBeforeBusy() {
        for gate in [
            SendGate(stopped: true, inFlight: true),
            SendGate(held: true, inFlight: true),
            SendGate(awaitingToken: true, inFlight: true),
        ] {
            #expect(gate.decision(at: Self.now) == .idle)
        }
        #expect(SendGate(inFlight: true, hasWork: false).decision(at: Self.now) == .busy)
    }

    @Test("the latest deadline ahead is waited for, whichever input it comes from")
    func latestDeadline() {
        let soon = Self.now.addingTimeInterval(2)
        let later = Self.now.addingTimeInterval(9)
        #expect(SendGate(retryAfterUntil: soon, backoffUntil: later).decision(at: Self.now) == .wait(until: later))
        #expect(SendGate(retryAfterUntil: later, backoffUntil: soon).decision(at: Self.now) == .wait(until: later))
        #expect(SendGate(backoffUntil: soon, notBefore: later).decision(at: Self.now) == .wait(until: later))
        // A flush skips the SDK's own backoff (no backoffUntil) but never Retry-After.
        #expect(SendGate(retryAfterUntil: soon).decision(at: Self.now) == .wait(until: soon))
        #expect(SendGate(retryAfterUntil: soon).decision(at: soon) == .send)
        #expect(SendGate().decision(at: Self.now) == .send)
        #expect(SendGate(hasWork: false).decision(at: Self.now) == .idle)
    }
}
