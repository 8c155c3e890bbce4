package import JoryioCore

extension Logger {
    /// Logs an unconfirmed answer (a 2xx that is not the protocol's success shape) to a request of
    /// `items` ("12 events", "the alias write"): a warning for the first of a failure streak
    /// (``RetryState/noteUnconfirmed()``), the rest at debug level only, so an app behind a
    /// misbehaving gateway gets one line, not one per retry.
    package func unconfirmedAnswer(_ error: JoryioTransportError, to items: String, first: Bool, note: String = "") {
        let reason: String
        if case .server(let message?) = error { reason = message } else { reason = error.description }
        if first {
            self.warning(
                "the answer did not confirm \(items) (\(reason)); kept and retried with backoff\(note). "
                    + "A proxy, gateway or captive portal may be answering instead of the Joryio API; "
                    + "not logged again until a request succeeds"
            )
        } else {
            self.debug("the answer still did not confirm \(items) (\(reason)); kept for retry")
        }
    }
}
