package import JoryioCore

extension PrivacyFacts {
    /// What the `Joryio` module collects, for the privacy manifest (PRIVACY-3, PRIVACY-6).
    ///
    /// Every entry is linked to the user and never used for tracking; nothing here reads the device's
    /// location (PRIVACY-4). Data an app sends in event properties or attributes is the app's to
    /// declare (PRIVACY-5).
    package static let joryio = PrivacyFacts(
        module: "Joryio",
        collectedData: [
            // Identity (Joryio+Identity.swift): the user id given to identify(_:).
            CollectedData(.userID, linked: true, tracking: false, purposes: Self.allPurposes),
            // Identity (JoryioEngine+Privacy.swift): the anonymous id and the device id, made on
            // first start and sent with every event.
            CollectedData(.deviceID, linked: true, tracking: false, purposes: Self.purposesExceptPersonalization),
            // Events (Joryio.swift): track(_:properties:), trackScreen(_:properties:) and the
            // automatic session events.
            CollectedData(.productInteraction, linked: true, tracking: false, purposes: Self.allPurposes),
            // Purchase History is declared by JoryioEcommerce (PRIVACY-3), next to the code that sends it.
        ]
    )

    /// App functionality, analytics and developer's marketing: the purposes of every entry (PRIVACY-3).
    private static let purposesExceptPersonalization: [Purpose] = [
        .appFunctionality, .analytics, .developerAdvertising,
    ]

    /// The purposes of every entry but Device ID: the above plus product personalization (PRIVACY-3).
    private static let allPurposes: [Purpose] = purposesExceptPersonalization + [.productPersonalization]
}
