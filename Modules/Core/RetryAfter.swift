package import Foundation

/// Parses the `Retry-After` response header (RFC 9110 §10.2.3).
package enum RetryAfter {
    /// The delay in seconds: a non-negative integer, or an HTTP date measured from `now` (never
    /// negative). `nil` when the value is neither.
    package static func parse(_ value: String, now: Date) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) {
            return seconds >= 0 ? TimeInterval(seconds) : nil
        }
        if let seconds = Double(trimmed), seconds.isFinite, seconds >= 0 {
            return seconds
        }
        // An HTTP date is short printable ASCII. Anything else never reaches `DateFormatter`, which
        // traps on some non-ASCII input on Linux (found by fuzz-BatchResponse): a lying server or
        // proxy must not crash the app.
        guard trimmed.utf8.count <= 64, trimmed.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
            return nil
        }
        for format in Self.formats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) {
                return max(0, date.timeIntervalSince(now))
            }
        }
        return nil
    }

    /// IMF-fixdate, then the obsolete RFC 850 and asctime forms.
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz",
        "EEEE, dd-MMM-yy HH:mm:ss zzz",
        "EEE MMM d HH:mm:ss yyyy",
    ]
}
