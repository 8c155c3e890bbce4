/// The device and environment a `Session Start` event describes (SESS-3).
///
/// A plain value: a ``DeviceFactsProvider`` reads it from the operating system, and the engine turns
/// it into event properties with ``sessionStartProperties()``, adding `$device_id` itself.
///
/// The SDK never collects the user's `country`, so there is no field for it: the Joryio backend
/// derives the country from the request's IP address (PRIVACY-4, GAP-54).
public struct DeviceFacts: Sendable, Equatable {
    /// The platform: `ios` on iOS and iPadOS, `tvos`, `visionos`, `macos`, `linux`.
    public var platform: String
    /// The hardware model identifier: `iPhone15,2` on an iPhone, the `uname` machine (`x86_64`,
    /// `aarch64`) on Linux.
    public var model: String
    /// The operating system's name: `iOS`, `iPadOS`, `Debian GNU/Linux`.
    public var osName: String
    /// The operating system's version: `17.4.1`, `12`.
    public var osVersion: String
    /// The app's marketing version (`CFBundleShortVersionString`), when it has one.
    public var appVersion: String?
    /// The app's build number (`CFBundleVersion`), when it has one.
    public var buildNumber: String?
    /// The app's bundle identifier; on a server, the name of its executable.
    public var bundleId: String?
    /// The main screen's width in physical pixels; `nil` on a host without a screen.
    public var screenWidth: Int?
    /// The main screen's height in physical pixels; `nil` on a host without a screen.
    public var screenHeight: Int?
    /// The locale as a BCP-47 tag: `en-US`, `fr-CA`, `sr-Latn-RS`.
    public var locale: String
    /// The primary language subtag of the first preferred language: `en`.
    public var language: String
    /// The preferred languages as BCP-47 tags, most preferred first: `["fr-CA", "en-US"]`.
    public var languages: [String]
    /// The time zone's IANA identifier: `Europe/Paris`, `Etc/UTC`.
    public var timezone: String

    /// Creates a description of a device and its environment.
    ///
    /// - Parameters:
    ///   - platform: The platform (`ios`, `linux`, …).
    ///   - model: The hardware model identifier.
    ///   - osName: The operating system's name.
    ///   - osVersion: The operating system's version.
    ///   - appVersion: The app's marketing version, if any.
    ///   - buildNumber: The app's build number, if any.
    ///   - bundleId: The app's bundle identifier, if any.
    ///   - screenWidth: The screen width in physical pixels, if there is a screen.
    ///   - screenHeight: The screen height in physical pixels, if there is a screen.
    ///   - locale: The locale as a BCP-47 tag.
    ///   - language: The primary language subtag.
    ///   - languages: The preferred languages as BCP-47 tags, most preferred first.
    ///   - timezone: The time zone's IANA identifier.
    public init(
        platform: String,
        model: String,
        osName: String,
        osVersion: String,
        appVersion: String? = nil,
        buildNumber: String? = nil,
        bundleId: String? = nil,
        screenWidth: Int? = nil,
        screenHeight: Int? = nil,
        locale: String,
        language: String,
        languages: [String],
        timezone: String
    ) {
        self.platform = platform
        self.model = model
        self.osName = osName
        self.osVersion = osVersion
        self.appVersion = appVersion
        self.buildNumber = buildNumber
        self.bundleId = bundleId
        self.screenWidth = screenWidth
        self.screenHeight = screenHeight
        self.locale = locale
        self.language = language
        self.languages = languages
        self.timezone = timezone
    }
}
