import JoryioCore
import JoryioTesting
import Testing

@Suite struct LoggerTests {
    @Test func levelsBelowTheMinimumAreNotEvenBuilt() {
        let sink = InMemoryLogSink()
        let logger = Logger(sink: sink, minimumLevel: .warning, module: "test")
        var built = 0
        func message(_ text: String) -> String {
            built += 1
            return text
        }
        logger.debug(message("hidden"))
        logger.info(message("hidden"))
        logger.warning(message("shown"))
        logger.error(message("shown too"))
        #expect(built == 2)
        #expect(sink.records.map(\.message) == ["shown", "shown too"])
        #expect(sink.records.map(\.level) == [.warning, .error])
        #expect(sink.records.allSatisfy { $0.module == "test" })
    }

    @Test("GAP-47: six levels ordered by severity, .verbose the lowest and .none the highest")
    func levelsOrderedBySeverity() {
        let levels: [LogLevel] = [.verbose, .debug, .info, .warning, .error, .none]
        #expect(LogLevel.allCases == levels)
        #expect(zip(levels, levels.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test func noneSilencesEverything() {
        let sink = InMemoryLogSink()
        Logger(sink: sink, minimumLevel: .none).error("x")
        #expect(sink.records.isEmpty)
        #expect(LogLevel.error > LogLevel.warning)
    }

    @Test func keysAndTokensAreRedactedInMessagesAndMetadata() {
        let sink = InMemoryLogSink()
        let logger = Logger(sink: sink, minimumLevel: .verbose)
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEifQ.c2lnbmF0dXJl"
        logger.error(
            "key jry_sdk_ios_ABCDEF123456 rejected, token \(jwt)",
            ["header": "Bearer abc.def-ghi", "key": "jry_sdk_ios_XYZ9"]
        )
        let record = sink.records.first
        #expect(record?.message == "key jry_sdk_…3456 rejected, token <redacted-token>")
        #expect(record?.metadata["header"] == "Bearer <redacted-token>")
        #expect(record?.metadata["key"] == "jry_sdk_…XYZ9")
        #expect(record.map { !$0.message.contains("ABCDEF") } == true)
    }

    @Test("a bare key prefix is a hint, not a secret: it is not masked; a key after it still is")
    func keyPrefixHintsAreKept() {
        #expect(Redactor.redact("expected jry_sdk_… (iOS: jry_sdk_ios_…)") == "expected jry_sdk_… (iOS: jry_sdk_ios_…)")
        #expect(Redactor.redact("any jry_sdk_* key") == "any jry_sdk_* key")
        #expect(Redactor.redact("jry_sdk_ios_ABCDEF123456") == "jry_sdk_…3456")
        #expect(Redactor.redact("jry_sdk_ios_test_key") == "jry_sdk_…_key")
        #expect(Redactor.redact("jry_sdk_ios_abc_") == "jry_sdk_…abc_", "a segment with more than letters is a key")
        #expect(Redactor.redact("jry_sdk_x1_") == "jry_sdk_…_x1_")
    }

    @Test func ordinaryTextIsUntouched() {
        #expect(Redactor.redact("flushed 50 events (eyJ is not a token)") == "flushed 50 events (eyJ is not a token)")
    }
}
