import Foundation
import Joryio
import JoryioCore
import JoryioStorage
import JoryioTesting
import Testing

/// The consent x opt-out matrix on the real engine (CONSENT-18), for the call kinds that exist so
/// far (events and identify), plus persistence across restarts.
@Suite struct PrivacyMatrixTests {
    enum Consent: String, CaseIterable, Sendable {
        case unset, pending, granted, denied, storedDenial
    }

    enum OptOut: String, CaseIterable, Sendable {
        case optedIn, optedOut, preInitOptOut, preInitOptInOverConfig
    }

    enum Expected: Equatable { case sent, held, dropped }

    static func expected(_ consent: Consent, _ optOut: OptOut) -> Expected {
        if optOut == .optedOut || optOut == .preInitOptOut { return .dropped }
        switch consent {
        case .unset, .granted: return .sent
        case .pending: return .held
        case .denied, .storedDenial: return .dropped
        }
    }

    // CONSENT-2, CONSENT-6, OPTOUT-9: granted sends; either refusal wins; isUserOptedOut() ignores consent.
    // EVT-7 / BATCH-17: events are sent, held while pending, or dropped while opted out or denied.
    @Test(arguments: Consent.allCases, OptOut.allCases)
    func eventsAndIdentify(consent: Consent, optOut: OptOut) throws {
        try withTemporaryDirectory { directory in
            if consent == .storedDenial {
                let seed = TestSDK(transport: RecordingTransport(), storage: .sqlite(directory: directory))
                seed.start()
                seed.joryio.updateConsent(.denied)
                seed.scheduler.runUntilIdle()
            }
            let transport = RecordingTransport()
            let sdk = TestSDK(transport: transport, storage: .sqlite(directory: directory))
            var config = JoryioConfig()
            switch consent {
            case .pending: config.trackingConsent = .pending
            case .granted: config.trackingConsent = .granted
            case .denied: config.trackingConsent = .denied
            case .unset, .storedDenial: break
            }
            switch optOut {
            case .optedOut: config.optOut = true
            case .preInitOptOut: sdk.joryio.optOut()
            case .preInitOptInOverConfig:
                config.optOut = true
                sdk.joryio.optIn()
            case .optedIn: break
            }
            sdk.joryio.identify("user-1")
            sdk.joryio.track("Purchase", properties: ["total": 10])
            sdk.start(config: config)
            sdk.joryio.flush()
            sdk.scheduler.advance(by: 10)

            let sentEvents = transport.requests.flatMap(\.events)
            let context = "\(consent) × \(optOut)"
            switch Self.expected(consent, optOut) {
            case .sent:
                #expect(sentEvents.map { $0["event"] } == ["Purchase"], "\(context)")
                #expect(sentEvents.first?["userId"] == "user-1", "\(context)")
                #expect(sdk.joryio.getQueueSize() == 0, "\(context)")
            case .held:
                #expect(sentEvents.isEmpty, "\(context)")
                #expect(sdk.joryio.getQueueSize() == 1, "\(context)")
            case .dropped:
                #expect(sentEvents.isEmpty, "\(context)")
                #expect(sdk.joryio.getQueueSize() == 0, "\(context)")
            }
            // identify is always kept (locally while opted out or denied, IDENT-5).
            #expect(sdk.joryio.getUserId() == "user-1", "\(context)")
            let optedOut = optOut == .optedOut || optOut == .preInitOptOut
            #expect(sdk.joryio.isUserOptedOut() == optedOut, "\(context)")
        }
    }
}

