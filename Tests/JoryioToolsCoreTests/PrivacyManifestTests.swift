import Foundation
import JoryioCore
import JoryioToolsCore
import Testing

@Suite("Privacy manifest")
struct PrivacyManifestTests {
    private func facts(_ file: String) throws -> [PrivacyFacts] {
        try JSONDecoder().decode([PrivacyFacts].self, from: Data(contentsOf: URL(fileURLWithPath: Fixture.path(file))))
    }

    @Test("The fixture facts render exactly the golden property list and JSON")
    func golden() throws {
        let manifest = try PrivacyManifest(merging: try self.facts("Facts/valid.json"))
        try Fixture.expectMatchesGolden(manifest.renderPropertyList(), "PrivacyInfo.golden.xcprivacy")
        try Fixture.expectMatchesGolden(try manifest.renderJSON(), "PrivacyInfo.golden.json")
    }

    @Test("Facts of several modules merge: union of purposes and reasons, linked if any module links")
    func merging() throws {
        let manifest = try PrivacyManifest(merging: try self.facts("Facts/valid.json"))
        let userID = try #require(manifest.collectedData.first { $0.type == .userID })
        #expect(userID.linked)
        #expect(userID.purposes == [.analytics, .appFunctionality])
        #expect(manifest.collectedData.map(\.type) == [.deviceID, .userID])
        #expect(
            manifest.accessedAPIs.map(\.category.rawValue) == [
                "NSPrivacyAccessedAPICategoryDiskSpace", "NSPrivacyAccessedAPICategoryUserDefaults",
            ]
        )
        #expect(manifest.accessedAPIs.last?.reasons == ["1C8F.1", "CA92.1"])
        #expect(!manifest.tracking)
    }

    @Test("Output does not depend on the order of modules, entries or purposes")
    func deterministic() throws {
        let facts = try self.facts("Facts/valid.json")
        let reordered = facts.reversed().map { module in
            var module = module
            module.collectedData = module.collectedData.reversed().map {
                var entry = $0
                entry.purposes.reverse()
                return entry
            }
            module.accessedAPIs.reverse()
            return module
        }
        #expect(try PrivacyManifest(merging: reordered) == PrivacyManifest(merging: facts))
    }

    @Test(
        "Invalid facts fail with a message naming the bad value",
        arguments: [
            ("Facts/unknown-data-type.json", "unknown collected data type \"NSPrivacyCollectedDataTypeShoeSize\""),
            ("Facts/empty-purpose.json", "NSPrivacyCollectedDataTypeUserID has an empty purpose"),
        ]
    )
    func invalidFixture(file: String, expected: String) throws {
        let facts = try self.facts(file)
        let error = #expect(throws: ToolError.self) { try PrivacyManifest(merging: facts) }
        #expect(error?.exitCode == .invalidInput)
        #expect(error?.message.contains("privacy facts of Broken: ") == true)
        #expect(error?.message.contains(expected) == true, "\(error?.message ?? "")")
    }

    @Test(
        "Every kind of invalid value is rejected",
        arguments: [
            (PrivacyFacts(module: ""), "a module name is empty"),
            (
                PrivacyFacts(
                    module: "M",
                    collectedData: [.init(.init(rawValue: " "), linked: true, tracking: false, purposes: [.analytics])]
                ),
                "a collected data type is empty"
            ),
            (
                PrivacyFacts(module: "M", collectedData: [.init(.userID, linked: true, tracking: false, purposes: [])]),
                "NSPrivacyCollectedDataTypeUserID has no purposes"
            ),
            (
                PrivacyFacts(
                    module: "M",
                    collectedData: [
                        .init(.userID, linked: true, tracking: false, purposes: [.init(rawValue: "Marketing")])
                    ]
                ),
                "unknown purpose \"Marketing\""
            ),
            (
                PrivacyFacts(
                    module: "M",
                    accessedAPIs: [.init(.init(rawValue: "NSPrivacyAccessedAPICategoryLocation"), reasons: ["CA92.1"])]
                ), "unknown accessed API category \"NSPrivacyAccessedAPICategoryLocation\""
            ),
            (PrivacyFacts(module: "M", accessedAPIs: [.init(.userDefaults, reasons: [])]), "has no reasons"),
            (PrivacyFacts(module: "M", accessedAPIs: [.init(.userDefaults, reasons: [""])]), "has an empty reason"),
            (
                PrivacyFacts(module: "M", accessedAPIs: [.init(.userDefaults, reasons: ["C617.1"])]),
                "reason \"C617.1\" is not allowed for NSPrivacyAccessedAPICategoryUserDefaults"
            ),
        ]
    )
    func invalidValues(facts: PrivacyFacts, expected: String) {
        let error = #expect(throws: ToolError.self) { try PrivacyManifest(merging: [facts]) }
        #expect(error?.message.contains(expected) == true, "\(error?.message ?? "")")
    }

    @Test("No facts give an empty manifest that still says no tracking")
    func empty() throws {
        let plist = try PrivacyManifest(merging: []).renderPropertyList()
        #expect(plist.contains("<key>NSPrivacyCollectedDataTypes</key>\n\t<array/>"))
        #expect(plist.contains("<key>NSPrivacyTracking</key>\n\t<false/>"))
    }
}
