internal import Foundation
internal import JoryioConsent
internal import JoryioCore
internal import JoryioDelivery
package import JoryioFeature

/// Push on the engine's seam (issue 14). So far it keeps the `push_permission` profile attribute
/// in step with the OS (PUSH-11) and owns the platform the facade's push calls use; token
/// registration, receipts and clicks join it next (`PushTokenMachine`, `PushDecision`).
package final class PushFeature: EngineFeature {
    /// Where the last `push_permission` value written is kept (settings, `jry_` prefix, STORE-5).
    package static let storedPermissionKey = "jry_push_permission"

    /// What push needs from the OS.
    package let platform: any PushPlatform
    private let context: FeatureContext

    /// A push feature over `platform`, made with `context` by its registration.
    package init(context: FeatureContext, platform: any PushPlatform) {
        self.context = context
        self.platform = platform
    }

    /// Writes the permission when it differs from the last value written.
    package func start() {
        self.refreshPermission(force: false)
    }

    /// The person may have changed the permission in Settings meanwhile.
    package func lifecycle(_ event: LifecycleEvent) {
        if case .foreground = event { self.refreshPermission(force: false) }
    }

    /// A value dropped while collection was off is written once it is back.
    package func privacyChanged(_ change: PrivacyChange) {
        if case .collectionResumed = change { self.refreshPermission(force: true) }
    }

    /// After a wipe the next value is written again, for the new identity.
    package func wipe() {
        self.context.stores.keyValue.save(nil, forKey: Self.storedPermissionKey, logger: self.context.logger)
    }

    /// Asks the OS, then (on the executor) writes `push_permission` when it changed, or always when
    /// `force`, through the attributes feature's consent gate (PUSH-11).
    package func refreshPermission(force: Bool) {
        // A platform without push (Linux, a server) has no permission to mirror.
        guard self.platform.hasPush else { return }
        self.platform.authorizationStatus { [self] status in
            self.context.scheduler.enqueue { self.observed(status, force: force) }
        }
    }

    private func observed(_ status: PushAuthorization, force: Bool) {
        let value = status.attributeValue
        let stored = self.context.stores.keyValue.string(forKey: Self.storedPermissionKey)
        guard force || stored != value else { return }
        // Not written while collection is off: it is written when collection resumes.
        guard self.context.privacy().gate(.attribute) != .drop else { return }
        self.context.recordAttributes(
            [(key: JoryioPush.permissionAttribute, operation: .set(.string(value)))],
            self.context.clock.now()
        )
        self.context.stores.keyValue.save(value, forKey: Self.storedPermissionKey, logger: self.context.logger)
    }
}
