internal import JoryioInApp
internal import JoryioPush

/// Push asks in-app for a sync (PUSH-25, PUSH-26): the two modules do not know each other, so the
/// product that links both makes the in-app feature the push handler's sync.
extension InAppFeature: PushInAppSyncing {
    /// Syncs at once; `.newData` when the campaigns changed.
    package func syncForPush(_ completion: @escaping @Sendable (PushSyncOutcome) -> Void) {
        self.syncForPush { changed in completion(changed ? .newData : .noData) }
    }

    /// Push-tap campaigns may show (INAPP-13).
    package func pushTapped(trackingId: String?) {
        self.pushTapTriggered(trackingId: trackingId)
    }
}
