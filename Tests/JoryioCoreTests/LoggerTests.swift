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

    @Test func ordinaryTextIsUntouched() {
        #expect(Redactor.redact("flushed 50 events (eyJ is not a token)") == "flushed 50 events (eyJ is not a token)")
    }
}
