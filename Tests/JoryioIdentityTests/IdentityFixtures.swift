import JoryioIdentity
import Testing

/// The machine under test.
typealias Machine = IdentityStateMachine
/// Its actions.
typealias Action = IdentityStateMachine.Action
/// Its inputs.
typealias Input = IdentityStateMachine.Input
/// The gate passed in with an identify.
typealias Gate = IdentityStateMachine.Gate

/// Ids the fixtures start from and the fresh ids the tests hand in.
enum ID {
    /// The fixtures' stored anonymous id.
    static let anon0 = "anon-0"
    /// The fixtures' stored device id.
    static let dev0 = "dev-0"
    /// The anonymous id a reset or wipe brings.
    static let anon1 = "anon-1"
    /// The device id a wipe brings.
    static let dev1 = "dev-1"
    /// The anonymous id a launch uses when none is stored or configured.
    static let freshAnon = "fresh-anon"
    /// The device id a launch uses when none is stored.
    static let freshDev = "fresh-dev"
}

/// What the stores hold, changed only by the machine's actions: relaunching from it must give
/// back the machine's state.
struct Device: Equatable {
    /// `jry_anonymous_id` (key-value store).
    var anonymousId: String?
    /// `jry_device_id` (key-value store).
    var deviceId: String?
    /// `jry_user_id` (secure store).
    var userId: String?
    /// `jry_identify_kept` (key-value store).
    var identifyKept = false
    /// `jry_install_marker` (key-value store).
    var installMarker = true

    /// Carries out the actions that touch the stores.
    mutating func apply(_ actions: [Action]) {
        for action in actions {
            switch action {
            case .clearSecureStore: self.userId = nil
            case .writeInstallMarker: self.installMarker = true
            case .persistAnonymousId(let id): self.anonymousId = id
            case .persistDeviceId(let id): self.deviceId = id
            case .persistUserId(let id): self.userId = id
            case .setKeptMarker(let kept): self.identifyKept = kept
            default: break
            }
        }
    }

    /// The launch that reads these stores.
    func launch(configAnonymousId: String? = nil, configUserId: String? = nil) -> IdentityStateMachine.Launch {
        IdentityStateMachine.Launch(
            storedAnonymousId: self.anonymousId,
            storedDeviceId: self.deviceId,
            storedUserId: self.userId,
            identifyKept: self.identifyKept,
            installMarker: self.installMarker,
            configAnonymousId: configAnonymousId,
            configUserId: configUserId,
            freshAnonymousId: ID.freshAnon,
            freshDeviceId: ID.freshDev
        )
    }
}

/// A loaded machine with the actions of its launch.
func launched(_ launch: IdentityStateMachine.Launch) -> (Machine, [Action]) {
    var machine = Machine()
    let actions = machine.handle(.launch(launch))
    return (machine, actions)
}

/// The representative states every input is tried from, reached through a launch.
enum Fixture: String, CaseIterable, CustomTestStringConvertible {
    /// Nobody identified.
    case anonymous
    /// User `a` identified and sent.
    case user
    /// User `a` identified while opted out: the identify is owed.
    case userKept
    /// A kept marker without a user (the secure store was cleared after a reinstall).
    case anonymousKept
    /// `JoryioConfig.userId` `a` replaced the stored user `old`: identified at start (GAP-22).
    case owedAtStart

    /// The name shown for each test case.
    var testDescription: String { self.rawValue }

    /// The stores before the launch.
    var device: Device {
        let user: String? =
            switch self {
            case .anonymous, .anonymousKept: nil
            case .user, .userKept: "a"
            case .owedAtStart: "old"
            }
        let kept = self == .userKept || self == .anonymousKept
        return Device(anonymousId: ID.anon0, deviceId: ID.dev0, userId: user, identifyKept: kept)
    }

    /// The launched machine and the stores after its launch.
    var loaded: (machine: Machine, device: Device) {
        var device = self.device
        let (machine, actions) = launched(device.launch(configUserId: self == .owedAtStart ? "a" : nil))
        device.apply(actions)
        return (machine, device)
    }

    /// The machine's user.
    var userId: String? { self.state.userId }

    /// The state after launch, spelled out.
    var state: Machine.State {
        Machine.State(
            isLoaded: true,
            anonymousId: ID.anon0,
            userId: [.user, .userKept, .owedAtStart].contains(self) ? "a" : nil,
            deviceId: ID.dev0,
            identifyKept: self == .userKept || self == .anonymousKept,
            identifyAtStart: self == .owedAtStart ? "a" : nil
        )
    }

    /// Whether the kept marker is set.
    var kept: Bool { self.state.identifyKept }
}

/// Builds a state from the fixture's, changed by `change`.
func state(_ fixture: Fixture, _ change: (inout Machine.State) -> Void = { _ in }) -> Machine.State {
    var state = fixture.state
    change(&state)
    return state
}

/// Every input other than `.launch`, for exhaustive runs.
let everyCall: [Input] =
    Gate.allCases.flatMap { gate in
        [Input.identify(userId: "a", gate: gate), .identify(userId: "b", gate: gate), .start(identifyGate: gate)]
    } + [
        .identify(userId: "", gate: .accept),
        .reset(newAnonymousId: ID.anon1),
        .wipe(newAnonymousId: ID.anon1, newDeviceId: ID.dev1),
        .collectionStopped(identifyPending: true),
        .collectionStopped(identifyPending: false),
        .collectionResumed,
    ]
