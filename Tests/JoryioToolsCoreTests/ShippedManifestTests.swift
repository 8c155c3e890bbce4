import Foundation
import Testing

/// The checked-in `docs/PrivacyInfo.json` (the same content as the shipped `PrivacyInfo.xcprivacy`;
/// `make check-generated` keeps both equal to what the code declares) against the PRIVACY rules.
@Suite("Shipped privacy manifest follows SPEC §3.19")
struct ShippedManifestTests {
    private struct Manifest: Decodable {
        struct AccessedAPI: Decodable, Equatable {
            var NSPrivacyAccessedAPIType: String
            var NSPrivacyAccessedAPITypeReasons: [String]
        }
        struct CollectedData: Decodable {
            var NSPrivacyCollectedDataType: String
            var NSPrivacyCollectedDataTypeLinked: Bool
            var NSPrivacyCollectedDataTypePurposes: [String]
            var NSPrivacyCollectedDataTypeTracking: Bool
        }
        var NSPrivacyAccessedAPITypes: [AccessedAPI]
        var NSPrivacyCollectedDataTypes: [CollectedData]
        var NSPrivacyTracking: Bool
        var NSPrivacyTrackingDomains: [String]
    }

    private func manifest() throws -> Manifest {
        let url = Fixture.directory.appendingPathComponent("../../../docs/PrivacyInfo.json").standardizedFileURL
        return try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: url))
    }

    @Test("No tracking, no tracking domains, only UserDefaults with CA92.1 (PRIVACY-2, PRIVACY-6)")
    func trackingAndRequiredReasonAPIs() throws {
        let manifest = try self.manifest()
        #expect(!manifest.NSPrivacyTracking)
        #expect(manifest.NSPrivacyTrackingDomains.isEmpty)
        #expect(
            manifest.NSPrivacyAccessedAPITypes == [
                .init(
                    NSPrivacyAccessedAPIType: "NSPrivacyAccessedAPICategoryUserDefaults",
                    NSPrivacyAccessedAPITypeReasons: ["CA92.1"]
                )
            ]
        )
    }

    @Test("Collected data: linked, not tracking, the spec's purposes, never location (PRIVACY-3, PRIVACY-4)")
    func collectedData() throws {
        let prefix = "NSPrivacyCollectedDataType"
        let entries = try self.manifest().NSPrivacyCollectedDataTypes
        let types = Set(entries.map(\.NSPrivacyCollectedDataType))
        // Exactly the four entries of PRIVACY-6.
        #expect(types == Set(["UserID", "DeviceID", "ProductInteraction", "PurchaseHistory"].map { prefix + $0 }))
        #expect(entries.count == 4)
        let base = ["AppFunctionality", "Analytics", "DeveloperAdvertising"].map { prefix + "Purpose" + $0 }
        for entry in entries {
            #expect(entry.NSPrivacyCollectedDataTypeLinked, "\(entry.NSPrivacyCollectedDataType)")
            #expect(!entry.NSPrivacyCollectedDataTypeTracking, "\(entry.NSPrivacyCollectedDataType)")
            let expected =
                entry.NSPrivacyCollectedDataType == prefix + "DeviceID"
                ? base : base + [prefix + "PurposeProductPersonalization"]
            #expect(
                Set(entry.NSPrivacyCollectedDataTypePurposes) == Set(expected),
                "\(entry.NSPrivacyCollectedDataType)"
            )
        }
    }
}
