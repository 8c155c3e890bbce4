import Foundation
import Joryio
import JoryioCore
import JoryioTesting
import Testing

/// When events leave the device: the flush interval, the batch size, `sendImmediately`, `flush()`,
/// the background and the byte budget (BATCH-1, -2, -3, -5, -11).
@Suite struct BatchingTests {
    @Test("BATCH-3: one event leaves as exactly one request after 5 s, not at 4.999 s")
    func oneEventAfterFlushInterval() throws {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        sdk.track(["Button Tapped"])
        #expect(sdk.joryio.getQueueSize() == 1)

        sdk.advance(to: 4.999)
        #expect(transport.requests.isEmpty)
        #expect(sdk.joryio.getQueueSize() == 1)
        sdk.advance(to: 5)
        #expect(transport.requests.count == 1)
        #expect(transport.requests.eventNames == ["Button Tapped"])
        #expect(sdk.joryio.getQueueSize() == 0)

        sdk.advance(to: 600)
        #expect(transport.requests.count == 1)
        #expect(sdk.messages(atLeast: .warning).isEmpty)
    }

    @Test("the 50th event sends at once; 49 wait for the interval")
    func fiftiethEventSendsAtOnce() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        sdk.track(eventNames(49))
        #expect(transport.requests.isEmpty)
        #expect(sdk.joryio.getQueueSize() == 49)

        sdk.track(["e49"])
        #expect(sdk.elapsed == 0)
        #expect(transport.requests.batchSizes == [50])
        #expect(transport.requests.eventNames == eventNames(50))
        #expect(sdk.joryio.getQueueSize() == 0)
    }

    @Test("a 49-event queue waits for the full flush interval")
    func fortyNineWait() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        for name in eventNames(49) {
            sdk.track([name])
        }
        sdk.advance(to: 4.999)
        #expect(transport.requests.isEmpty)
        sdk.advance(to: 5)
        #expect(transport.requests.batchSizes == [49])
    }

    @Test("batchSize from the config: full batches leave at once, the rest after the interval")
    func configuredBatchSize() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(batchSize: 10))
        sdk.track(eventNames(25))
        #expect(transport.requests.batchSizes == [10, 10])

        sdk.advance(to: 4.999)
        #expect(transport.requests.batchSizes == [10, 10])
        sdk.advance(to: 5)
        #expect(transport.requests.batchSizes == [10, 10, 5])
        #expect(transport.requests.eventNames == eventNames(25))
        #expect(sdk.joryio.getQueueSize() == 0)
    }

    @Test("a burst larger than a batch leaves the remainder to the flush interval")
    func burstRemainder() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        sdk.track(eventNames(120))
        #expect(transport.requests.batchSizes == [50, 50])
        #expect(sdk.joryio.getQueueSize() == 20)
        sdk.advance(to: 5)
        #expect(transport.requests.batchSizes == [50, 50, 20])
        #expect(transport.requests.eventNames == eventNames(120))
    }

    @Test("flushInterval from the config is respected to the millisecond")
    func configuredFlushInterval() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(flushInterval: 2.5))
        sdk.track(["a"])
        sdk.advance(to: 2.499)
        #expect(transport.requests.isEmpty)
        sdk.advance(to: 2.5)
        #expect(transport.requests.eventNames == ["a"])

        // The interval starts again with the next event, not on a fixed grid.
        sdk.advance(to: 3.7)
        sdk.track(["b"])
        sdk.advance(to: 6.199)
        #expect(transport.requests.count == 1)
        sdk.advance(to: 6.2)
        #expect(transport.requests.eventNames == ["a", "b"])
    }

    @Test("BATCH-3: sendImmediately sends each event on its own, as soon as it is recorded")
    func sendImmediately() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(sendImmediately: true))
        for name in ["a", "b", "c"] {
            sdk.track([name])
            #expect(transport.requests.last?.eventNames == [name])
        }
        #expect(transport.requests.batchSizes == [1, 1, 1])
        #expect(sdk.elapsed == 0)
        #expect(sdk.joryio.getQueueSize() == 0)
        sdk.advance(to: 60)
        #expect(transport.requests.count == 3)
    }

    @Test("sendImmediately: events recorded in the same instant share the next request (GAP-17)")
    func sendImmediatelyBurst() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(batchSize: 2, sendImmediately: true))
        sdk.track(["a", "b", "c"])
        #expect(transport.requests.map(\.eventNames) == [["a", "b"], ["c"]])
        #expect(sdk.elapsed == 0)
    }

    @Test("flush() sends everything queued at once, in batches")
    func flushSendsAtOnce() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        sdk.track(eventNames(30))
        sdk.joryio.track("last")
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(transport.requests.batchSizes == [31])
        #expect(transport.requests.eventNames == eventNames(30) + ["last"])
        #expect(sdk.elapsed == 0)
        // The armed interval timer finds nothing left to send.
        sdk.advance(to: 10)
        #expect(transport.requests.count == 1)
    }

    @Test("applicationDidEnterBackground() sends what is queued")
    func background() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        sdk.track(eventNames(120))
        sdk.joryio.track("late")
        sdk.joryio.applicationDidEnterBackground()
        sdk.scheduler.runUntilIdle()
        #expect(transport.requests.batchSizes == [50, 50, 21])
        #expect(transport.requests.eventNames == eventNames(120) + ["late"])
        #expect(sdk.joryio.getQueueSize() == 0)
        #expect(sdk.elapsed == 0)
    }

    @Test("BATCH-5 / GAP-69: requests stay within the 921,600-byte budget; big events are spread over requests")
    func byteBudget() throws {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        let filler = String(repeating: "x", count: 45_000)
        for index in 0..<45 {
            sdk.joryio.track("big\(index)", properties: ["filler": filler])
        }
        sdk.scheduler.runUntilIdle()
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        let sizes = transport.requests.compactMap { $0.decodedBody?.count }
        #expect(sizes.count == transport.requests.count)
        #expect(transport.requests.count == 3)
        #expect(sizes.allSatisfy { $0 <= 921_600 })
        #expect(sizes.dropLast().allSatisfy { $0 > 921_600 - 46_000 })
        #expect(transport.requests.eventNames == eventNames(45, prefix: "big"))
        #expect(transport.requests.allSatisfy { $0.header("Content-Encoding") == "gzip" })
    }
}
