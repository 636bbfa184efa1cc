import Testing
@testable import DynamicsEngine

/// Islands without a contact or a joint, on one worker, are solved by the bodies' own stages
/// only (`World.solveUnconstrained`), skipping the colouring, the batch preparation and the
/// solver's views. These tests check that path against the integrator's closed form, and
/// against the general solver (the multi-worker pipeline, which always takes it) bit for bit,
/// also when a world switches between the two with its islands kept (their colouring was
/// skipped and must be done when first needed).
@Suite("Unconstrained solve")
struct UnconstrainedSolveTests {
    @Test("a body in flight follows the sub-stepped integrator's closed form")
    func freeFlightMatchesClosedForm() throws {
        let g = Vec2(30, 1000)
        let w = TestWorld.make(gravity: g)
        let v0 = Vec2(120, -400)
        let b = try TestWorld.box(w, at: Vec2(0, 0), velocity: v0)
        let dt: Float = 1.0 / 60.0, n = Float(w.settings.subSteps), h = dt / n
        let before = w.counters.unconstrainedSolves
        for step in 1...30 {
            w.step(dt: dt)
            // Semi-implicit Euler in n sub-steps: v grows by g·h each sub-step and each
            // sub-step moves by the new v, so after k steps (kn sub-steps)
            // x = v0·t + g·h²·m(m+1)/2 with m = kn.
            let m = Float(step) * n
            let t = Float(step) * dt
            let x = v0 * t + g * (h * h * m * (m + 1) / 2)
            let v = v0 + g * (Float(step) * dt)
            // (Float sums over up to 120 sub-steps: relative error a few 1e-6.)
            #expect(length(w.position(b) - x) <= 1e-4 * max(1, length(x)), "step \(step): \(w.position(b)) vs \(x)")
            #expect(length(w.linearVelocity(b) - v) <= 1e-4 * max(1, length(v)), "step \(step): \(w.linearVelocity(b)) vs \(v)")
        }
        #expect(w.counters.unconstrainedSolves - before == 30, "the body in flight took the unconstrained solve every step")
    }

    /// Boxes and circles above the ground, spinning, damped and pushed, that fall and land.
    static func flight(workers: Int) throws -> (World, [BodyHandle]) {
        let w = TestWorld.make()
        w.workerCount = workers
        if workers > 1 { w.options.minWorkForParallel = 0 }
        try TestWorld.ground(w, top: 0)
        var rng = TestRandom(seed: 19)
        var bodies: [BodyHandle] = []
        for k in 0..<6 {
            let p = Vec2(-1500 + 600 * Float(k), -400 - rng.float(0, 300))
            let b = k % 2 == 0 ? try TestWorld.box(w, at: p, velocity: Vec2(rng.float(-50, 50), -200))
                               : try TestWorld.circle(w, at: p, radius: 40, velocity: Vec2(rng.float(-50, 50), -200))
            w.setAngularVelocity(b, rng.float(-8, 8))
            w.setDamping(b, linear: rng.float(0, 0.5), angular: rng.float(0, 0.5))
            bodies.append(b)
        }
        return (w, bodies)
    }

    static func sameState(_ a: World, _ b: World, _ bodies: [BodyHandle]) -> Bool {
        bodies.allSatisfy { a.position($0) == b.position($0) && a.angle($0) == b.angle($0)
            && a.linearVelocity($0) == b.linearVelocity($0) }
    }

    @Test("one worker's unconstrained solve equals the general solver bit for bit, in flight and after landing")
    func matchesGeneralSolver() throws {
        let (lean, bodies) = try Self.flight(workers: 1)
        let (general, _) = try Self.flight(workers: 2)
        for step in 0..<150 {
            lean.step()
            general.step()
            #expect(Self.sameState(lean, general, bodies), "step \(step)")
            // One force per step on the first body (a push, as a behavior gives it).
            lean.applyForce(bodies[0], Vec2(500, 0))
            general.applyForce(bodies[0], Vec2(500, 0))
        }
        #expect(lean.counters.unconstrainedSolves >= 10, "the flight took the unconstrained solve (\(lean.counters.unconstrainedSolves) steps)")
        #expect(general.counters.unconstrainedSolves == 0)
        #expect(lean.touchingContactCount > 0, "the bodies landed")
    }

    @Test("islands kept from unconstrained steps are coloured when a general solve first needs them")
    func keptIslandsAreColouredWhenNeeded() throws {
        let (switching, bodies) = try Self.flight(workers: 1)
        let (general, _) = try Self.flight(workers: 2)
        for step in 0..<120 {
            // A few steps in flight on one worker (islands built, not coloured, then kept),
            // then the general solver on the same kept islands, and back.
            let many = step % 6 >= 3
            switching.workerCount = many ? 2 : 1
            switching.options.minWorkForParallel = many ? 0 : 1000
            switching.step()
            general.step()
            #expect(Self.sameState(switching, general, bodies), "step \(step)")
        }
        #expect(switching.counters.unconstrainedSolves > 0 && switching.counters.islandsReusedSteps > 0)
    }
}
