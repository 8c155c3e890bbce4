import Foundation
import Joryio
import JoryioCore
import JoryioTesting
import Testing

/// `JoryioConfig` clamping, seen from the outside: what is logged and what the SDK then does
/// (BATCH-1, BATCH-2, §2.3).
@Suite struct ConfigTests {
    @Test("BATCH-5 / GAP-69: batchSize above 500 is clamped to 500, with a warning")
    func batchSizeMaximum() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(batchSize: 1000, maxQueueSize: 2000))
        let warnings = sdk.messages(at: .warning)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("batchSize 1000") == true)
        sdk.track(eventNames(600))
        #expect(transport.requests.batchSizes == [500])
        sdk.advance(to: 5)
        #expect(transport.requests.batchSizes == [500, 100])
    }

    @Test("batchSize below 1 is clamped to 1", arguments: [0, -5])
    func batchSizeMinimum(batchSize: Int) {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(batchSize: batchSize))
        #expect(sdk.messages(at: .warning).count == 1)
        sdk.track(["a"])
        #expect(transport.requests.batchSizes == [1])
    }

    @Test("flushInterval below 1 s is clamped to 1 s, with a warning")
    func flushIntervalMinimum() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(flushInterval: 0.1))
        #expect(sdk.messages(at: .warning).count == 1)
        #expect(sdk.messages(at: .warning).first?.contains("flushInterval") == true)
        sdk.track(["a"])
        sdk.advance(to: 0.999)
        #expect(transport.requests.isEmpty)
        sdk.advance(to: 1)
        #expect(transport.requests.count == 1)
    }

    @Test(
        "a non-finite flushInterval falls back to 5 s with exactly one log line",
        arguments: [Double.nan, .infinity, -.infinity]
    )
    func nonFiniteFlushInterval(value: Double) {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(config: JoryioConfig(flushInterval: value))
        let warnings = sdk.messages(at: .warning)
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.contains("flushInterval is not a finite number") == true)
        sdk.track(["a"])
        sdk.advance(to: 4.999)
        #expect(transport.requests.isEmpty)
        sdk.advance(to: 5)
        #expect(transport.requests.count == 1)
    }

    // SESS-1: sessionTimeout's default is 1800 s.
    @Test("non-finite retryBackoffMs, requestTimeout and sessionTimeout fall back to their defaults, one line each")
    func otherNonFiniteValues() {
        let config = JoryioConfig(sessionTimeout: .nan, retryBackoffMs: .infinity, requestTimeout: -.infinity)
        let (clamped, adjustments) = config.clamped()
        #expect(clamped.retryBackoffMs == 1000)
        #expect(clamped.requestTimeout == 10)
        #expect(clamped.sessionTimeout == 1800)
        #expect(adjustments.count == 3, "\(adjustments)")
        #expect(adjustments.allSatisfy { $0.contains("is not a finite number; using the default") })
    }

    @Test("BATCH-15: values in range are left alone and nothing is logged; the defaults")
    func defaultsUntouched() {
        let (clamped, adjustments) = JoryioConfig().clamped()
        #expect(adjustments.isEmpty)
        #expect(clamped.batchSize == 50)
        #expect(clamped.flushInterval == 5)
        #expect(clamped.maxQueueSize == 1000)
        #expect(clamped.maxRetries == 3)
        #expect(clamped.retryBackoffMs == 1000)
        #expect(clamped.requestTimeout == 10)

        let sdk = TestSDK(transport: RecordingTransport())
        sdk.start(config: JoryioConfig(batchSize: 500, flushInterval: 1))
        #expect(sdk.messages(atLeast: .warning).isEmpty)
    }

    @Test("SESS-1, SESS-2, CONSENT-8, LOG-2: the session, consent and logging defaults")
    func sessionConsentAndLoggingDefaults() {
        let config = JoryioConfig()
        #expect(config.sessionTimeout == 1800)
        #expect(config.trackSessionStart)
        #expect(config.trackingConsent == nil)
        #expect(!config.optOut)
        #expect(!config.enableDebug && config.logLevel == nil)
    }

    @Test("LOG-1, LOG-2: negative maxRetries counts as 0; the default log level is .error, .debug with enableDebug")
    func otherClamps() {
        let (clamped, adjustments) = JoryioConfig(maxRetries: -1).clamped()
        #expect(clamped.maxRetries == 0)
        #expect(adjustments.count == 1)
        #expect(JoryioConfig().effectiveLogLevel == .error)
        #expect(JoryioConfig(enableDebug: true).effectiveLogLevel == .debug)
        #expect(JoryioConfig(enableDebug: true, logLevel: .warning).effectiveLogLevel == .warning)
    }
}
