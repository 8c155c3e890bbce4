package import Foundation
package import JoryioCore
internal import JoryioDelivery
internal import JoryioPlatform
internal import JoryioStorage
internal import JoryioTransport

/// The one composition root: production backends for every seam.
extension JoryioEnvironment {
    /// The SDK version sent in `User-Agent`.
    package static let sdkVersion = "0.1.0"

    /// The production environment: a serial queue, the system clock, libcurl (Linux) or
    /// URLSession (Apple), and the stores chosen by the configuration.
    package static func live() -> JoryioEnvironment {
        let settings = SettingsCache()
        var environment = JoryioEnvironment(
            scheduler: SerialQueueScheduler(label: "io.joryio.engine"),
            clock: SystemClock(),
            identifiers: UUIDGenerator(),
            jitter: SystemJitter(),
            makeTransport: { _ in Self.platformTransport() },
            openStores: { config, sdkKey, logger in
                Self.openStores(
                    config: config,
                    sdkKey: sdkKey,
                    clock: SystemClock(),
                    logger: logger,
                    settings: settings
                )
            },
            gzip: { try? Gzip.compress($0) },
            userAgent: Self.userAgent(),
            defaultKeyValue: {
                // Where the engine's settings will be (UserDefaults on Apple platforms), so the
                // opt-out and consent getters answer from stored state before initialize().
                guard let directory = try? Self.directory(nil) else { return nil }
                return Self.settingsStore(
                    StoragePlan.make(.sqlite(), platform: .current),
                    directory: directory,
                    cache: settings,
                    clock: SystemClock(),
                    logger: .disabled
                )
            },
            sessionStartFacts: Self.sessionStartFacts()
        )
        environment.claimStorage = { config in Self.claimStorage(config) }
        environment.journalLinger = 0.002
        environment.journalWait = 1
        environment.deadlines = SerialQueueScheduler(label: "io.joryio.deadlines")
        #if canImport(UIKit) && !os(watchOS)
        let location =
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first?
            .appendingPathComponent("joryio", isDirectory: true).path ?? "Application Support/joryio"
        let wait = Self.firstUnlockWait(at: location, directory: { try Self.directory(nil) }) { directory in
            FirstUnlockStorageAvailability(probeFile: directory.appendingPathComponent(".joryio-unlock-probe"))
        }
        if let availability = wait.availability { environment.storageAvailability = availability }
        environment.setupWarnings += wait.warnings
        #endif
        return environment
    }

    /// INIT-14's wait: availability over a probe file in the SDK's directory (`directory` makes it,
    /// `probe` builds the availability there). When the directory cannot be made there is nothing to
    /// probe and the SDK does not wait for the first unlock: the answer is no availability and a
    /// warning naming `location` and the error, for `initialize()` to log (issue 26: the wait used
    /// to be skipped without a word). The stores then report their own errors when they open.
    package static func firstUnlockWait(
        at location: String,
        directory: () throws -> URL,
        probe: (URL) -> any StorageAvailability
    ) -> (availability: (any StorageAvailability)?, warnings: [String]) {
        do {
            return (probe(try directory()), [])
        } catch {
            return (
                nil,
                [
                    "storage: cannot make the SDK's directory \(location) (\(error)); initialize() does not wait "
                        + "for the device's first unlock (INIT-14), and the stores report their own errors"
                ]
            )
        }
    }

    /// Real device and environment facts for `Session Start` (SESS-3).
    private static func sessionStartFacts() -> @Sendable () -> [String: JSONValue] {
        #if os(Linux)
        let provider = LinuxDeviceFactsProvider()
        return { provider.current().sessionStartProperties() }
        #elseif canImport(UIKit) && !os(watchOS)
        // The UIKit provider reads main-thread-only values once, in its initializer: it is made on
        // the main thread (at once when we are there, otherwise as soon as the main queue runs), and
        // until then Session Start carries the device id only.
        let provider = Locked<AppleDeviceFactsProvider?>(nil)
        if Thread.isMainThread {
            provider.withLock { $0 = MainActor.assumeIsolated { AppleDeviceFactsProvider() } }
        } else {
            DispatchQueue.main.async {
                let made = MainActor.assumeIsolated { AppleDeviceFactsProvider() }
                provider.withLock { $0 = made }
            }
        }
        return { provider.withLock { $0 }?.current().sessionStartProperties() ?? [:] }
        #else
        return { [:] }
        #endif
    }

    private static func platformTransport() -> any Transport {
        #if os(Linux) || os(Android)
        CurlTransport()
        #else
        URLSessionTransport()
        #endif
    }

