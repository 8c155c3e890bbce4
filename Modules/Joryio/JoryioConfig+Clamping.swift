extension JoryioConfig {
    /// Upper bound of ``batchSize``: events per request (BATCH-1).
    public static let maxBatchSize = 500
    /// Lower bound of ``flushInterval`` in seconds (BATCH-2).
    public static let minFlushInterval = 1.0

    /// This configuration with every value in range, and one message per value that was changed.
    public func clamped() -> (config: JoryioConfig, adjustments: [String]) {
        var config = self
        var adjustments: [String] = []
        func clamp<T: Comparable>(_ name: String, _ value: inout T, _ range: ClosedRange<T>) {
            let original = value
            value = min(max(value, range.lowerBound), range.upperBound)
            if value != original { adjustments.append("\(name) \(original) is out of range; using \(value)") }
        }
        clamp("batchSize", &config.batchSize, 1...Self.maxBatchSize)
        clamp("flushInterval", &config.flushInterval, Self.minFlushInterval...86_400)
        clamp("maxQueueSize", &config.maxQueueSize, 1...10_000_000)
        clamp("sessionTimeout", &config.sessionTimeout, 0...31_536_000)
        clamp("maxRetries", &config.maxRetries, 0...100)
        clamp("retryBackoffMs", &config.retryBackoffMs, 1...300_000)
        clamp("requestTimeout", &config.requestTimeout, 0.1...600)
        for (name, value) in [("flushInterval", self.flushInterval), ("retryBackoffMs", self.retryBackoffMs)]
        where !value.isFinite {
            adjustments.append("\(name) is not a finite number; using the default")
        }
        if !self.flushInterval.isFinite { config.flushInterval = 5 }
        if !self.retryBackoffMs.isFinite { config.retryBackoffMs = 1000 }
        if !self.requestTimeout.isFinite { config.requestTimeout = 10 }
        if !self.sessionTimeout.isFinite { config.sessionTimeout = 1800 }
        return (config, adjustments)
    }
}
