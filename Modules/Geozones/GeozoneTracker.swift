package import Foundation

/// Whether the device is in each monitored zone, with enter/exit flapping debounced (GAP-91).
///
/// Inputs are the OS's region crossings and positions; outputs are the transitions to report.
/// An enter is reported at once. An exit is held for ``Settings/exitDelay``: coming back within it
/// cancels both (a device on a zone's edge reports nothing), and only then is `Geozone Exited`
/// reported. A position counts as inside within the radius and as outside only beyond the radius
/// plus ``Settings/hysteresis(radius:)``. No dwell events (GAP-91). Pure value; time is passed in.
package struct GeozoneTracker: Sendable, Equatable {
    /// Debounce settings.
    package struct Settings: Sendable, Equatable {
        /// How long an exit waits for a re-entry before it is reported.
        package var exitDelay: TimeInterval

        /// Settings; 60 s by default.
        package init(exitDelay: TimeInterval = 60) {
            self.exitDelay = exitDelay
        }

        /// The band beyond the radius where a position is neither inside nor outside: 10 % of the
        /// radius, at least 50 m.
        package func hysteresis(radius: Double) -> Double {
            max(50, radius * 0.1)
        }
    }

    /// One transition to report.
    package struct Transition: Sendable, Equatable {
        /// Entered or exited.
        package enum Kind: Sendable, Equatable {
            case entered
            case exited
        }

        /// Which.
        package var kind: Kind
        /// The zone.
        package var zone: Geozone
        /// When it happened (an exit: when the device left, not when the delay ran out).
        package var time: Date
    }

    private enum Membership: Sendable, Equatable {
        case inside(Geozone)
        case leaving(Geozone, since: Date)
    }

    /// The settings.
    package let settings: Settings
    /// Zones the device is in or leaving, by id; a zone absent is outside.
    private var members: [String: Membership] = [:]

    /// A tracker with nobody inside anything.
    package init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// The ids of the zones the device is in (leaving ones included).
    package var insideZoneIds: Set<String> { Set(self.members.keys) }

    /// When the earliest held exit is due, if any.
    package var nextDeadline: Date? {
        self.members.values.compactMap { membership -> Date? in
            if case .leaving(_, let since) = membership {
                since.addingTimeInterval(self.settings.exitDelay)
            } else {
                nil
            }
        }.min()
    }

    /// The OS reports the device entered `zone`.
    package mutating func entered(_ zone: Geozone, at time: Date) -> [Transition] {
        switch self.members[zone.id] {
        case .inside?:
            return []
        case .leaving?:
            // Back within the delay: the exit is cancelled and the entry not reported again.
            self.members[zone.id] = .inside(zone)
            return []
        case nil:
            self.members[zone.id] = .inside(zone)
            return [Transition(kind: .entered, zone: zone, time: time)]
        }
    }

    /// The OS reports the device left `zone`: held for the exit delay.
    package mutating func exited(_ zone: Geozone, at time: Date) -> [Transition] {
        if case .inside(let known)? = self.members[zone.id] {
            self.members[zone.id] = .leaving(known, since: time)
        }
        return []
    }

    /// A position, checked against `zones` and every zone the device is in: inside the radius
    /// enters, beyond radius plus hysteresis leaves; an invalid position changes nothing.
    package mutating func position(_ point: GeoPoint, zones: [Geozone], at time: Date) -> [Transition] {
        guard point.isValid else { return [] }
        let listed = Set(zones.map(\.id))
        let held = self.members.values.compactMap { membership -> Geozone? in
            let zone: Geozone
            switch membership {
            case .inside(let known), .leaving(let known, _): zone = known
            }
            return listed.contains(zone.id) ? nil : zone
        }.sorted { $0.id < $1.id }
        var transitions: [Transition] = []
        for zone in zones + held {
            let distance = GreatCircle.distance(zone.center, point)
            if distance <= zone.radius {
                transitions += self.entered(zone, at: time)
            } else if distance > zone.radius + self.settings.hysteresis(radius: zone.radius) {
                transitions += self.exited(zone, at: time)
            }
        }
        return transitions + self.tick(at: time)
    }

    /// Reports the exits whose delay has run out by `now`, oldest first.
    package mutating func tick(at now: Date) -> [Transition] {
        var due: [Transition] = []
        for (id, membership) in self.members {
            guard case .leaving(let zone, let since) = membership,
                now.timeIntervalSince(since) >= self.settings.exitDelay
            else { continue }
            self.members[id] = nil
            due.append(Transition(kind: .exited, zone: zone, time: since))
        }
        return due.sorted { $0.time != $1.time ? $0.time < $1.time : $0.zone.id < $1.zone.id }
    }

    /// Forgets zones not in `ids` without reporting anything (the server removed them).
    package mutating func keep(only ids: Set<String>) {
        self.members = self.members.filter { ids.contains($0.key) }
    }

    /// Forgets everything, reporting nothing (wipe, reset, collection stopped).
    package mutating func clear() {
        self.members = [:]
    }
}
