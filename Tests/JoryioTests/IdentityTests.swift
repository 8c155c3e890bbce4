import Foundation
import Joryio
import JoryioCore
import JoryioTesting
import Testing

@Suite struct IdentityTests {
    // IDENT-9: events queued before reset() are still sent, with the ids they were recorded under.
    // GAP-68: reset() starts the new session at once.
    @Test func identifyAndResetChangeTheIdsAtOnceAndQueuedEventsKeepTheirs() throws {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(sessionStart: true)
        let anonymous = sdk.joryio.getAnonymousId()
        #expect(!anonymous.isEmpty)
        sdk.joryio.track("before")
        sdk.joryio.identify("user-1")
        #expect(sdk.joryio.getUserId() == "user-1")
        sdk.joryio.track("as-user")
        sdk.joryio.reset()
        let fresh = sdk.joryio.getAnonymousId()
        #expect(fresh != anonymous)  // synchronous from the caller's point of view (IDENT-7)
        #expect(sdk.joryio.getUserId() == nil)
        sdk.joryio.track("after-reset")
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        let events = transport.requests.flatMap(\.events)
        let byName = Dictionary(events.map { ($0["event"]?.stringValue ?? "", $0) }) { first, _ in first }
        #expect(byName["before"]?["userId"] == nil)
        #expect(byName["before"]?["anonymousId"] == .string(anonymous))
        #expect(byName["as-user"]?["userId"] == "user-1")
        #expect(byName["as-user"]?["anonymousId"] == .string(anonymous))
        #expect(byName["after-reset"]?["userId"] == nil)
        #expect(byName["after-reset"]?["anonymousId"] == .string(fresh))
        // reset() starts a new session announced at once (IDENT-6, SESS-4).
        let starts = events.filter { $0["event"] == "Session Start" }
        #expect(starts.count == 2)
        #expect(starts.last?["anonymousId"] == .string(fresh))
        #expect(byName["after-reset"]?["sessionId"] == starts.last?["sessionId"])
        #expect(byName["before"]?["sessionId"] != byName["after-reset"]?["sessionId"])
    }

    // LOG-4: a missing required value is a warning in the log (IDENT-2).
    @Test func emptyIdentifyWarnsAndChangesNothing() {
        let sdk = TestSDK(transport: RecordingTransport())
        sdk.start()
        sdk.joryio.identify("user-1")
        sdk.joryio.identify("")
        sdk.scheduler.runUntilIdle()
        #expect(sdk.joryio.getUserId() == "user-1")
        #expect(sdk.messages(at: .warning).contains { $0.contains("identify") && $0.contains("empty") })
    }

    // INIT-4, INIT-12: calls before initialize() are safe; consent reads .granted when undecided.
    @Test func gettersAreEmptyBeforeInitialize() {
        let sdk = TestSDK(transport: RecordingTransport())
        sdk.joryio.identify("user-1")
        #expect(sdk.joryio.getUserId() == nil)
        #expect(sdk.joryio.getAnonymousId() == "")
        #expect(sdk.joryio.getSessionId() == nil)
        #expect(sdk.joryio.getSessionInfo().sessionId == nil)
        #expect(sdk.joryio.getTrackingConsent() == .granted)
        sdk.start()
        #expect(sdk.joryio.getUserId() == "user-1")
    }

