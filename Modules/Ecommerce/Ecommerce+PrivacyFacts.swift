package import JoryioCore

extension PrivacyFacts {
    /// What `JoryioEcommerce` collects (PRIVACY-3, IAP-6): purchases, linked to the user, never
    /// for tracking, for the same purposes as the other events.
    package static let joryioEcommerce = PrivacyFacts(
        module: "JoryioEcommerce",
        collectedData: [
            CollectedData(
                .purchaseHistory,
                linked: true,
                tracking: false,
                purposes: [.appFunctionality, .analytics, .developerAdvertising, .productPersonalization]
            )
        ]
    )
}
