internal import Foundation

/// One log line produced by the SDK, already redacted.
public struct LogRecord: Sendable, Equatable {
    /// The severity of the record.
    public var level: LogLevel
    /// The message text, with SDK keys and tokens redacted.
    public var message: String
    /// Structured details (never event properties or personal data), redacted like the message.
    public var metadata: [String: String]
    /// The SDK area that logged it, such as `storage` or `transport`.
    public var module: String

    /// Creates a record.
    public init(level: LogLevel, message: String, metadata: [String: String] = [:], module: String) {
        self.level = level
        self.message = message
        self.metadata = metadata
        self.module = module
    }
}

/// Where the SDK's log records go. Implement it to route SDK logs into your own logging system.
///
/// Sinks are called from SDK threads and must not block for long.
public protocol LogSink: Sendable {
    /// Receives one record.
    func log(_ record: LogRecord)
}

/// A sink that discards everything.
public struct NoOpLogSink: LogSink {
    /// Creates the sink.
    public init() {}

    /// Discards the record.
    public func log(_ record: LogRecord) {}
}

/// A sink that writes one line per record to standard error, prefixed with `[Joryio]`.
public struct StandardErrorLogSink: LogSink {
    /// Creates the sink.
    public init() {}

    /// Writes the record as `[Joryio] level module: message key=value…`.
    public func log(_ record: LogRecord) {
        var line = "[Joryio] \(record.level) \(record.module): \(record.message)"
        for key in record.metadata.keys.sorted() {
            line += " \(key)=\(record.metadata[key] ?? "")"
        }
        line += "\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