    // SESS-9: the session is kept in the settings store (jry_session) and resumes after a restart.
    @Test func idsPersistAcrossARestartInTheRightStores() throws {
        try withTemporaryDirectory { directory in
            let sdk = TestSDK(transport: RecordingTransport(), storage: .sqlite(directory: directory))
            sdk.start()
            sdk.joryio.identify("user-42")
            sdk.joryio.track("x")
            sdk.scheduler.runUntilIdle()
            let anonymous = sdk.joryio.getAnonymousId()
            let session = sdk.joryio.getSessionId()

            let relaunched = TestSDK(transport: RecordingTransport(), storage: .sqlite(directory: directory))
            relaunched.start()
            #expect(relaunched.joryio.getUserId() == "user-42")
            #expect(relaunched.joryio.getAnonymousId() == anonymous)
            #expect(relaunched.joryio.getSessionId() == session)

            // Placement (STORE-1, STORE-3, STORE-5): the user id is not in the settings file.
            let settings = try String(
                contentsOf: directory.appendingPathComponent("joryio-settings.json"),
                encoding: .utf8
            )
            let keys = try #require(JSONValue.parse(Data(settings.utf8))?["values"]?.objectValue?.keys)
            #expect(keys.allSatisfy { $0.hasPrefix("jry_") || $0.hasPrefix("joryio_") })
            #expect(keys.contains("jry_anonymous_id") && keys.contains("jry_session") && keys.contains("jry_device_id"))
            #expect(!settings.contains("user-42"))
            #expect(!keys.contains("jry_user_id"))
            let secureFiles = try FileManager.default.contentsOfDirectory(
                atPath: directory.appendingPathComponent("secure").path
            )
            #expect(secureFiles.contains { $0.contains("jry_user_id") })
        }
    }

    // STORE-8: a missing install marker with secure items left behind means a reinstall: they go.
    @Test func aReinstallClearsSecureItemsLeftBehind() throws {
        try withTemporaryDirectory { directory in
            let sdk = TestSDK(transport: RecordingTransport(), storage: .sqlite(directory: directory))
            sdk.start()
            sdk.joryio.identify("user-1")
            sdk.scheduler.runUntilIdle()
            // The app is deleted: settings go, the Keychain (here the secure directory) stays.
            try FileManager.default.removeItem(at: directory.appendingPathComponent("joryio-settings.json"))
            let reinstalled = TestSDK(transport: RecordingTransport(), storage: .sqlite(directory: directory))
            reinstalled.start()
            #expect(reinstalled.joryio.getUserId() == nil)
            let again = TestSDK(transport: RecordingTransport(), storage: .sqlite(directory: directory))
            again.start()
            again.joryio.identify("user-2")
            again.scheduler.runUntilIdle()
            let relaunched = TestSDK(transport: RecordingTransport(), storage: .sqlite(directory: directory))
            relaunched.start()
            #expect(relaunched.joryio.getUserId() == "user-2")  // a normal relaunch keeps it
        }
    }

    // WIPE-3, WIPE-4, SESS-5: the opt-out stays; the next event starts a new announced session.
    // GAP-68: wipeData() only forgets the session; the next event starts a new one.
    @Test func wipeDataDeletesIdsAndQueueButKeepsTheOptOut() throws {
        let transport = RecordingTransport(outcome: .failure(TransportError(.cannotConnect, "offline")))
        let sdk = TestSDK(transport: transport)
        sdk.start(sessionStart: true)
        sdk.joryio.identify("user-1")
        sdk.track(["a", "b"])
        let anonymous = sdk.joryio.getAnonymousId()
        let session = sdk.joryio.getSessionId()
        sdk.joryio.optOut()
        sdk.joryio.wipeData()
        sdk.scheduler.runUntilIdle()
        #expect(sdk.joryio.getQueueSize() == 0)
        #expect(sdk.joryio.getUserId() == nil)
        #expect(sdk.joryio.getAnonymousId() != anonymous)
        #expect(sdk.joryio.getSessionId() == nil)
        #expect(sdk.joryio.isUserOptedOut())
        sdk.joryio.optIn()
        transport.outcome = .success(RecordingTransport.defaultResponse)
        sdk.joryio.track("fresh")
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        let sent = transport.requests.last?.events ?? []
        #expect(sent.map { $0["event"] } == ["Session Start", "fresh"])  // the next event starts a new session
        #expect(sdk.joryio.getSessionId() != session)
    }
}

