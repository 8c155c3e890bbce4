import JoryioPlatform
import Testing

@Suite struct LocaleTests {
    @Test(arguments: [
        ("en_US.UTF-8", "en-US"),
        ("en_US", "en-US"),
        ("de_DE@euro", "de-DE"),
        ("de_DE.ISO-8859-15@euro", "de-DE"),
        ("sr_RS@latin", "sr-Latn-RS"),
        ("uz_UZ.UTF-8@cyrillic", "uz-Cyrl-UZ"),
        ("fr", "fr"),
        ("FR_ca", "fr-CA"),
        ("pt-BR", "pt-BR"),
        ("es_419.UTF-8", "es-419"),
        ("fil_PH", "fil-PH"),
        ("C", "en-US"),
        ("C.UTF-8", "en-US"),
        ("POSIX", "en-US"),
        ("  en_GB.utf8  ", "en-GB"),
    ])
    func posixNames(name: String, tag: String) {
        #expect(LanguageTag.fromPOSIX(name) == tag)
    }

    @Test(arguments: [
        "", ".UTF-8", "@euro", "e", "engl_US", "en_USA", "en_U1", "en_US_extra", "/usr/lib/locale/en_US",
        "en US", "日本語_JP", "c", "en__US", "_US", "1n_US", "en_12",
    ])
    func garbageNames(name: String) {
        #expect(LanguageTag.fromPOSIX(name) == nil)
    }

    @Test func foundationIdentifiers() {
        #expect(LanguageTag.fromLocaleIdentifier("en_US") == "en-US")
        #expect(LanguageTag.fromLocaleIdentifier("zh-Hans_CN") == "zh-Hans-CN")
        #expect(LanguageTag.fromLocaleIdentifier("en_GB@rg=uszzzz") == "en-GB")
        #expect(LanguageTag.fromLocaleIdentifier("fr-CA") == "fr-CA")
        #expect(LanguageTag.fromLocaleIdentifier("") == nil)
        #expect(LanguageTag.fromLocaleIdentifier("@rg=us") == nil)
        #expect(LanguageTag.primaryLanguage(of: "zh-Hans-CN") == "zh")
        #expect(LanguageTag.primaryLanguage(of: "EN") == "en")
    }

    @Test func environmentPrecedence() {
        let all = LocaleEnvironment(environment: ["LC_ALL": "de_DE.UTF-8", "LC_MESSAGES": "fr_FR", "LANG": "en_US"])
        #expect(all == LocaleEnvironment(locale: "de-DE", language: "de", languages: ["de-DE"]))
        let messages = LocaleEnvironment(environment: ["LC_ALL": "", "LC_MESSAGES": "fr_FR", "LANG": "en_US"])
        #expect(messages.locale == "fr-FR")
        let lang = LocaleEnvironment(environment: ["LANG": "ja_JP.UTF-8"])
        #expect(lang == LocaleEnvironment(locale: "ja-JP", language: "ja", languages: ["ja-JP"]))
    }

    @Test func languagePriorityList() {
        let env = ["LANG": "en_CA.UTF-8", "LANGUAGE": "fr_CA:fr:garbage!::en_CA:fr"]
        #expect(
            LocaleEnvironment(environment: env)
                == LocaleEnvironment(locale: "en-CA", language: "fr", languages: ["fr-CA", "fr", "en-CA"])
        )
        // An unusable list falls back to the locale.
        let junk = LocaleEnvironment(environment: ["LANG": "it_IT", "LANGUAGE": ":::/etc/passwd"])
        #expect(junk.languages == ["it-IT"])
        #expect(junk.language == "it")
    }

    @Test func cLocaleIgnoresLanguageList() {
        // gettext ignores LANGUAGE in the C locale; unset or unparsable locale variables mean C.
        let environments: [[String: String]] = [
            [:], ["LANG": "C.UTF-8", "LANGUAGE": "fr"], ["LC_ALL": "POSIX"], ["LANG": "garbage", "LANGUAGE": "de"],
            ["LANG": ""],
        ]
        for environment in environments {
            #expect(
                LocaleEnvironment(environment: environment)
                    == LocaleEnvironment(locale: "en-US", language: "en", languages: ["en-US"])
            )
        }
    }
}
