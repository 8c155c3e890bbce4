import Foundation
import Joryio
import JoryioCore
import JoryioDelivery
import JoryioTesting
import Testing

/// What the server refuses: split-and-resend, `rejectedIndices`, `failedIndices`, 402/403
/// (BATCH-6, -7, -8, -10; GAP-20).
@Suite struct RejectionTests {
    /// A server that refuses, with `status`, every batch containing an event named `Poison`.
    private func poisonServer(_ status: Int) -> RespondingTransport {
        RespondingTransport { request in
            request.eventNames.contains("Poison")
                ? .success(.json(status, #"{"success":false,"error":"invalid_event"}"#))
                : .success(.ok)
        }
    }

    @Test(
        "400/413/422: halves are resent down to the poison event, which alone is dropped",
        arguments: [400, 413, 422],
        [0, 3, 7, 9]
    )
    func split(status: Int, poisonIndex: Int) {
        let transport = self.poisonServer(status)
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(batchSize: 10))
        var names = eventNames(9)
        names.insert("Poison", at: poisonIndex)
        sdk.track(names)

        let delivered = transport.requests.filter { !$0.eventNames.contains("Poison") }.eventNames
        #expect(delivered == eventNames(9), "every other event exactly once, in order")
        #expect(transport.requests.last { $0.eventNames.contains("Poison") }?.eventNames == ["Poison"])
        #expect(transport.requests.first?.events.count == 10)
        #expect(transport.requests.count <= 1 + 2 * 4, "at most one pair of halves per level")
        #expect(sdk.joryio.getQueueSize() == 0)
        #expect(sdk.elapsed == 0, "splitting needs no backoff")
        let drops = sdk.messages(atLeast: .warning)
        #expect(drops.count == 1)
        #expect(drops.first?.contains("dropped an event the server rejected on its own (HTTP \(status))") == true)
        // The most recent request decides: the poison's own refusal, or a later success.
        let poisonWentLast = transport.requests.last?.eventNames == ["Poison"]
        #expect(sdk.joryio.lastTransportError == (poisonWentLast ? .http(status: status, body: nil) : nil))

        sdk.advance(to: 600)
        #expect(transport.requests.filter { !$0.eventNames.contains("Poison") }.eventNames == eventNames(9))
    }

    @Test("two poison events in one batch are both isolated and dropped")
    func twoPoisons() {
        let transport = self.poisonServer(422)
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(batchSize: 50))
        var names = eventNames(48)
        names.insert("Poison", at: 5)
        names.insert("Poison", at: 40)
        sdk.track(names)
        #expect(transport.requests.filter { !$0.eventNames.contains("Poison") }.eventNames == eventNames(48))
        #expect(transport.requests.filter { $0.eventNames == ["Poison"] }.count == 2)
        #expect(sdk.messages(atLeast: .warning).count == 2)
        #expect(sdk.joryio.getQueueSize() == 0)
    }

    @Test("a 503 while splitting keeps the half and resends it after backoff")
    func failureWhileSplitting() {
        let transport = StubTransport([
            .success(.json(422, "{}")),  // [0…9]
            .success(.json(503, "{}")),  // [0…4]
            .success(.ok),  // [0…4] again, after 1 s
            .success(.ok),  // [5…9]
        ])
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(batchSize: 10))
        sdk.track(eventNames(10))
        #expect(transport.requests.batchSizes == [10, 5])
        sdk.advance(to: 0.999)
        #expect(transport.requests.count == 2)
        sdk.advance(to: 1)
        #expect(
            transport.requests.map(\.eventNames) == [
                eventNames(10), eventNames(5), eventNames(5), eventNames(5, from: 5),
            ]
        )
        #expect(sdk.joryio.getQueueSize() == 0)
        #expect(transport.issues.isEmpty)
    }

    @Test("rejectedIndices are dropped, failedIndices kept and resent after backoff; both logged")
    func indices() {
        let transport = StubTransport([
            .success(.json(200, #"{"success":true,"accepted":7,"rejectedIndices":[1,4],"failedIndices":[2]}"#)),
            .success(.ok),
        ])
        let sdk = TestSDK(transport: transport)
        sdk.start()
        sdk.track(eventNames(10))
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(transport.requests.count == 1)
        #expect(sdk.joryio.getQueueSize() == 1)
        let warnings = sdk.messages(at: .warning)
        #expect(warnings.contains { $0.contains("dropped 2 events") && $0.contains("rejectedIndices") })
        #expect(warnings.contains { $0.contains("1 events failed on the server") })

        sdk.advance(to: 0.999)
        #expect(transport.requests.count == 1)
        sdk.advance(to: 1)
        #expect(transport.requests.map(\.eventNames) == [eventNames(10), ["e2"]])
        #expect(sdk.joryio.getQueueSize() == 0)
        sdk.advance(to: 600)
        #expect(transport.requests.count == 2)
        #expect(transport.issues.isEmpty)
    }

    @Test(
        "GAP-62: 402 and 403 stop sending for the rest of the instance's life; events are kept",
        arguments: [402, 403]
    )
    func stop(status: Int) {
        let transport = RespondingTransport { _ in .success(.json(status, #"{"success":false}"#)) }
        let sdk = TestSDK(transport: transport)
        sdk.start()
        sdk.track(eventNames(3))
        sdk.advance(to: 5)
        #expect(transport.requests.count == 1)
        #expect(sdk.joryio.getQueueSize() == 3)
        #expect(sdk.joryio.lastTransportError == .http(status: status, body: nil))
        let errors = sdk.messages(at: .error)
        #expect(errors.count == 1)
        #expect(errors.first?.contains("HTTP \(status)") == true)

        transport.answer { _ in .success(.ok) }
        sdk.joryio.flush()
        sdk.track(eventNames(60, from: 3))
        sdk.joryio.applicationDidEnterBackground()
        sdk.joryio.flush()
        sdk.advance(to: 24 * 3600)
        #expect(transport.requests.count == 1)
        #expect(sdk.joryio.getQueueSize() == 63)
        #expect(sdk.messages(at: .error).count == 1)
    }

    @Test("after a 403 the events wait on disk and leave with the next launch")
    func stopUntilNextLaunch() throws {
        try withTemporaryDirectory { directory in
            let refusing = RespondingTransport { _ in .success(.json(403, #"{"error":"invalid_sdk_key"}"#)) }
            let first = TestSDK(transport: refusing, storage: .sqlite(directory: directory))
            first.start()
            first.track(eventNames(3))
            first.advance(to: 5)
            #expect(first.joryio.getQueueSize() == 3)

            let accepting = RecordingTransport()
            let second = TestSDK(transport: accepting, storage: .sqlite(directory: directory))
            second.start()
            #expect(accepting.requests.eventNames == eventNames(3))
            #expect(second.joryio.getQueueSize() == 0)
        }
    }
}
