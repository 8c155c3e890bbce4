import Foundation
import Joryio
import JoryioCore
import JoryioPush
import JoryioStorage
import JoryioTesting
import Testing

/// Push receipts and clicks through the whole SDK on virtual time (protocol.md 5.11; PUSH-19,
/// PUSH-33): what is sent, every class of answer, privacy, the pre-init list, wipe, relaunch.
@Suite struct PushReportTests {
    private static let failed = HTTPResponse.json(200, #"{"success":false,"error":"busy"}"#)

    /// A started SDK over `server`, everything due run.
    private func started(_ server: PushReportServer, config: JoryioConfig = JoryioConfig()) -> TestSDK {
        let sdk = TestSDK.withPush(server)
        sdk.start(config: config)
        return sdk
    }

    // MARK: - What is sent

    // PUSH-23: an app whose own delegate takes the taps reports them with trackPushClick(trackingId:).
    @Test("PUSH-19: a receipt and a click, one per request, with every field of protocol.md 5.11")
    func receiptAndClickBodies() throws {
        let server = PushReportServer()
        let sdk = self.started(server)
        sdk.joryio.identify("u1")
        sdk.advance(to: 10)
        sdk.joryio.reportPushDelivered("trk_1")
        sdk.advance(to: 20)
        sdk.joryio.trackPushClick(trackingId: "trk_1")
        sdk.scheduler.runUntilIdle()

        let reports = server.reports
        #expect(reports.reportSummary == ["receipt:trk_1", "click:trk_1"])
        let receipt = try #require(reports.first?.json?.objectValue)
        #expect(
            Set(receipt.keys) == [
                "messageId", "trackingId", "timestamp", "sentAt", "userId", "anonymousId", "deviceId",
            ]
        )
        #expect(receipt["userId"]?.stringValue == "u1")
        #expect(receipt["anonymousId"]?.stringValue == sdk.joryio.getAnonymousId())
        #expect(receipt["deviceId"]?.stringValue?.isEmpty == false)
        #expect(receipt["timestamp"]?.stringValue == JSONTimestamp.string(from: sdk.origin.addingTimeInterval(10)))
        #expect(reports[0].field("messageId") != reports[1].field("messageId"))
        #expect(reports[0].header("X-Joryio-Sdk-Key") == TestSDK.sdkKey)
        #expect(reports[0].header("Content-Type") == "application/json")
        #expect(sdk.pendingReports.isEmpty, "the success shape deletes them")

        sdk.joryio.applicationWillEnterForeground()
        sdk.advance(to: 600)
        #expect(server.reports.count == 2, "nothing is sent twice")
    }

