import Testing
@testable import DynamicsEngine

/// Sleep thresholds (`BodyDef.sleepThreshold`, the world's limits) and worlds asleep: a world
/// whose every body sleeps takes steps that do nothing until a call changes it, and stays bit
/// for bit with a world that takes every step in full.
@Suite("Sleep and worlds asleep")
struct SleepTests {
    static let dt: Float = 1.0 / 60.0

    /// A world without gravity holding one 100 × 100 box (its farthest point 50·√2 pt from its
    /// centre) turning at `w` rad/s and drifting at `v` pt/s, with `threshold`.
    static func drifting(v: Vec2 = .zero, w: Float = 0, threshold: Float = BodyDef.defaultSleepThreshold,
                         settings: (inout WorldSettings) -> Void = { _ in }) throws -> (World, BodyHandle) {
        var s = WorldSettings()
        settings(&s)
        let world = World(gravity: .zero, settings: s)
        var def = BodyDef(type: .dynamic, position: .zero)
        def.linearVelocity = v
        def.angularVelocity = w
        def.sleepThreshold = threshold
        let h = try world.createBody(def, shapes: [ShapeDef(.box(halfWidth: 50, halfHeight: 50))])
        return (world, h)
    }

    /// Steps until the body sleeps; nil when it is still awake after `limit` steps.
    static func stepsToSleep(_ world: World, _ h: BodyHandle, limit: Int = 240) -> Int? {
        for k in 1...limit {
            world.step(dt: dt)
            if !world.isAwake(h) { return k }
        }
        return nil
    }

    @Test("a body's sleep speed is its farthest point's: a box turning at 0.99 × threshold / reach sleeps after timeToSleep, at 1.01 × never")
    func farthestPointSpeed() throws {
        let reach = Float(50 * 2.0.squareRoot())
        let critical = BodyDef.defaultSleepThreshold / reach
        let (slow, a) = try Self.drifting(w: 0.99 * critical)
        let steps = Self.stepsToSleep(slow, a)
        // Its timer reaches 0.5 s after 30 steps of 1/60 s (31 with rounding in the sum).
        #expect(steps == 30 || steps == 31, "fell asleep after \(steps.map(String.init) ?? "never") steps")
        let (fast, b) = try Self.drifting(w: 1.01 * critical)
        #expect(Self.stepsToSleep(fast, b) == nil, "a box turning faster than its threshold allows fell asleep")
    }

    @Test("drift and turn add up at the farthest point: 3 pt/s drifting plus 3 pt/s turning never sleeps under 5 pt/s, 2 + 2 does")
    func driftAndTurnAddUp() throws {
        let reach = Float(50 * 2.0.squareRoot())
        let (fast, a) = try Self.drifting(v: Vec2(3, 0), w: 3 / reach)
        #expect(Self.stepsToSleep(fast, a) == nil, "a body whose farthest point moves at 6 pt/s fell asleep")
        let (slow, b) = try Self.drifting(v: Vec2(0, 2), w: -2 / reach)
        #expect(Self.stepsToSleep(slow, b) != nil, "a body whose farthest point moves at 4 pt/s stayed awake")
    }

    @Test("each body has its own threshold: 3 pt/s sleeps under the default 5 pt/s, not under 2 pt/s or the world's 1 pt/s")
    func perBodyThreshold() throws {
        let (a, ha) = try Self.drifting(v: Vec2(3, 0))
        #expect(Self.stepsToSleep(a, ha) != nil)
        #expect(a.linearVelocity(ha) == .zero, "a body falls asleep standing still")
        let (b, hb) = try Self.drifting(v: Vec2(3, 0), threshold: 2)
        #expect(b.sleepThreshold(hb) == 2)
        #expect(Self.stepsToSleep(b, hb) == nil)
        let (c, hc) = try Self.drifting(v: Vec2(3, 0), settings: { $0.sleepLinearThreshold = 1 })
        #expect(Self.stepsToSleep(c, hc) == nil, "the world's linear threshold applies as well")
        let (d, hd) = try Self.drifting(w: 0.05, threshold: .infinity, settings: { $0.sleepAngularThreshold = 0.04 })
        #expect(Self.stepsToSleep(d, hd) == nil, "the world's angular threshold applies as well")
        // Raising the threshold of a drifting body lets it sleep.
        b.setSleepThreshold(hb, 10)
        #expect(Self.stepsToSleep(b, hb) != nil)
    }

    @Test("a sleep threshold that is NaN or negative is refused with WorldError")
    func badThreshold() throws {
        let world = World()
        for bad: Float in [.nan, -1] {
            var def = BodyDef()
            def.sleepThreshold = bad
            #expect(throws: WorldError.self) { try world.createBody(def, shapes: [ShapeDef(.circle(radius: 10))]) }
        }
        #expect(world.bodyCount == 0)
    }

