import Foundation
import JoryioGeozones
import Testing

@Suite("GAP-91: enter / exit debouncing")
struct ZoneTrackerTests {
    private let zone = Geozone(id: "shop", name: "Shop", center: berlin, radius: 200)
    private let t0 = Date(timeIntervalSince1970: 1_767_225_600)

    private func at(_ seconds: TimeInterval) -> Date { self.t0.addingTimeInterval(seconds) }

    private func kinds(_ transitions: [GeozoneTracker.Transition]) -> [String] {
        transitions.map {
            "\($0.kind == .entered ? "in" : "out"):\($0.zone.id)@\(Int($0.time.timeIntervalSince(self.t0)))"
        }
    }

    @Test("An entry is reported at once, once; a repeated entry is not")
    func enterOnce() {
        var tracker = GeozoneTracker()
        #expect(self.kinds(tracker.entered(self.zone, at: self.at(0))) == ["in:shop@0"])
        #expect(tracker.entered(self.zone, at: self.at(5)).isEmpty)
        #expect(tracker.insideZoneIds == ["shop"])
    }

    @Test("An exit waits 60 s; it is reported with the time the device left")
    func exitAfterDelay() {
        var tracker = GeozoneTracker()
        _ = tracker.entered(self.zone, at: self.at(0))
        #expect(tracker.exited(self.zone, at: self.at(100)).isEmpty)
        #expect(tracker.nextDeadline == self.at(160))
        #expect(tracker.tick(at: self.at(159)).isEmpty)
        #expect(self.kinds(tracker.tick(at: self.at(160))) == ["out:shop@100"])
        #expect(tracker.insideZoneIds.isEmpty && tracker.nextDeadline == nil)
    }

    @Test("Flapping on the edge within the delay reports nothing more; a later exit is reported once")
    func flapping() {
        var tracker = GeozoneTracker()
        var reported: [String] = []
        let crossings: [(TimeInterval, Bool)] = [
            (0, true), (10, false), (15, true), (30, false), (45, true), (50, false),
        ]
        for (time, inside) in crossings {
            let transitions =
                inside ? tracker.entered(self.zone, at: self.at(time)) : tracker.exited(self.zone, at: self.at(time))
            reported += self.kinds(transitions + tracker.tick(at: self.at(time)))
        }
        reported += self.kinds(tracker.tick(at: self.at(109)))
        #expect(reported == ["in:shop@0"])
        reported += self.kinds(tracker.tick(at: self.at(110)))
        #expect(reported == ["in:shop@0", "out:shop@50"])
    }

    @Test("An exit for a zone the device is not in is ignored")
    func strayExit() {
        var tracker = GeozoneTracker()
        #expect(tracker.exited(self.zone, at: self.at(0)).isEmpty)
        #expect(tracker.nextDeadline == nil)
    }

    @Test("Positions: inside the radius enters, the hysteresis band holds, beyond it leaves; NaN changes nothing")
    func positions() {
        var tracker = GeozoneTracker()
        let zones = [self.zone]
        // radius 200 → hysteresis max(50, 20) = 50 m.
        let walk: [(TimeInterval, GeoPoint)] = [
            (0, berlin.moved(north: 500)),  // outside
            (10, berlin.moved(north: 150)),  // inside → enter
            (20, berlin.moved(north: 230)),  // in the band → nothing
            (30, GeoPoint(latitude: .nan, longitude: 13)),  // hostile → nothing
            (40, berlin.moved(north: 260)),  // beyond the band → exit held
            (70, berlin.moved(north: 600)),
            (100, berlin.moved(north: 900)),  // 60 s after 40 → exit reported
        ]
        var reported: [String] = []
        for (time, point) in walk {
            reported += self.kinds(tracker.position(point, zones: zones, at: self.at(time)))
        }
        #expect(reported == ["in:shop@10", "out:shop@40"])
    }

    @Test("A zone left out of a new selection while the device is in it still exits by position")
    func deselectedZoneExits() {
        var tracker = GeozoneTracker()
        _ = tracker.position(berlin, zones: [self.zone], at: self.at(0))
        let far = berlin.moved(north: 5_000)
        _ = tracker.position(far, zones: [], at: self.at(10))
        #expect(self.kinds(tracker.position(far, zones: [], at: self.at(70))) == ["out:shop@10"])
    }

    @Test("Removed zones and clear() forget without reporting")
    func forgetting() {
        var tracker = GeozoneTracker()
        let other = Geozone(id: "cafe", name: "Cafe", center: berlin, radius: 300)
        _ = tracker.entered(self.zone, at: self.at(0))
        _ = tracker.entered(other, at: self.at(0))
        tracker.keep(only: ["cafe"])
        #expect(tracker.insideZoneIds == ["cafe"])
        tracker.clear()
        #expect(tracker.insideZoneIds.isEmpty && tracker.tick(at: self.at(1_000)).isEmpty)
    }
}

@Suite("GAP-92: GET /v1/geozones bodies")
struct GeozoneListTests {
    @Test("Valid zones are kept in order; bad ones are skipped one by one; radii are bounded")
    func parse() throws {
        let body = """
            {"zones":[
              {"id":"a","name":"A","latitude":52.52,"longitude":13.405,"radius":150},
              {"id":"small","name":"S","latitude":52.5,"longitude":13.4,"radius":20},
              {"id":"","name":"empty id","latitude":1,"longitude":1,"radius":100},
              {"id":"nan","name":"N","latitude":"NaN","longitude":1,"radius":100},
              {"id":"lat","name":"L","latitude":91,"longitude":1,"radius":100},
              {"id":"huge","name":"H","latitude":1,"longitude":1,"radius":50001},
              {"id":"zero","name":"Z","latitude":1,"longitude":1,"radius":0},
              {"id":"a","name":"duplicate","latitude":1,"longitude":1,"radius":100},
              {"id":"noname","latitude":-33.9,"longitude":151.2,"radius":100},
              {"id":"badname","name":7,"latitude":1,"longitude":1,"radius":100},
              "not an object"
            ],"refreshAfter":60}
            """
        let list = try #require(GeozoneList.parse(Data(body.utf8)))
        #expect(list.zones.map(\.id) == ["a", "small", "noname"])
        #expect(list.zones[1].radius == 100)
        #expect(list.zones[2].name == "")
        #expect(list.skipped == 8)
        #expect(list.refreshAfter == 3600)
    }

    @Test("Not a zone list", arguments: ["", "[]", "{}", #"{"zones":{}}"#, "nul", #"{"zones":[1,2]"#])
    func notAList(body: String) {
        #expect(GeozoneList.parse(Data(body.utf8)) == nil)
    }

    @Test("At most 1000 zones are kept; refreshAfter defaults to a day and is capped at a week")
    func caps() throws {
        let zones = (0..<1_200).map { #"{"id":"z\#($0)","name":"","latitude":0,"longitude":0,"radius":100}"# }
        let list = try #require(GeozoneList.parse(Data(#"{"zones":[\#(zones.joined(separator: ","))]}"#.utf8)))
        #expect(list.zones.count == 1_000 && list.skipped == 200)
        #expect(list.refreshAfter == 86_400)
        let long = try #require(GeozoneList.parse(Data(#"{"zones":[],"refreshAfter":1e9}"#.utf8)))
        #expect(long.refreshAfter == 604_800)
    }
}
