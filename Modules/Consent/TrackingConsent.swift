/// Whether the user agreed to tracking (SPEC §2.5, CONSENT rules).
public enum TrackingConsent: String, Sendable, Equatable, CaseIterable {
    /// Collect and send.
    case granted
    /// Hold collected data on the device and send nothing until a decision.
    case pending
    /// Collect nothing; delete what is held.
    case denied
}
