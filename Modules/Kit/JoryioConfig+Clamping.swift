internal import JoryioAuth

extension JoryioConfig {
    /// Upper bound of ``batchSize``: events per request (BATCH-1).
    public static let maxBatchSize = 500
    /// Lower bound of ``flushInterval`` in seconds (BATCH-2).
    public static let minFlushInterval = 1.0

    /// This configuration with every value in range, and one message per value that was changed.
    ///
    /// A non-finite number (NaN or ±infinity) takes the documented default first, so it is
    /// reported once, as not finite, rather than also as out of range.
    public func clamped() -> (config: JoryioConfig, adjustments: [String]) {
        var config = self
        var adjustments: [String] = []
        func finite(_ name: String, _ value: inout Double, default fallback: Double) {
            guard !value.isFinite else { return }
            adjustments.append("\(name) is not a finite number; using the default \(fallback)")
            value = fallback
        }
        func clamp<T: Comparable>(_ name: String, _ value: inout T, _ range: ClosedRange<T>) {
            let original = value
            value = min(max(value, range.lowerBound), range.upperBound)
            if value != original { adjustments.append("\(name) \(original) is out of range; using \(value)") }
        }
        finite("flushInterval", &config.flushInterval, default: 5)
        finite("sessionTimeout", &config.sessionTimeout, default: 1800)
        finite("retryBackoffMs", &config.retryBackoffMs, default: 1000)
        finite("requestTimeout", &config.requestTimeout, default: 10)
        clamp("batchSize", &config.batchSize, 1...Self.maxBatchSize)
        clamp("flushInterval", &config.flushInterval, Self.minFlushInterval...86_400)
        clamp("maxQueueSize", &config.maxQueueSize, 1...10_000_000)
        clamp("sessionTimeout", &config.sessionTimeout, 0...31_536_000)
        clamp("maxRetries", &config.maxRetries, 0...100)
        clamp("retryBackoffMs", &config.retryBackoffMs, 1...300_000)
        clamp("requestTimeout", &config.requestTimeout, 0.1...600)
        // A token that would break the Authorization header is not used (GAP-5).
        if let token = config.sdkAuthenticationToken, let problem = AuthTokenCheck.problem(token) {
            adjustments.append("sdkAuthenticationToken \(problem); it is ignored")
            config.sdkAuthenticationToken = nil
        }
        return (config, adjustments)
    }
}
