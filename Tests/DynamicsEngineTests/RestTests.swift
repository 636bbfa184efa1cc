import Testing
@testable import DynamicsEngine

/// A small world at an exact rest point takes steps at rest (`Step/StepAtRest.swift`): only its sleep
/// timers advance. Such a world must stay bit for bit with one that takes every step in full —
/// through coming to rest, calls that disturb it, and falling asleep. (Debug builds check every
/// predicted rest step against the full step anyway; here the rest steps are really taken.)
@Suite("Steps at rest")
struct RestTests {
    /// Everything a caller can read of a body, bit for bit.
    static func state(_ w: World) -> [UInt32] {
        var out: [UInt32] = [UInt32(w.contactCount), UInt32(w.touchingContactCount), UInt32(w.continuousHits)]
        for h in w.bodies {
            let p = w.position(h), v = w.linearVelocity(h)
            out += [p.x.bitPattern, p.y.bitPattern, w.angle(h).bitPattern, v.x.bitPattern, v.y.bitPattern,
                    w.angularVelocity(h).bitPattern, w.isAwake(h) ? 1 : 0]
        }
        return out
    }

    /// Two copies of a world, one taking rest steps, stepped side by side; `poke` runs on both
    /// before step `k`. Returns how many rest steps the first took.
    static func compare(sleep: Bool, steps: Int, _ build: (World) throws -> Void,
                        poke: ((World, Int) -> Void)? = nil) throws -> Int {
        let a = TestWorld.make(sleep: sleep), b = TestWorld.make(sleep: sleep)
        try build(a); try build(b)
        a.rest.takesStepsInDebug = true
        for k in 0..<steps {
            poke?(a, k); poke?(b, k)
            a.step(dt: 1.0 / 120.0); b.step(dt: 1.0 / 120.0)
            #expect(state(a) == state(b), "step \(k): the world taking rest steps diverged")
            if state(a) != state(b) { break }
        }
        #expect(b.counters.restSteps == 0)
        return a.counters.restSteps
    }

    @Test("a box resting on the ground: rest steps until it sleeps, then identical to full steps")
    func restingBox() throws {
        let restSteps = try Self.compare(sleep: true, steps: 600) { w in
            _ = try TestWorld.ground(w, top: 0)
            try TestWorld.box(w, at: Vec2(0, -60), size: Vec2(150, 120))
        }
        #expect(restSteps > 0)
    }

    @Test("a kinematic body standing still falls asleep alone during the rest steps: the rest copy is taken again, identical to full steps")
    func kinematicSleepsAtRest() throws {
        // A box that may not sleep rests on the ground (rest steps from then on) beside a
        // kinematic bar standing still, which sleeps alone when its timer runs out. (Found by
        // the engine fuzzer's sleep-heavy worlds: the rest copy still held the bar awake, and
        // the next step trusted it.)
        let restSteps = try Self.compare(sleep: true, steps: 240) { w in
            _ = try TestWorld.ground(w, top: 0)
            var def = BodyDef(type: .dynamic, position: Vec2(0, -60))
            def.allowSleep = false
            try w.createBody(def, shapes: [ShapeDef(.box(halfWidth: 75, halfHeight: 60))])
            try TestWorld.box(w, at: Vec2(400, -300), size: Vec2(200, 20), type: .kinematic)
        }
        #expect(restSteps > 100, "rest steps: \(restSteps)")
    }

    @Test("calls that disturb a world at rest (impulse, velocity, teleport, gravity, settings) end the rest steps exactly")
    func disturbed() throws {
        let restSteps = try Self.compare(sleep: false, steps: 900, { w in
            _ = try TestWorld.ground(w, top: 0)
            try TestWorld.box(w, at: Vec2(0, -50))
        }, poke: { w, k in
            let h = w.bodies.first { w.type($0) == .dynamic }!
            switch k {
            case 200: w.applyImpulse(h, Vec2(0, -2000))
            case 350: w.setLinearVelocity(h, Vec2(30, 0))
            case 500: w.setTransform(h, position: w.position(h) + Vec2(0, -20), angle: 0.1)
            case 650: w.gravity = Vec2(200, 1000)
            case 800: w.settings.contactHertz = 20
            default: break
            }
        })
        #expect(restSteps > 100, "rest steps between the disturbances: \(restSteps)")
    }

