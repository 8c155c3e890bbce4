internal import Foundation
internal import JoryioCore

/// Where each identifier and flag lives (STORE-1 … STORE-5). Every key starts with `jry_`.
enum StoreKey {
    // Key-value store (UserDefaults on Apple platforms).
    static let anonymousId = "jry_anonymous_id"
    static let deviceId = "jry_device_id"
    static let session = "jry_session"
    static let optedOut = "jry_opted_out"
    static let consentDenied = "jry_consent_denied"
    static let preInitDecisions = "jry_preinit_decisions"
    static let identifyKept = "jry_identify_kept"
    static let installMarker = "jry_install_marker"
    // Secure store (Keychain on Apple platforms).
    static let userId = "jry_user_id"
    static let attributeWrites = "jry_attribute_writes"
}
