import Foundation
import JoryioCore
import JoryioTesting
import Testing

@Suite struct SessionStartPropertiesTests {
    static let sess3Keys: Set<String> = [
        "$platform", "$model", "$os_name", "$os_version", "$app_version", "$build_number", "$bundle_id",
        "$screen_width", "$screen_height", "$locale", "$language", "$languages", "$timezone",
    ]

    @Test("SESS-3: the Session Start keys are exactly the documented ones")
    func keysAreExactlySESS3() {
        #expect(Set(DeviceFacts.PropertyKey.allCases.map(\.rawValue)) == Self.sess3Keys)
        let properties = DeviceFacts.sample.sessionStartProperties()
        #expect(Set(properties.keys) == Self.sess3Keys)
        // GAP-54 / PRIVACY-4: never a country; GAP-48: the engine adds $device_id.
        #expect(!properties.keys.contains { $0.lowercased().contains("country") })
        #expect(properties["$device_id"] == nil)
    }

    @Test func values() {
        let properties = FixedDeviceFactsProvider.sample.current().sessionStartProperties()
        #expect(properties["$platform"] == "ios")
        #expect(properties["$model"] == "iPhone15,2")
        #expect(properties["$os_name"] == "iOS")
        #expect(properties["$os_version"] == "17.4.1")
        #expect(properties["$app_version"] == "2.3.0")
        #expect(properties["$build_number"] == "230")
        #expect(properties["$bundle_id"] == "com.example.shop")
        #expect(properties["$screen_width"] == .int(1179))
        #expect(properties["$screen_height"] == .int(2556))
        #expect(properties["$locale"] == "fr-CA")
        #expect(properties["$language"] == "fr")
        #expect(properties["$languages"] == ["fr-CA", "en-US"])
        #expect(properties["$timezone"] == "America/Toronto")
    }

    @Test func absentValuesAreOmitted() {
        let headless = DeviceFacts(
            platform: "linux",
            model: "",
            osName: "Debian GNU/Linux",
            osVersion: "12",
            appVersion: nil,
            buildNumber: "",
            bundleId: "worker",
            screenWidth: nil,
            screenHeight: -1,
            locale: "en-US",
            language: "en",
            languages: [""],
            timezone: "Etc/UTC"
        )
        let properties = headless.sessionStartProperties()
        #expect(
            Set(properties.keys) == [
                "$platform", "$os_name", "$os_version", "$bundle_id", "$locale", "$language", "$timezone",
            ]
        )
        #expect(properties.values.allSatisfy { $0 != .null && $0 != "" })
    }

    @Test func encodesToSortedJSON() {
        let facts = DeviceFacts(
            platform: "linux",
            model: "x86_64",
            osName: "Debian \"GNU\"/Linux",
            osVersion: "12",
            locale: "en-US",
            language: "en",
            languages: ["en-US"],
            timezone: "Etc/UTC"
        )
        let json = String(decoding: JSONValue.object(facts.sessionStartProperties()).encoded(), as: UTF8.self)
        #expect(
            json
                == #"{"$language":"en","$languages":["en-US"],"$locale":"en-US","$model":"x86_64","#
                + #""$os_name":"Debian \"GNU\"/Linux","$os_version":"12","$platform":"linux","$timezone":"Etc/UTC"}"#
        )
    }
}
