public import Foundation
public import JoryioCore

/// How the SDK behaves: batching, retry, sessions, privacy and logging (SPEC §2.3).
///
/// Every field has a default, so `JoryioConfig(batchSize: 100)` is valid. Out-of-range values are
/// clamped when the SDK starts, with a warning in the log (``clamped()`` shows the result).
public struct JoryioConfig: Sendable {
    /// Where the SDK keeps its queue and settings.
    public enum Storage: Sendable {
        /// SQLite (the default) in `directory`, or in the platform's data directory when `nil`:
        /// Application Support on Apple platforms, `$XDG_DATA_HOME/joryio` (or
        /// `~/.local/share/joryio`) on Linux.
        case sqlite(directory: URL? = nil)
        /// One file per queued event in `directory` (or the platform's data directory).
        case files(directory: URL? = nil)
        /// Nothing survives the process: for tests and previews.
        case inMemory
        /// Your own queue store; settings go to the platform's data directory.
        case custom(any QueueStore)
    }

    /// Initialize with a known user ID.
    public var userId: String?
    /// A custom anonymous ID.
    public var anonymousId: String?
    /// Events per request and the count that triggers a send (default 50, at most 500).
    public var batchSize: Int
    /// The longest an event waits before a send (default 5 s, at least 1 s).
    public var flushInterval: TimeInterval
    /// Send every event as soon as it is recorded (default `false`).
    public var sendImmediately: Bool
    /// The most events kept on the device; the oldest is dropped first (default 1000).
    public var maxQueueSize: Int
    /// Inactivity after which a new session starts, in seconds (default 1800).
    public var sessionTimeout: TimeInterval
    /// Announce each new session with a `Session Start` event (default `true`).
    public var trackSessionStart: Bool
    /// Show the push permission prompt at launch (default `false`: prefer a primer).
    public var requestPushPermissionAtLaunch: Bool
    /// Ask for provisional authorization: no prompt, notifications delivered quietly to the
    /// Notification Center, counted as `"granted"` (default `false`, PROV-7, PROV-8). A later
    /// prominent request needs a call to `requestPushPermission()` with this off.
    public var requestProvisionalAuthorization: Bool
    /// Retries the SDK schedules by itself after consecutive failures before it waits for the next
    /// trigger (a new event, `flush()`, the background); events are never deleted (default 3).
    public var maxRetries: Int
    /// The first backoff delay in milliseconds; it doubles with each failure (default 1000).
    public var retryBackoffMs: Double
    /// How long one request may take, in seconds (default 10).
    public var requestTimeout: TimeInterval
    /// Send the SDK authentication header (a token turns it on by itself too).
    public var enableSdkAuthentication: Bool
    /// The initial SDK authentication token (JWT).
    public var sdkAuthenticationToken: String?
    /// Start opted out; `true` persists exactly like `optOut()`.
    public var optOut: Bool
    /// The initial tracking consent; `nil` leaves it unset.
    public var trackingConsent: TrackingConsent?
    /// Debug logging (and the debug-only in-app calls).
    public var enableDebug: Bool
    /// The log level; `nil` means `.debug` with `enableDebug`, otherwise `.error`.
    public var logLevel: LogLevel?
    /// Where queued events and settings live (default `.sqlite()`).
    public var storage: Storage
    /// Where log records go (default: standard error).
    public var logSink: any LogSink
    /// In-app messaging (the `Joryio` product; `JoryioAnalytics` ignores it).
    public var inApp: InAppConfig

    /// Creates a configuration; every parameter has the documented default.
    public init(
        userId: String? = nil,
        anonymousId: String? = nil,
        batchSize: Int = 50,
        flushInterval: TimeInterval = 5.0,
        sendImmediately: Bool = false,
        maxQueueSize: Int = 1000,
        sessionTimeout: TimeInterval = 1800,
        trackSessionStart: Bool = true,
        requestPushPermissionAtLaunch: Bool = false,
        requestProvisionalAuthorization: Bool = false,
        maxRetries: Int = 3,
        retryBackoffMs: Double = 1000.0,
        requestTimeout: TimeInterval = 10.0,
        enableSdkAuthentication: Bool = false,
        sdkAuthenticationToken: String? = nil,
        optOut: Bool = false,
        trackingConsent: TrackingConsent? = nil,
        enableDebug: Bool = false,
        logLevel: LogLevel? = nil,
        storage: Storage = .sqlite(),
        logSink: any LogSink = StandardErrorLogSink(),
        inApp: InAppConfig = InAppConfig()
    ) {
        self.userId = userId
        self.anonymousId = anonymousId
        self.batchSize = batchSize
        self.flushInterval = flushInterval
        self.sendImmediately = sendImmediately
        self.maxQueueSize = maxQueueSize
        self.sessionTimeout = sessionTimeout
        self.trackSessionStart = trackSessionStart
        self.requestPushPermissionAtLaunch = requestPushPermissionAtLaunch
        self.requestProvisionalAuthorization = requestProvisionalAuthorization
        self.maxRetries = maxRetries
        self.retryBackoffMs = retryBackoffMs
        self.requestTimeout = requestTimeout
        self.enableSdkAuthentication = enableSdkAuthentication
        self.sdkAuthenticationToken = sdkAuthenticationToken
        self.optOut = optOut
        self.trackingConsent = trackingConsent
        self.enableDebug = enableDebug
        self.logLevel = logLevel
        self.storage = storage
        self.logSink = logSink
        self.inApp = inApp
    }

    /// The log level in effect (LOG-2).
    public var effectiveLogLevel: LogLevel {
        self.logLevel ?? (self.enableDebug ? .debug : .error)
    }
}
