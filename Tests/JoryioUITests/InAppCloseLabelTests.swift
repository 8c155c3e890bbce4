import JoryioUI
import Testing

/// The close control's label follows the person's languages (GAP-44): the first preferred language the
/// table has, region and script variants included; English otherwise.
struct InAppCloseLabelTests {
    @Test(arguments: [
        (["el-GR"], "Κλείσιμο"), (["he-IL"], "סגירה"), (["iw"], "סגירה"), (["ar-SA"], "إغلاق"), (["es-419"], "Cerrar"),
        (["de_CH"], "Schließen"), (["zh-Hans-CN"], "关闭"), (["zh-Hant-TW"], "關閉"), (["zh-HK"], "關閉"), (["zh-CN"], "关闭"),
        (["nn-NO"], "Lukk"), (["xx", "fr-CA"], "Fermer"), (["xx-YY"], "Close"), ([], "Close"), ([""], "Close"),
        (["EN-gb"], "Close"),
    ])
    func theLabelFollowsThePreferredLanguages(languages: [String], expected: String) {
        #expect(InAppCloseLabel.label(preferredLanguages: languages) == expected)
    }

    @Test func everyLabelIsShortAndNonEmpty() {
        #expect(InAppCloseLabel.labels["en"] == InAppNativeLayout.closeLabel)
        for (language, label) in InAppCloseLabel.labels {
            #expect(!label.isEmpty && label.count <= 12, "\(language)")
        }
    }
}
