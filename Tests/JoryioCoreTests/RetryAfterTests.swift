import Foundation
import JoryioCore
import Testing

@Suite struct RetryAfterTests {
    private let now = Date(timeIntervalSince1970: 1_767_225_600)  // Thu, 01 Jan 2026 00:00:00 GMT

    @Test func secondsAndDates() {
        #expect(RetryAfter.parse("120", now: self.now) == 120)
        #expect(RetryAfter.parse(" 0 ", now: self.now) == 0)
        #expect(RetryAfter.parse("1.5", now: self.now) == 1.5)
        #expect(RetryAfter.parse("Thu, 01 Jan 2026 00:00:30 GMT", now: self.now) == 30)
        #expect(RetryAfter.parse("Thursday, 01-Jan-26 00:01:00 GMT", now: self.now) == 60)
        #expect(RetryAfter.parse("Wed, 31 Dec 2025 23:00:00 GMT", now: self.now) == 0)
    }

    @Test func garbageIsIgnored() {
        #expect(RetryAfter.parse("-5", now: self.now) == nil)
        #expect(RetryAfter.parse("soon", now: self.now) == nil)
        #expect(RetryAfter.parse("", now: self.now) == nil)
    }

    @Test func responseReadsTheHeaderCaseInsensitively() {
        let response = HTTPResponse(status: 429, headers: ["Retry-After": "7"])
        #expect(response.retryAfter(now: self.now) == 7)
        #expect(response.header("retry-after") == "7")
        #expect(HTTPResponse(status: 503).retryAfter(now: self.now) == nil)
    }

    @Test("a value that is not short printable ASCII is no date, and never reaches DateFormatter")
    func hostileValues() {
        for value in [
            "F\u{64C}\u{FFFD}success\": false", "Thu, 01 Jan 2026 00:00:00 GMT\u{0}",
            "\u{0645}\u{0631}\u{062D}\u{0628}\u{0627}",
            String(repeating: "9", count: 65) + "x", "Thu,\u{A0}01 Jan 2026 00:00:00 GMT",
        ] {
            #expect(RetryAfter.parse(value, now: self.now) == nil)
        }
        #expect(RetryAfter.parse("Thu, 01 Jan 2026 00:01:00 GMT", now: self.now) == 60)
    }
}