    /// Everything a caller can read of a world, bit for bit.
    static func state(_ w: World) -> [UInt32] {
        var out: [UInt32] = [UInt32(w.contactCount), UInt32(w.touchingContactCount), UInt32(w.awakeBodyCount),
                             UInt32(w.stepCount), UInt32(w.contactBeginEvents.count), UInt32(w.contactEndEvents.count)]
        for h in w.bodies {
            let p = w.position(h), v = w.linearVelocity(h)
            out += [p.x.bitPattern, p.y.bitPattern, w.angle(h).bitPattern, v.x.bitPattern, v.y.bitPattern,
                    w.angularVelocity(h).bitPattern, w.isAwake(h) ? 1 : 0]
        }
        return out
    }

    /// A ground and `count` boxes dropped in a column (y down), sleeping on.
    static func pile(_ w: World, count: Int) throws {
        _ = try TestWorld.ground(w, top: 0)
        for i in 0..<count {
            try TestWorld.box(w, at: Vec2(Float(i % 3) * 30, -60 - Float(i) * 105), size: Vec2(100, 100))
        }
    }

    @Test("a pile falls asleep; its asleep steps do nothing and stay bit for bit with full steps through kicks, teleports, new and destroyed bodies and restored snapshots")
    func asleepStepsMatchFullSteps() throws {
        let a = TestWorld.make(sleep: true), b = TestWorld.make(sleep: true)
        try Self.pile(a, count: 6); try Self.pile(b, count: 6)
        a.rest.takesStepsInDebug = true
        var asleepAt: Int?
        var world = a
        for k in 0..<1500 {
            let pick = { (w: World) in w.bodies.filter { w.type($0) == .dynamic }[k % 6] }
            for w in [world, b] {
                switch k {
                case 400: w.applyImpulse(pick(w), Vec2(0, -300 * w.mass(pick(w))))
                case 650: w.setTransform(pick(w), position: Vec2(400, -300), angle: 0.3)
                case 900: try TestWorld.box(w, at: Vec2(-300, -500))
                case 1150: w.destroyBody(pick(w))
                default: break
                }
            }
            if k == 1300 {
                // A world restored from a snapshot taken asleep steps on as the original does.
                #expect(!world.hasAwakeBodies, "the pile should be asleep again before step 1300")
                let restored = try World(snapshot: world.snapshot())
                restored.rest.takesStepsInDebug = true
                world = restored
            }
            world.step(dt: Self.dt); b.step(dt: Self.dt)
            #expect(Self.state(world) == Self.state(b), "step \(k): the world taking asleep steps diverged")
            if Self.state(world) != Self.state(b) { break }
            if asleepAt == nil && !b.hasAwakeBodies { asleepAt = k }
        }
        #expect(asleepAt != nil && asleepAt! < 400, "the pile should fall asleep before the first kick")
        #expect(a.counters.asleepSteps > 500 && world.counters.asleepSteps > 50, "asleep steps taken: \(a.counters.asleepSteps), \(world.counters.asleepSteps)")
        #expect(b.counters.asleepSteps == 0, "debug builds take full steps unless a test asks")
        #expect(world.awakeBodyCount == 0 && b.awakeBodyCount == 0)
    }

    @Test("a box resting on a kinematic platform that stands still falls asleep with it, and both stay asleep; a moving platform wakes it")
    func restingOnStillKinematic() throws {
        // (Found by the engine fuzzer's sleep-heavy worlds: each woke the other every
        // timeToSleep — the box slept, the platform still awake woke it through their contact,
        // the platform slept, the box awake woke it — so the world never fell asleep.)
        let w = TestWorld.make(sleep: true)
        let platform = try TestWorld.box(w, at: Vec2(0, 0), size: Vec2(300, 20), type: .kinematic)
        // (Dropped from 20 pt: it comes to rest after the platform has rested long enough to sleep.)
        let box = try TestWorld.box(w, at: Vec2(0, -80), size: Vec2(100, 100))
        TestWorld.run(w, seconds: 3)
        #expect(!w.isAwake(box) && !w.isAwake(platform), "after 3 s: box awake \(w.isAwake(box)), platform awake \(w.isAwake(platform))")
        var woke = 0
        TestWorld.run(w, seconds: 3) { if w.hasAwakeBodies { woke += 1 } }
        #expect(woke == 0, "the box or the platform was awake after \(woke) of 180 steps")
        #expect(w.awakeBodyCount == 0)
        // The platform moving again wakes the box it carries.
        w.setLinearVelocity(platform, Vec2(0, -20))
        w.step(dt: Self.dt); w.step(dt: Self.dt)
        #expect(w.isAwake(box), "the moving platform should wake the box on it")
    }

