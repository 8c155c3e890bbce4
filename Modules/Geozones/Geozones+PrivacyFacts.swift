package import JoryioCore

extension PrivacyFacts {
    /// What `JoryioGeozones` collects, for its own privacy manifest (PRIVACY-7, GEO-4): precise
    /// location, because a zone entry places the device within a zone's radius (100 m at least,
    /// finer than Apple's coarse location), linked to the user, never for tracking (GAP-94).
    /// The `Joryio` product's manifest does not include these facts (PRIVACY-4).
    package static let joryioGeozones = PrivacyFacts(
        module: "JoryioGeozones",
        collectedData: [
            CollectedData(
                .preciseLocation,
                linked: true,
                tracking: false,
                purposes: [.appFunctionality, .analytics, .developerAdvertising]
            )
        ]
    )
}
