import Testing
@testable import DynamicsEngine

/// Analytic checks of the solver: each compares with a closed-form result within a stated
/// tolerance. Units: points, seconds; y points down; gravity 1000 pt/s².
@Suite("Physics against analytic results")
struct PhysicsTests {
    @Test("free fall: 500 pt after 1 s at 1000 pt/s² (±1%)")
    func freeFall() throws {
        let w = TestWorld.make()
        let b = try TestWorld.box(w, at: Vec2(0, 0))
        TestWorld.run(w, seconds: 1)
        let y = w.position(b).y
        #expect(abs(y - 500) <= 5, "fell \(y) pt")
        #expect(abs(w.linearVelocity(b).y - 1000) <= 10)
        #expect(abs(w.position(b).x) < 1.0e-3)
    }

    @Test("projectile range v²·sin(2θ)/g (±1%)")
    func projectileRange() throws {
        let w = TestWorld.make()
        let v: Float = 800, theta = Float.pi / 4
        // y down: launching "up" is negative y.
        let b = try TestWorld.circle(w, at: .zero, radius: 5, velocity: Vec2(v * cosf(theta), -v * sinf(theta)))
        let flight = 2 * v * sinf(theta) / 1000
        TestWorld.run(w, seconds: flight)
        let expected = v * v * sinf(2 * theta) / 1000
        #expect(abs(w.position(b).x - expected) <= 0.01 * expected, "range \(w.position(b).x) vs \(expected)")
        #expect(abs(w.position(b).y) <= 0.01 * expected)
    }

    @Test("elastic head-on collision of equal masses swaps velocities (±2%)")
    func elasticCollision() throws {
        let w = TestWorld.make(gravity: .zero)
        let m = Material(density: 1, friction: 0, restitution: 1)
        let a = try TestWorld.circle(w, at: Vec2(0, 0), radius: 20, material: m, velocity: Vec2(300, 0))
        let b = try TestWorld.circle(w, at: Vec2(200, 0), radius: 20, material: m, velocity: Vec2(-100, 0))
        TestWorld.run(w, seconds: 1)
        #expect(abs(w.linearVelocity(a).x - -100) <= 6, "a: \(w.linearVelocity(a))")
        #expect(abs(w.linearVelocity(b).x - 300) <= 6, "b: \(w.linearVelocity(b))")
        #expect(abs(w.linearVelocity(a).y) < 1 && abs(w.linearVelocity(b).y) < 1)
    }

    @Test("restitution e gives bounce height ratio e² (±10%)", arguments: [Float(0.5), 0.8])
    func bounceHeight(e: Float) throws {
        let w = TestWorld.make()
        try TestWorld.ground(w, top: 0, material: Material(restitution: e))
        let drop: Float = 400
        let b = try TestWorld.circle(w, at: Vec2(0, -drop - 10), radius: 10, material: Material(restitution: e))
        var ys: [Float] = [], vys: [Float] = []
        TestWorld.run(w, seconds: 2, dt: 1.0 / 240.0) {
            ys.append(w.position(b).y); vys.append(w.linearVelocity(b).y)
        }
        // First bounce: velocity turns from falling (+y) to rising (−y); apex: it turns back.
        let hit = try #require(vys.indices.dropFirst().first { vys[$0 - 1] > 0 && vys[$0] < 0 })
        let apex = try #require(vys.indices.dropFirst(hit + 1).first { vys[$0 - 1] < 0 && vys[$0] >= 0 })
        let minY = ys[hit...apex].min()!
        let height = -minY - 10
        let ratio = height / drop
        #expect(abs(ratio - e * e) <= 0.1 * e * e, "bounce ratio \(ratio) vs e² = \(e * e)")
    }

    /// A box on a 30° ramp: slides when friction < tan 30° (0.577), sticks otherwise.
    @Test("box on a 30° ramp slides below tan 30° and sticks above", arguments: [(Float(0.3), true), (Float(0.8), false)])
    func ramp(friction: Float, slides: Bool) throws {
        let w = TestWorld.make()
        let angle = Float.pi / 6
        let m = Material(density: 1, friction: friction, restitution: 0)
        // A long static ramp rotated by 30° (y down: positive angle tilts clockwise on screen).
        try TestWorld.box(w, at: .zero, size: Vec2(3000, 100), angle: angle, type: .static, material: m)
        let q = Rot(angle: angle)
        let normal = q.rotate(Vec2(0, -1))  // up out of the ramp surface
        let start = q.rotate(Vec2(-500, 0)) + normal * (50 + 25 + 0.5)
        let b = try TestWorld.box(w, at: start, size: Vec2(50, 50), angle: angle, material: m)
        TestWorld.run(w, seconds: 0.3)  // settle the contact
        let p0 = w.position(b)
        TestWorld.run(w, seconds: 1)
        let along = dot(w.position(b) - p0, q.rotate(Vec2(1, 0)))
        if slides {
            // a = g (sin θ − μ cos θ); distance over 1 s ≈ a/2 + v0 (allow 15%: v0 from settling).
            let a = 1000 * (sinf(angle) - friction * cosf(angle))
            #expect(along > 0.4 * a, "slid \(along) pt, expected about \(a / 2)")
        } else {
            #expect(abs(along) < 2, "crept \(along) pt")
        }
    }

    @Test("rigid distance joint keeps its length within 0.5%")
    func rigidDistanceJoint() throws {
        let w = TestWorld.make()
        let b = try TestWorld.box(w, at: Vec2(200, 0), size: Vec2(20, 20))
        var def = JointDef(type: .distance, bodyA: nil, bodyB: b)
        def.localAnchorA = Vec2(0, 0)
        let j = w.createJoint(def)
        #expect(abs(w.jointLength(j) - 200) < 1.0e-3)
        var worst: Float = 0
        TestWorld.run(w, seconds: 3) {
            let (pa, pb) = w.jointAnchors(j)
            worst = max(worst, abs(distance(pa, pb) - 200))
        }
        #expect(worst <= 1, "length error \(worst) pt of 200")
        // It swung: the body went well below the anchor.
        #expect(w.position(b).y > 100 || w.linearVelocity(b) != .zero)
    }

