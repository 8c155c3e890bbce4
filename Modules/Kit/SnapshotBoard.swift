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
}

/// A change a call makes, shown to getters before the engine has run it.
enum OptimisticChange: Sendable {
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
        var nextSequence: UInt64 = 1
    }

    private let board = Locked(Board())

    /// Takes the next sequence number for a call, with its optimistic change. Callers hold the
    /// facade's lock, so numbers follow the order calls reach the executor.
    func reserve(_ change: OptimisticChange?) -> UInt64 {
        self.board.withLock { board in
            defer { board.nextSequence += 1 }
            if let change { board.overlay.append((board.nextSequence, change)) }
            return board.nextSequence
        }
    }

    /// The engine's state after it ran every call up to `sequence` (or no call: `nil`).
    func publish(_ snapshot: JoryioSnapshot, through sequence: UInt64?) {
        self.board.withLock { board in
            board.snapshot = snapshot
            if let sequence { board.overlay.removeAll { $0.sequence <= sequence } }
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
