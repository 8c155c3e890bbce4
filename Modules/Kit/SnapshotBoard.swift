internal import Foundation
internal import JoryioConsent
internal import JoryioCore
internal import JoryioDelivery

/// What getters read without waiting for the engine (ARCHITECTURE §3).
struct JoryioSnapshot: Sendable {
    /// Events waiting on the device, stored or about to be.
    var queueSize = 0
    /// The most recent request failure, `nil` after a success.
    var lastTransportError: JoryioTransportError?
    /// The normalised API base URL.
    var apiEndpoint = ""
    /// The current user id.
    var userId: String?
    /// The current anonymous id.
    var anonymousId = ""
    /// The current session, if one started.
    var session: (id: String, start: Date)?
    /// Consent and opt-out.
    var privacy = PrivacyStateMachine(storedOptOut: false, storedDenial: false)

    /// Whether `other` answers every getter the same.
    func isSame(as other: JoryioSnapshot) -> Bool {
        self.queueSize == other.queueSize && self.lastTransportError == other.lastTransportError
            && self.apiEndpoint == other.apiEndpoint && self.userId == other.userId
            && self.anonymousId == other.anonymousId && self.session?.id == other.session?.id
            && self.session?.start == other.session?.start && self.privacy == other.privacy
    }
}

/// A change a call makes, shown to getters before the engine has run it.
package enum OptimisticChange: Sendable {
    case identify(String)
    case reset(anonymousId: String)
    case privacy(PrivacyDecision)
}

/// The one place getters read from: the snapshot **only the engine writes**, plus the changes of
/// calls the engine has not run yet, applied in call order.
///
/// Every submitted call takes a sequence number in call order; after running it the engine
/// publishes its state "through" that number, which retires the call's optimistic change. So a
/// getter right after `identify("a")` reads `"a"`, and `reset(); identify("a")` can never read
/// `"a"`, `nil`, `"a"`: the engine's `nil` after the reset is overlaid by the identify still waiting.
final class SnapshotBoard: Sendable {
    private struct Board {
        var snapshot = JoryioSnapshot()
        var overlay: [(sequence: UInt64, change: OptimisticChange)] = []
    }

    private let board = Locked(Board())

    /// Shows `change` until the engine has run call `sequence`. The facade numbers calls under its
    /// own lock, in the order they reach the executor; calls without a change never come here.
    func show(_ change: OptimisticChange, until sequence: UInt64) {
        self.board.withLock { $0.overlay.append((sequence, change)) }
    }

    /// The engine's state after it ran every call up to `sequence` (or no call: `nil`).
    func publish(_ snapshot: JoryioSnapshot, through sequence: UInt64?) {
        self.board.withLock { board in
            board.snapshot = snapshot
            if let sequence { board.overlay.removeAll { $0.sequence <= sequence } }
        }
    }

    /// Retires the changes of calls up to `sequence` when the engine's state did not change.
    func retire(through sequence: UInt64) {
        self.board.withLock { board in
            if !board.overlay.isEmpty { board.overlay.removeAll { $0.sequence <= sequence } }
        }
    }

    /// The engine's snapshot with the changes of calls it has not run yet.
    var current: JoryioSnapshot {
        self.board.withLock { board in
            var snapshot = board.snapshot
            for (_, change) in board.overlay {
                switch change {
                case .identify(let userId):
                    snapshot.userId = userId
                case .reset(let anonymousId):
                    snapshot.userId = nil
                    snapshot.anonymousId = anonymousId
                case .privacy(let decision):
                    _ = snapshot.privacy.handle(decision)
                    if decision == .wipeData {
                        snapshot.userId = nil
                        snapshot.session = nil
                    }
                }
            }
            return snapshot
        }
    }
}
