package import JoryioFeature

/// The in-app sync a push asks for (PUSH-25, PUSH-26): the in-app feature implements it;
/// until it exists, nothing does and a sync push completes with `.noData`.
package protocol PushInAppSyncing: AnyObject, Sendable {
    /// Runs an in-app sync now and calls `completion` exactly once with its outcome, on any
    /// thread. Called on the engine's executor.
    func syncForPush(_ completion: @escaping @Sendable (PushSyncOutcome) -> Void)

    /// A Joryio push was tapped (`trackingId` when it had one): push-tap campaigns may show
    /// (INAPP-13, PUSH-26). Called on the engine's executor, before the sync of the tap.
    func pushTapped(trackingId: String?)
}

/// How an in-app sync asked for by a push went: what `didReceiveRemoteNotification`'s completion
/// handler gets for a sync push (GAP-37).
package enum PushSyncOutcome: Sendable, Equatable {
    /// New campaigns (or changes) were fetched.
    case newData
    /// Nothing new, or no sync ran.
    case noData
    /// The sync failed.
    case failed
}

/// What notification handling reaches of the other features: the receipts-and-clicks reporter
/// and the in-app sync, each found among the engine's features (`nil` when the product has none).
package struct PushServices: Sendable {
    /// Where receipts and clicks go.
    package var reporter: (any PushReporting)?
    /// The in-app sync.
    package var inAppSync: (any PushInAppSyncing)?

    /// Explicit services (tests).
    package init(reporter: (any PushReporting)? = nil, inAppSync: (any PushInAppSyncing)? = nil) {
        self.reporter = reporter
        self.inAppSync = inAppSync
    }

    /// The last feature of `features` that reports pushes and the last that syncs in-app: a catalog
    /// that adds its own after the product's replaces them (tests record through one).
    package init(features: FeatureList) {
        self.reporter = features.all.reversed().lazy.compactMap { $0 as? any PushReporting }.first
        self.inAppSync = features.all.reversed().lazy.compactMap { $0 as? any PushInAppSyncing }.first
    }
}