    /// Opens the stores `config.storage` names; any failure falls back to memory with an error log,
    /// so the SDK keeps working.
    package static func openStores(
        config: JoryioConfig,
        sdkKey: String,
        clock: any Clock,
        logger: Logger,
        settings cache: SettingsCache = SettingsCache()
    ) -> JoryioStores {
        let capacity = config.maxQueueSize
        // One queue per storage directory, whatever the key (issue 13, "SDK key change" in
        // decisions.md): events and writes queued under an earlier key are sent with the current
        // one. Files an earlier SDK build named after this key are renamed once.
        let legacyName = "events-" + Self.fingerprint(sdkKey)
        let plan = StoragePlan.make(config.storage, platform: .current)
        func settings(_ directory: URL) -> any KeyValueStore {
            Self.settingsStore(plan, directory: directory, cache: cache, clock: clock, logger: logger)
        }
        func secure(_ directory: URL) -> any SecureStore {
            #if canImport(Security)
            if plan.secrets == .keychain { return KeychainSecureStore(service: StoragePlan.keychainService) }
            #endif
            do {
                return try FileSecureStore(directory: directory.appendingPathComponent("secure", isDirectory: true))
            } catch {
                logger.error("cannot open the secure store (\(error)); secrets last for this process only")
                return InMemorySecureStore()
            }
        }
        // One SQLite file per directory holds the events (when they are in SQLite) and the durable
        // writes (always, except in memory: STORE-4).
        func database(_ directory: URL) throws(StorageError) -> SQLiteDatabase {
            try SQLiteDatabase(
                fileURL: Self.adopting(directory, Self.databaseName, legacy: legacyName + ".sqlite", logger: logger),
                clock: clock,
                logger: logger
            )
        }
        do {
            let storedIn: URL?
            let custom: (any QueueStore)?
            switch config.storage {
            case .inMemory: (storedIn, custom) = (nil, nil)
            case .custom(let store): (storedIn, custom) = (nil, store)
            case .sqlite(let preferred), .files(let preferred): (storedIn, custom) = (preferred, nil)
            }
            guard plan.events != .memory else {
                return JoryioStores(events: InMemoryQueueStore(capacity: capacity), keyValue: InMemoryKeyValueStore())
            }
            let directory = try Self.directory(storedIn)
            var opened: SQLiteDatabase?
            let events: any QueueStore
            switch plan.events {
            case .sqlite:
                let shared = try database(directory)
                opened = shared
                events = SQLiteQueueStore(database: shared, queue: "events", capacity: capacity)
            case .files:
                events = try FileQueueStore(
                    directory: Self.adopting(directory, "joryio-events", legacy: legacyName, logger: logger),
                    capacity: capacity,
                    logger: logger
                )
            case .custom, .memory:
                events = custom ?? InMemoryQueueStore(capacity: capacity)
            }
            let durable: any QueueStore
            do {
                let shared = try opened ?? database(directory)
                durable = SQLiteQueueStore(database: shared, queue: "durable", capacity: JoryioStores.durableCapacity)
            } catch {
                logger.error(
                    "cannot open the durable-write store (\(error)); those writes are kept in memory for this process only"
                )
                durable = InMemoryQueueStore(capacity: JoryioStores.durableCapacity)
            }
            let journal = (events as? any MarkedQueueStore).flatMap { marked in
                plan.journal
                    ? JoryioStores.openJournal(
                        at: Self.adopting(directory, "joryio.journal", legacy: legacyName + ".journal", logger: logger),
                        for: marked,
                        logger: logger
                    ) : nil
            }
            return JoryioStores(
                events: events,
                keyValue: settings(directory),
                secure: secure(directory),
                durable: durable,
                journal: journal
            )
        } catch {
            logger.error("cannot open the event queue (\(error)); events are kept in memory for this process only")
            return JoryioStores(events: InMemoryQueueStore(capacity: capacity), keyValue: InMemoryKeyValueStore())
        }
    }