@Suite struct ConsentTransitionTests {
    // CONSENT-1, CONSENT-15, SESS-6, SESS-7: config .pending, then updateConsent(.granted) from the banner.
    @Test("EVT-7 / BATCH-17: pending holds up to maxQueueSize; a grant sends it with the Session Start")
    func pendingHoldsUpToMaxQueueSizeAndGrantSendsItWithTheSessionStart() throws {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(maxQueueSize: 3, trackingConsent: .pending), sessionStart: true)
        for name in ["a", "b", "c", "d"] { sdk.joryio.track(name) }
        sdk.joryio.flush()
        sdk.scheduler.advance(by: 60)
        #expect(transport.requests.isEmpty)
        #expect(sdk.joryio.getQueueSize() == 3)
        #expect(sdk.joryio.getTrackingConsent() == .pending)
        sdk.joryio.updateConsent(.granted)
        #expect(sdk.joryio.getTrackingConsent() == .granted)
        sdk.scheduler.advance(by: 10)
        let names = transport.requests.flatMap(\.events).compactMap { $0["event"]?.stringValue }
        #expect(names == ["b", "c", "d", "Session Start"])
        #expect(sdk.joryio.getQueueSize() == 0)
    }

    // CONSENT-5, CONSENT-7, CONSENT-9, CONSENT-10: the denial deletes, is stored and outlives a pending launch.
    // EVT-7: events held while pending are discarded on denial.
    @Test func pendingThenDeniedDeletesWhatWasHeldAndPersistsTheDenial() throws {
        try withTemporaryDirectory { directory in
            let transport = RecordingTransport()
            let sdk = TestSDK(transport: transport, storage: .sqlite(directory: directory))
            sdk.start(config: JoryioConfig(trackingConsent: .pending))
            sdk.joryio.track("held")
            sdk.scheduler.runUntilIdle()
            #expect(sdk.joryio.getQueueSize() == 1)
            sdk.joryio.updateConsent(.denied)
            sdk.scheduler.runUntilIdle()
            #expect(sdk.joryio.getQueueSize() == 0)
            sdk.joryio.track("after")
            sdk.joryio.updateConsent(.pending)  // never overrides a denial
            sdk.scheduler.advance(by: 60)
            #expect(transport.requests.isEmpty)
            #expect(sdk.joryio.getTrackingConsent() == .denied)

            let relaunched = TestSDK(transport: transport, storage: .sqlite(directory: directory))
            #expect(relaunched.joryio.getTrackingConsent() == .denied)  // from storage, before initialize
            relaunched.start(config: JoryioConfig(trackingConsent: .pending))
            #expect(relaunched.joryio.getTrackingConsent() == .denied)
            relaunched.start()
            relaunched.joryio.updateConsent(.granted)
            relaunched.joryio.track("granted")
            relaunched.joryio.flush()
            relaunched.scheduler.runUntilIdle()
            #expect(transport.requests.flatMap(\.events).map { $0["event"] } == ["granted"])
        }
    }

    // OPTOUT-3, OPTOUT-9, OPTOUT-10, CONSENT-11: persisted, read before start, consent never lifts it.
    @Test func optOutPurgesPersistsAndSurvivesARestartUntilOptIn() throws {
        try withTemporaryDirectory { directory in
            let transport = RecordingTransport(outcome: .failure(TransportError(.cannotConnect, "offline")))
            let sdk = TestSDK(transport: transport, storage: .sqlite(directory: directory))
            sdk.start()
            sdk.track(["queued-1", "queued-2"])
            #expect(sdk.joryio.getQueueSize() == 2)
            sdk.joryio.optOut()
            #expect(sdk.joryio.isUserOptedOut())  // at once, on the caller's thread
            sdk.scheduler.runUntilIdle()
            #expect(sdk.joryio.getQueueSize() == 0)
            sdk.joryio.track("while-out")
            sdk.scheduler.runUntilIdle()
            #expect(sdk.joryio.getQueueSize() == 0)
            #expect(sdk.joryio.getTrackingConsent() == .granted)  // opt-out never changes consent

            transport.outcome = .success(RecordingTransport.defaultResponse)
            let relaunched = TestSDK(transport: transport, storage: .sqlite(directory: directory))
            #expect(relaunched.joryio.isUserOptedOut())  // before initialize, from storage
            relaunched.start(config: JoryioConfig(optOut: false))  // config false does not clear it
            #expect(relaunched.joryio.isUserOptedOut())
            relaunched.joryio.updateConsent(.granted)  // consent never lifts an opt-out
            relaunched.joryio.track("still-out")
            relaunched.scheduler.advance(by: 10)
            let before = transport.requests.count
            #expect(!transport.requests.flatMap(\.events).contains { $0["event"] == "still-out" })
            relaunched.joryio.optIn()
            relaunched.joryio.track("back")
            relaunched.joryio.flush()
            relaunched.scheduler.runUntilIdle()
            #expect(transport.requests.dropFirst(before).flatMap(\.events).map { $0["event"] } == ["back"])
        }
    }

    @Test("OPTOUT-6, WIPE-8: opting out deletes no stored ids or session; wipeData() does, and opts nobody out")
    func optOutDeletesNothingStoredAndWipeOptsNobodyOut() throws {
        try withTemporaryDirectory { directory in
            let sdk = TestSDK(transport: RecordingTransport(), storage: .sqlite(directory: directory))
            sdk.start(sessionStart: true)
            sdk.joryio.identify("user-1")
            sdk.joryio.track("x")
            sdk.scheduler.runUntilIdle()
            let anonymousId = sdk.joryio.getAnonymousId()
            let session = try #require(sdk.joryio.getSessionId())
            sdk.joryio.optOut()
            sdk.scheduler.runUntilIdle()
            #expect(sdk.joryio.getUserId() == "user-1")
            #expect(sdk.joryio.getAnonymousId() == anonymousId)
            #expect(sdk.joryio.getSessionId() == session)

            let relaunched = TestSDK(transport: RecordingTransport(), storage: .sqlite(directory: directory))
            relaunched.start()
            #expect(relaunched.joryio.isUserOptedOut())
            #expect(relaunched.joryio.getUserId() == "user-1")
            #expect(relaunched.joryio.getAnonymousId() == anonymousId)
            relaunched.joryio.optIn()
            relaunched.joryio.wipeData()
            relaunched.scheduler.runUntilIdle()
            #expect(relaunched.joryio.getUserId() == nil)
            #expect(relaunched.joryio.getAnonymousId() != anonymousId)
            #expect(!relaunched.joryio.isUserOptedOut())
        }
    }

    @Test(
        "CONSENT-13: the opt-out record is sent while consent is pending or denied",
        arguments: [TrackingConsent.pending, .denied]
    )
    func theOptOutRecordIgnoresConsent(consent: TrackingConsent) {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(trackingConsent: consent))
        sdk.joryio.optOut()
        sdk.scheduler.runUntilIdle()
        sdk.joryio.optIn()
        sdk.scheduler.runUntilIdle()
        let records = transport.requests.filter { $0.url.path.hasSuffix("/v1/opt-out") }
        #expect(records.map { $0.json?["optedOut"] } == [true, false])
        #expect(sdk.joryio.getTrackingConsent() == consent)
    }

    @Test("STORE-7, CONSENT-9: a pending launch stores no consent; the next launch without a config is granted")
    func pendingIsNotStored() throws {
        try withTemporaryDirectory { directory in
            let first = TestSDK(transport: RecordingTransport(), storage: .sqlite(directory: directory))
            first.start(config: JoryioConfig(trackingConsent: .pending))
            first.joryio.updateConsent(.pending)
            first.scheduler.runUntilIdle()
            #expect(first.joryio.getTrackingConsent() == .pending)
            let settings = try String(
                contentsOf: directory.appendingPathComponent("joryio-settings.json"),
                encoding: .utf8
            )
            #expect(!settings.contains("consent"))

            let relaunched = TestSDK(transport: RecordingTransport(), storage: .sqlite(directory: directory))
            #expect(relaunched.joryio.getTrackingConsent() == .granted)
            relaunched.start()
            #expect(relaunched.joryio.getTrackingConsent() == .granted)
        }
    }

    @Test func aCallMadeWhileOptedOutStaysDroppedEvenIfOptInFollowsAtOnce() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        sdk.joryio.optOut()
        sdk.joryio.track("while-out")
        sdk.joryio.optIn()
        #expect(!sdk.joryio.isUserOptedOut())
        sdk.joryio.updateConsent(.denied)
        sdk.joryio.track("while-denied")
        sdk.joryio.updateConsent(.granted)
        sdk.joryio.track("allowed")
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(transport.requests.flatMap(\.events).map { $0["event"] } == ["allowed"])
    }

    // INIT-5, INIT-11, OPTOUT-9: a pre-init optOut() is remembered and answered before initialize().
    @Test func preInitOptOutIsStoredAndAnsweredBeforeInitialize() throws {
        try withTemporaryDirectory { directory in
            let sdk = TestSDK(transport: RecordingTransport(), storage: .sqlite(directory: directory))
            #expect(!sdk.joryio.isUserOptedOut())
            sdk.joryio.optOut()
            #expect(sdk.joryio.isUserOptedOut())
            // The process dies before initialize(): the decision is remembered (STORE-2).
            let relaunched = TestSDK(transport: RecordingTransport(), storage: .sqlite(directory: directory))
            #expect(relaunched.joryio.isUserOptedOut())
            relaunched.start()
            #expect(relaunched.joryio.isUserOptedOut())
            #expect(relaunched.messages(at: .info).contains { $0.contains("tracking_opted_out=true") })
        }
    }
}
