import Foundation
import JoryioDelivery
import Testing

@Suite struct BackoffPolicyTests {
    @Test("BATCH-18: the n-th consecutive failure waits base × 2^(n−1)")
    func doubling() {
        let policy = BackoffPolicy(base: 1)
        let delays = (1...8).map { policy.delay(afterFailures: $0, jitter: 0, retryAfter: nil) }
        #expect(delays == [1, 2, 4, 8, 16, 32, 64, 128])
        #expect(BackoffPolicy(base: 0.25).delay(afterFailures: 3, jitter: 0, retryAfter: nil) == 1)
    }

    @Test("BATCH-18: the delay is capped at 300 s, also for absurd failure counts")
    func cap() {
        let policy = BackoffPolicy(base: 1)
        #expect(policy.cap == 300)
        #expect(policy.delay(afterFailures: 9, jitter: 0, retryAfter: nil) == 256)
        #expect(policy.delay(afterFailures: 10, jitter: 0, retryAfter: nil) == 300)
        #expect(policy.delay(afterFailures: 1_000_000, jitter: 0, retryAfter: nil) == 300)
        #expect(policy.delay(afterFailures: .max, jitter: 0, retryAfter: nil) == 300)
        // The cap applies before jitter: equal jitter still reduces the capped delay.
        #expect(policy.delay(afterFailures: 20, jitter: 0.5, retryAfter: nil) == 225)
    }

    @Test("zero or negative failure counts count as the first failure")
    func degenerateCounts() {
        let policy = BackoffPolicy(base: 2)
        #expect(policy.delay(afterFailures: 0, jitter: 0, retryAfter: nil) == 2)
        #expect(policy.delay(afterFailures: -3, jitter: 0, retryAfter: nil) == 2)
    }

    @Test(
        "equal jitter reduces the delay by up to half, never more",
        arguments: [(0.0, 8.0), (0.5, 6.0), (0.25, 7.0), (0.999, 4.004), (1.0, 4.0), (-1.0, 8.0), (7.0, 4.0)]
    )
    func jitter(jitter: Double, expected: Double) {
        let delay = BackoffPolicy(base: 1).delay(afterFailures: 4, jitter: jitter, retryAfter: nil)
        #expect(abs(delay - expected) < 1e-9)
    }

    @Test("jitter 0.5 gives 75% of the full delay at every step")
    func jitterHalf() {
        let policy = BackoffPolicy(base: 1)
        for failures in 1...12 {
            let full = policy.delay(afterFailures: failures, jitter: 0, retryAfter: nil)
            #expect(policy.delay(afterFailures: failures, jitter: 0.5, retryAfter: nil) == full * 0.75)
        }
    }

    @Test("BATCH-18: Retry-After is a floor: never shorter, and longer backoff is kept")
    func retryAfterFloor() {
        let policy = BackoffPolicy(base: 1)
        #expect(policy.delay(afterFailures: 1, jitter: 0, retryAfter: 7) == 7)
        #expect(policy.delay(afterFailures: 1, jitter: 0.9, retryAfter: 7) == 7)
        #expect(policy.delay(afterFailures: 5, jitter: 0, retryAfter: 7) == 16)
        #expect(policy.delay(afterFailures: 5, jitter: 1, retryAfter: 9) == 9)
        // A Retry-After longer than the cap wins too: the SDK never retries before the server allows.
        #expect(policy.delay(afterFailures: 30, jitter: 0, retryAfter: 900) == 900)
        #expect(policy.delay(afterFailures: 1, jitter: 0, retryAfter: 0) == 1)
    }

    @Test("a negative base counts as zero; a base above the cap raises the cap")
    func bases() {
        #expect(BackoffPolicy(base: -5).delay(afterFailures: 3, jitter: 0, retryAfter: nil) == 0)
        #expect(BackoffPolicy(base: -5).delay(afterFailures: 3, jitter: 0, retryAfter: 2) == 2)
        let large = BackoffPolicy(base: 400)
        #expect(large.cap == 400)
        #expect(large.delay(afterFailures: 3, jitter: 0, retryAfter: nil) == 400)
    }

    @Test("SystemJitter stays in 0..<1")
    func systemJitter() {
        let source = SystemJitter()
        for _ in 0..<1000 {
            let value = source.next()
            #expect(value >= 0 && value < 1)
        }
    }
}
