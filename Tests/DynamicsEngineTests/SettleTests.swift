import Testing
@testable import DynamicsEngine

/// Settling (`World.settleDistance`, which animators turn on): a small world whose bodies stood
/// still after two steps in a row and moved less than the settle distance between them stops
/// there. Each test steps a settling world beside one with settling off (exact physics) and
/// compares them.
@Suite("Settling")
struct SettleTests {
    static let dt: Float = 1.0 / 120.0

    struct Run {
        /// The dynamic body's position and awake flag after each step.
        var positions: [Vec2] = [], awake: [Bool] = []
        var restSteps = 0
        /// The first step (0-based) that was taken at rest, or nil.
        var firstRest: Int?
    }

    static func run(_ w: World, steps: Int, poke: ((World, Int) -> Void)? = nil) -> Run {
        let h = w.bodies.first { w.type($0) == .dynamic }!
        var r = Run()
        for k in 0..<steps {
            poke?(w, k)
            let before = w.counters.restSteps
            w.step(dt: dt)
            if w.counters.restSteps > before && r.firstRest == nil { r.firstRest = k }
            r.positions.append(w.position(h)); r.awake.append(w.isAwake(h))
        }
        r.restSteps = w.counters.restSteps
        return r
    }

    /// A 100 pt box dropped 20 pt onto the ground (top at y = 0, gravity 1000 pt/s² down).
    static func world(settle: Float) throws -> World {
        let w = TestWorld.make(sleep: true)
        w.settleDistance = settle
        _ = try TestWorld.ground(w, top: 0)
        try TestWorld.box(w, at: Vec2(0, -70))
        return w
    }

    @Test("a box landing on the ground settles: rest steps well before it sleeps, asleep at the same step, within 0.1 pt of exact physics and resting on the ground")
    func settlesAndSleepsOnTime() throws {
        let exact = Self.run(try Self.world(settle: 0), steps: 300)
        let settled = Self.run(try Self.world(settle: 0.01), steps: 300)
        // Both fall asleep, at the same step (the sleep timers advance as in a full step).
        let sleepExact = try #require(exact.awake.firstIndex(of: false), "the exact world should fall asleep in 300 steps")
        let sleepSettled = try #require(settled.awake.firstIndex(of: false))
        #expect(sleepSettled == sleepExact)
        // Settling takes over well before sleep: at least a third of the half second to sleep.
        let first = try #require(settled.firstRest, "the settling world took no rest step")
        #expect(sleepSettled - first >= 20, "settled at step \(first), asleep at \(sleepSettled)")
        // Debug builds take no exact rest steps, so the exact world's count is 0 there;
        // the settling world took every step from `first` to sleep at rest.
        #expect(settled.restSteps >= sleepSettled - first)
        // Identical until settling, then within 0.1 pt; at rest on the ground (box bottom at
        // y = 0 within the linear slop, 0.5 pt).
        for k in 0..<300 {
            let d = settled.positions[k] - exact.positions[k]
            if k < first { #expect(d == .zero, "step \(k): \(d) before settling") }
            #expect(abs(d.x) <= 0.1 && abs(d.y) <= 0.1, "step \(k): \(settled.positions[k]) vs exact \(exact.positions[k])")
        }
        let bottom = settled.positions[299].y + 50
        #expect(abs(bottom) <= 0.5, "box bottom at \(bottom)")
    }

    @Test("the distance decides: a smaller settle distance settles later and nearer to exact physics")
    func distanceDecides() throws {
        let exact = Self.run(try Self.world(settle: 0), steps: 300)
        let coarse = Self.run(try Self.world(settle: 0.01), steps: 300)
        let fine = Self.run(try Self.world(settle: 0.0002), steps: 300)
        let a = try #require(coarse.firstRest), b = try #require(fine.firstRest, "settle distance 0.0002 pt: no rest step")
        #expect(b > a + 5, "settled at step \(a) (0.01 pt) and \(b) (0.0002 pt)")
        func gap(_ r: Run) -> Float { zip(r.positions, exact.positions).map { abs($0.y - $1.y) }.max()! }
        // Stopping d short of a geometric approach whose steps shrink by ~13 % each leaves
        // about 6.5 d to go: at most 7 × 0.0002 pt for the fine world.
        #expect(gap(fine) < gap(coarse) && gap(fine) <= 7 * 0.0002,
                "largest difference: \(gap(fine)) pt (0.0002) vs \(gap(coarse)) pt (0.01)")
    }

    @Test("a velocity change ends settling: full steps while the box hops, then it settles again")
    func disturbed() throws {
        let w = try Self.world(settle: 0.01)
        w.settings.isSleepEnabled = false
        let h = w.bodies.first { w.type($0) == .dynamic }!
        var restBefore: [Int] = []
        var highest: Float = 0
        _ = Self.run(w, steps: 400) { w, k in
            restBefore.append(w.counters.restSteps)
            // 200 pt/s up: a hop of v² / 2g = 20 pt.
            if k == 150 { w.setLinearVelocity(h, Vec2(0, -200)) }
            if k > 150 { highest = min(highest, w.position(h).y + 50) }
        }
        // Settled before the kick (every step from 100 to 150 at rest).
        #expect(restBefore[150] - restBefore[100] == 50)
        // The hop: full steps while the box is in the air, about 20 pt high.
        #expect(restBefore[190] - restBefore[151] == 0)
        #expect(abs(highest + 20) <= 1, "hop height \(-highest)")
        // Landed and settled again: the last 50 steps at rest, the box on the ground.
        #expect(w.counters.restSteps - restBefore[350] == 50)
        #expect(abs(w.position(h).y + 50) <= 0.5)
    }

