#if os(Linux) || os(macOS)
public import Foundation

/// What the sandbox recorded from `POST /v1/in-app/track` and `/v1/in-app/forms`
/// (`GET /_sandbox/in-app/reports`): accepted reports and form submissions in arrival order, each
/// with the fields as sent plus `token` (`valid`, or `missing` for a pre-token report), and the
/// counts per campaign.
///
/// Not `Sendable`: it holds `[String: Any]` JSON objects, like the other control answers.
public struct SandboxInAppReports {
    /// The accepted reports (`messageId`, `campaignId`, `action`, `elementId`, `deliveryToken`,
    /// `timestamp`, `sentAt`, `userId`, `anonymousId`, `deviceId`, `token`).
    public var reports: [[String: Any]]
    /// The accepted form submissions (as the reports, with `values` instead of `action` and `elementId`).
    public var forms: [[String: Any]]
    /// Per campaign id: `displayed`, `clicked`, `dismissed`, `converted` and `forms` counts.
    public var impressions: [String: [String: Int]]
}

@available(*, unavailable)
extension SandboxInAppReports: Sendable {}

// MARK: - In-app control API (`/_sandbox/in-app/…`, protocol.md §6)

extension SandboxServer {
    /// Creates or replaces (by its `id`) an in-app campaign, given as its wire JSON without the token
    /// (the sandbox signs one per sync unless `issueToken` is `false`). `userId`, `anonymousId` and
    /// `sdkKey` limit it to requests naming them; none: everyone. Blocks the calling thread.
    public func setInAppCampaign(
        _ campaign: [String: Any],
        userId: String? = nil,
        anonymousId: String? = nil,
        sdkKey: String? = nil,
        issueToken: Bool = true
    ) throws(SandboxError) {
        try self.perform(
            Self.setInAppCampaignCall(
                campaign,
                target: Self.target(userId, anonymousId, sdkKey),
                issueToken: issueToken
            )
        )
    }

    /// Creates or replaces (by its `id`) an in-app campaign, given as its wire JSON without the token
    /// (the sandbox signs one per sync unless `issueToken` is `false`). `userId`, `anonymousId` and
    /// `sdkKey` limit it to requests naming them; none: everyone.
    public func setInAppCampaign(
        _ campaign: [String: Any],
        userId: String? = nil,
        anonymousId: String? = nil,
        sdkKey: String? = nil,
        issueToken: Bool = true
    ) async throws(SandboxError) {
        try await self.perform(
            Self.setInAppCampaignCall(
                campaign,
                target: Self.target(userId, anonymousId, sdkKey),
                issueToken: issueToken
            )
        )
    }

    /// Removes the campaign `id`, or every campaign when `nil`. Blocks the calling thread.
    /// - Returns: How many were removed.
    @discardableResult
    public func removeInAppCampaigns(id: String? = nil) throws(SandboxError) -> Int {
        try self.perform(Self.removeInAppCampaignsCall(id: id))
    }

    /// Removes the campaign `id`, or every campaign when `nil`.
    /// - Returns: How many were removed.
    @discardableResult
    public func removeInAppCampaigns(id: String? = nil) async throws(SandboxError) -> Int {
        try await self.perform(Self.removeInAppCampaignsCall(id: id))
    }

    /// Sets the workspace contact rules every sync answers (`nil`: none). Blocks the calling thread.
    public func setInAppContactRules(_ rules: [String: Any]?) throws(SandboxError) {
        try self.perform(Self.setInAppContactRulesCall(rules))
    }

    /// Sets the workspace contact rules every sync answers (`nil`: none).
    public func setInAppContactRules(_ rules: [String: Any]?) async throws(SandboxError) {
        try await self.perform(Self.setInAppContactRulesCall(rules))
    }

    /// Changes the in-app settings: required-token mode (INAPP-4), the lifetime of the tokens issued
    /// from now on, and the in-app clock (seconds since 1970, `.some(nil)`: real time); `nil` keeps a
    /// setting. Blocks the calling thread.
    public func configureInApp(
        requireDeliveryToken: Bool? = nil,
        tokenTTL: TimeInterval? = nil,
        now: Date?? = nil
    ) throws(SandboxError) {
        try self.perform(Self.configureInAppCall(requireDeliveryToken, tokenTTL, now))
    }

