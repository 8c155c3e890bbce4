/// The OS part of `requestPushPermission()`, published by ``PushFeature`` for the facade
/// (``PushFeature/permissionRequestSlot``): it awaits the OS, so it runs on the caller's task, never
/// on the engine's executor, and it holds only immutable values (the platform seam and the
/// feature's settings), so no live feature object reaches the caller.
package struct PushPermissionRequest: Sendable {
    /// What push needs from the OS.
    package let platform: any PushPlatform
    /// The feature's settings.
    package let settings: PushFeature.Settings

    /// Asks for permission (provisional when configured, PROV-8) and then iOS for a token unless
    /// `registers` says no; whether it was granted (provisional counts, PROV-7).
    package func ask(registers: Bool = true) async -> Bool {
        let status = await self.platform.authorizationStatus()
        let granted = await self.platform.requestAuthorization(
            provisional: PushFeature.asksProvisionally(self.settings, status: status)
        )
        if registers { self.platform.registerForRemoteNotifications() }
        return granted
    }
}
