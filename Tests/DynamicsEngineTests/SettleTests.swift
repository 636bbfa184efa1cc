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
            let before = w.restSteps
            w.step(dt: dt)
            if w.restSteps > before && r.firstRest == nil { r.firstRest = k }
            r.positions.append(w.position(h)); r.awake.append(w.isAwake(h))
        }
        r.restSteps = w.restSteps
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
            restBefore.append(w.restSteps)
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
        #expect(w.restSteps - restBefore[350] == 50)
        #expect(abs(w.position(h).y + 50) <= 0.5)
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
