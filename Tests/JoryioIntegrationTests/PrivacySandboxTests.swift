import Foundation
import Joryio
import JoryioCore
import JoryioTesting
import Testing

/// The consent × opt-out matrix (CONSENT-18) end to end: what reaches the sandbox over libcurl, for
/// calls made before and after `initialize()`, including a denial stored by an earlier launch.
@Suite("Consent and opt-out against the sandbox")
struct PrivacySandboxTests {
    enum Consent: String, CaseIterable, Sendable {
        case unset, pending, granted, denied, storedDenial
    }

    enum OptOut: String, CaseIterable, Sendable {
        case optedIn, configOptOut, preInitOptOut, preInitOptInOverConfig
    }

    @Test(arguments: Consent.allCases, OptOut.allCases)
    func whatIsSent(consent: Consent, optOut: OptOut) throws {
        let rig = try SandboxRig()
        defer { rig.tearDown() }
        if consent == .storedDenial {
            let earlier = rig.launch()
            earlier.joryio.updateConsent(.denied)
            rig.settle(earlier)
            earlier.crash()
        }
        var config = JoryioConfig()
        switch consent {
        case .pending: config.trackingConsent = .pending
        case .granted: config.trackingConsent = .granted
        case .denied: config.trackingConsent = .denied
        case .unset, .storedDenial: break
        }
        if optOut == .configOptOut || optOut == .preInitOptInOverConfig { config.optOut = true }
        let sdk = rig.launch(config) { joryio in
            if optOut == .preInitOptOut { joryio.optOut() }
            if optOut == .preInitOptInOverConfig { joryio.optIn() }
            joryio.identify("user-7")
            joryio.track("Before Start", properties: ["i": 0])
        }
        sdk.joryio.track("After Start", properties: ["i": 1])
        sdk.joryio.flush()
        rig.settle(sdk)

        let context = "\(consent) × \(optOut)"
        let optedOut = optOut == .configOptOut || optOut == .preInitOptOut
        let denied = consent == .denied || consent == .storedDenial
        let received = try rig.sandbox.events()
        if optedOut || denied {
            #expect(received.isEmpty, "\(context): nothing collected may reach the server")
            #expect(sdk.joryio.getQueueSize() == 0, "\(context)")
        } else if consent == .pending {
            #expect(received.isEmpty, "\(context): nothing is sent while pending")
            #expect(sdk.joryio.getQueueSize() == 2, "\(context): held on the device")
            sdk.joryio.updateConsent(.granted)
            #expect(rig.drive(sdk) { (try? rig.sandbox.events().count) == 2 }, "\(context): released on grant")
        } else {
            #expect(received.count == 2, "\(context)")
        }
        let delivered = try rig.sandbox.events()
        #expect(delivered.allSatisfy { $0["userId"] as? String == "user-7" }, "\(context)")
        #expect(sdk.joryio.isUserOptedOut() == optedOut, "\(context)")
        let expectedConsent: TrackingConsent =
            denied ? .denied : (consent == .pending && optedOut ? .pending : .granted)  // pending was granted above
        #expect(sdk.joryio.getTrackingConsent() == expectedConsent, "\(context)")
        #expect(sdk.joryio.getUserId() == "user-7", "\(context): identify is always kept")
    }
}