    /// A seeded small world of the kind an animator's components make: a gravity of 500–1 500
    /// pt/s² along one of the four axis directions, a static wall across it, and one to three
    /// axis-aligned boxes side by side flying at it (random sizes, densities, friction,
    /// elasticity 0–0.4, speeds −300…300 pt/s along the gravity; in half the worlds also
    /// −50…50 pt/s across it, which leaves velocities of about 1e-5 pt/s to the end — such a
    /// world sleeps without settling, as settling asks for velocities of exactly zero).
    static func randomWorld(seed: UInt64, settle: Float) throws -> World {
        var rng = TestRandom(seed: seed)
        let axes = [Vec2(1, 0), Vec2(-1, 0), Vec2(0, 1), Vec2(0, -1)]
        let down = axes[Int(rng.next() % 4)], across = Vec2(-down.y, down.x)
        let w = TestWorld.make(gravity: down * rng.float(500, 1500), sleep: true)
        w.settleDistance = settle
        let wallAt = rng.float(150, 400)
        let sideways: Float = rng.next() % 2 == 0 ? 50 : 0
        let wallSize = down.x != 0 ? Vec2(100, 4000) : Vec2(4000, 100)
        try TestWorld.box(w, at: down * (wallAt + 50), size: wallSize, type: .static,
                          material: Material(friction: rng.float(0.2, 1)))
        var side: Float = -300
        for _ in 0..<(1 + Int(rng.next() % 3)) {
            let along = rng.float(30, 120), wide = rng.float(40, 160)
            let size = down.x != 0 ? Vec2(along, wide) : Vec2(wide, along)
            let material = Material(density: rng.float(0.5, 2), friction: rng.float(0.2, 1), restitution: rng.float(0, 0.4))
            let centre = down * rng.float(0, wallAt - along / 2 - 20) + across * (side + wide / 2)
            try TestWorld.box(w, at: centre, size: size, material: material,
                              velocity: down * rng.float(-300, 300) + across * rng.float(-sideways, sideways))
            side += wide + rng.float(20, 60)
        }
        return w
    }

    @Test("random boxes against a wall (seeds 1…24): settling never moves a body more than 0.1 pt or turns it more than 0.001 rad from exact physics, and every body falls asleep at the same step")
    func randomWalls() throws {
        var settledWorlds = 0
        for seed: UInt64 in 1...24 {
            let replay = "replay: swift test --filter SettleTests/randomWalls (seed \(seed))"
            let a = try Self.randomWorld(seed: seed, settle: 0.01), b = try Self.randomWorld(seed: seed, settle: 0)
            let bodies = a.bodies.filter { a.type($0) == .dynamic }
            var worst: Float = 0, worstTurn: Float = 0, sameSleep = true
            for _ in 0..<900 {
                a.step(dt: Self.dt); b.step(dt: Self.dt)
                for h in bodies {
                    let d = a.position(h) - b.position(h)
                    worst = max(worst, (d.x * d.x + d.y * d.y).squareRoot())
                    worstTurn = max(worstTurn, abs(a.angle(h) - b.angle(h)))
                    if a.isAwake(h) != b.isAwake(h) { sameSleep = false }
                }
            }
            #expect(worst <= 0.1 && worstTurn <= 0.001, "moved \(worst) pt, turned \(worstTurn) rad from exact physics; \(replay)")
            #expect(sameSleep, "a body fell asleep at another step; \(replay)")
            #expect(bodies.allSatisfy { !a.isAwake($0) }, "still awake after 7.5 s; \(replay)")
            if a.counters.restSteps > b.counters.restSteps { settledWorlds += 1 }
        }
        // Settling is exercised: at least a quarter of the worlds settle before they sleep
        // (the others sleep without settling).
        #expect(settledWorlds >= 6, "\(settledWorlds) of 24 worlds settled")
    }

    @Test("a box that only slows down does not settle: sliding on ice, friction 0, it keeps moving")
    func movingBodiesDoNotSettle() throws {
        let w = TestWorld.make(sleep: false)
        w.settleDistance = 0.01
        _ = try TestWorld.ground(w, top: 0, material: Material(friction: 0))
        let h = try TestWorld.box(w, at: Vec2(0, -50), material: Material(friction: 0))
        w.setLinearVelocity(h, Vec2(30, 0))
        let r = Self.run(w, steps: 240)
        #expect(r.restSteps == 0)
        // 30 pt/s for 2 s: 60 pt (no friction, no damping).
        #expect(abs(w.position(h).x - 60) <= 0.5, "x = \(w.position(h).x)")
    }
}
