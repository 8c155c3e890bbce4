extension DeviceFacts {
    /// The `$`-prefixed property keys a `Session Start` event carries from ``DeviceFacts`` (SESS-3).
    ///
    /// `$device_id` is not among them: the engine adds it from the identity it stores (GAP-48).
    /// `country` is not among them either, and never will be: the SDK does not collect location, and
    /// the backend derives the country from the IP address (PRIVACY-4, GAP-54).
    public enum PropertyKey: String, Sendable, CaseIterable {
        /// `$platform`
        case platform = "$platform"
        /// `$model`
        case model = "$model"
        /// `$os_name`
        case osName = "$os_name"
        /// `$os_version`
        case osVersion = "$os_version"
        /// `$app_version`
        case appVersion = "$app_version"
        /// `$build_number`
        case buildNumber = "$build_number"
        /// `$bundle_id`
        case bundleId = "$bundle_id"
        /// `$screen_width`
        case screenWidth = "$screen_width"
        /// `$screen_height`
        case screenHeight = "$screen_height"
        /// `$locale`
        case locale = "$locale"
        /// `$language`
        case language = "$language"
        /// `$languages`
        case languages = "$languages"
        /// `$timezone`
        case timezone = "$timezone"
    }

    /// These facts as `Session Start` properties, keyed by ``PropertyKey``.
    ///
    /// A value the host could not provide is left out rather than sent empty: a `nil` optional, an
    /// empty string, an empty `languages` list, and a negative screen size. The engine adds
    /// `$device_id`.
    ///
    /// > Note: The result never contains `country`. PRIVACY-4 says the SDK never reads the device's
    /// > location and declares none in its privacy manifest; the country SESS-3 lists is derived by
    /// > the Joryio backend from the request's IP address, so the SDK never sends it (GAP-54).
    ///
    /// - Returns: At most the 13 keys of ``PropertyKey``, with string, integer and string-array values.
    public func sessionStartProperties() -> [String: JSONValue] {
        var properties: [String: JSONValue] = [:]
        func put(_ key: PropertyKey, _ value: String?) {
            if let value, !value.isEmpty { properties[key.rawValue] = .string(value) }
        }
        func put(_ key: PropertyKey, _ value: Int?) {
            if let value, value >= 0 { properties[key.rawValue] = .int(Int64(value)) }
        }
        put(.platform, self.platform)
        put(.model, self.model)
        put(.osName, self.osName)
        put(.osVersion, self.osVersion)
        put(.appVersion, self.appVersion)
        put(.buildNumber, self.buildNumber)
        put(.bundleId, self.bundleId)
        put(.screenWidth, self.screenWidth)
        put(.screenHeight, self.screenHeight)
        put(.locale, self.locale)
        put(.language, self.language)
        let languages = self.languages.filter { !$0.isEmpty }
        if !languages.isEmpty {
            properties[PropertyKey.languages.rawValue] = .array(languages.map(JSONValue.string))
        }
        put(.timezone, self.timezone)
        return properties
    }
}
