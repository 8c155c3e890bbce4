/// Apple's documented privacy-manifest vocabulary, the only values the generator writes.
///
/// Sources: Apple's "Describing data use in privacy manifests" (data types and purposes) and
/// "Describing use of required reason API" (API categories and their reason codes). Xcode's privacy
/// report ignores values it does not know, so an unknown value is an error here, not a warning.
package enum PrivacyVocabulary {
    /// Every `NSPrivacyCollectedDataType` value.
    package static let dataTypes: Set<String> = Set(
        [
            // Contact info
            "Name", "EmailAddress", "PhoneNumber", "PhysicalAddress", "OtherUserContactInfo",
            // Health and fitness
            "Health", "Fitness",
            // Financial info
            "PaymentInfo", "CreditInfo", "OtherFinancialInfo",
            // Location
            "PreciseLocation", "CoarseLocation",
            // Sensitive info, contacts
            "SensitiveInfo", "Contacts",
            // User content
            "EmailsOrTextMessages", "PhotosorVideos", "AudioData", "GameplayContent", "CustomerSupport",
            "OtherUserContent",
            // Browsing and search history
            "BrowsingHistory", "SearchHistory",
            // Identifiers
            "UserID", "DeviceID",
            // Purchases
            "PurchaseHistory",
            // Usage data
            "ProductInteraction", "AdvertisingData", "OtherUsageData",
            // Diagnostics
            "CrashData", "PerformanceData", "OtherDiagnosticData",
            // Surroundings, body
            "EnvironmentScanning", "Hands", "Head",
            // Other
            "OtherDataTypes",
        ].map { "NSPrivacyCollectedDataType" + $0 }
    )

    /// Every `NSPrivacyCollectedDataTypePurposes` value.
    package static let purposes: Set<String> = Set(
        [
            "ThirdPartyAdvertising", "DeveloperAdvertising", "Analytics", "ProductPersonalization",
            "AppFunctionality", "Other",
        ].map { "NSPrivacyCollectedDataTypePurpose" + $0 }
    )

    /// Every `NSPrivacyAccessedAPIType` value with the reason codes Apple allows for it.
    package static let reasonsByAPICategory: [String: Set<String>] = [
        "NSPrivacyAccessedAPICategoryFileTimestamp": ["DDA9.1", "C617.1", "3B52.1", "0A2A.1"],
        "NSPrivacyAccessedAPICategorySystemBootTime": ["35F9.1", "8FFB.1", "3D61.1"],
        "NSPrivacyAccessedAPICategoryDiskSpace": ["85F4.1", "E174.1", "7D9E.1", "B728.1"],
        "NSPrivacyAccessedAPICategoryActiveKeyboards": ["3EC4.1", "54BD.1"],
        "NSPrivacyAccessedAPICategoryUserDefaults": ["CA92.1", "1C8F.1", "C56D.1", "AC6B.1"],
    ]
}
