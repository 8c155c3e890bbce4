package import Foundation
package import JoryioCore

// The scalar values of the in-app wire: timestamps and URLs. JoryioInApp does not depend on
// JoryioPush, so the link rules are its own (the same list as push links, protocol.md 7.1).

extension InAppWire {
    /// A protocol timestamp the server sends: `YYYY-MM-DDTHH:MM:SS` with 0 … 9 fraction digits and
    /// `Z` (protocol.md §1), or `nil`.
    package static func date(_ value: JSONValue) -> Date? {
        value.stringValue.flatMap(Self.date(timestamp:))
    }

    /// A protocol timestamp (see ``date(_:)``), or `nil`.
    package static func date(timestamp text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 30, bytes.last == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = Int(bytes[index]) - 0x30
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        func byte(_ index: Int, _ char: Character) -> Bool { bytes[index] == char.asciiValue }
        guard byte(4, "-"), byte(7, "-"), byte(10, "T") || byte(10, "t"), byte(13, ":"), byte(16, ":"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...Self.days(inMonth: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var fraction = 0.0
        let end = bytes.count - 1
        if end > 19 {
            guard byte(19, "."), end > 20, let digits = number(20..<end) else { return nil }
            fraction = Double(digits) / pow(10, Double(end - 20))
        }
        let days = Self.daysFromCivil(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3_600 + minute * 60 + second) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    private static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// An image address: an `http` or `https` URL with a host, printable ASCII, at most
    /// ``maxURLBytes`` bytes.
    package static func imageURL(_ text: String) -> URL? {
        guard case .success(let scheme) = Self.scheme(text), scheme == "http" || scheme == "https",
            let components = URLComponents(string: text), components.host?.isEmpty == false,
            let url = URL(string: text)
        else { return nil }
        return url
    }

    /// Why a button's link is refused.
    package struct LinkRefusal: Error, Sendable, Equatable {
        /// What was wrong.
        package var reason: String
    }

    /// A button's link: printable ASCII of at most ``maxURLBytes`` bytes with a valid scheme that is
    /// not in ``refusedLinkSchemes``; an `https` link needs a host.
    package static func link(_ text: String) -> Result<URL, LinkRefusal> {
        let scheme: String
        switch Self.scheme(text) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let value): scheme = value
        }
        guard !Self.refusedLinkSchemes.contains(scheme) else {
            return .failure(LinkRefusal(reason: "the scheme \(scheme) is refused"))
        }
        guard let url = URL(string: text) else { return .failure(LinkRefusal(reason: "not a URL")) }
        if scheme == "https", URLComponents(string: text)?.host?.isEmpty != false {
            return .failure(LinkRefusal(reason: "an https link without a host"))
        }
        return .success(url)
    }

    /// The lowercased scheme of a printable-ASCII URL of at most ``maxURLBytes`` bytes.
    private static func scheme(_ text: String) -> Result<String, LinkRefusal> {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= Self.maxURLBytes, bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return .failure(LinkRefusal(reason: "not 1 … \(Self.maxURLBytes) printable ASCII characters"))
        }
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, isLetter(bytes[0]),
            bytes[..<colon].allSatisfy({
                isLetter($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-")
                    || $0 == UInt8(ascii: ".")
            })
        else { return .failure(LinkRefusal(reason: "no valid scheme")) }
        return .success(String(decoding: bytes[..<colon], as: UTF8.self).lowercased())
    }
}
