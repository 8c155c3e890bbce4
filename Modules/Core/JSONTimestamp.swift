public import Foundation

/// The wire form of dates: ISO 8601 in UTC with milliseconds, such as `2026-11-30T19:21:59.123Z`.
///
/// Formatted by hand (no `DateFormatter`), because it runs for every event on the caller's thread.
/// The form has four year digits, so it holds `0000-01-01T00:00:00.000Z` through
/// `9999-12-31T23:59:59.999Z` (`Date.distantPast` and `Date.distantFuture` included).
public enum JSONTimestamp {
    /// The first millisecond the wire form holds, since 1970: `0000-01-01T00:00:00.000Z`.
    static let firstMillisecond: Int64 = -62_167_219_200_000
    /// The last millisecond the wire form holds, since 1970: `9999-12-31T23:59:59.999Z`.
    static let lastMillisecond: Int64 = 253_402_300_799_999

    /// `date` as `yyyy-MM-ddTHH:mm:ss.SSSZ`, truncated to the millisecond, or `nil` when the wire
    /// form cannot hold it (NaN, infinite, or outside years 0000…9999). Use it for dates an app
    /// supplies.
    public static func string(ifRepresentable date: Date) -> String? {
        Self.milliseconds(date).map(Self.string(milliseconds:))
    }

    /// `date` as `yyyy-MM-ddTHH:mm:ss.SSSZ`, truncated to the millisecond. Never traps: a date the
    /// wire form cannot hold is written as the nearest end of its range, and NaN as the epoch
    /// (`1970-01-01T00:00:00.000Z`). For the SDK's own clock readings; app-supplied dates go
    /// through ``string(ifRepresentable:)``.
    public static func string(from date: Date) -> String {
        if let milliseconds = Self.milliseconds(date) {
            return Self.string(milliseconds: milliseconds)
        }
        let seconds = date.timeIntervalSince1970
        let clamped = seconds.isNaN ? 0 : seconds < 0 ? Self.firstMillisecond : Self.lastMillisecond
        return Self.string(milliseconds: clamped)
    }

    /// Whole milliseconds since 1970 (truncated), or `nil` outside the range the wire form holds.
    private static func milliseconds(_ date: Date) -> Int64? {
        let seconds = date.timeIntervalSince1970
        // Checked as a double first: converting NaN, an infinity or anything beyond ±2^63 to an
        // integer traps. The bounds leave a second of slack for the rounding below.
        guard seconds > -62_167_219_201, seconds < 253_402_300_801 else { return nil }
        // Round to the microsecond first so binary noise (-0.001 s is -1.0000000000000002 ms) does not
        // push a value into the previous millisecond.
        let microseconds = Int64((seconds * 1_000_000).rounded())
        let milliseconds = Self.floorDivide(microseconds, 1000).0
        guard milliseconds >= Self.firstMillisecond, milliseconds <= Self.lastMillisecond else { return nil }
        return milliseconds
    }

    /// The wire form of a millisecond within the range.
    private static func string(milliseconds: Int64) -> String {
        // Every event's timestamp passes here: write the 24 bytes in one go.
        String(unsafeUninitializedCapacity: 24) { bytes in
            Self.write(milliseconds: milliseconds, into: UnsafeMutableRawBufferPointer(bytes))
            return 24
        }
    }

    /// Writes ``string(from:)``'s 24 bytes into `buffer` (at least 24 bytes long) without making a
    /// string: the journal record of every `track()` carries them.
    package static func write(_ date: Date, into buffer: UnsafeMutableRawBufferPointer) {
        if let milliseconds = Self.milliseconds(date) {
            Self.write(milliseconds: milliseconds, into: buffer)
            return
        }
        let seconds = date.timeIntervalSince1970
        Self.write(
            milliseconds: seconds.isNaN ? 0 : seconds < 0 ? Self.firstMillisecond : Self.lastMillisecond,
            into: buffer
        )
    }

    /// The wire form's length in bytes.
    package static let byteCount = 24

    private static func write(milliseconds: Int64, into bytes: UnsafeMutableRawBufferPointer) {
        guard bytes.count >= 24 else { return }
        let (days, millisecondOfDay) = Self.floorDivide(milliseconds, 86_400_000)
        let (year, month, day) = Self.civil(fromDays: days)
        let hour = millisecondOfDay / 3_600_000
        let minute = millisecondOfDay / 60_000 % 60
        let second = millisecondOfDay / 1000 % 60
        let millisecond = millisecondOfDay % 1000
        var position = 0
        func put(_ value: Int64, _ width: Int) {
            var remaining = value
            for offset in stride(from: width - 1, through: 0, by: -1) {
                bytes[position + offset] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
            }
            position += width
        }
        func put(_ character: Unicode.Scalar) {
            bytes[position] = UInt8(ascii: character)
            position += 1
        }
        put(year, 4)
        put("-")
        put(month, 2)
        put("-")
        put(day, 2)
        put("T")
        put(hour, 2)
        put(":")
        put(minute, 2)
        put(":")
        put(second, 2)
        put(".")
        put(millisecond, 3)
        put("Z")
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value / divisor
        let remainder = value % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    /// Howard Hinnant's days-from-civil inverse: days since 1970-01-01 to a proleptic Gregorian date.
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}
