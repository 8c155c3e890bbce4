package import Foundation
internal import JoryioConsent
internal import JoryioCore
package import JoryioFeature
package import JoryioKit

/// Geozones on the engine's feature seam (issue 19): fetches the app's zones, keeps the nearest
/// ones monitored, and records `Geozone Entered` / `Geozone Exited`.
///
/// Location runs only while the app started tracking (``setTracking(_:)``, never implicitly,
/// GEO-4) **and** collection is allowed: not opted out and consent granted (GEO-5, GAP-93). While
/// either is missing the source is stopped, its inputs are dropped unread and what the zones knew
/// of the device is forgotten. Wipe and reset forget it too. Runs on the engine's executor.
package final class GeozonesFeature: EngineFeature {
    /// Event names and property keys (protocol.md "Geozones").
    package enum Event {
        /// The device entered a zone.
        package static let entered = "Geozone Entered"
        /// The device left a zone (after the exit delay).
        package static let exited = "Geozone Exited"
    }

    /// Tuning; the defaults are the decided values (GAP-90, GAP-91).
    package struct Settings: Sendable, Equatable {
        /// Zones monitored at most (1 … 20).
        package var limit: Int
        /// Flapping debounce.
        package var tracker: GeozoneTracker.Settings
        /// Wait after a failed zone fetch before the next position may fetch again.
        package var retryAfterFailure: TimeInterval

        /// Settings.
        package init(
            limit: Int = GeozoneSelection.defaultLimit,
            tracker: GeozoneTracker.Settings = GeozoneTracker.Settings(),
            retryAfterFailure: TimeInterval = 300
        ) {
            self.limit = limit
            self.tracker = tracker
            self.retryAfterFailure = retryAfterFailure
        }
    }

    private struct State: Sendable {
        var requested = false
        var allowed = false
        var running = false
        var list: GeozoneList?
        /// When the list may be fetched again.
        var fetchDue: Date?
        var fetching = false
        var selection: GeozoneSelection?
        var tracker: GeozoneTracker
        var lastPosition: GeoPoint?
        /// Bumped whenever running stops or zone state is cleared: late answers are dropped.
        var generation = 0
        var tick: (any Cancellable)?
    }

    private let context: FeatureContext
    private let source: any GeozoneLocationSource
    private let settings: Settings
    private let request: HTTPRequest
    private let logger: Logger
    private let state: Locked<State>

    /// A feature that fetches zones from `setup`'s endpoint and reads location from `source`.
    package init(setup: FeatureSetup, context: FeatureContext, source: any GeozoneLocationSource, settings: Settings) {
        self.context = context
        self.source = source
        self.settings = settings
        self.logger = context.logger.scoped("geozones")
        self.state = Locked(State(tracker: GeozoneTracker(settings: settings.tracker)))
        self.request = HTTPRequest(
            method: "GET",
            url: setup.apiEndpoint.appendingPathComponent("v1/geozones"),
            headers: [
                ("Accept", "application/json"),
                ("X-Joryio-Sdk-Key", setup.sdkKey),
                ("User-Agent", setup.userAgent),
            ],
            timeout: setup.config.requestTimeout
        )
    }

    // MARK: - The app's switch

    /// `startLocationTracking()` / `stopLocationTracking()`.
    package func setTracking(_ on: Bool) {
        self.state.withLock { $0.requested = on }
        self.reconcile()
    }

    /// Whether location runs now (tests, logs).
    package var isRunning: Bool { self.state.withLock { $0.running } }

    /// The zones monitored now (tests).
    package var monitoredZoneIds: [String] { self.state.withLock { $0.selection?.zones.map(\.id) ?? [] } }

    /// The zones the device is in now (tests).
    package var insideZoneIds: Set<String> { self.state.withLock { $0.tracker.insideZoneIds } }

    // MARK: - Hooks

    package func privacyChanged(_ change: PrivacyChange) {
        switch change {
        case .applied(let privacy):
            self.state.withLock { $0.allowed = privacy.allowsCollection }
        case .collectionStopped:
            self.state.withLock { $0.allowed = false }
        case .collectionResumed:
            return  // the state that follows says whether collection is allowed
        }
        self.reconcile()
    }

    package func identityChanged(_ change: IdentityChange) {
        switch change {
        case .identified, .wiped: return  // a wipe arrives through wipe() as well
        case .reset: self.forgetZoneState(refetch: true)
        }
    }

    package func wipe() {
        self.forgetZoneState(refetch: true)
    }

    // MARK: - Running

    /// Starts or stops the source so that it runs exactly while tracking is requested and allowed.
    private func reconcile() {
        let (start, stop) = self.state.withLock { state -> (Bool, Bool) in
            let wanted = state.requested && state.allowed
            guard wanted != state.running else { return (false, false) }
            state.running = wanted
            return (wanted, !wanted)
        }
        if start {
            self.logger.info("location tracking started")
            self.source.start { [weak self] input in
                guard let self else { return }
                self.context.scheduler.enqueue { self.handle(input) }
            }
            self.fetchIfDue()
        } else if stop {
            self.logger.info("location tracking stopped")
            self.source.stop()
            self.forgetZoneState(refetch: false)
        }
    }

    /// Forgets where the device was and what it was in, without reporting anything.
    private func forgetZoneState(refetch: Bool) {
        let running = self.state.withLock { state -> Bool in
            state.generation += 1
            state.tracker.clear()
            state.selection = nil
            state.lastPosition = nil
            state.list = nil
            state.fetchDue = nil
            state.fetching = false
            state.tick?.cancel()
            state.tick = nil
            return state.running
        }
        guard running, refetch else { return }
        // Running on (wipe, reset): nothing monitored until a fresh position and list arrive.
        self.source.monitor([])
        self.source.requestPosition()
        self.fetchIfDue()
    }

    /// One input from the source; dropped unread unless running (GEO-5).
    package func handle(_ input: GeozoneLocationInput) {
        guard self.state.withLock({ $0.running }) else { return }
        switch input {
        case .authorization(let status):
            self.logger.info("location permission: \(status.rawValue)")
        case .log(let level, let message):
            self.logger.log(level, message)
        case .position(let point, let time):
            guard point.isValid else {
                self.logger.debug("position ignored: not a valid coordinate")
                return
            }
            let (monitor, transitions) = self.state.withLock { state -> ([Geozone]?, [GeozoneTracker.Transition]) in
                state.lastPosition = point
                let monitor = Self.reselectIfNeeded(&state, limit: self.settings.limit)
                let zones = state.selection?.zones ?? []
                return (monitor, state.tracker.position(point, zones: zones, at: time))
            }
            if let monitor { self.source.monitor(monitor) }
            self.report(transitions)
            self.fetchIfDue()
        case .entered(let id, let time):
            self.crossing(id) { tracker, zone in tracker.entered(zone, at: time) }
        case .exited(let id, let time):
            self.crossing(id) { tracker, zone in tracker.exited(zone, at: time) }
        }
    }

    private func crossing(
        _ id: String,
        _ apply: @Sendable (inout GeozoneTracker, Geozone) -> [GeozoneTracker.Transition]
    ) {
        let transitions = self.state.withLock { state -> [GeozoneTracker.Transition] in
            guard let zone = state.list?.zones.first(where: { $0.id == id }) else { return [] }
            return apply(&state.tracker, zone)
        }
        self.report(transitions)
    }

    /// A new selection when there is none or the device moved far enough; the zones to monitor
    /// when it changed.
    private static func reselectIfNeeded(_ state: inout State, limit: Int) -> [Geozone]? {
        guard let list = state.list, let point = state.lastPosition else { return nil }
        if let selection = state.selection, !selection.needsRefresh(at: point) { return nil }
        let previous = state.selection?.zones
        state.selection = GeozoneSelection.select(list.zones, around: point, limit: limit)
        let zones = state.selection?.zones ?? []
        return zones == previous ? nil : zones
    }

    /// Records the transitions as events and arms the timer for the next held exit.
    private func report(_ transitions: [GeozoneTracker.Transition]) {
        let allowed = self.state.withLock { $0.running }
        if allowed {
            for transition in transitions {
                let name = transition.kind == .entered ? Event.entered : Event.exited
                self.context.recordEvent(
                    name,
                    ["zoneId": .string(transition.zone.id), "name": .string(transition.zone.name)],
                    transition.time
                )
            }
        }
        self.armTick()
    }

    private func armTick() {
        let now = self.context.clock.now()
        self.state.withLock { state in
            state.tick?.cancel()
            state.tick = nil
            guard let deadline = state.tracker.nextDeadline else { return }
            let generation = state.generation
            state.tick = self.context.scheduler.schedule(after: max(0, deadline.timeIntervalSince(now))) {
                [weak self] in
                guard let self else { return }
                let transitions = self.state.withLock { state -> [GeozoneTracker.Transition] in
                    guard state.running, state.generation == generation else { return [] }
                    state.tick = nil
                    return state.tracker.tick(at: self.context.clock.now())
                }
                self.report(transitions)
            }
        }
    }

    // MARK: - Fetching zones

    private func fetchIfDue() {
        let now = self.context.clock.now()
        let generation = self.state.withLock { state -> Int? in
            guard state.running, !state.fetching else { return nil }
            if let due = state.fetchDue, now < due { return nil }
            state.fetching = true
            return state.generation
        }
        guard let generation else { return }
        self.context.transport.send(self.request) { [weak self] result in
            guard let self else { return }
            self.context.scheduler.enqueue { self.fetched(result, generation: generation) }
        }
    }

    private func fetched(_ result: Result<HTTPResponse, TransportError>, generation: Int) {
        let now = self.context.clock.now()
        let list: GeozoneList?
        switch result {
        case .success(let response) where response.status == 200:
            list = GeozoneList.parse(response.body)
            if list == nil { self.logger.warning("GET /v1/geozones: the answer is not a zone list; kept the old one") }
        case .success(let response):
            self.logger.warning("GET /v1/geozones: HTTP \(response.status); kept the old zones")
            list = nil
        case .failure(let error):
            self.logger.info("GET /v1/geozones failed (\(error)); kept the old zones")
            list = nil
        }
        let monitor = self.state.withLock { state -> [Geozone]? in
            guard state.generation == generation, state.running else { return nil }
            state.fetching = false
            guard let list else {
                state.fetchDue = now.addingTimeInterval(self.settings.retryAfterFailure)
                return nil
            }
            state.list = list
            state.fetchDue = now.addingTimeInterval(list.refreshAfter)
            state.tracker.keep(only: Set(list.zones.map(\.id)))
            state.selection = nil
            return Self.reselectIfNeeded(&state, limit: self.settings.limit)
        }
        if let list {
            self.logger.debug("\(list.zones.count) zones (\(list.skipped) skipped)")
        }
        if let monitor { self.source.monitor(monitor) }
    }
}