    @Test("a box hanging by a pin from a kinematic bar that stands still falls asleep with it, and both stay asleep; a moving bar wakes it (alone, and beside 70 static bodies: a world that keeps an awake list)",
          arguments: [0, 70])
    func hangingFromStillKinematic(staticBodies: Int) throws {
        let w = TestWorld.make(sleep: true)
        for k in 0..<staticBodies { try TestWorld.box(w, at: Vec2(Float(k) * 50, 5000), size: Vec2(20, 20), type: .static) }
        let bar = try TestWorld.box(w, at: Vec2(0, 0), size: Vec2(300, 20), type: .kinematic)
        // Let go a little off the vertical, damped: it swings to rest after the bar has
        // rested long enough to sleep.
        var def = BodyDef(type: .dynamic, position: Vec2(20, 100))
        def.angularDamping = 3; def.linearDamping = 3
        let box = try w.createBody(def, shapes: [ShapeDef(.box(halfWidth: 20, halfHeight: 20))])
        var pin = JointDef(type: .revolute, bodyA: bar, bodyB: box)
        pin.localAnchorA = .zero
        pin.localAnchorB = w.transform(box).invApply(.zero)
        w.createJoint(pin)
        TestWorld.run(w, seconds: 6)
        #expect(!w.isAwake(box) && !w.isAwake(bar), "after 6 s: box awake \(w.isAwake(box)), bar awake \(w.isAwake(bar))")
        var woke = 0
        TestWorld.run(w, seconds: 3) { if w.hasAwakeBodies { woke += 1 } }
        #expect(woke == 0, "the box or the bar was awake after \(woke) of 180 steps")
        w.setLinearVelocity(bar, Vec2(20, 0))
        w.step(dt: Self.dt)
        #expect(w.isAwake(box), "the moving bar should wake the box hanging from it")
    }

    @Test("a contact that begins touching in the step its island falls asleep: the asleep steps keep the world's digest equal to full steps'")
    func beginsAsItSleeps() throws {
        // A box drifting at 3 pt/s (under its threshold, so its timer runs from the start)
        // toward a wall 1.93 pt away touches it in the step it falls asleep. (Found by the
        // engine fuzzer's sleep-heavy worlds: the contact's began flag stayed set in the
        // world taking asleep steps, while a full step cleared it — their snapshots differed.)
        func make() throws -> (World, BodyHandle) {
            let w = TestWorld.make(gravity: .zero, sleep: true)
            try TestWorld.box(w, at: Vec2(0, 0), size: Vec2(100, 400), type: .static)
            let b = try TestWorld.box(w, at: Vec2(50 + 1.93 + 25, 0), size: Vec2(50, 50), velocity: Vec2(-3, 0))
            return (w, b)
        }
        let (a, ha) = try make(), (b, _) = try make()
        a.rest.takesStepsInDebug = true
        var beganAsleep = false
        for k in 0..<90 {
            a.step(dt: Self.dt); b.step(dt: Self.dt)
            if !a.contactBeginEvents.isEmpty && !a.isAwake(ha) { beganAsleep = true }
            #expect(a.stateDigest() == b.stateDigest(), "step \(k): the world taking asleep steps and the one taking full steps differ")
            if a.stateDigest() != b.stateDigest() { break }
        }
        #expect(beganAsleep, "the contact should begin touching in the step the box falls asleep")
        #expect(a.counters.asleepSteps > 30)
    }

    @Test("a step of a world asleep solves no island: islandCount 0, as after a full step")
    func asleepStepSolvesNoIsland() throws {
        let a = TestWorld.make(sleep: true), b = TestWorld.make(sleep: true)
        try Self.pile(a, count: 3); try Self.pile(b, count: 3)
        a.rest.takesStepsInDebug = true
        var k = 0
        while b.hasAwakeBodies && k < 600 { a.step(dt: Self.dt); b.step(dt: Self.dt); k += 1 }
        #expect(!b.hasAwakeBodies, "the pile should fall asleep within 10 s")
        // The step that put the pile to sleep solved its island; the next solves none.
        #expect(a.islandCount == 1 && b.islandCount == 1)
        let asleepSteps = a.counters.asleepSteps
        a.step(dt: Self.dt); b.step(dt: Self.dt)
        #expect(a.counters.asleepSteps == asleepSteps + 1, "the world asleep should take the asleep step")
        #expect(b.islandCount == 0)
        #expect(a.islandCount == b.islandCount, "a step of a world asleep reports \(a.islandCount) islands, a full step \(b.islandCount)")
    }

    @Test("a world asleep reports no awake body at once; gravity, settings and sleep changes wake or restep it")
    func asleepWorldWakesOnChange() throws {
        let w = TestWorld.make(sleep: true)
        w.rest.takesStepsInDebug = true
        try Self.pile(w, count: 3)
        TestWorld.run(w, seconds: 5)
        #expect(w.awakeBodyCount == 0 && !w.hasAwakeBodies && w.isAsleep)
        let before = w.counters.asleepSteps
        w.step(dt: Self.dt)
        #expect(w.counters.asleepSteps == before + 1)
        w.settings.contactHertz = 25
        #expect(!w.isAsleep, "a settings change ends the asleep steps")
        w.step(dt: Self.dt)
        #expect(w.counters.asleepSteps == before + 1 && w.isAsleep, "one full step, and asleep again")
        w.gravity = Vec2(0, -1000)
        #expect(w.awakeBodyCount == 3, "a gravity change wakes every body")
        w.step(dt: Self.dt)
        #expect(w.bodies.allSatisfy { w.type($0) == .static || w.linearVelocity($0).y < 0 }, "the bodies rise under the new gravity")
    }
}