    @Test("spring joint oscillates at its set frequency (±5%)", arguments: [Float(1), 2.5])
    func springFrequency(hertz: Float) throws {
        let w = TestWorld.make(gravity: .zero)
        let b = try TestWorld.box(w, at: Vec2(300, 0), size: Vec2(20, 20))
        w.setFixedRotation(b, true)
        var def = JointDef(type: .distance, bodyA: nil, bodyB: b)
        def.length = 200
        def.enableSpring = true
        def.hertz = hertz
        def.dampingRatio = 0
        w.createJoint(def)
        // Count upward zero crossings of x − 200 over 4 s.
        var crossings: [Float] = []
        var t: Float = 0, last = w.position(b).x - 200
        TestWorld.run(w, seconds: 4, dt: 1.0 / 120.0) {
            t += 1.0 / 120.0
            let x = w.position(b).x - 200
            if last < 0 && x >= 0 { crossings.append(t - (1.0 / 120.0) * x / (x - last)) }
            last = x
        }
        #expect(crossings.count >= 3)
        let period = (crossings.last! - crossings.first!) / Float(crossings.count - 1)
        #expect(abs(1 / period - hertz) <= 0.05 * hertz, "measured \(1 / period) Hz")
    }

    @Test("a pyramid of 20 rows stands for 10 s; top box drifts < 5% of its size")
    func pyramidStands() throws {
        let w = TestWorld.make()
        try TestWorld.ground(w, top: 0)
        let size: Float = 100  // the pyramid scene's 1 m boxes
        let top = try TestWorld.pyramid(w, rows: 20, size: size).last!
        let start = w.position(top)
        TestWorld.run(w, seconds: 10)
        let drift = distance(w.position(top), start)
        #expect(drift < 0.05 * size, "top box drifted \(drift) pt")
    }

    @Test("a 10-box vertical stack comes to rest and sleeps")
    func stackSleeps() throws {
        let w = TestWorld.make(sleep: true)
        try TestWorld.ground(w, top: 0)
        var boxes: [BodyHandle] = []
        for k in 0..<10 { boxes.append(try TestWorld.box(w, at: Vec2(0, -50 - Float(k) * 100), size: Vec2(100, 100))) }
        var sleptAt: Float? = nil
        var t: Float = 0
        TestWorld.run(w, seconds: 6) {
            t += 1.0 / 60.0
            if sleptAt == nil && !w.hasAwakeBodies { sleptAt = t }
        }
        #expect(sleptAt != nil, "the stack never slept")
        for (k, b) in boxes.enumerated() {
            #expect(!w.isAwake(b))
            // Soft contacts rest with ≤ 0.5 pt of overlap each; sideways settling < 2% of the size.
            #expect(abs(w.position(b).x) < 2, "box \(k) slid sideways to \(w.position(b).x)")
            #expect(abs(w.position(b).y - (-50 - Float(k) * 100)) < 0.5 * Float(k + 1), "box \(k) at \(w.position(b).y)")
        }
        // A push wakes the island.
        w.applyImpulse(boxes[9], Vec2(10, 0))
        #expect(w.isAwake(boxes[0]))
    }

    /// A soft contact holds its load like a spring: once still, a manifold point that carries
    /// force F is pressed in by F / (k·ω²), k its effective mass along the normal,
    /// 1 / (1/m_A + 1/m_B + (r_A × n)²/I_A + (r_B × n)²/I_B), ω = 2π · contactHertz (twice
    /// that against a static body). So a stack deeper than a few boxes rests with more overlap
    /// than the linear slop, however long it settles.
    @Test("a resting stack's overlaps are its soft contacts' spring law, F / (k·ω²) per point (±2%)")
    func stackOverlapsFollowTheSpringLaw() throws {
        let n = 10
        let w = TestWorld.make()
        try TestWorld.ground(w, top: 0)
        // y down: box i's centre starts at −50 − 100 i.
        let boxes = try (0..<n).map { try TestWorld.box(w, at: Vec2(0, -50 - 100 * Float($0))) }
        for _ in 0..<600 { w.step(dt: 1.0 / 60) }
        let m = w.mass(boxes[0]), inertia = w.inertia(boxes[0])
        // Each face contact has two points at the corners, 50 pt either side of the centre
        // line, each carrying half the weight above.
        let lever: Float = 50 * 50 / inertia
        let omega = 2 * Float.pi * w.settings.contactHertz
        for i in 0..<n {
            let weightAbove = Float(n - i) * m * 1000
            let overlap: Float, expected: Float
            if i == 0 {
                overlap = 50 + w.position(boxes[0]).y
                expected = weightAbove / 2 * (1 / m + lever) / (4 * omega * omega)
            } else {
                overlap = 100 - (w.position(boxes[i - 1]).y - w.position(boxes[i]).y)
                expected = weightAbove / 2 * (2 / m + 2 * lever) / (omega * omega)
            }
            #expect(abs(overlap - expected) <= 0.02 * expected, "contact under box \(i): \(overlap) pt pressed in, the spring law gives \(expected)")
        }
        // Ten 1 m boxes already press the lowest box-to-box contact past the 0.5 pt slop.
        #expect(100 - (w.position(boxes[0]).y - w.position(boxes[1]).y) > w.settings.linearSlop)
    }
}

#if canImport(Glibc)
import Glibc
#endif
