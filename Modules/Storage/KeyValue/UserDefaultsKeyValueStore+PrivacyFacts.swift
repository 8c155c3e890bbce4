package import JoryioCore

extension PrivacyFacts {
    /// What `JoryioStorage` declares in the privacy manifest (PRIVACY-2).
    ///
    /// ``UserDefaultsKeyValueStore`` reads and writes the SDK's own suite (ids, flags, privacy
    /// decisions) and nothing another app or the system wrote: required-reason API `UserDefaults`
    /// with reason `CA92.1`. The store itself collects nothing; what it keeps is declared by the
    /// modules that collect it.
    package static let joryioStorage = PrivacyFacts(
        module: "JoryioStorage",
        accessedAPIs: [AccessedAPI(.userDefaults, reasons: ["CA92.1"])]
    )
}
