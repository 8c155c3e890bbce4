import Foundation
import Joryio
import JoryioCore
import JoryioStorage
import JoryioTesting
import Testing

/// Which store holds what, per platform and configuration (STORE-1…4, INIT-15, issue 13), as values:
/// the Apple rows are checked here on Linux, where the Keychain and UserDefaults adapters cannot run.
@Suite struct StoragePlanTests {
    private static let directory = URL(fileURLWithPath: "/tmp/joryio-plan")

    @Test("Apple, SQLite (the default): UserDefaults, Keychain, SQLite with the journal, protected files")
    func appleDefault() {
        let plan = StoragePlan.make(.sqlite(), platform: .apple)
        #expect(plan.settings == .userDefaults)
        #expect(plan.secrets == .keychain)
        #expect(plan.events == .sqlite)
        #expect(plan.durable == .sqlite)
        #expect(plan.journal)
        #expect(plan.protectsFiles)
        #expect(plan.settingsSharedByApp)
        #expect(StoragePlan.keychainService == "io.joryio.sdk")
    }

    @Test("DURABLE-14: Apple, files or a custom queue: the same settings and secrets, durable writes still in SQLite")
    func appleOtherQueues() {
        for storage in [
            JoryioConfig.Storage.files(directory: Self.directory), .custom(InMemoryQueueStore(capacity: 1)),
        ] {
            let plan = StoragePlan.make(storage, platform: .apple)
            #expect(plan.settings == .userDefaults)
            #expect(plan.secrets == .keychain)
            #expect(plan.durable == .sqlite)
            #expect(!plan.journal)
            #expect(plan.protectsFiles)
        }
    }

    @Test("Linux: settings and secrets are files in the storage directory, owned per directory")
    func linux() {
        let plan = StoragePlan.make(.sqlite(directory: Self.directory), platform: .linux)
        #expect(plan.settings == .file)
        #expect(plan.secrets == .file)
        #expect(plan.events == .sqlite)
        #expect(plan.journal)
        #expect(!plan.protectsFiles)
        #expect(!plan.settingsSharedByApp)
        #expect(StoragePlan.make(.files(directory: Self.directory), platform: .linux).events == .files)
    }

    @Test("in memory, on either platform: nothing touches the device")
    func inMemory() {
        for platform in [StoragePlan.Platform.apple, .linux] {
            let plan = StoragePlan.make(.inMemory, platform: platform)
            #expect(plan.settings == .memory)
            #expect(plan.secrets == .memory)
            #expect(plan.events == .memory)
            #expect(plan.durable == .memory)
            #expect(!plan.journal)
        }
    }

    @Test("this build runs the Linux plan, and the opened stores are the ones it names")
    func currentPlatformOpensItsPlan() throws {
        #expect(StoragePlan.Platform.current == .linux)
        try withTemporaryDirectory { directory in
            let stores = JoryioEnvironment.openStores(
                config: JoryioConfig(storage: .sqlite(directory: directory)),
                sdkKey: "jry_sdk_ios_plan",
                clock: ManualClock(),
                logger: .disabled
            )
            #expect(stores.events is SQLiteQueueStore)
            #expect(stores.durable is SQLiteQueueStore)
            #expect(stores.keyValue is FileKeyValueStore)
            #expect(stores.secure is FileSecureStore)
            #expect(stores.journal != nil)
            stores.journal?.relinquish()
        }
    }
}
