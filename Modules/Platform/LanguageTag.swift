import Foundation

/// Conversions of locale names to BCP-47 language tags (`en-US`).
package enum LanguageTag {
    /// The tag a C library's `C` / `POSIX` locale stands for. ICU reads both as `en_US_POSIX`:
    /// untranslated English messages with US conventions.
    package static let posixLocale = "en-US"

    /// The BCP-47 tag of a POSIX locale name, `language[_TERRITORY][.codeset][@modifier]`.
    ///
    /// `en_US.UTF-8` → `en-US`, `de_DE@euro` → `de-DE`, `sr_RS@latin` → `sr-Latn-RS`,
    /// `fr` → `fr`, `C.UTF-8` and `POSIX` → `en-US` (``posixLocale``). A `-` separator
    /// (`pt-BR`) is accepted too.
    ///
    /// - Parameter name: A value of `LANG`, `LC_ALL`, `LC_MESSAGES` or an entry of `LANGUAGE`.
    /// - Returns: `nil` when `name` is not a locale name (a path, garbage, a three-part name).
    package static func fromPOSIX(_ name: String) -> String? {
        var rest = Substring(name.trimmingCharacters(in: .whitespaces))
        var modifier: Substring = ""
        if let at = rest.firstIndex(of: "@") {
            modifier = rest[rest.index(after: at)...]
            rest = rest[..<at]
        }
        if let dot = rest.firstIndex(of: ".") {
            rest = rest[..<dot]
        }
        if rest == "C" || rest == "POSIX" {
            return self.posixLocale
        }
        let parts = rest.split(separator: "_", maxSplits: 2, omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "-", omittingEmptySubsequences: false) }
        guard (1...2).contains(parts.count), let language = self.language(parts[0]) else { return nil }
        var subtags = [language]
        if let script = self.script(modifier: modifier) {
            subtags.append(script)
        }
        if parts.count == 2 {
            guard let region = self.region(parts[1]) else { return nil }
            subtags.append(region)
        }
        return subtags.joined(separator: "-")
    }

    /// The BCP-47 tag of a Foundation locale identifier: `en_US` → `en-US`,
    /// `zh-Hans_CN` → `zh-Hans-CN`, `en_GB@rg=usza` → `en-GB` (keywords dropped).
    ///
    /// - Parameter identifier: `Locale.identifier` or an entry of `Locale.preferredLanguages`.
    /// - Returns: `nil` for an empty identifier or one whose first subtag is not a language.
    package static func fromLocaleIdentifier(_ identifier: String) -> String? {
        let base = identifier.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let subtags = base.split(whereSeparator: { $0 == "_" || $0 == "-" })
        guard let first = subtags.first, let language = self.language(first) else { return nil }
        return ([language] + subtags.dropFirst().map(String.init)).joined(separator: "-")
    }

    /// The primary language subtag of a tag, lowercased: `en-US` → `en`.
    ///
    /// - Parameter tag: A BCP-47 tag.
    /// - Returns: The part before the first `-`.
    package static func primaryLanguage(of tag: String) -> String {
        String(tag.prefix { $0 != "-" }).lowercased()
    }

    /// A language subtag of 2 or 3 ASCII letters, lowercased.
    private static func language(_ part: Substring) -> String? {
        guard (2...3).contains(part.count), part.allSatisfy(\.isASCIILetter) else { return nil }
        return part.lowercased()
    }

    /// A region subtag: 2 ASCII letters, uppercased, or 3 digits (`419`).
    private static func region(_ part: Substring) -> String? {
        if part.count == 2, part.allSatisfy(\.isASCIILetter) { return part.uppercased() }
        if part.count == 3, part.allSatisfy(\.isASCIIDigit) { return String(part) }
        return nil
    }

    /// The script a glibc modifier names (`@latin`, `@cyrillic`, `@devanagari`); other modifiers
    /// (`@euro`) name none.
    private static func script(modifier: Substring) -> String? {
        switch modifier.lowercased() {
        case "latin": "Latn"
        case "cyrillic": "Cyrl"
        case "devanagari": "Deva"
        default: nil
        }
    }
}

extension Character {
    /// Whether this is `A`…`Z` or `a`…`z`.
    fileprivate var isASCIILetter: Bool {
        self.isASCII && self.isLetter
    }

    /// Whether this is `0`…`9`.
    fileprivate var isASCIIDigit: Bool {
        self.isASCII && self.isNumber
    }
}