    @Test("at rest with no call between its steps, a world does not compare itself with its rest copy; after any call it does, once")
    func restWithoutComparing() throws {
        let w = TestWorld.make(sleep: false)
        _ = try TestWorld.ground(w, top: 0)
        let h = try TestWorld.box(w, at: Vec2(0, -50))
        w.rest.takesStepsInDebug = true
        var k = 0
        while w.counters.restSteps == 0 && k < 1200 { w.step(dt: 1.0 / 120.0); k += 1 }
        #expect(w.counters.restSteps > 0, "the box never came to an exact rest point")
        let steps0 = w.counters.restSteps, compared0 = w.counters.restComparisons
        for _ in 0..<100 { w.step(dt: 1.0 / 120.0) }
        #expect(w.counters.restSteps == steps0 + 100)
        #expect(w.counters.restComparisons == compared0, "\(w.counters.restComparisons - compared0) comparisons in 100 steps no call preceded")
        // A call that changes nothing a step reads (the user data is copied too): the next
        // step compares, finds the record changed and takes a full step; then rest again.
        w.setUserData(h, 7)
        w.step(dt: 1.0 / 120.0)
        #expect(w.counters.restComparisons == compared0 + 1 && w.counters.restSteps == steps0 + 100)
        for _ in 0..<10 { w.step(dt: 1.0 / 120.0) }
        #expect(w.counters.restSteps > steps0 + 100 && w.counters.restComparisons == compared0 + 1)
    }

    /// A box at an exact rest point on the ground, taking rest steps with no comparison, and
    /// its twin taking full steps: `poke` on both, then 200 steps side by side.
    static func pokeAtRest(_ name: String, _ poke: (World, BodyHandle) throws -> Void) throws {
        let a = TestWorld.make(sleep: false), b = TestWorld.make(sleep: false)
        var boxes: [BodyHandle] = []
        for w in [a, b] {
            _ = try TestWorld.ground(w, top: 0)
            boxes.append(try TestWorld.box(w, at: Vec2(0, -50)))
        }
        a.rest.takesStepsInDebug = true
        var resting = false
        for _ in 0..<1200 {
            let steps = a.counters.restSteps, compared = a.counters.restComparisons
            a.step(dt: 1.0 / 120.0); b.step(dt: 1.0 / 120.0)
            if a.counters.restSteps > steps && a.counters.restComparisons == compared { resting = true; break }
        }
        #expect(resting, "\(name): the box never rested without comparing")
        try poke(a, boxes[0]); try poke(b, boxes[1])
        for k in 0..<200 {
            a.step(dt: 1.0 / 120.0); b.step(dt: 1.0 / 120.0)
            #expect(state(a) == state(b), "\(name): step \(k) after the call, the world taking rest steps diverged")
            if state(a) != state(b) { return }
        }
    }

    @Test("every call that changes a resting body's motion ends the rest steps exactly (force, torque, impulses, velocities, teleport, gravity, material, type, a new body, a boundary, world gravity, settings)")
    func everyCallEndsRest() throws {
        try Self.pokeAtRest("applyForce") { w, h in w.applyForce(h, Vec2(40_000, 0)) }
        try Self.pokeAtRest("applyTorque") { w, h in w.applyTorque(h, 4_000_000) }
        try Self.pokeAtRest("applyImpulse") { w, h in w.applyImpulse(h, Vec2(0, -500)) }
        try Self.pokeAtRest("applyAngularImpulse") { w, h in w.applyAngularImpulse(h, 30_000) }
        try Self.pokeAtRest("setLinearVelocity") { w, h in w.setLinearVelocity(h, Vec2(20, 0)) }
        try Self.pokeAtRest("setAngularVelocity") { w, h in w.setAngularVelocity(h, 0.5) }
        try Self.pokeAtRest("setTransform") { w, h in w.setTransform(h, position: w.position(h) + Vec2(0, -5), angle: 0.05) }
        try Self.pokeAtRest("setGravity") { w, h in w.setGravity(h, Vec2(300, 1000)) }
        try Self.pokeAtRest("setMaterial") { w, h in w.setMaterial(h, Material(density: 3, friction: 0.6)) }
        try Self.pokeAtRest("setType") { w, h in w.setType(h, .kinematic); w.setLinearVelocity(h, Vec2(10, 0)) }
        try Self.pokeAtRest("createBody") { w, _ in _ = try TestWorld.box(w, at: Vec2(0, -300), size: Vec2(40, 40)) }
        try Self.pokeAtRest("addBoundary") { w, _ in _ = try w.addBoundary(Vec2(30, -200), Vec2(30, 10), group: .default) }
        try Self.pokeAtRest("world gravity") { w, _ in w.gravity = Vec2(200, 1000) }
        try Self.pokeAtRest("settings") { w, _ in w.settings.contactHertz = 20 }
    }

