/// The locale facts of a Linux process, resolved from its environment the way glibc and gettext do.
package struct LocaleEnvironment: Sendable, Equatable {
    /// The locale as a BCP-47 tag (`en-US`).
    package var locale: String
    /// The primary language subtag of the first preferred language (`en`).
    package var language: String
    /// The preferred languages as BCP-47 tags, most preferred first, without duplicates.
    package var languages: [String]

    /// Creates locale facts from their values.
    package init(locale: String, language: String, languages: [String]) {
        self.locale = locale
        self.language = language
        self.languages = languages
    }

    /// Resolves the locale facts from environment variables.
    ///
    /// - The locale is the first non-empty of `LC_ALL`, `LC_MESSAGES` and `LANG` (glibc's order for
    ///   message language). When none is set, or the one set is `C`/`POSIX` or not a locale name, the
    ///   process runs in the C locale, which is reported as `en-US` (``LanguageTag/posixLocale``).
    /// - The preferred languages are gettext's `LANGUAGE` priority list (`fr_CA:fr:en`), which gettext
    ///   ignores in the C locale; entries that are not locale names are skipped. Without a usable
    ///   list, the locale alone.
    /// - The language is the primary subtag of the first preferred language.
    ///
    /// - Parameter environment: The process environment.
    package init(environment: [String: String]) {
        let name = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy
            .compactMap { environment[$0] }
            .first { !$0.isEmpty }
        let parsed = name.flatMap(LanguageTag.fromPOSIX)
        let locale = parsed ?? LanguageTag.posixLocale
        let isCLocale = parsed == nil || name.map(Self.isCLocaleName) == true
        var languages: [String] = []
        if !isCLocale, let list = environment["LANGUAGE"] {
            for entry in list.split(separator: ":") {
                if let tag = LanguageTag.fromPOSIX(String(entry)), !languages.contains(tag) {
                    languages.append(tag)
                }
            }
        }
        if languages.isEmpty {
            languages = [locale]
        }
        self.locale = locale
        self.language = LanguageTag.primaryLanguage(of: languages[0])
        self.languages = languages
    }

    /// Whether `name` is `C` or `POSIX`, with or without a codeset (`C.UTF-8`).
    private static func isCLocaleName(_ name: String) -> Bool {
        let base = name.prefix { $0 != "." && $0 != "@" }
        return base == "C" || base == "POSIX"
    }
}
