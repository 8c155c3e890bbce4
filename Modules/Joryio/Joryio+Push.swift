public import Foundation
internal import JoryioCore
internal import JoryioDelivery
internal import JoryioFeature
internal import JoryioInApp
public import JoryioKit
public import JoryioPush

/// Push (issue 14): permission, the device token, registration with Joryio and the badge. Every
/// call may be made before `initialize()`: it waits in order and runs at start (PUSH-8, INIT-6).
extension Joryio {
    /// The profile attribute that mirrors the notification permission: `granted`, `denied` or
    /// `not_determined` (PUSH-11).
    public static let pushPermissionAttribute = JoryioPush.permissionAttribute

    /// Asks the person for notification permission and returns whether it was granted
    /// (provisional authorization counts, PROV-7). It cancels an earlier ``unregisterPush()``
    /// (PUSH-3, PUSH-13) and asks iOS for a device token, which is then registered with Joryio.
    ///
    /// With `JoryioConfig.requestProvisionalAuthorization` the first request asks quietly: no
    /// prompt, notifications go to the Notification Center only (PROV-8). To ask for prominent
    /// delivery later, call this again once the person has a reason to say yes: the system then
    /// shows its prompt (PROV-9).
    ///
    /// Before `initialize()` nothing can be asked: the call logs a warning and returns `false`.
    public func requestPushPermission() async -> Bool {
        guard let request = self.facade[PushFeature.permissionRequestSlot] else {
            self.facade.warn(
                "requestPushPermission() before initialize(): nothing was asked; call it after initialize()"
            )
            return false
        }
        self.facade.submit(to: PushFeature.self) { $0.permissionRequested() }
        let granted = await request.ask()
        self.facade.submit(to: PushFeature.self) { $0.refreshPermission(force: false) }
        return granted
    }

    /// The notification permission: `"granted"` (provisional and ephemeral authorization count),
    /// `"denied"` or `"notDetermined"` (PUSH-4); `""` before `initialize()` (INIT-7).
    public func getPushPermissionStatus() async -> String {
        guard let request = self.facade[PushFeature.permissionRequestSlot] else { return "" }
        return await request.platform.authorizationStatus().status
    }

    /// `true` exactly when ``getPushPermissionStatus()`` is `"granted"` (PUSH-5); `false` before
    /// `initialize()` (INIT-7).
    public func isPushEnabled() async -> Bool {
        guard let request = self.facade[PushFeature.permissionRequestSlot] else { return false }
        return await request.platform.authorizationStatus().isEnabled
    }

    /// Forward `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)` here (PUSH-7).
    /// The token is stored in the Keychain and registered with Joryio while the person is opted in
    /// with consent granted (PUSH-6); a token that arrives before `initialize()` is registered at
    /// start (PUSH-8). After ``unregisterPush()`` it is kept but not registered (PUSH-15).
    public func didRegisterForRemoteNotifications(deviceToken: Data) {
        let hex = Self.hex(deviceToken)
        self.facade.submit(to: PushFeature.self) { $0.tokenReceived(hex) }
    }

    /// Forward `application(_:didFailToRegisterForRemoteNotificationsWithError:)` here (PUSH-9):
    /// the error is logged.
    public func didFailToRegisterForRemoteNotifications(error: any Error) {
        let description = String(describing: error)
        self.facade.submit(to: PushFeature.self) { $0.registrationFailed(description) }
    }

    /// For apps with their own push stack: registers the APNs device token `token` (hex) with
    /// Joryio and calls `onResult` exactly once, on the SDK's thread (PUSH-10, PUSH-12). It cancels
    /// an earlier ``unregisterPush()`` (PUSH-13).
    ///
    /// `success` is `true` only when the server confirmed the registration. A malformed token (a
    /// Firebase token, say) is refused at once with the reason; so is every call when
    /// `initialize()` refused the SDK key or host (PUSH-14). A failure with `isRetryable` means the
    /// SDK keeps the token and retries by itself. While the person is opted out or has not granted
    /// consent the token is kept and registered later, and the call answers `success: false` now.
    public func registerPushToken(
        _ token: String,
        onResult: (@Sendable (PushRegistrationResult) -> Void)? = nil
    ) {
        if case .invalid(let reason) = PushTokenFormat.check(token) {
            self.facade.warn("registerPushToken: \(reason)")
            onResult?(.refused(reason))
            return
        }
        let answer = PushAnswer(onResult)
        self.facade.whenInitializationRefused { reason in
            answer.answer(
                .refused("initialize() refused the SDK key or host (\(reason)); the token was not registered")
            )
        }
        self.facade.submit(to: PushFeature.self) { $0.registerPushToken(token, answer: answer) }
    }

