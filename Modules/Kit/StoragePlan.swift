/// Which backend holds what, for a platform and a `JoryioConfig.storage` choice (STORE-1…4,
/// INIT-15), decided as a value so the choice is tested on Linux; ``JoryioEnvironment/openStores``
/// builds what it names.
///
/// On Apple platforms the settings (ids, session, opt-out, consent denial, pre-init decisions) live
/// in the app's standard UserDefaults under `jry_` keys, the secrets (user id, tokens, unsent
/// attribute writes) in the Keychain (this device only, after first unlock), the queues in SQLite in
/// Application Support, excluded from backups, with files protected until the first unlock. On Linux
/// the settings and secrets are files in the storage directory.
package struct StoragePlan: Equatable, Sendable {
    /// The platform family the SDK runs on.
    package enum Platform: Equatable, Sendable {
        case apple, linux

        /// The platform this build is for.
        package static var current: Platform {
            #if canImport(Darwin)
            .apple
            #else
            .linux
            #endif
        }
    }

    /// Where settings live.
    package enum Settings: Equatable, Sendable {
        case userDefaults, file, memory
    }

    /// Where secrets live.
    package enum Secrets: Equatable, Sendable {
        case keychain, file, memory
    }

    /// Where a queue lives.
    package enum Queue: Equatable, Sendable {
        case sqlite, files, memory, custom
    }

    package var settings: Settings
    package var secrets: Secrets
    package var events: Queue
    /// Identify, alias, subscription and opt-out writes: SQLite whatever holds the events (STORE-4),
    /// except in memory.
    package var durable: Queue
    /// Whether `track()` appends to the memory-mapped journal (only with the SQLite queue).
    package var journal: Bool
    /// Whether files are created readable after the first unlock only
    /// (`completeUntilFirstUserAuthentication`) and kept out of backups (Apple).
    package var protectsFiles: Bool
    /// Whether the settings are shared by every storage directory of the app (UserDefaults), so
    /// one instance per app may own them, not one per directory.
    package var settingsSharedByApp: Bool { self.settings == .userDefaults }

    /// The Keychain service of the SDK's items.
    package static let keychainService = "io.joryio.sdk"

    /// The plan for `storage` on `platform`.
    package static func make(_ storage: JoryioConfig.Storage, platform: Platform) -> StoragePlan {
        let settings: Settings = platform == .apple ? .userDefaults : .file
        let secrets: Secrets = platform == .apple ? .keychain : .file
        let protects = platform == .apple
        switch storage {
        case .inMemory:
            return StoragePlan(
                settings: .memory,
                secrets: .memory,
                events: .memory,
                durable: .memory,
                journal: false,
                protectsFiles: false
            )
        case .sqlite:
            return StoragePlan(
                settings: settings,
                secrets: secrets,
                events: .sqlite,
                durable: .sqlite,
                journal: true,
                protectsFiles: protects
            )
        case .files:
            return StoragePlan(
                settings: settings,
                secrets: secrets,
                events: .files,
                durable: .sqlite,
                journal: false,
                protectsFiles: protects
            )
        case .custom:
            return StoragePlan(
                settings: settings,
                secrets: secrets,
                events: .custom,
                durable: .sqlite,
                journal: false,
                protectsFiles: protects
            )
        }
    }
}