    /// Locks `joryio.lock` in each directory the instance's stores use: the storage directory, and
    /// on Apple platforms also the default one, whose UserDefaults settings are the app's (an app and
    /// its extension sharing an App Group directory exclude each other there, and two instances of
    /// one app exclude each other through UserDefaults). In-memory storage owns nothing; a directory
    /// or lock file that cannot be opened is left to the stores to report.
    package static func claimStorage(_ config: JoryioConfig) -> StorageClaim {
        let preferred: URL?
        switch config.storage {
        case .inMemory: return .owned([])
        case .sqlite(let directory), .files(let directory): preferred = directory
        case .custom: preferred = nil
        }
        var directories: [URL] = []
        if let storage = try? Self.directory(preferred) { directories.append(storage) }
        if StoragePlan.make(config.storage, platform: .current).settingsSharedByApp,
            let settings = try? Self.directory(nil),
            !directories.contains(where: { $0.standardizedFileURL == settings.standardizedFileURL })
        {
            directories.append(settings)
        }
        var locks: [StorageLock] = []
        for directory in directories {
            switch StorageLock.acquire(directory.appendingPathComponent("joryio.lock")) {
            case .success(let lock):
                locks.append(lock)
            case .failure(.inUse):
                locks.forEach { $0.release() }
                return .inUse(directory.path)
            case .failure(.cannotOpen):
                continue
            }
        }
        return .owned(locks)
    }

    /// The settings store `plan` names: the app's standard UserDefaults (Apple), or the settings
    /// file of `directory` shared through `cache` (one per directory in the process).
    static func settingsStore(
        _ plan: StoragePlan,
        directory: URL,
        cache: SettingsCache,
        clock: any Clock,
        logger: Logger
    ) -> any KeyValueStore {
        switch plan.settings {
        case .memory:
            return InMemoryKeyValueStore()
        case .userDefaults:
            do {
                return try UserDefaultsKeyValueStore(suiteName: nil)
            } catch {
                logger.error("cannot open UserDefaults (\(error)); settings go to a file instead")
                return cache.store(in: directory, clock: clock, logger: logger)
            }
        case .file:
            return cache.store(in: directory, clock: clock, logger: logger)
        }
    }

    /// The queue database's name in its directory.
    package static let databaseName = "joryio.sqlite"

    /// `directory/name`; when nothing has that name yet but `legacy` (a name an earlier build gave
    /// it, after the SDK key) exists, `legacy` and its SQLite companions are renamed to it first.
    package static func adopting(_ directory: URL, _ name: String, legacy: String, logger: Logger) -> URL {
        let target = directory.appendingPathComponent(name)
        let old = directory.appendingPathComponent(legacy)
        let files = FileManager.default
        guard !files.fileExists(atPath: target.path), files.fileExists(atPath: old.path) else { return target }
        var moved: [String] = []
        do {
            for suffix in ["-wal", "-shm", "-journal"] where files.fileExists(atPath: old.path + suffix) {
                try files.moveItem(atPath: old.path + suffix, toPath: target.path + suffix)
                moved.append(suffix)
            }
            try files.moveItem(at: old, to: target)
            logger.info("storage: \(legacy) is now \(name) (one queue per directory, whatever the SDK key)")
            return target
        } catch {
            // Put the companions back, so the old database keeps its own write-ahead log, and
            // keep using it under its old name.
            for suffix in moved {
                try? files.moveItem(atPath: target.path + suffix, toPath: old.path + suffix)
            }
            logger.error("storage: cannot rename \(legacy) to \(name) (\(error)); it is used under its old name")
            return old
        }
    }

    /// `preferred`, or the platform's data directory, created with mode 0700.
    package static func directory(_ preferred: URL?) throws -> URL {
        let directory: URL
        if let preferred {
            directory = preferred
        } else {
            #if os(Linux) || os(Android)
            let environment = ProcessInfo.processInfo.environment
            let base =
                environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
                ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
            directory = base.appendingPathComponent("joryio", isDirectory: true)
            #else
            let base = try FileManager.default.url(
                for: .applicationSupportDirectory,
                in: .userDomainMask,
                appropriateFor: nil,
                create: true
            )
            directory = base.appendingPathComponent("joryio", isDirectory: true)
            #endif
        }
        try FileManager.default.createDirectory(
            at: directory,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        #if canImport(UIKit)
        // Readable after the first unlock since power-on, even while locked (INIT-15): files made
        // here inherit the directory's class.
        try? FileManager.default.setAttributes(
            [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication],
            ofItemAtPath: directory.path
        )
        #endif
        return directory
    }

    /// A short stable fingerprint of the SDK key (FNV-1a): the names earlier builds gave the queue
    /// files, so they can be found; the key itself never appears in a file name.
    private static func fingerprint(_ key: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    private static func userAgent() -> String {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        #if os(Linux)
        let os = "Linux"
        #elseif os(iOS)
        let os = "iOS"
        #elseif os(macOS)
        let os = "macOS"
        #else
        let os = "Unknown"
        #endif
        return
            "joryio-swift/\(Self.sdkVersion) (\(os) \(version.majorVersion).\(version.minorVersion).\(version.patchVersion))"
    }
}
