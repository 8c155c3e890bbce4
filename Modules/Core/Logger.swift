/// The SDK's internal logger: a value type over a ``LogSink`` with a minimum level.
///
/// Messages are autoclosures, so a disabled level costs nothing. Every message and metadata value
/// is passed through ``Redactor`` first.
package struct Logger: Sendable {
    /// Where records go.
    package var sink: any LogSink
    /// Records below this level are not built.
    package var minimumLevel: LogLevel
    /// The area name attached to every record.
    package var module: String

    /// Creates a logger.
    package init(sink: any LogSink, minimumLevel: LogLevel, module: String = "core") {
        self.sink = sink
        self.minimumLevel = minimumLevel
        self.module = module
    }

    /// A logger that discards everything.
    package static let disabled = Logger(sink: NoOpLogSink(), minimumLevel: .none)

    /// The same logger with another area name.
    package func scoped(_ module: String) -> Logger {
        var copy = self
        copy.module = module
        return copy
    }

    /// Whether records of `level` are emitted.
    package func isEnabled(_ level: LogLevel) -> Bool {
        level != .none && self.minimumLevel != .none && level >= self.minimumLevel
    }

    /// Emits a record at `level` when that level is enabled.
    package func log(
        _ level: LogLevel,
        _ message: @autoclosure () -> String,
        _ metadata: @autoclosure () -> [String: String] = [:]
    ) {
        guard self.isEnabled(level) else { return }
        let redactedMetadata = metadata().mapValues(Redactor.redact)
        self.sink.log(
            LogRecord(
                level: level,
                message: Redactor.redact(message()),
                metadata: redactedMetadata,
                module: self.module
            )
        )
    }

    /// Logs at `.verbose`.
    package func verbose(_ message: @autoclosure () -> String, _ metadata: @autoclosure () -> [String: String] = [:]) {
        self.log(.verbose, message(), metadata())
    }

    /// Logs at `.debug`.
    package func debug(_ message: @autoclosure () -> String, _ metadata: @autoclosure () -> [String: String] = [:]) {
        self.log(.debug, message(), metadata())
    }

    /// Logs at `.info`.
    package func info(_ message: @autoclosure () -> String, _ metadata: @autoclosure () -> [String: String] = [:]) {
        self.log(.info, message(), metadata())
    }

    /// Logs at `.warning`.
    package func warning(_ message: @autoclosure () -> String, _ metadata: @autoclosure () -> [String: String] = [:]) {
        self.log(.warning, message(), metadata())
    }

    /// Logs at `.error`.
    package func error(_ message: @autoclosure () -> String, _ metadata: @autoclosure () -> [String: String] = [:]) {
        self.log(.error, message(), metadata())
    }
}