    /// Changes the in-app settings: required-token mode (INAPP-4), the lifetime of the tokens issued
    /// from now on, and the in-app clock (seconds since 1970, `.some(nil)`: real time); `nil` keeps a
    /// setting.
    public func configureInApp(
        requireDeliveryToken: Bool? = nil,
        tokenTTL: TimeInterval? = nil,
        now: Date?? = nil
    ) async throws(SandboxError) {
        try await self.perform(Self.configureInAppCall(requireDeliveryToken, tokenTTL, now))
    }

    /// Makes every delivery token issued so far for `campaignId` expired; a later sync issues fresh
    /// ones. Blocks the calling thread.
    public func expireInAppTokens(campaignId: String) throws(SandboxError) {
        try self.perform(Self.expireInAppTokensCall(campaignId))
    }

    /// Makes every delivery token issued so far for `campaignId` expired; a later sync issues fresh
    /// ones.
    public func expireInAppTokens(campaignId: String) async throws(SandboxError) {
        try await self.perform(Self.expireInAppTokensCall(campaignId))
    }

    /// The in-app reports and form submissions the sandbox accepted; only those of `campaignId` when
    /// given. Blocks the calling thread.
    public func inAppReports(campaignId: String? = nil) throws(SandboxError) -> SandboxInAppReports {
        try self.perform(Self.inAppReportsCall(campaignId))
    }

    /// The in-app reports and form submissions the sandbox accepted; only those of `campaignId` when
    /// given.
    public func inAppReports(campaignId: String? = nil) async throws(SandboxError) -> SandboxInAppReports {
        try await self.perform(Self.inAppReportsCall(campaignId))
    }

    // MARK: Calls

    private static func target(_ userId: String?, _ anonymousId: String?, _ sdkKey: String?) -> [String: Any]? {
        var target: [String: Any] = [:]
        target["userId"] = userId
        target["anonymousId"] = anonymousId
        target["sdkKey"] = sdkKey
        return target.isEmpty ? nil : target
    }

    static func setInAppCampaignCall(
        _ campaign: [String: Any],
        target: [String: Any]?,
        issueToken: Bool
    ) -> ControlCall<Void> {
        let spec: [String: Any] = ["campaign": campaign, "target": target ?? NSNull(), "issueToken": issueToken]
        return ControlCall(method: "POST", route: "in-app/campaigns", json: spec) { _ in }
    }

    static func removeInAppCampaignsCall(id: String?) -> ControlCall<Int> {
        ControlCall(
            method: "DELETE",
            route: "in-app/campaigns",
            query: id.map { [URLQueryItem(name: "id", value: $0)] } ?? []
        ) { answer throws(SandboxError) in
            guard let removed = (answer as? [String: Any])?["removed"] as? Int else {
                throw SandboxError("unexpected /_sandbox/in-app/campaigns response")
            }
            return removed
        }
    }

    static func setInAppContactRulesCall(_ rules: [String: Any]?) -> ControlCall<Void> {
        ControlCall(method: "POST", route: "in-app/contact-rules", json: ["contactRules": rules ?? NSNull()]) { _ in }
    }

    static func configureInAppCall(_ required: Bool?, _ ttl: TimeInterval?, _ now: Date??) -> ControlCall<Void> {
        var spec: [String: Any] = [:]
        spec["requireDeliveryToken"] = required
        spec["tokenTtl"] = ttl
        if let now {
            spec["now"] = now.map { Self.seconds($0) } ?? NSNull()
        }
        return ControlCall(method: "POST", route: "in-app/settings", json: spec) { _ in }
    }

    static func expireInAppTokensCall(_ campaignId: String) -> ControlCall<Void> {
        ControlCall(method: "POST", route: "in-app/expire", json: ["campaignId": campaignId]) { _ in }
    }

    static func inAppReportsCall(_ campaignId: String?) -> ControlCall<SandboxInAppReports> {
        ControlCall(
            method: "GET",
            route: "in-app/reports",
            query: campaignId.map { [URLQueryItem(name: "campaignId", value: $0)] } ?? []
        ) { answer throws(SandboxError) in
            guard let object = answer as? [String: Any], let reports = object["reports"] as? [[String: Any]],
                let forms = object["forms"] as? [[String: Any]],
                let impressions = object["impressions"] as? [String: [String: Int]]
            else {
                throw SandboxError("unexpected /_sandbox/in-app/reports response")
            }
            return SandboxInAppReports(reports: reports, forms: forms, impressions: impressions)
        }
    }
}
#endif
