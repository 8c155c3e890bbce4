package import Foundation
package import JoryioCore
package import JoryioDelivery
package import JoryioStorage

/// What claiming a storage location gave.
package enum StorageClaim: Sendable {
    /// This instance owns it; the locks (if any) live as long as the engine.
    case owned([StorageLock])
    /// Another instance owns the directory at this path: this one must not start.
    case inUse(String)
}

/// The stores one SDK instance works with.
package struct JoryioStores: Sendable {
    /// The event queue.
    package var events: any QueueStore
    /// Settings and ids (STORE-1, STORE-2).
    package var keyValue: any KeyValueStore
    /// The user id, unconfirmed attribute writes and other secrets (STORE-3).
    package var secure: any SecureStore
    /// Identify, alias, subscription and opt-out writes waiting for the server (STORE-4, DURABLE-14).
    package var durable: any QueueStore
    /// The memory-mapped journal `track()` appends to, when the events live in a store that keeps
    /// the journal's read position with them (SQLite); `nil` otherwise (issue 12, defect 6).
    package var journal: EventJournal?

    /// Creates the set.
    package init(
        events: any QueueStore,
        keyValue: any KeyValueStore,
        secure: any SecureStore = InMemorySecureStore(),
        durable: any QueueStore = InMemoryQueueStore(capacity: JoryioStores.durableCapacity),
        journal: EventJournal? = nil
    ) {
        self.events = events
        self.keyValue = keyValue
        self.secure = secure
        self.durable = durable
        self.journal = journal
    }

    /// The name of the mark that stores how far the journal was read, with the events read.
    package static let journalMark = "journal"

    /// Opens the journal at `url` for `events`: reads the stored read position, and for a
    /// database that has none stores the journal's start now, so a kill before the first commit
    /// still replays. `nil` (logged) when either fails: events are then stored without a journal.
    package static func openJournal(
        at url: URL,
        for events: any MarkedQueueStore,
        capacity: Int = EventJournal.defaultCapacity,
        logger: Logger
    ) -> EventJournal? {
        let stored: String?
        do {
            stored = try events.mark(named: Self.journalMark)
        } catch {
            logger.error("cannot read the event journal's position (\(error)); events are stored without it")
            return nil
        }
        let committed = stored.flatMap(JournalPosition.init(mark:))
        if stored != nil, committed == nil {
            logger.error("the event journal's stored position is unreadable; starting a new journal")
        }
        guard let journal = EventJournal.open(at: url, capacity: capacity, committed: committed, logger: logger)
        else { return nil }
        if committed == nil {
            do {
                try events.append([], mark: QueueMark(name: Self.journalMark, value: journal.committed.mark))
            } catch {
                logger.error("cannot store the event journal's position (\(error)); events are stored without it")
                journal.relinquish()
                return nil
            }
        }
        return journal
    }

    /// The durable store's own bound: above the channel's 1,000 (DURABLE-11), which evicts first.
    package static let durableCapacity = 2_000
}

/// Everything that touches the outside world, given to a ``Joryio`` instance once.
///
/// Production uses ``live()``; tests build one with a manual scheduler, a stub or real transport
/// and stores in a temporary directory.
package struct JoryioEnvironment: Sendable {
    /// The engine's serial executor.
    package var scheduler: any Scheduler
    /// Timestamps.
    package var clock: any Clock
    /// Message ids and anonymous ids.
    package var identifiers: any IdentifierGenerator
    /// Backoff jitter.
    package var jitter: any JitterSource
    /// The HTTP transport for a configuration.
    package var makeTransport: @Sendable (JoryioConfig) -> any Transport
    /// Opens the stores for a configuration and SDK key; never fails (falls back to memory).
    package var openStores: @Sendable (JoryioConfig, _ sdkKey: String, Logger) -> JoryioStores
    /// Gzip for request bodies.
    package var gzip: @Sendable (Data) -> Data?
    /// `User-Agent` for every request.
    package var userAgent: String
    /// The settings store in the platform's default place, read before `initialize()` so
    /// `isUserOptedOut()` and `getTrackingConsent()` answer from stored state (INIT-11); `nil`
    /// when there is none (tests that start from nothing).
    package var defaultKeyValue: @Sendable () -> (any KeyValueStore)?
    /// Device and environment properties for `Session Start` (SESS-3), without `$device_id`.
    package var sessionStartFacts: @Sendable () -> [String: JSONValue]
    /// How long the engine keeps looking at the event journal after it found records, so a
    /// steadily tracking app pays no thread wake-up per call: 2 ms live; `0` on a manual scheduler,
    /// where a wake-up costs nothing and a test's `runUntilIdle()` should see every event read.
    package var journalLinger: TimeInterval = 0
    /// The longest a `track()` waits for the engine to free journal space (it has fallen a whole
    /// journal behind) before queueing the event in memory instead: 1 s live; `0` on a manual
    /// scheduler, whose engine cannot run while the caller waits.
    package var journalWait: TimeInterval = 0
    /// Whether the stores can be read yet: only before the device's first unlock can they not
    /// (INIT-14); always on Linux.
    package var storageAvailability: any StorageAvailability = AlwaysAvailableStorage()
    /// Takes ownership of the storage `config` names before the engine opens it: one instance, in
    /// this process or another, per storage directory (issue 13). The default owns nothing and
    /// refuses nothing (tests on in-memory stores); the live one locks `joryio.lock` there.
    package var claimStorage: @Sendable (JoryioConfig) -> StorageClaim = { _ in .owned([]) }
    /// Where deadlines that must fire while the engine is busy run (the background-notification
    /// budget, PUSH-24): a queue of its own live; `nil` uses ``scheduler`` (virtual time in tests).
    package var deadlines: (any Scheduler)?
    /// What went wrong while the environment was made, before any log sink existed (the SDK's
    /// directory could not be made, so the first-unlock wait is off, issue 26): logged as warnings
    /// when `initialize()` starts the engine.
    package var setupWarnings: [String] = []
    /// Attaches the app's lifecycle to a started instance (`LifecycleObserver.observe` live: UIKit's
    /// notifications, and the application's state at that moment, reported at once when `initialize()`
    /// runs on the main thread). Called outside the instance's lock, since it may call back into the
    /// instance synchronously (issue 26: under the lock an already active app deadlocked the main
    /// thread).
    package var observeLifecycle: @Sendable (Joryio) -> Void = { LifecycleObserver.observe($0) }

    /// Creates an environment.
    package init(
        scheduler: any Scheduler,
        clock: any Clock,
        identifiers: any IdentifierGenerator,
        jitter: any JitterSource,
        makeTransport: @escaping @Sendable (JoryioConfig) -> any Transport,
        openStores: @escaping @Sendable (JoryioConfig, String, Logger) -> JoryioStores,
        gzip: @escaping @Sendable (Data) -> Data?,
        userAgent: String,
        defaultKeyValue: @escaping @Sendable () -> (any KeyValueStore)? = { nil },
        sessionStartFacts: @escaping @Sendable () -> [String: JSONValue] = { [:] }
    ) {
        self.scheduler = scheduler
        self.clock = clock
        self.identifiers = identifiers
        self.jitter = jitter
        self.makeTransport = makeTransport
        self.openStores = openStores
        self.gzip = gzip
        self.userAgent = userAgent
        self.defaultKeyValue = defaultKeyValue
        self.sessionStartFacts = sessionStartFacts
    }
}