    /// A world taking rest steps beside its twin taking full steps: the public state after
    /// every step, and the whole snapshot (sleep timers included: a snapshot writes the
    /// counted ones) every `every` steps; `poke` runs on both before step `k`. Returns how
    /// many steps at rest the first world took, and how many of them only counted themselves.
    static func compareCounted(steps: Int, every: Int, timeToSleep: Float = 0.5, _ build: (World) throws -> Void,
                               poke: ((World, Int) -> Void)? = nil) throws -> (rest: Int, counted: Int) {
        let a = TestWorld.make(sleep: true), b = TestWorld.make(sleep: true)
        for w in [a, b] { w.settings.timeToSleep = timeToSleep; try build(w) }
        a.rest.takesStepsInDebug = true
        var counted = 0
        for k in 0..<steps {
            poke?(a, k); poke?(b, k)
            let before = a.rest.pendingTimerSteps
            a.step(dt: 1.0 / 120.0); b.step(dt: 1.0 / 120.0)
            if a.rest.pendingTimerSteps == before + 1 { counted += 1 }
            #expect(state(a) == state(b), "step \(k): the world taking rest steps diverged")
            if k % every == every - 1 || k == steps - 1 {
                #expect(a.snapshot() == b.snapshot(), "step \(k): the snapshots differ (sleep timers?)")
            }
            if state(a) != state(b) { break }
        }
        #expect(!a.hasAwakeBodies && !b.hasAwakeBodies, "the worlds should have fallen asleep")
        return (a.counters.restSteps, counted)
    }

    @Test("steps at rest in which nothing can fall asleep only count themselves; the timers written later (snapshot, call, full step, the step that puts an island to sleep) are a full step's, bit for bit")
    func countedTimers() throws {
        // One box: the timers counted until its island falls asleep.
        let one = try Self.compareCounted(steps: 400, every: 7) { w in
            _ = try TestWorld.ground(w, top: 0)
            try TestWorld.box(w, at: Vec2(0, -60), size: Vec2(150, 120))
        }
        // (Every step at rest but the first and the one that puts the island to sleep.)
        #expect(one.counted > 0 && one.counted == one.rest - 2, "steps at rest \(one.rest), only counted \(one.counted)")
        // A long time to sleep (more steps than one plan looks ahead), two islands that come to
        // rest apart, and a kinematic bar standing still that sleeps alone.
        let long = try Self.compareCounted(steps: 900, every: 11, timeToSleep: 2) { w in
            _ = try TestWorld.ground(w, top: 0)
            try TestWorld.box(w, at: Vec2(-400, -60), size: Vec2(150, 120))
            try TestWorld.box(w, at: Vec2(400, -400), size: Vec2(100, 100))
            try TestWorld.box(w, at: Vec2(0, -600), size: Vec2(200, 20), type: .kinematic)
        }
        // (The limit makes a step at rest look again every 65 steps.)
        #expect(long.counted > 2 * World.quietStepLimit, "steps at rest \(long.rest), only counted \(long.counted)")
        #expect(long.counted >= long.rest - long.rest / World.quietStepLimit - 8,
                "steps at rest \(long.rest), only counted \(long.counted)")
        // Calls in the middle of counted steps: one that changes nothing a step reads, one that
        // resets a timer, one that changes the time to sleep.
        let poked = try Self.compareCounted(steps: 700, every: 13, { w in
            _ = try TestWorld.ground(w, top: 0)
            try TestWorld.box(w, at: Vec2(0, -60), size: Vec2(150, 120))
            try TestWorld.box(w, at: Vec2(500, -60), size: Vec2(150, 120))
        }, poke: { w, k in
            let boxes = w.bodies.filter { w.type($0) == .dynamic }
            switch k {
            case 150: w.setUserData(boxes[0], 3)
            case 175: w.setSleepThreshold(boxes[1], 4)
            case 190: w.settings.timeToSleep = 0.75
            default: break
            }
        })
        #expect(poked.counted > 0 && poked.counted >= poked.rest - 8, "steps at rest \(poked.rest), only counted \(poked.counted)")
    }

    @Test("a world with more bodies than the limit, or with a joint, takes no rest steps")
    func notEligible() throws {
        let many = try Self.compare(sleep: false, steps: 400) { w in
            _ = try TestWorld.ground(w, top: 0)
            for i in 0..<(World.restBodyLimit + 1) { try TestWorld.box(w, at: Vec2(Float(i) * 150, -50)) }
        }
        #expect(many == 0)
        let jointed = try Self.compare(sleep: false, steps: 400) { w in
            _ = try TestWorld.ground(w, top: 0)
            let b = try TestWorld.box(w, at: Vec2(0, -50))
            var pin = JointDef(type: .revolute, bodyA: nil, bodyB: b)
            pin.localAnchorB = Vec2(0, -50)
            _ = w.createJoint(pin)
        }
        #expect(jointed == 0)
    }
}
