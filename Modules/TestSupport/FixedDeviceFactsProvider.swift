public import JoryioCore

/// A `DeviceFactsProvider` that always returns the same facts.
public struct FixedDeviceFactsProvider: DeviceFactsProvider {
    /// The facts every ``current()`` call returns.
    public let facts: DeviceFacts

    /// Creates a provider returning `facts` (by default `DeviceFacts.sample`).
    public init(_ facts: DeviceFacts = .sample) {
        self.facts = facts
    }

    /// A provider returning `DeviceFacts.sample`.
    public static let sample = FixedDeviceFactsProvider()

    /// The fixed facts.
    public func current() -> DeviceFacts {
        self.facts
    }
}

extension DeviceFacts {
    /// A complete, plausible iPhone: every SESS-3 field set, so rendering yields all 13 keys.
    public static let sample = DeviceFacts(
        platform: "ios",
        model: "iPhone15,2",
        osName: "iOS",
        osVersion: "17.4.1",
        appVersion: "2.3.0",
        buildNumber: "230",
        bundleId: "com.example.shop",
        screenWidth: 1179,
        screenHeight: 2556,
        locale: "fr-CA",
        language: "fr",
        languages: ["fr-CA", "en-US"],
        timezone: "America/Toronto"
    )
}
