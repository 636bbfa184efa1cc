import Testing
@testable import DynamicsEngine

/// A small world at an exact rest point takes steps at rest (`Rest.swift`): only its sleep
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
        a.takesRestStepsInDebug = true
        for k in 0..<steps {
            poke?(a, k); poke?(b, k)
            a.step(dt: 1.0 / 120.0); b.step(dt: 1.0 / 120.0)
            #expect(state(a) == state(b), "step \(k): the world taking rest steps diverged")
            if state(a) != state(b) { break }
        }
        #expect(b.restSteps == 0)
        return a.restSteps
    }

    @Test("a box resting on the ground: rest steps until it sleeps, then identical to full steps")
    func restingBox() throws {
        let restSteps = try Self.compare(sleep: true, steps: 600) { w in
            _ = try TestWorld.ground(w, top: 0)
            try TestWorld.box(w, at: Vec2(0, -60), size: Vec2(150, 120))
        }
        #expect(restSteps > 0)
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
