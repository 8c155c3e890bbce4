/// What one module collects and which required-reason APIs it calls: its share of Apple's privacy
/// manifest (PRIVACY rules).
///
/// Each module declares its facts in Swift, next to the code that collects the data or calls the
/// API, as a `package static let` on ``PrivacyFacts``. `joryio-tools privacy-manifest` links the
/// modules, merges the facts of those it is asked for and writes `PrivacyInfo.xcprivacy`, so a module
/// that is not linked adds nothing. Values are Apple's keys as strings; the generator checks them
/// against Apple's documented vocabulary and names any value it does not know.
package struct PrivacyFacts: Sendable, Equatable, Codable {
    /// The module that declares these facts, such as `JoryioStorage`.
    package var module: String
    /// The kinds of data the module collects.
    package var collectedData: [CollectedData]
    /// The required-reason API categories the module calls.
    package var accessedAPIs: [AccessedAPI]

    /// Creates the facts of one module.
    package init(module: String, collectedData: [CollectedData] = [], accessedAPIs: [AccessedAPI] = []) {
        self.module = module
        self.collectedData = collectedData
        self.accessedAPIs = accessedAPIs
    }

    /// One entry of `NSPrivacyCollectedDataTypes`.
    package struct CollectedData: Sendable, Equatable, Codable {
        /// `NSPrivacyCollectedDataType`, such as `NSPrivacyCollectedDataTypeUserID`.
        package var type: DataType
        /// `NSPrivacyCollectedDataTypeLinked`: whether the data is linked to the user's identity.
        package var linked: Bool
        /// `NSPrivacyCollectedDataTypeTracking`: whether the data is used to track.
        package var tracking: Bool
        /// `NSPrivacyCollectedDataTypePurposes`.
        package var purposes: [Purpose]

        /// Creates an entry.
        package init(_ type: DataType, linked: Bool, tracking: Bool, purposes: [Purpose]) {
            self.type = type
            self.linked = linked
            self.tracking = tracking
            self.purposes = purposes
        }
    }

    /// One entry of `NSPrivacyAccessedAPITypes`.
    package struct AccessedAPI: Sendable, Equatable, Codable {
        /// `NSPrivacyAccessedAPIType`, such as `NSPrivacyAccessedAPICategoryUserDefaults`.
        package var category: APICategory
        /// `NSPrivacyAccessedAPITypeReasons`, such as `CA92.1`.
        package var reasons: [String]

        /// Creates an entry.
        package init(_ category: APICategory, reasons: [String]) {
            self.category = category
            self.reasons = reasons
        }
    }

    /// An `NSPrivacyCollectedDataType` value.
    package struct DataType: RawRepresentable, Hashable, Comparable, Sendable, Codable {
        /// Apple's key.
        package var rawValue: String
        /// Wraps one of Apple's keys.
        package init(rawValue: String) { self.rawValue = rawValue }
        /// Orders by key.
        package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

        /// User ID: an account or user name the app or SDK assigns.
        package static let userID = Self(rawValue: "NSPrivacyCollectedDataTypeUserID")
        /// Device ID: a device-level identifier.
        package static let deviceID = Self(rawValue: "NSPrivacyCollectedDataTypeDeviceID")
        /// Product Interaction: app launches, taps, views and other usage.
        package static let productInteraction = Self(rawValue: "NSPrivacyCollectedDataTypeProductInteraction")
        /// Purchase History: purchases or purchase tendencies.
        package static let purchaseHistory = Self(rawValue: "NSPrivacyCollectedDataTypePurchaseHistory")
        /// Precise Location: as fine as a latitude and longitude with three or more decimals
        /// (JoryioGeozones only; the `Joryio` product declares no location, PRIVACY-4).
        package static let preciseLocation = Self(rawValue: "NSPrivacyCollectedDataTypePreciseLocation")
        /// Coarse Location: coarser than three decimals (declared by no module today).
        package static let coarseLocation = Self(rawValue: "NSPrivacyCollectedDataTypeCoarseLocation")
    }

    /// An `NSPrivacyCollectedDataTypePurposes` value.
    package struct Purpose: RawRepresentable, Hashable, Comparable, Sendable, Codable {
        /// Apple's key.
        package var rawValue: String
        /// Wraps one of Apple's keys.
        package init(rawValue: String) { self.rawValue = rawValue }
        /// Orders by key.
        package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

        /// App Functionality.
        package static let appFunctionality = Self(rawValue: "NSPrivacyCollectedDataTypePurposeAppFunctionality")
        /// Analytics.
        package static let analytics = Self(rawValue: "NSPrivacyCollectedDataTypePurposeAnalytics")
        /// Developer's Advertising or Marketing.
        package static let developerAdvertising = Self(
            rawValue: "NSPrivacyCollectedDataTypePurposeDeveloperAdvertising"
        )
        /// Product Personalization.
        package static let productPersonalization = Self(
            rawValue: "NSPrivacyCollectedDataTypePurposeProductPersonalization"
        )
    }

    /// An `NSPrivacyAccessedAPIType` value.
    package struct APICategory: RawRepresentable, Hashable, Comparable, Sendable, Codable {
        /// Apple's key.
        package var rawValue: String
        /// Wraps one of Apple's keys.
        package init(rawValue: String) { self.rawValue = rawValue }
        /// Orders by key.
        package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The user defaults APIs.
        package static let userDefaults = Self(rawValue: "NSPrivacyAccessedAPICategoryUserDefaults")
    }
}
