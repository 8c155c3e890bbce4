import Foundation
import JoryioInApp
import JoryioKit
import Testing

@Suite struct InAppTypesTests {
    @Test("SPEC §2.9: IN_APP_DISPLAY_DWELL_MS is 1000")
    func dwellConstant() {
        #expect(InAppDisplay.IN_APP_DISPLAY_DWELL_MS == 1000)
    }

    @Test("SPEC §2.4: InAppConfig's documented defaults")
    func configDefaults() {
        let config = InAppConfig()
        #expect(config.enabled)
        #expect(!config.allowHtmlJsInAppMessages)
        #expect(config.syncInterval == 300)
        #expect(!config.holdInAppMessagesForHandler)
        #expect(config.onMessageDisplay == nil && config.onMessageClick == nil && config.onMessageDismiss == nil)
    }

    @Test("SPEC §2.15: the four report actions")
    func reportActions() {
        #expect(InAppReportAction.allCases.map(\.rawValue) == ["displayed", "clicked", "dismissed", "converted"])
    }

    @Test("attribute threshold comparisons")
    func comparisons() {
        #expect(InAppTrigger.Comparison.greaterThanOrEqual.holds(3, 3))
        #expect(!InAppTrigger.Comparison.greaterThan.holds(3, 3))
        #expect(InAppTrigger.Comparison.lessThan.holds(2, 3))
        #expect(InAppTrigger.Comparison.equal.holds(3, 3))
        #expect(!InAppTrigger.Comparison.lessThanOrEqual.holds(.nan, 3))
    }
}
