import Foundation
import JoryioCore
import JoryioGeozones
import JoryioKit
import JoryioToolsCore
import Testing

/// PRIVACY-4 / PRIVACY-7 / GEO-4: the core keeps declaring no location; geozones declare theirs in
/// a manifest of their own.
@Suite("PRIVACY-7 / GAP-70: the geozones manifest and the core's")
struct ManifestTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The property list at `path` (repository-relative), parsed: what `plutil -lint` checks.
    private func plist(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: Self.root.appendingPathComponent(path))
        let value = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        return try #require(value as? [String: Any])
    }

    private func dataTypes(_ manifest: [String: Any]) -> [String] {
        let entries = manifest["NSPrivacyCollectedDataTypes"] as? [[String: Any]] ?? []
        return entries.compactMap { $0["NSPrivacyCollectedDataType"] as? String }.sorted()
    }

    @Test("PRIVACY-4: the core product's manifest is unchanged and declares no location")
    func coreDeclaresNoLocation() throws {
        let manifest = try self.plist("Modules/Kit/PrivacyInfo.xcprivacy")
        #expect(
            self.dataTypes(manifest) == [
                "NSPrivacyCollectedDataTypeDeviceID", "NSPrivacyCollectedDataTypeProductInteraction",
                "NSPrivacyCollectedDataTypePurchaseHistory", "NSPrivacyCollectedDataTypeUserID",
            ]
        )
        #expect(manifest["NSPrivacyTracking"] as? Bool == false)
        let text = try String(
            contentsOf: Self.root.appendingPathComponent("Modules/Kit/PrivacyInfo.xcprivacy"),
            encoding: .utf8
        )
        #expect(!text.contains("Location"))
        #expect(!PrivacyFacts.joryio.collectedData.contains { $0.type.rawValue.contains("Location") })
    }

    @Test(
        "GEO-4 / GAP-94: the module's manifest is linted, generated from its facts, and declares precise location only"
    )
    func geozonesManifest() throws {
        let manifest = try self.plist("Modules/Geozones/PrivacyInfo.xcprivacy")
        #expect(self.dataTypes(manifest) == ["NSPrivacyCollectedDataTypePreciseLocation"])
        #expect(manifest["NSPrivacyTracking"] as? Bool == false)
        let entry = try #require((manifest["NSPrivacyCollectedDataTypes"] as? [[String: Any]])?.first)
        #expect(entry["NSPrivacyCollectedDataTypeLinked"] as? Bool == true)
        #expect(entry["NSPrivacyCollectedDataTypeTracking"] as? Bool == false)
        let text = try String(
            contentsOf: Self.root.appendingPathComponent("Modules/Geozones/PrivacyInfo.xcprivacy"),
            encoding: .utf8
        )
        #expect(text == (try PrivacyManifest(merging: [.joryioGeozones]).renderPropertyList()))
    }

    @Test("The default privacy-manifest run leaves geozones out; --module JoryioGeozones writes them alone")
    func toolKeepsThemApart() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("geo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let core = directory.appendingPathComponent("core.xcprivacy").path
        let geo = directory.appendingPathComponent("geo.xcprivacy").path
        let first = JoryioToolsCommand.run(
            ["privacy-manifest", "--output", core],
            linkedFacts: [.joryio],
            productFacts: [.joryioGeozones]
        )
        #expect(first.exitCode == 0)
        #expect(!(try String(contentsOfFile: core, encoding: .utf8)).contains("Location"))
        let second = JoryioToolsCommand.run(
            ["privacy-manifest", "--output", geo, "--module", "JoryioGeozones"],
            linkedFacts: [.joryio],
            productFacts: [.joryioGeozones]
        )
        #expect(second.exitCode == 0)
        let text = try String(contentsOfFile: geo, encoding: .utf8)
        #expect(text.contains("NSPrivacyCollectedDataTypePreciseLocation") && !text.contains("UserID"))
    }

    // GEO-6: geozones are in scope (GAP-70), built as this separate product.
    @Test(
        "GEO-1 / GAP-95: geozones are a SwiftPM product of their own; the pod's sources never include Modules/Geozones"
    )
    func notInThePod() throws {
        #expect(PodspecCheck.swiftPMOnlyProducts["JoryioGeozones"] != nil)
        let podspec = try String(contentsOf: Self.root.appendingPathComponent("Joryio.podspec"), encoding: .utf8)
        #expect(!podspec.contains("Geozones"))
    }
}
