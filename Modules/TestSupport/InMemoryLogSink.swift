public import JoryioCore

/// A `LogSink` that keeps every record in memory, for assertions in tests.
public final class InMemoryLogSink: LogSink {
    private let storage = Locked<[LogRecord]>([])

    /// Creates an empty sink.
    public init() {}

    /// Stores the record.
    public func log(_ record: LogRecord) {
        self.storage.withLock { $0.append(record) }
    }

    /// Every record received, oldest first.
    public var records: [LogRecord] {
        self.storage.value
    }

    /// The records of one level, oldest first.
    public func records(at level: LogLevel) -> [LogRecord] {
        self.records.filter { $0.level == level }
    }

    /// Forgets every record.
    public func clear() {
        self.storage.withLock { $0.removeAll() }
    }

    /// A logger that writes into this sink.
    package func logger(minimumLevel: LogLevel = .verbose, module: String = "test") -> Logger {
        Logger(sink: self, minimumLevel: minimumLevel, module: module)
    }
}
