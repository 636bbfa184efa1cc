import Testing
@testable import DynamicsEngine

/// Contact recycling: resting contacts keep their manifolds (only separations follow the
/// bodies), with the same physics and the same contact events as computing them afresh.
@Suite("Contact recycling")
struct RecyclingTests {
    static func world(recycle: Bool) -> World {
        var settings = WorldSettings()
        settings.isSleepEnabled = false
        if !recycle { settings.contactRecycleDistance = 0 }
        return World(gravity: Vec2(0, 1000), settings: settings)
    }

    @Test("a resting stack recycles its contacts and rests where a fresh computation puts it (±0.5 pt)")
    func restingStack() throws {
        var heights: [[Float]] = []
        var recycled: [Int] = []
        for recycle in [true, false] {
            let w = Self.world(recycle: recycle)
            try TestWorld.ground(w, top: 0)
            let boxes = try (0..<10).map { k in try TestWorld.box(w, at: Vec2(0, -50 - 100 * Float(k)), size: Vec2(100, 100)) }
            TestWorld.run(w, seconds: 3)
            recycled.append(w.recycledContactCount)
            heights.append(boxes.map { w.position($0).y })
            // Analytic rest: box k's centre at −50 − 100 k, each contact overlapping by at most the slop.
            for (k, b) in boxes.enumerated() {
                #expect(abs(w.position(b).y - (-50 - 100 * Float(k))) < 0.5 * Float(k + 1) + 0.5, "box \(k) at \(w.position(b))")
            }
        }
        #expect(recycled[0] == 10, "every resting contact recycled (got \(recycled[0]))")
        #expect(recycled[1] == 0)
        for k in 0..<10 { #expect(abs(heights[0][k] - heights[1][k]) < 0.5, "box \(k): \(heights[0][k]) vs \(heights[1][k])") }
    }

    @Test("a circle's contacts are computed afresh every step, a box's beside it recycled; a circle resting in a pocket of two boxes stands still")
    func circlesAreNotRecycled() throws {
        let w = Self.world(recycle: true)
        try TestWorld.ground(w, top: 0)
        _ = try TestWorld.box(w, at: Vec2(-300, -50), size: Vec2(100, 100))
        // A 24 pt circle dropped into the 20 pt gap between two boxes: it rests on both corners.
        _ = try TestWorld.box(w, at: Vec2(0, -30), size: Vec2(60, 60))
        _ = try TestWorld.box(w, at: Vec2(80, -30), size: Vec2(60, 60))
        let c = try TestWorld.circle(w, at: Vec2(40, -80), radius: 12)
        TestWorld.run(w, seconds: 3)
        // Three boxes on the ground recycle; the circle's two corner contacts never do.
        #expect(w.recycledContactCount == 3, "recycled \(w.recycledContactCount)")
        var fastest: Float = 0
        for _ in 0..<240 {
            w.step()
            fastest = max(fastest, length(w.linearVelocity(c)) + abs(w.angularVelocity(c)) * 12)
        }
        // Wedged between two corners (centre 10.4 pt above them, by Pythagoras), it neither
        // rolls nor rocks: its rim moves well under a point a second.
        #expect(fastest < 0.1, "the circle's fastest point moved at \(fastest) pt/s")
        #expect(abs(w.position(c).x - 40) < 0.5 && abs(w.position(c).y - (-60 - 6.633)) < 0.75, "circle at \(w.position(c))")
    }

    @Test("a box sliding on the ground stops where friction says: v² / (2 μ g), with recycling on")
    func slidingStops() throws {
        let w = Self.world(recycle: true)
        try TestWorld.ground(w, top: 0, material: Material(friction: 0.5))
        let b = try TestWorld.box(w, at: Vec2(0, -50), size: Vec2(100, 100), material: Material(friction: 0.5), velocity: Vec2(300, 0))
        TestWorld.run(w, seconds: 2)
        // μ = √(0.5 · 0.5) = 0.5, g = 1000: 300² / (2 · 0.5 · 1000) = 90 pt (±3 %).
        #expect(abs(w.position(b).x - 90) < 2.7, "slid to \(w.position(b).x)")
    }

    @Test("slowly approaching bodies begin touching when their gap closes, not later: one begin event, on time")
    func slowApproachIsNotMissed() throws {
        let w = World(gravity: .zero, settings: { var s = WorldSettings(); s.isSleepEnabled = false; return s }())
        let a = try TestWorld.box(w, at: Vec2(0, 0), size: Vec2(100, 100), type: .static)
        // A 10 pt gap closed at 30 pt/s (0.5 pt per step): contact after 1/3 s = 20 steps.
        let b = try TestWorld.box(w, at: Vec2(110, 0), size: Vec2(100, 100), velocity: Vec2(-30, 0))
        _ = a
        var beganAt: Int? = nil
        var begins = 0
        for step in 1...60 {
            w.step(dt: 1.0 / 60.0)
            if !w.contactBeginEvents.isEmpty { begins += w.contactBeginEvents.count; if beganAt == nil { beganAt = step } }
            if beganAt == nil { w.setLinearVelocity(b, Vec2(-30, 0)) }
        }
        #expect(begins == 1)
        // Touching once the gap is below the slop (0.5 pt): at step 19 or 20.
        #expect(beganAt.map { (18...21).contains($0) } == true, "began at step \(String(describing: beganAt))")
    }
}

/// The broad phase reuses last step's pairs while every moving box stays inside its fat box
/// and nothing structural changed; anything that moves out or changes gets pairs afresh.
@Suite("Broad phase: pairs reused while nothing moves")
struct PairReuseTests {
    @Test("a resting stack reuses its pairs; a box dropped on it, a teleport and a new body still collide")
    func reuseAndItsLimits() throws {
        var settings = WorldSettings()
        settings.isSleepEnabled = false
        let w = World(gravity: Vec2(0, 1000), settings: settings)
        try TestWorld.ground(w, top: 0)
        let boxes = try (0..<5).map { k in try TestWorld.box(w, at: Vec2(0, -50 - 100 * Float(k)), size: Vec2(100, 100)) }
        TestWorld.run(w, seconds: 2)
        let reused0 = w.counters.pairsReusedSteps
        TestWorld.run(w, seconds: 1)
        #expect(w.counters.pairsReusedSteps - reused0 >= 50, "reused in \(w.counters.pairsReusedSteps - reused0) of 60 steps")
        // A box dropped from 300 pt above the stack lands on it: centre 100 pt above the top box.
        let dropped = try TestWorld.box(w, at: Vec2(0, -850), size: Vec2(100, 100))
        TestWorld.run(w, seconds: 2)
        #expect(abs(w.position(dropped).y - (w.position(boxes[4]).y - 100)) < 1.5, "landed at \(w.position(dropped))")
        // Teleported into the ground's corner region beside the stack: it is pushed out and lands.
        w.setTransform(boxes[4], position: Vec2(300, -50), angle: 0)
        TestWorld.run(w, seconds: 2)
        #expect(abs(w.position(boxes[4]).y + 50) < 1.5 && abs(w.position(boxes[4]).x - 300) < 5, "at \(w.position(boxes[4]))")
        // Both stacks rest: pairs are reused again.
        let reused1 = w.counters.pairsReusedSteps
        TestWorld.run(w, seconds: 1)
        #expect(w.counters.pairsReusedSteps - reused1 >= 50)
    }
}