@Suite struct SessionTests {
    @Test("WIPE-4, SESS-5: after wipeData() the next return to the foreground starts an announced session")
    func theForegroundAfterAWipeStartsAnAnnouncedSession() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(sessionStart: true)
        sdk.joryio.track("before")
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        let before = sdk.joryio.getSessionId()
        sdk.joryio.wipeData()
        sdk.scheduler.runUntilIdle()
        #expect(sdk.joryio.getSessionId() == nil)
        let sent = transport.requests.count
        sdk.joryio.applicationWillEnterForeground()
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        let events = transport.requests.dropFirst(sent).flatMap(\.events)
        #expect(events.map { $0["event"] } == ["Session Start"])
        let session = sdk.joryio.getSessionId()
        #expect(session != nil && session != before)
        #expect(events.first?["sessionId"]?.stringValue == session)
    }

    // SESS-1, SESS-2, SESS-3, SESS-8: the timeout counts from the last activity; Session Start carries
    // the device data; getSessionInfo() answers without enableDebug.
    @Test func inactivityBeyondTheTimeoutStartsAnAnnouncedSession() throws {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(sessionTimeout: 60), sessionStart: true)
        sdk.joryio.track("one")
        sdk.scheduler.advance(by: 60)
        sdk.joryio.track("two")  // exactly the timeout after the last activity: same session
        sdk.scheduler.advance(by: 60.001)
        sdk.joryio.track("three")
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        let events = transport.requests.flatMap(\.events)
        #expect(
            events.compactMap { $0["event"]?.stringValue } == ["Session Start", "one", "two", "Session Start", "three"]
        )
        let start = try #require(events.first)
        #expect(start["properties"]?["$device_id"] == start["deviceId"])
        #expect(start["properties"]?["$platform"] == "linux")
        #expect(start["properties"]?["country"] == nil)  // never sent by the SDK (GAP-54)
        #expect(events[1]["sessionId"] == start["sessionId"])
        #expect(events[4]["sessionId"] == events[3]["sessionId"])
        #expect(events[4]["sessionId"] != start["sessionId"])
        let info = sdk.joryio.getSessionInfo()
        #expect(info.sessionId == events[3]["sessionId"]?.stringValue)
        #expect(info.duration == 0)
    }

    // SESS-6, SESS-7, CONSENT-15: no Session Start while pending; announced once consent is granted.
    @Test func aSessionBegunWhilePendingIsAnnouncedOnGrant() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(trackingConsent: .pending), sessionStart: true)
        sdk.joryio.track("held")
        sdk.scheduler.advance(by: 30)
        #expect(transport.requests.isEmpty)
        sdk.joryio.updateConsent(.granted)
        sdk.scheduler.advance(by: 10)
        let names = transport.requests.flatMap(\.events).compactMap { $0["event"]?.stringValue }
        #expect(names == ["held", "Session Start"])
        let events = transport.requests.flatMap(\.events)
        #expect(events[0]["sessionId"] == events[1]["sessionId"])
    }

    @Test("SESS-6, CONSENT-15: a session begun while pending is announced by a later launch that may collect")
    func aLaterLaunchAnnouncesASessionBegunWhilePending() throws {
        try withTemporaryDirectory { directory in
            let transport = RecordingTransport()
            let first = TestSDK(transport: transport, storage: .sqlite(directory: directory))
            first.start(config: JoryioConfig(trackingConsent: .pending), sessionStart: true)
            first.joryio.track("held")
            first.scheduler.advance(by: 30)
            let begun = try #require(first.joryio.getSessionId())
            #expect(transport.requests.isEmpty)

            let second = TestSDK(transport: transport, storage: .sqlite(directory: directory))
            second.start(sessionStart: true)
            second.joryio.flush()
            second.scheduler.runUntilIdle()
            let events = transport.requests.flatMap(\.events)
            #expect(events.compactMap { $0["event"]?.stringValue } == ["held", "Session Start"])
            // Within sessionTimeout the later launch resumes the session and announces that one, not a
            // new session as SESS-6 words it (decisions.md, "Session Start timing"; GAP-21).
            #expect(events.map { $0["sessionId"]?.stringValue } == [begun, begun])
            #expect(second.joryio.getSessionId() == begun)
        }
    }

    // SESS-2: Session Start is announced only while trackSessionStart is on.
    @Test func trackSessionStartFalseNeverAnnounces() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(trackSessionStart: false), sessionStart: true)
        sdk.joryio.track("only")
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(transport.requests.flatMap(\.events).map { $0["event"] } == ["only"])
        #expect(sdk.joryio.getSessionId() != nil)
    }
}
