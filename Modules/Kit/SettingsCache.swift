package import Foundation
package import JoryioCore
internal import JoryioStorage

/// One settings store per directory, shared by everything in the process that opens it, so two
/// writers never hold diverging copies of the same file.
package final class SettingsCache: Sendable {
    private let stores = Locked<[String: any KeyValueStore]>([:])

    /// Creates an empty cache.
    package init() {}

    /// The settings store of `directory` (`joryio-settings.json`), opened on first use; in memory
    /// with an error log when the file cannot be opened.
    package func store(in directory: URL, clock: any Clock, logger: Logger) -> any KeyValueStore {
        let file = directory.appendingPathComponent("joryio-settings.json")
        return self.stores.withLock { stores in
            if let open = stores[file.path] { return open }
            let store: any KeyValueStore
            do {
                store = try FileKeyValueStore(fileURL: file, clock: clock, logger: logger)
            } catch {
                logger.error("cannot open the settings file (\(error)); settings last for this process only")
                store = InMemoryKeyValueStore()
            }
            stores[file.path] = store
            return store
        }
    }
}
