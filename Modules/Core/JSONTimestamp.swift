public import Foundation

/// The wire form of dates: ISO 8601 in UTC with milliseconds, such as `2026-11-30T19:21:59.123Z`.
///
/// Formatted by hand (no `DateFormatter`), because it runs for every event on the caller's thread.
public enum JSONTimestamp {
    /// `date` as `yyyy-MM-ddTHH:mm:ss.SSSZ`, truncated to the millisecond.
    public static func string(from date: Date) -> String {
        // Round to the microsecond first so binary noise (-0.001 s is -1.0000000000000002 ms) does not
        // push a value into the previous millisecond.
        let microseconds = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        let milliseconds = Self.floorDivide(microseconds, 1000).0
        let (days, millisecondOfDay) = Self.floorDivide(milliseconds, 86_400_000)
        let (year, month, day) = Self.civil(fromDays: days)
        let hour = millisecondOfDay / 3_600_000
        let minute = millisecondOfDay / 60_000 % 60
        let second = millisecondOfDay / 1000 % 60
        let millisecond = millisecondOfDay % 1000
        // Every event's timestamp passes here: write the 24 bytes in one go for years 0…9999.
        if (0...9999).contains(year) {
            return String(unsafeUninitializedCapacity: 24) { bytes in
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
                return position
            }
        }
        var text = ""
        text.reserveCapacity(24)
        text += Self.pad(year, 4)
        text += "-" + Self.pad(month, 2) + "-" + Self.pad(day, 2)
        text += "T" + Self.pad(hour, 2) + ":" + Self.pad(minute, 2) + ":" + Self.pad(second, 2)
        text += "." + Self.pad(millisecond, 3) + "Z"
        return text
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

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
