package import Foundation
internal import JoryioCore
package import JoryioDelivery

/// The APNs gateway a token belongs to (GAP-15): `sandbox` for builds run from Xcode (a
/// development provisioning profile), `production` for App Store and TestFlight builds.
package enum APNsEnvironment: String, Sendable, Equatable, CaseIterable {
    /// `api.sandbox.push.apple.com`.
    case sandbox
    /// `api.push.apple.com`.
    case production

    /// The environment an app's embedded provisioning profile names (`aps-environment`):
    /// `development` is the sandbox. No profile (an App Store build has none) or no entitlement
    /// means production. The profile is a signed container whose payload is a plain XML property
    /// list, so the key is found in its bytes without decoding the signature.
    package static func fromProvisioningProfile(_ profile: Data?) -> APNsEnvironment {
        guard let profile else { return .production }
        let text = String(decoding: profile, as: UTF8.self)
        guard let key = text.range(of: "<key>aps-environment</key>") else { return .production }
        let rest = text[key.upperBound...].drop { $0.isWhitespace }
        return rest.hasPrefix("<string>development</string>") ? .sandbox : .production
    }

    /// The running app's environment: the simulator and development-signed builds use the sandbox.
    package static var current: APNsEnvironment {
        #if targetEnvironment(simulator)
        .sandbox
        #elseif os(iOS) || os(tvOS) || os(visionOS) || os(watchOS)
        Self.fromProvisioningProfile(
            Bundle.main.url(forResource: "embedded", withExtension: "mobileprovision").flatMap {
                try? Data(contentsOf: $0)
            }
        )
        #else
        .production
        #endif
    }
}

extension DurableWrite.Kind {
    /// `POST /v1/push/register` (protocol.md 5.10, GAP-15): the token for the profile the ids
    /// resolve to. Not a withdrawal: only sent while registration is allowed (PUSH-6). A newer
    /// registration of the same token replaces a waiting one.
    package static func pushRegister(
        token: String,
        environment: APNsEnvironment,
        bundleId: String?,
        permission: String?
    ) -> Self {
        var fields: [String: JSONValue] = [
            "token": .string(token),
            "environment": .string(environment.rawValue),
        ]
        fields["bundleId"] = bundleId.map(JSONValue.string)
        fields["permission"] = permission.map(JSONValue.string)
        return Self(
            name: "push register",
            path: "v1/push/register",
            fields: fields,
            replacement: .init(key: "register|\(token)", scope: .everyone),
            isWithdrawal: false
        )
    }
}