    @Test("`duplicate: true` is a success: the report is deleted")
    func duplicateIsDone() {
        let server = PushReportServer()
        server.script(.success(.json(200, #"{"success":true,"duplicate":true}"#)))
        let sdk = self.started(server)
        sdk.joryio.reportPushDelivered("trk_dup")
        sdk.advance(to: 600)
        #expect(server.reports.count == 1)
        #expect(sdk.pendingReports.isEmpty)
    }

    @Test("a report carries the ids of the person who received the push, not the later ones")
    func idsAtRecordTime() {
        let server = PushReportServer()
        server.fallback = PushReportServer.offline
        let sdk = self.started(server)
        let anonymous = sdk.joryio.getAnonymousId()
        sdk.joryio.reportPushDelivered("trk_anon")
        sdk.scheduler.runUntilIdle()
        sdk.joryio.identify("later-user")
        server.fallback = .success(.ok)
        sdk.joryio.applicationWillEnterForeground()
        sdk.advance(to: 60)
        let last = server.reports.last
        #expect(last?.field("userId") == nil)
        #expect(last?.field("anonymousId") == anonymous)
    }

    @Test("GAP-16: one receipt and one click per push: repeats of a trackingId are ignored")
    func repeatsAreIgnored() {
        let server = PushReportServer()
        let sdk = self.started(server)
        sdk.joryio.reportPushDelivered("trk_r")
        sdk.joryio.reportPushDelivered("trk_r")
        sdk.joryio.trackPushClick(trackingId: "trk_r")
        sdk.joryio.trackPushClick(trackingId: "trk_r")
        sdk.joryio.reportPushDelivered("trk_s")
        sdk.advance(to: 60)
        #expect(server.reports.reportSummary == ["receipt:trk_r", "click:trk_r", "receipt:trk_s"])
    }

    // MARK: - Answers

    /// The answers that keep a report and retry it.
    enum Retryable: String, CaseIterable, Sendable {
        case successFalse, accepted202, notJSON, notFound, notAllowed, tooMany, serverError, unavailable, offline,
            timeout

        var answer: Result<HTTPResponse, TransportError> {
            switch self {
            case .successFalse: .success(PushReportTests.failed)
            case .accepted202: .success(.json(202, #"{"success":true}"#))
            case .notJSON: .success(HTTPResponse(status: 200, body: Data("<html>portal</html>".utf8)))
            case .notFound: .success(.json(404, #"{"success":false,"error":"not_found"}"#))
            case .notAllowed: .success(.json(405, #"{"success":false,"error":"method_not_allowed"}"#))
            case .tooMany: .success(.json(429, #"{"success":false}"#))
            case .serverError: .success(.json(500, #"{"success":false}"#))
            case .unavailable: .success(.json(503, #"{"success":false}"#))
            case .offline: PushReportServer.offline
            case .timeout: .failure(TransportError(.timeout, "timed out"))
            }
        }
    }

    @Test(
        "200 success:false, other 2xx, 404, 405, 429, 5xx and no answer keep the report and resend it after the backoff, same messageId",
        arguments: Retryable.allCases
    )
    func keptAndRetried(_ answer: Retryable) {
        let server = PushReportServer()
        server.script(answer.answer)
        let sdk = self.started(server)
        sdk.joryio.trackPushClick(trackingId: "trk_retry")
        sdk.scheduler.runUntilIdle()
        #expect(server.reports.count == 1)
        #expect(sdk.pendingReports.count == 1, "kept")

        sdk.advance(to: 0.9)
        #expect(server.reports.count == 1, "not before the backoff (1 s)")
        sdk.advance(to: 1.1)
        let reports = server.reports
        #expect(reports.count == 2)
        #expect(reports.map { $0.field("messageId") }.allSatisfy { $0 == reports[0].field("messageId") })
        #expect(reports[1].field("sentAt") != reports[0].field("sentAt"), "sentAt is this attempt's")
        #expect(reports[1].field("timestamp") == reports[0].field("timestamp"))
        #expect(sdk.pendingReports.isEmpty)
        sdk.advance(to: 600)
        #expect(server.reports.count == 2)
    }

    @Test("never before Retry-After, whatever the trigger; the backoff doubles")
    func retryAfterAndBackoff() {
        let server = PushReportServer()
        server.script(
            .success(.json(503, #"{"success":false}"#, headers: ["Retry-After": "30"])),
            .success(.json(503, #"{"success":false}"#)),
            .success(.json(503, #"{"success":false}"#))
        )
        let sdk = self.started(server)
        sdk.joryio.reportPushDelivered("trk_ra")
        sdk.advance(to: 29)
        sdk.joryio.applicationWillEnterForeground()
        sdk.joryio.trackPushClick(trackingId: "trk_other")
        sdk.advance(to: 29.9)
        #expect(server.reports.count == 1, "Retry-After: 30 holds every report")
        sdk.advance(to: 30.1)
        #expect(server.reports.count == 2)
        // The foreground gave a fresh retry budget: the next failure waits 1 s (base), the one
        // after it 2 s (doubled).
        sdk.advance(to: 30.9)
        #expect(server.reports.count == 2)
        sdk.advance(to: 31.1)
        #expect(server.reports.count == 3)
        sdk.advance(to: 32.9)
        #expect(server.reports.count == 3)
        sdk.advance(to: 33.1)
        #expect(
            server.reports.reportSummary == [
                "receipt:trk_ra", "receipt:trk_ra", "receipt:trk_ra", "receipt:trk_ra", "click:trk_other",
            ]
        )
        #expect(Set(server.reports.prefix(4).map { $0.field("messageId") }).count == 1)
    }

    @Test("400, 413 and 422 drop the report and log an error; the next one goes", arguments: [400, 413, 422])
    func rejectedDropped(_ status: Int) {
        let server = PushReportServer()
        server.script(.success(.json(status, #"{"success":false,"error":"invalid_tracking_id"}"#)))
        let sdk = self.started(server)
        sdk.joryio.reportPushDelivered("trk_bad")
        sdk.joryio.trackPushClick(trackingId: "trk_good")
        sdk.advance(to: 600)
        #expect(server.reports.reportSummary == ["receipt:trk_bad", "click:trk_good"])
        #expect(sdk.pendingReports.isEmpty)
        #expect(
            sdk.messages(at: .error).contains {
                $0.contains("push receipt rejected by the server (HTTP \(status)); dropped")
            }
        )
    }

    @Test("402 and 403 keep the reports and stop sending them for the instance", arguments: [402, 403])
    func stoppedForTheInstance(_ status: Int) {
        let server = PushReportServer()
        server.script(.success(.json(status, #"{"success":false}"#)))
        let sdk = self.started(server)
        sdk.joryio.reportPushDelivered("trk_a")
        sdk.scheduler.runUntilIdle()
        sdk.joryio.trackPushClick(trackingId: "trk_b")
        sdk.joryio.applicationWillEnterForeground()
        sdk.joryio.flush()
        sdk.advance(to: 3600)
        #expect(server.reports.count == 1)
        #expect(sdk.pendingReports.map(\.trackingId) == ["trk_a", "trk_b"])
        #expect(sdk.joryio.feature(PushReportsFeature.self)?.isStopped == true)
    }

    @Test("after maxRetries failures in a row the feature waits for the next trigger (GAP-18)")
    func waitsForATriggerAfterMaxRetries() {
        let server = PushReportServer()
        server.fallback = .success(.json(503, #"{"success":false}"#))
        let sdk = self.started(server, config: JoryioConfig(maxRetries: 2))
        sdk.joryio.reportPushDelivered("trk_m")
        sdk.advance(to: 3600)
        #expect(server.reports.count == 3, "the first send and 2 retries")
        server.fallback = .success(.ok)
        sdk.joryio.applicationWillEnterForeground()
        sdk.advance(to: 7200)
        #expect(server.reports.count == 4)
        #expect(sdk.pendingReports.isEmpty)
    }

    // MARK: - SDK authentication (401)

    @Test("AUTH-9: a current user's report rejected with 401 waits for a new token, then goes with it")
    func currentUserWaitsForAToken() {
        let server = PushReportServer()
        let sdk = self.started(server, config: JoryioConfig(enableSdkAuthentication: true))
        sdk.joryio.setSdkAuthenticationToken(testJWT(sub: "alice"))
        sdk.joryio.identify("alice")
        server.script(.success(.json(401, #"{"success":false,"error":"unauthorized","reason":"expired"}"#)))
        sdk.joryio.reportPushDelivered("trk_auth")
        sdk.advance(to: 600)
        #expect(server.reports.count == 1, "held: no resend without a new token")
        #expect(sdk.pendingReports.count == 1)

        let fresh = testJWT(sub: "alice", tag: "fresh")
        sdk.joryio.setSdkAuthenticationToken(fresh)
        sdk.advance(to: 601)
        #expect(server.reports.count == 2)
        #expect(server.reports.last?.header("Authorization") == "Bearer " + fresh)
        #expect(server.reports[0].field("messageId") == server.reports[1].field("messageId"))
        #expect(sdk.pendingReports.isEmpty)
    }

    @Test("AUTH-8: a departed user's report rejected with 401 is dropped")
    func departedUsersReportDropped() {
        let server = PushReportServer()
        server.fallback = PushReportServer.offline
        let sdk = self.started(server, config: JoryioConfig(enableSdkAuthentication: true))
        sdk.joryio.setSdkAuthenticationToken(testJWT(sub: "alice"))
        sdk.joryio.identify("alice")
        sdk.joryio.reportPushDelivered("trk_alice")
        sdk.scheduler.runUntilIdle()
        sdk.joryio.reset()
        sdk.joryio.setSdkAuthenticationToken(testJWT(sub: "bob"))
        sdk.joryio.identify("bob")
        server.fallback = .success(.json(401, #"{"success":false,"error":"unauthorized","reason":"expired"}"#))
        sdk.joryio.applicationWillEnterForeground()
        sdk.advance(to: 600)
        #expect(sdk.pendingReports.isEmpty, "alice's receipt dropped")
        #expect(server.reports.allSatisfy { $0.field("userId") == "alice" })
        #expect(sdk.messages(at: .warning).contains { $0.contains("no longer current dropped") })
    }

    // MARK: - Privacy (PUSH-33, CONSENT-16)

    @Test("PUSH-33, OPTOUT-1: while opted out nothing is recorded, and opting in sends nothing from that time")
    func optedOutRecordsNothing() {
        let server = PushReportServer()
        let sdk = self.started(server)
        sdk.joryio.optOut()
        sdk.joryio.reportPushDelivered("trk_out")
        sdk.joryio.trackPushClick(trackingId: "trk_out")
        sdk.advance(to: 60)
        #expect(sdk.pendingReports.isEmpty)
        sdk.joryio.optIn()
        sdk.advance(to: 120)
        #expect(server.reports.isEmpty)
        sdk.joryio.reportPushDelivered("trk_in")
        sdk.advance(to: 180)
        #expect(server.reports.reportSummary == ["receipt:trk_in"], "recorded while allowed: sent")
    }

    @Test("PUSH-33: while consent is denied nothing is recorded")
    func deniedRecordsNothing() {
        let server = PushReportServer()
        let sdk = self.started(server)
        sdk.joryio.updateConsent(.denied)
        sdk.joryio.trackPushClick(trackingId: "trk_denied")
        sdk.advance(to: 60)
        #expect(sdk.pendingReports.isEmpty)
        sdk.joryio.updateConsent(.granted)
        sdk.advance(to: 120)
        #expect(server.reports.isEmpty)
    }

    @Test("CONSENT-16: while consent is pending reports wait on the device, and go once it is granted")
    func pendingHolds() {
        let server = PushReportServer()
        let sdk = self.started(server, config: JoryioConfig(trackingConsent: .pending))
        sdk.joryio.reportPushDelivered("trk_wait")
        sdk.joryio.applicationWillEnterForeground()
        sdk.joryio.flush()
        sdk.advance(to: 600)
        #expect(server.reports.isEmpty)
        #expect(sdk.pendingReports.count == 1)
        sdk.joryio.updateConsent(.granted)
        sdk.advance(to: 601)
        #expect(server.reports.reportSummary == ["receipt:trk_wait"])
    }

    @Test("reports held while pending are deleted when consent is denied, and never sent after a later grant")
    func pendingThenDeniedDeletes() {
        let server = PushReportServer()
        let sdk = self.started(server, config: JoryioConfig(trackingConsent: .pending))
        sdk.joryio.reportPushDelivered("trk_p")
        sdk.scheduler.runUntilIdle()
        sdk.joryio.updateConsent(.denied)
        sdk.scheduler.runUntilIdle()
        #expect(sdk.pendingReports.isEmpty)
        sdk.joryio.updateConsent(.granted)
        sdk.advance(to: 600)
        #expect(server.reports.isEmpty)
    }

    @Test("an opt-out deletes the reports still waiting; opting in again does not bring them back")
    func optOutDeletesWaiting() {
        let server = PushReportServer()
        server.fallback = PushReportServer.offline
        let sdk = self.started(server)
        sdk.joryio.reportPushDelivered("trk_w")
        sdk.scheduler.runUntilIdle()
        let attempts = server.reports.count
        sdk.joryio.optOut()
        sdk.scheduler.runUntilIdle()
        #expect(sdk.pendingReports.isEmpty)
        server.fallback = .success(.ok)
        sdk.joryio.optIn()
        sdk.advance(to: 600)
        #expect(server.reports.count == attempts)
    }

    @Test("WIPE-1: wipeData() deletes every report")
    func wipeDeletes() {
        let server = PushReportServer()
        server.fallback = PushReportServer.offline
        let sdk = self.started(server)
        sdk.joryio.reportPushDelivered("trk_wipe")
        sdk.joryio.trackPushClick(trackingId: "trk_wipe")
        sdk.scheduler.runUntilIdle()
        let attempts = server.reports.count
        sdk.joryio.wipeData()
        sdk.scheduler.runUntilIdle()
        #expect(sdk.pendingReports.isEmpty)
        server.fallback = .success(.ok)
        sdk.joryio.applicationWillEnterForeground()
        sdk.advance(to: 600)
        #expect(server.reports.count == attempts)
        // The memory of reported pushes went too: the same push may be reported again.
        sdk.joryio.reportPushDelivered("trk_wipe")
        sdk.advance(to: 700)
        #expect(server.reports.count == attempts + 1)
    }

    // MARK: - Before initialize() (INIT-6, INIT-8)

    @Test("INIT-6: reports made before initialize() are kept and sent after it, with their own time")
    func preInitKept() {
        let server = PushReportServer()
        let sdk = TestSDK.withPush(server)
        sdk.joryio.reportPushDelivered("trk_early")
        sdk.scheduler.advance(by: 5)
        sdk.start()
        sdk.scheduler.runUntilIdle()
        #expect(server.reports.reportSummary == ["receipt:trk_early"])
        #expect(server.reports.first?.field("timestamp") == JSONTimestamp.string(from: sdk.origin))
    }

    @Test("INIT-8: before initialize(), a report made while opted out, or before an opt-out or a wipe, is dropped")
    func preInitGated() {
        let server = PushReportServer()
        let sdk = TestSDK.withPush(server)
        sdk.joryio.reportPushDelivered("trk_before_optout")
        sdk.joryio.optOut()
        sdk.joryio.trackPushClick(trackingId: "trk_while_out")
        sdk.joryio.optIn()
        sdk.joryio.reportPushDelivered("trk_before_wipe")
        sdk.joryio.wipeData()
        sdk.joryio.trackPushClick(trackingId: "trk_kept")
        sdk.start()
        sdk.advance(to: 60)
        #expect(server.reports.reportSummary == ["click:trk_kept"])
    }

    // MARK: - Input, limits, persistence

    @Test(
        "PUSH-19: an invalid trackingId logs a warning and records nothing",
        arguments: ["", String(repeating: "x", count: 129), "trk\n1", "trk\u{7}", "\u{0}"]
    )
    func invalidTrackingId(_ trackingId: String) {
        let server = PushReportServer()
        let sdk = TestSDK.withPush(server)
        sdk.joryio.reportPushDelivered(trackingId)
        sdk.start()
        sdk.joryio.trackPushClick(trackingId: trackingId)
        sdk.advance(to: 60)
        #expect(server.reports.isEmpty)
        #expect(sdk.pendingReports.isEmpty)
        let warnings = sdk.messages(at: .warning)
        #expect(warnings.contains { $0.contains("reportPushDelivered: the trackingId must be 1 to 128 characters") })
        #expect(warnings.contains { $0.contains("trackPushClick: the trackingId must be 1 to 128 characters") })
    }

    @Test("a trackingId of exactly 128 characters, and non-ASCII ones, are reported")
    func longestTrackingId() {
        let server = PushReportServer()
        let sdk = self.started(server)
        let longest = String(repeating: "é", count: 128)
        sdk.joryio.reportPushDelivered(longest)
        sdk.joryio.trackPushClick(trackingId: "trk 🚀")
        sdk.advance(to: 60)
        #expect(server.reports.map { $0.field("trackingId") } == [longest, "trk 🚀"])
    }

    @Test("at most 500 reports wait: the oldest are dropped with a warning")
    func capped() {
        let server = PushReportServer()
        let sdk = self.started(server, config: JoryioConfig(trackingConsent: .pending))
        for index in 0..<502 {
            sdk.joryio.reportPushDelivered("trk_\(index)")
        }
        sdk.scheduler.runUntilIdle()
        #expect(sdk.pendingReports.count == 500)
        #expect(sdk.pendingReports.first?.trackingId == "trk_2")
        #expect(
            sdk.messages(at: .warning).filter { $0.contains("more than 500 push receipts and clicks wait") }.count == 2
        )
        sdk.joryio.updateConsent(.granted)
        sdk.scheduler.runUntilIdle()
        #expect(server.reports.count == 500)
        #expect(server.reports.first?.field("trackingId") == "trk_2")
    }

    @Test("reports survive a relaunch and are sent then, with the same messageId")
    func survivesRelaunch() throws {
        try withTemporaryDirectory { directory in
            let server = PushReportServer()
            server.fallback = PushReportServer.offline
            let first = TestSDK.withPush(server, storage: .sqlite(directory: directory))
            first.start()
            first.joryio.reportPushDelivered("trk_relaunch")
            first.joryio.trackPushClick(trackingId: "trk_relaunch")
            first.scheduler.runUntilIdle()
            let firstMessageId = server.reports.first?.field("messageId")
            first.joryio.relinquishStorage()

            server.fallback = .success(.ok)
            let before = server.reports.count
            let second = TestSDK.withPush(
                server,
                storage: .sqlite(directory: directory),
                identifiers: SequentialIdentifierGenerator(first: 1000)
            )
            second.start()
            second.advance(to: 60)
            let resent = Array(server.reports.dropFirst(before))
            #expect(resent.reportSummary == ["receipt:trk_relaunch", "click:trk_relaunch"])
            #expect(resent.first?.field("messageId") == firstMessageId)
            #expect(second.pendingReports.isEmpty)
            // The push is still known as reported: a repeat after the relaunch is ignored.
            second.joryio.reportPushDelivered("trk_relaunch")
            second.advance(to: 120)
            #expect(server.reports.count == before + 2)
        }
    }

    @Test("a stored item that cannot be read is logged and deleted; reports work on")
    func unreadableItem() throws {
        try withTemporaryDirectory { directory in
            let server = PushReportServer()
            // A first launch, so the next one is not taken for a reinstall (which clears the secure store).
            let first = TestSDK.withPush(server, storage: .sqlite(directory: directory))
            first.start()
            first.joryio.relinquishStorage()
            let secure = try FileSecureStore(directory: directory.appendingPathComponent("secure", isDirectory: true))
            try secure.set(Data("not a report book".utf8), forKey: PushReportsFeature.storageKey)
            let sdk = TestSDK.withPush(
                server,
                storage: .sqlite(directory: directory),
                identifiers: SequentialIdentifierGenerator(first: 1000)
            )
            sdk.start()
            #expect(sdk.messages(at: .error).contains("deleted stored push receipts and clicks that cannot be read"))
            sdk.joryio.reportPushDelivered("trk_after")
            sdk.advance(to: 60)
            #expect(server.reports.reportSummary == ["receipt:trk_after"])
        }
    }

    @Test("402 keeps the reports for the next launch, which sends them")
    func stoppedReportsGoNextLaunch() throws {
        try withTemporaryDirectory { directory in
            let server = PushReportServer()
            server.script(.success(.json(402, #"{"success":false}"#)))
            let first = TestSDK.withPush(server, storage: .sqlite(directory: directory))
            first.start()
            first.joryio.reportPushDelivered("trk_402")
            first.advance(to: 600)
            #expect(server.reports.count == 1)
            first.joryio.relinquishStorage()

            let second = TestSDK.withPush(
                server,
                storage: .sqlite(directory: directory),
                identifiers: SequentialIdentifierGenerator(first: 1000)
            )
            second.start()
            second.advance(to: 60)
            #expect(server.reports.reportSummary == ["receipt:trk_402", "receipt:trk_402"])
            #expect(second.pendingReports.isEmpty)
        }
    }

    @Test("the JoryioAnalytics catalog has no push reports: the calls do nothing")
    func analyticsHasNoReports() {
        let server = PushReportServer()
        let sdk = TestSDK(transport: server)
        sdk.start()
        sdk.joryio.reportPushDelivered("trk_none")
        sdk.advance(to: 60)
        #expect(server.reports.isEmpty)
    }
}
