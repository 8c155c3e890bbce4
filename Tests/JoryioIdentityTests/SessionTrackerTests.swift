import Foundation
import JoryioIdentity
import Testing

@Suite struct SessionTrackerTests {
    let t0 = Date(timeIntervalSince1970: 1_767_225_600)

    // SESS-1: a new session only after more than the timeout since the last activity
    @Test(
        "GAP-21: the first activity starts a session; inactivity counts from the last activity; exactly the timeout continues"
    )
    func firstActivityStartsASessionAndActivityWithinTheTimeoutKeepsIt() throws {
        var tracker = SessionTracker(timeout: 1800, stored: nil)
        var ids = 0
        let next = { () -> String in
            ids += 1; return "s\(ids)"
        }
        let started = tracker.touch(at: self.t0, newID: next)
        let first = try #require(started)
        #expect(first.id == "s1" && first.start == self.t0 && !first.announced)
        #expect(tracker.touch(at: self.t0 + 1800, newID: next) == nil)  // exactly the timeout: same session
        #expect(tracker.touch(at: self.t0 + 3600, newID: next) == nil)  // measured from the last activity
        let restarted = tracker.touch(at: self.t0 + 5400.001, newID: next)
        let second = try #require(restarted)
        #expect(second.id == "s2")
    }

    @Test("GAP-21: a clock that jumps back before the session's start starts a new session")
    func aClockJumpBeforeTheSessionStartStartsANewSession() {
        var tracker = SessionTracker(
            timeout: 1800,
            stored: Session(id: "a", start: self.t0, lastActivity: self.t0, announced: true)
        )
        #expect(tracker.touch(at: self.t0 - 10, newID: { "b" })?.id == "b")
    }

    @Test("GAP-21: a stored session resumes within the timeout (across launches)")
    func aStoredSessionResumesWithinTheTimeout() {
        let stored = Session(id: "a", start: self.t0, lastActivity: self.t0 + 100, announced: true)
        var tracker = SessionTracker(timeout: 1800, stored: stored)
        #expect(tracker.touch(at: self.t0 + 200, newID: { "b" }) == nil)
        #expect(tracker.current?.id == "a")
        #expect(tracker.current?.lastActivity == self.t0 + 200)
    }

    @Test("SESS-5: reset() starts a session at once; wipeData() clears it and the next activity starts one")
    func resetStartsAtOnceAndWipeClears() {
        var tracker = SessionTracker(timeout: 1800, stored: nil)
        _ = tracker.touch(at: self.t0, newID: { "a" })
        tracker.markAnnounced()
        #expect(tracker.current?.announced == true)
        #expect(tracker.startNew(at: self.t0 + 1, id: "b").id == "b")
        #expect(tracker.current?.announced == false)
        tracker.clear()
        #expect(tracker.current == nil)
        #expect(tracker.touch(at: self.t0 + 2, newID: { "c" })?.id == "c")
    }
}
