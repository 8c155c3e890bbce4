/// How much the SDK logs, from nothing to everything.
///
/// A record is emitted when its level is at or above the configured minimum in severity:
/// `.error` logs only errors, `.debug` logs everything but `.verbose`, and `.none` logs nothing.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    /// Every detail, including request and storage traces.
    case verbose = 0
    /// Diagnostics useful while integrating the SDK.
    case debug = 1
    /// Notable lifecycle events.
    case info = 2
    /// Something was dropped, clamped or retried.
    case warning = 3
    /// Something failed.
    case error = 4
    /// Logging is off.
    case none = 5

    /// Orders levels by severity, `.verbose` lowest.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// The lowercase name of the level, as it appears in log lines.
    public var description: String {
        switch self {
        case .verbose: "verbose"
        case .debug: "debug"
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        case .none: "none"
        }
    }
}
