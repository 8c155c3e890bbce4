/// The close control's label in the person's language (GAP-44): VoiceOver reads it, and the built-in
/// native views show it. The SDK ships no string catalogue (a resource bundle per language in the
/// pod and the package alike), so the few languages an in-app close needs are a table here, chosen
/// by the device's preferred languages in order; English when none matches. An app that wants other
/// wording draws messages with its own presenter.
package enum InAppCloseLabel {
    /// The label by language code (`zh-Hant` for traditional Chinese, `zh` for simplified).
    package static let labels: [String: String] = [
        "en": "Close", "ar": "إغلاق", "da": "Luk", "de": "Schließen", "el": "Κλείσιμο", "es": "Cerrar",
        "fi": "Sulje", "fr": "Fermer", "he": "סגירה", "hi": "बंद करें", "id": "Tutup", "it": "Chiudi",
        "ja": "閉じる", "ko": "닫기", "nb": "Lukk", "nl": "Sluiten", "pl": "Zamknij", "pt": "Fechar",
        "ro": "Închide", "ru": "Закрыть", "sv": "Stäng", "th": "ปิด", "tr": "Kapat", "uk": "Закрити",
        "vi": "Đóng", "zh": "关闭", "zh-Hant": "關閉",
    ]

    /// The label for the first of `preferredLanguages` (BCP 47 tags such as `el-GR`, `zh-Hant-TW`,
    /// `iw`) the table has; ``InAppNativeLayout/closeLabel`` (English) when none.
    package static func label(preferredLanguages: [String]) -> String {
        for tag in preferredLanguages {
            let parts = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { $0.lowercased() }
            guard var language = parts.first else { continue }
            switch language {
            case "iw": language = "he"
            case "no", "nn": language = "nb"
            case "in": language = "id"
            case "zh":
                let traditional =
                    parts.contains("hant")
                    || (!parts.contains("hans") && parts.contains { ["tw", "hk", "mo"].contains($0) })
                if traditional { language = "zh-Hant" }
            default: break
            }
            if let label = self.labels[language] { return label }
        }
        return InAppNativeLayout.closeLabel
    }
}
