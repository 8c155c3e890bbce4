#if canImport(UIKit) && !os(watchOS)
import Foundation
public import JoryioCore
import UIKit

#if canImport(Darwin)
import Darwin
#endif

/// Device facts of an iOS, iPadOS, tvOS or visionOS device.
///
/// - The platform is `ios` (also on iPadOS and Mac Catalyst), `tvos` or `visionos`.
/// - The model is the hardware identifier from `uname(3)` (`iPhone15,2`), or the simulated one in
///   the Simulator.
/// - The OS name and version are `UIDevice.current.systemName` and `systemVersion`.
/// - The app version, build number and bundle identifier come from `Bundle.main`.
/// - The screen size is `UIScreen.main.nativeBounds`, in physical pixels, portrait (none on visionOS).
/// - The locale is `Locale.current`, the languages `Locale.preferredLanguages`, the time zone
///   `TimeZone.current`.
///
/// Main-thread-only values are read once, in the `@MainActor` initializer; ``current()`` reads
/// only thread-safe values (locale, languages, time zone), so the engine can call it from its own
/// executor without hopping to the main thread.
public struct AppleDeviceFactsProvider: DeviceFactsProvider {
    /// Facts that do not change while the app runs; locale and time zone are refreshed.
    private let fixed: DeviceFacts

    /// Reads the device, screen and bundle facts. Call it on the main thread.
    @MainActor
    public init() {
        let device = UIDevice.current
        let screen = Self.screenSize()
        let info = Bundle.main.infoDictionary ?? [:]
        self.fixed = DeviceFacts(
            platform: Self.platform,
            model: Self.modelIdentifier(),
            osName: device.systemName,
            osVersion: device.systemVersion,
            appVersion: info["CFBundleShortVersionString"] as? String,
            buildNumber: info["CFBundleVersion"] as? String,
            bundleId: Bundle.main.bundleIdentifier,
            screenWidth: screen?.width,
            screenHeight: screen?.height,
            locale: LanguageTag.posixLocale,
            language: LanguageTag.primaryLanguage(of: LanguageTag.posixLocale),
            languages: [LanguageTag.posixLocale],
            timezone: TimeZone.current.identifier
        )
    }

    /// The facts now, with the locale, languages and time zone the user has set.
    public func current() -> DeviceFacts {
        var facts = self.fixed
        let locale = LanguageTag.fromLocaleIdentifier(Locale.current.identifier) ?? LanguageTag.posixLocale
        var languages: [String] = []
        for tag in Locale.preferredLanguages.compactMap(LanguageTag.fromLocaleIdentifier)
        where !languages.contains(tag) {
            languages.append(tag)
        }
        if languages.isEmpty {
            languages = [locale]
        }
        facts.locale = locale
        facts.language = LanguageTag.primaryLanguage(of: languages[0])
        facts.languages = languages
        facts.timezone = TimeZone.current.identifier
        return facts
    }

    #if os(tvOS)
    /// The `$platform` value of this build.
    private static let platform = "tvos"
    #elseif os(visionOS)
    /// The `$platform` value of this build.
    private static let platform = "visionos"
    #else
    /// The `$platform` value of this build.
    private static let platform = "ios"
    #endif

    /// The hardware model identifier (`iPhone15,2`); in the Simulator, the simulated device's.
    private static func modelIdentifier() -> String {
        #if targetEnvironment(simulator)
        if let simulated = ProcessInfo.processInfo.environment["SIMULATOR_MODEL_IDENTIFIER"], !simulated.isEmpty {
            return simulated
        }
        #endif
        var info = utsname()
        guard uname(&info) == 0 else { return "" }
        return withUnsafeBytes(of: info.machine) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// The main screen's native size in pixels, portrait; `nil` where there is no main screen.
    @MainActor
    private static func screenSize() -> (width: Int, height: Int)? {
        #if os(visionOS)
        return nil
        #else
        let bounds = UIScreen.main.nativeBounds
        return (Int(bounds.width.rounded()), Int(bounds.height.rounded()))
        #endif
    }
}
#endif
