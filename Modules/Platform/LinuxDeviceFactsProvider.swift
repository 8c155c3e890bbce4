#if os(Linux)
import Foundation
public import JoryioCore

/// Device facts of a Linux host, read from the operating system (a server, a desktop app, CI).
///
/// - The platform is `linux`.
/// - The OS name and version are `NAME` and `VERSION_ID` from `/etc/os-release` (or
///   `/usr/lib/os-release`), `Debian GNU/Linux` and `12`; without them, the kernel's name and
///   release from `uname(2)`, `Linux` and `6.1.0-18-amd64`.
/// - The model is the `uname(2)` machine: `x86_64`, `aarch64`.
/// - The app version, build number and bundle identifier are what the app passes in: a server-side
///   service has no bundle. The bundle identifier defaults to the executable's name.
/// - There is no screen size: a Linux host is treated as headless.
/// - The locale comes from `LC_ALL`, `LC_MESSAGES` or `LANG`, and the preferred languages from
///   `LANGUAGE`; the C locale is reported as `en-US`.
/// - The time zone comes from `TZ`, else the `/etc/localtime` link, else `/etc/timezone`, else
///   Foundation's `TimeZone.current`.
///
/// The OS, model and app facts are read once, when the provider is created; the locale and time
/// zone at each ``current()`` call.
public struct LinuxDeviceFactsProvider: DeviceFactsProvider {
    /// Facts that do not change while the process runs; locale and time zone are refreshed.
    private let fixed: DeviceFacts
    /// Where the changing facts are read from.
    private let host: LinuxHost

    /// Creates a provider that reads the real host.
    ///
    /// - Parameters:
    ///   - appVersion: The app's version, if it has one (`1.4.2`).
    ///   - buildNumber: The app's build number, if it has one.
    ///   - bundleId: An identifier for the app; `nil` uses the executable's name.
    public init(appVersion: String? = nil, buildNumber: String? = nil, bundleId: String? = nil) {
        self.init(
            appVersion: appVersion,
            buildNumber: buildNumber,
            bundleId: bundleId ?? ProcessInfo.processInfo.processName,
            host: .live()
        )
    }

    /// Creates a provider that reads `host`, for tests.
    ///
    /// - Parameters:
    ///   - appVersion: The app's version, if any.
    ///   - buildNumber: The app's build number, if any.
    ///   - bundleId: The app's identifier, if any (no default here).
    ///   - host: The sources of the facts.
    package init(appVersion: String?, buildNumber: String?, bundleId: String?, host: LinuxHost) {
        let kernel = host.kernel()
        let osRelease =
            (host.readFile("/etc/os-release") ?? host.readFile("/usr/lib/os-release"))
            .map(OSRelease.parse) ?? [:]
        let operatingSystem =
            OSRelease.operatingSystem(in: osRelease)
            ?? (name: kernel?.name ?? "Linux", version: kernel?.release ?? "")
        self.host = host
        self.fixed = DeviceFacts(
            platform: "linux",
            model: kernel?.machine ?? "",
            osName: operatingSystem.name,
            osVersion: operatingSystem.version,
            appVersion: appVersion,
            buildNumber: buildNumber,
            bundleId: bundleId,
            locale: LanguageTag.posixLocale,
            language: LanguageTag.primaryLanguage(of: LanguageTag.posixLocale),
            languages: [LanguageTag.posixLocale],
            timezone: TimeZoneIdentifier.utc
        )
    }

    /// The facts now, with the locale and time zone read from the environment and `/etc`.
    public func current() -> DeviceFacts {
        let environment = self.host.environment()
        let locale = LocaleEnvironment(environment: environment)
        var facts = self.fixed
        facts.locale = locale.locale
        facts.language = locale.language
        facts.languages = locale.languages
        facts.timezone = TimeZoneIdentifier.resolve(
            tz: environment["TZ"],
            localtimeLink: self.host.readLink("/etc/localtime"),
            timezoneFile: self.host.readFile("/etc/timezone"),
            isKnown: { TimeZone(identifier: $0) != nil },
            fallback: { TimeZone.current.identifier }
        )
        return facts
    }
}
#endif
