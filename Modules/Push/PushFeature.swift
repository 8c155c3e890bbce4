internal import Foundation
internal import JoryioConsent
internal import JoryioCore
internal import JoryioDelivery
package import JoryioFeature

/// Push on the engine's seam (issue 14): the token rules (``PushTokenMachine``) carried out, the
/// `push_permission` profile attribute kept in step with the OS (PUSH-11), and the platform the
/// facade's push calls use.
///
/// The machine decides; this class persists its state in the secure store (STORE-3, PUSH-31),
/// sends its requests through ``PushRegistrationSender``, answers `registerPushToken` calls and
/// feeds back privacy, identity, wipe, request outcomes and the end of a backoff. Every method runs
/// on the engine's executor; what the facade reads from the caller's thread is published in the
/// instance's slots (``deviceTokenSlot``, ``permissionRequestSlot``).
package final class PushFeature: EngineFeature {
    /// Where the last `push_permission` value written is kept (settings, `jry_` prefix, STORE-5).
    package static let storedPermissionKey = "jry_push_permission"
    /// The secure item holding ``PushTokenMachine/State`` (PUSH-31).
    package static let storedStateKey = "jry_push_state"
    /// The device token the feature holds (lowercase hex), published for `getDeviceToken()`.
    package static let deviceTokenSlot = InstanceSlot<String>("push.deviceToken")
    /// The OS part of `requestPushPermission()` and the permission answers, published when the
    /// feature is made.
    package static let permissionRequestSlot = InstanceSlot<PushPermissionRequest>("push.permissionRequest")

    /// How the feature behaves, from the configuration.
    package struct Settings: Sendable, Equatable {
        /// Ask for permission once the SDK started (`requestPushPermissionAtLaunch`, PUSH-1).
        package var requestPermissionAtLaunch: Bool
        /// Ask quietly: provisional authorization, no prompt (PROV-8).
        package var provisional: Bool

        /// Creates settings.
        package init(requestPermissionAtLaunch: Bool = false, provisional: Bool = false) {
            self.requestPermissionAtLaunch = requestPermissionAtLaunch
            self.provisional = provisional
        }
    }

    private struct Core: Sendable {
        var machine = PushTokenMachine()
        var stored = PushTokenMachine.State.empty
        var started = false
        var answers: [UInt64: PushAnswer] = [:]
        var nextRequest: UInt64 = 0
        var token: String?
    }

    /// What push needs from the OS.
    package let platform: any PushPlatform
    /// The feature's settings.
    package let settings: Settings
    private let context: FeatureContext
    private let sender: PushRegistrationSender
    /// The OS part of a permission request: the facade's (published) and the launch's.
    private let permissionRequest: PushPermissionRequest
    private let core = Locked(Core())
    private let launchRequest = Locked<Task<Bool, Never>?>(nil)

    /// A push feature over `platform`, made with `context` by its registration; requests go
    /// through `sender`.
    package init(
        context: FeatureContext,
        platform: any PushPlatform,
        sender: PushRegistrationSender,
        settings: Settings = Settings()
    ) {
        self.context = context
        self.platform = platform
        self.sender = sender
        self.settings = settings
        self.permissionRequest = PushPermissionRequest(platform: platform, settings: settings)
        context.publish(Self.permissionRequestSlot, self.permissionRequest)
    }

    /// The stored APNs token (lowercase hex), or `nil` (PUSH-16). Any thread.
    package var deviceToken: String? {
        self.core.withLock { $0.token }
    }

    /// The machine, for tests and invariants.
    package var machine: PushTokenMachine {
        self.core.withLock { $0.machine }
    }

    /// The permission request made at launch (`requestPushPermissionAtLaunch`), for tests to await.
    package var permissionRequestAtLaunch: Task<Bool, Never>? {
        self.launchRequest.withLock { $0 }
    }

    // MARK: - Hooks

    /// Loads the stored state, asks iOS for a token (PUSH-2: with or without permission, so silent
    /// pushes reach people who declined notifications) unless push is off, and writes the
    /// permission when it changed. Registration starts with the first privacy state (INIT-17).
    package func start() {
        let stored = self.load()
        self.core.withLock {
            $0.stored = stored
            $0.token = stored.token
        }
        self.context.publish(Self.deviceTokenSlot, stored.token)
        if self.platform.hasPush, !stored.isPushOff {
            self.platform.registerForRemoteNotifications()
        }
        self.refreshPermission(force: false)
        if self.settings.requestPermissionAtLaunch, self.platform.hasPush {
            self.launchRequest.withLock { task in
                task = Task { [self] in await self.askAtLaunch() }
            }
        }
    }

    /// The first state starts the machine with what was stored; later ones allow or suspend
    /// registration (PUSH-6, CONSENT-16). A value dropped while collection was off is written
    /// once it is back.
    package func privacyChanged(_ change: PrivacyChange) {
        switch change {
        case .applied(let privacy):
            let allowed = privacy.allowsCollection
            let start = self.core.withLock { core -> PushTokenMachine.Start? in
                guard !core.started else { return nil }
                core.started = true
                let identity = self.context.identity()
                return PushTokenMachine.Start(
                    stored: core.stored,
                    owner: .init(anonymousId: identity.anonymousId, userId: identity.userId),
                    collectionAllowed: allowed
                )
            }
            self.handle(start.map(PushTokenMachine.Input.start) ?? .collection(allowed: allowed))
        case .collectionResumed:
            self.refreshPermission(force: true)
        case .collectionStopped:
            break
        }
    }

    /// `identify` re-registers under the user, `reset()` under the new anonymous id (PUSH-18).
    package func identityChanged(_ change: IdentityChange) {
        switch change {
        case .identified(_, let current):
            self.handle(.identify(userId: current))
        case .reset:
            self.handle(.reset(anonymousId: self.context.identity().anonymousId))
        case .wiped:
            // The wipe cleared the secure store after ``wipe()`` ran: the state is written again,
            // because its pending unregister is a withdrawal that must survive the wipe (WIPE-6).
            self.handle(.reset(anonymousId: self.context.identity().anonymousId))
            self.save(self.core.withLock { $0.machine.state })
        }
    }

    /// A new SDK-auth token ends a wait for one (AUTH-9).
    package func authorizationChanged() {
        guard self.sender.isHeldForToken else { return }
        self.sender.resetBackoff()
        self.handle(.retryDue)
    }

    /// The person may have changed the permission in Settings meanwhile; a registration that
    /// failed is tried again.
    package func lifecycle(_ event: LifecycleEvent) {
        guard case .foreground = event else { return }
        self.refreshPermission(force: false)
        if self.core.withLock({ $0.machine.isBackingOff }) {
            self.sender.resetBackoff()
            self.handle(.retryDue)
        }
    }

    /// `wipeData()`: the token is unregistered and deleted and push stays off (WIPE-5). The next
    /// permission value is written again.
    package func wipe() {
        self.handle(.wipe(anonymousId: self.context.identity().anonymousId))
        self.context.stores.keyValue.save(nil, forKey: Self.storedPermissionKey, logger: self.context.logger)
    }

    /// The user whose registration waits keeps their SDK-auth token (AUTH-5).
    package var usersWithPendingItems: Set<String> {
        self.core.withLock { core in
            let machine = core.machine
            var users: Set<String> = []
            if case .register(let registration) = machine.inFlight, let user = registration.owner.userId {
                users.insert(user)
            }
            if let desired = machine.desired, desired != machine.confirmed, let user = desired.owner.userId {
                users.insert(user)
            }
            return users
        }
    }

    // MARK: - Calls

    /// `didRegisterForRemoteNotifications(deviceToken:)` (PUSH-7).
    package func tokenReceived(_ token: String) {
        self.handle(.tokenReceived(token))
    }

    /// `didFailToRegisterForRemoteNotifications(error:)` (PUSH-9): logged; nothing to retry, iOS
    /// calls again with a token or an error at the next registration.
    package func registrationFailed(_ description: String) {
        self.context.logger.warning("iOS could not register for remote notifications: \(description)")
    }

    /// `registerPushToken(_:onResult:)` (PUSH-10, PUSH-12, PUSH-13): answered exactly once.
    package func registerPushToken(_ token: String, answer: PushAnswer) {
        let request = self.core.withLock { core -> PushTokenMachine.RequestID in
            core.nextRequest += 1
            core.answers[core.nextRequest] = answer
            return PushTokenMachine.RequestID(core.nextRequest)
        }
        self.sender.resetBackoff()
        self.handle(.registerPushToken(token, request: request))
    }

    /// `requestPushPermission()` was called: it cancels `unregisterPush()` (PUSH-3, PUSH-13).
    package func permissionRequested() {
        self.sender.resetBackoff()
        self.handle(.permissionRequested)
    }

    /// `unregisterPush()` (PUSH-15).
    package func unregisterPush() {
        self.handle(.unregisterPush)
    }

    /// The launch's permission request (`requestPushPermissionAtLaunch`, PUSH-1): the OS part of
    /// `requestPushPermission()` only. It cancels neither an earlier `unregisterPush()` nor a wipe's
    /// push-off (PUSH-15, WIPE-5: only an explicit `requestPushPermission()` or `registerPushToken`
    /// does), and while push is off it does not ask iOS for a token either; then the new status is
    /// written. Whether it was granted.
    private func askAtLaunch() async -> Bool {
        let granted = await self.permissionRequest.ask(registers: !self.isPushOff)
        self.refreshPermission(force: false)
        return granted
    }

    /// Whether push is off now (`unregisterPush()`, a wipe; PUSH-15, WIPE-5): the machine's state
    /// once it started, the stored one before. Any thread.
    private var isPushOff: Bool {
        self.core.withLock { $0.started ? $0.machine.state.isPushOff : $0.stored.isPushOff }
    }

    /// Whether a permission request asks provisionally (PROV-8, PROV-9): only with
    /// `requestProvisionalAuthorization` and only while nothing was decided yet, so once the quiet
    /// authorization is in place the next `requestPushPermission()` shows the prompt that asks for
    /// prominent delivery.
    package static func asksProvisionally(_ settings: Settings, status: PushAuthorization) -> Bool {
        settings.provisional && status == .notDetermined
    }

    // MARK: - The machine

    private func handle(_ input: PushTokenMachine.Input) {
        let actions = self.core.withLock { $0.machine.handle(input) }
        self.perform(actions)
    }

    private func perform(_ actions: [PushTokenMachine.Action]) {
        for action in actions {
            switch action {
            case .persist(let state):
                self.save(state)
            case .sendRegister(let token, let owner):
                self.send(.register(.init(token: token, owner: owner)))
            case .sendUnregister(let token):
                self.send(.unregister(token))
            case .unregisterWithSystem:
                if self.platform.hasPush { self.platform.unregisterForRemoteNotifications() }
            case .answer(let request, let result):
                let answer = self.core.withLock { $0.answers.removeValue(forKey: request.rawValue) }
                answer?.answer(result)
            case .log(let level, let message):
                self.context.logger.log(level, message)
            }
        }
    }

    private func send(_ request: PushTokenMachine.Request) {
        let identity = self.context.identity()
        self.sender.send(
            request,
            permission: self.context.stores.keyValue.string(forKey: Self.storedPermissionKey),
            current: identity
        ) { [self] outcome, retryAfter in
            self.handle(.requestFinished(outcome))
            if self.core.withLock({ $0.machine.isBackingOff }) {
                self.sender.backOff(retryAfter: retryAfter) { [self] in self.handle(.retryDue) }
            }
        }
    }

    // MARK: - Storage

    private func load() -> PushTokenMachine.State {
        do {
            guard let data = try self.context.stores.secure.data(forKey: Self.storedStateKey) else { return .empty }
            return try JSONDecoder().decode(PushTokenMachine.State.self, from: data)
        } catch {
            self.context.logger.error("cannot read the stored push state, starting without it: \(error)")
            return .empty
        }
    }

    private func save(_ state: PushTokenMachine.State) {
        self.core.withLock { $0.token = state.token }
        self.context.publish(Self.deviceTokenSlot, state.token)
        do {
            try self.context.stores.secure.set(JSONEncoder().encode(state), forKey: Self.storedStateKey)
        } catch {
            self.context.logger.error("cannot store the push state: \(error)")
        }
    }

    // MARK: - push_permission

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

/// The answer to one `registerPushToken` call, given at most once whoever gives it first: the
/// machine, or a refused `initialize()` (PUSH-12, PUSH-14).
package final class PushAnswer: Sendable {
    private let callback: Locked<(@Sendable (PushRegistrationResult) -> Void)?>

    /// An answer that calls `callback` (or nobody).
    package init(_ callback: (@Sendable (PushRegistrationResult) -> Void)?) {
        self.callback = Locked(callback)
    }

    /// Calls the callback with `result` the first time; later calls do nothing.
    package func answer(_ result: PushRegistrationResult) {
        let callback = self.callback.withLock { callback in
            defer { callback = nil }
            return callback
        }
        callback?(result)
    }
}