    /// The APNs device token the SDK holds (lowercase hex), or `nil` (PUSH-16); `nil` before
    /// `initialize()` (INIT-7).
    public func getDeviceToken() -> String? {
        self.facade[PushFeature.deviceTokenSlot]
    }

    /// Removes the device token on the Joryio server and with iOS, and keeps push off across
    /// launches until ``registerPushToken(_:onResult:)`` or ``requestPushPermission()`` (PUSH-15).
    /// The server part is a withdrawal: it is sent whatever the consent or opt-out.
    public func unregisterPush() {
        self.facade.submit(to: PushFeature.self) { $0.unregisterPush() }
    }

    /// Sets the app icon's badge to `count` (negative counts are 0).
    public func updateBadgeCount(_ count: Int) {
        let count = max(0, count)
        self.facade.submit(to: PushFeature.self) { $0.platform.setBadgeCount(count) }
    }

    /// Clears the app icon's badge.
    public func clearBadge() {
        self.updateBadgeCount(0)
    }

    /// `data` as lowercase hex, the form APNs tokens are registered in.
    static func hex(_ data: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.count * 2)
        for byte in data {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension FeatureCatalog {
    /// The `Joryio` product's features over `platform`: the analytics channels, then push, then push
    /// receipts and clicks, then in-app, whose messages' forms and links go back to the instance
    /// that presented them (issue 26). `environment` and `bundleId` describe the app to APNs (GAP-15).
    package static func joryio(
        push platform: any PushPlatform,
        environment: APNsEnvironment = .current,
        bundleId: String? = Bundle.main.bundleIdentifier,
        inApp inAppPlatform: any InAppPlatform = FeatureCatalog.liveInAppPlatform
    ) -> FeatureCatalog {
        FeatureCatalog.analytics.adding { setup in
            [
                FeatureRegistration { context in
                    PushFeature(
                        context: context,
                        platform: platform,
                        sender: PushRegistrationSender(
                            builder: DurableRequestBuilder(
                                apiHost: setup.apiEndpoint,
                                sdkKey: setup.sdkKey,
                                userAgent: setup.userAgent,
                                timeout: setup.config.requestTimeout
                            ),
                            settings: .init(backoff: setup.backoff, maxRetries: setup.config.maxRetries),
                            device: .init(environment: environment, bundleId: bundleId),
                            dependencies: context.channelDependencies("push")
                        ),
                        settings: .init(
                            requestPermissionAtLaunch: setup.config.requestPushPermissionAtLaunch,
                            provisional: setup.config.requestProvisionalAuthorization
                        )
                    )
                },
                setup.pushReports,
                FeatureRegistration { context in PushNotificationHandler(context: context, platform: platform) },
                FeatureRegistration { context in
                    InAppFeature(
                        context: context,
                        settings: .init(config: setup.config.inApp, debug: setup.config.enableDebug),
                        requests: InAppRequestBuilder(
                            apiHost: setup.apiEndpoint,
                            sdkKey: setup.sdkKey,
                            userAgent: setup.userAgent,
                            timeout: setup.config.requestTimeout,
                            gzip: setup.gzip
                        ),
                        reportBuilder: ReportRequestBuilder(
                            apiHost: setup.apiEndpoint,
                            sdkKey: setup.sdkKey,
                            userAgent: setup.userAgent,
                            timeout: setup.config.requestTimeout,
                            gzip: setup.gzip
                        ),
                        queue: .init(backoff: setup.backoff, maxRetries: setup.config.maxRetries),
                        platform: inAppPlatform
                    )
                },
            ]
        }
        .onInitialize { $0.connectInAppMessages() }
    }

    /// The OS's in-app display: UIKit on iOS, none elsewhere.
    package static var liveInAppPlatform: any InAppPlatform {
        #if canImport(UIKit) && !os(watchOS)
        UIKitInAppPlatform()
        #else
        NoInAppPlatform()
        #endif
    }

    /// The OS's push services: UserNotifications with UIKit on iOS, with AppKit on macOS, none
    /// elsewhere.
    static var livePushPlatform: any PushPlatform {
        #if canImport(UserNotifications) && canImport(UIKit) && !os(watchOS)
        UserNotificationsPushPlatform()
        #elseif canImport(UserNotifications) && canImport(AppKit) && os(macOS)
        NotificationCenterAvailability.thisProcess ? AppKitPushPlatform() : NoPushPlatform()
        #else
        NoPushPlatform()
        #endif
    }
}
