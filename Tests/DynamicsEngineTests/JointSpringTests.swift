import Foundation
import Testing
@testable import DynamicsEngine

/// Springs on revolute and prismatic joints, against the damped oscillator. The soft spring's
/// stiffness is the joint's effective mass (inertia about the pin, or mass along the axis)
/// times ω², ω = 2π · hertz, and its damping that mass times 2ζω, so the motion is
/// x'' + 2ζω x' + ω² x = 0 whatever the mass: period 2π / (ω √(1 − ζ²)), each period shrinking
/// the amplitude by exp(−2πζ / √(1 − ζ²)). Steps of 1/60 s (4 sub-steps), no gravity unless
/// stated; units pt, rad, s.
@Suite("Springs on revolute and prismatic joints")
struct JointSpringTests {
    static let dt: Float = 1.0 / 60.0

    /// A body pinned at its centre to the world by a revolute joint at `angle` from the joint's
    /// reference angle 0 (the world's frame).
    static func rotor(_ w: World, at p: Vec2, size: Vec2 = Vec2(100, 20), density: Float = 1, angle: Float,
                      configure: (inout JointDef) -> Void) throws -> (BodyHandle, JointHandle) {
        let b = try TestWorld.box(w, at: p, size: size, angle: angle, material: Material(density: density))
        var def = JointDef(type: .revolute, bodyA: nil, bodyB: b)
        def.localAnchorA = p
        def.referenceAngle = 0
        configure(&def)
        return (b, w.createJoint(def))
    }

    /// A body on a prismatic joint along `axis` through world point `anchor`, its centre
    /// `offset` pt along the axis from the anchor (the spring's rest is offset 0).
    static func slider(_ w: World, anchor: Vec2, axis: Vec2, offset: Float, size: Vec2 = Vec2(30, 30),
                       configure: (inout JointDef) -> Void) throws -> (BodyHandle, JointHandle) {
        let b = try TestWorld.box(w, at: anchor + offset * axis, size: size)
        var def = JointDef(type: .prismatic, bodyA: nil, bodyB: b)
        def.localAnchorA = anchor
        def.localAxisA = axis
        configure(&def)
        return (b, w.createJoint(def))
    }

    /// Samples of a signal at every step, `seconds` long.
    static func record(_ w: World, seconds: Float, _ value: () -> Float) -> [Float] {
        var xs: [Float] = [value()]
        let n = Int((seconds / dt).rounded())
        for _ in 0..<n { w.step(dt: dt); xs.append(value()) }
        return xs
    }

    /// Times (s) where the samples cross 0 going down, linearly interpolated.
    static func downCrossings(_ xs: [Float]) -> [Float] {
        var ts: [Float] = []
        for k in 1..<xs.count where xs[k - 1] > 0 && xs[k] <= 0 {
            ts.append((Float(k - 1) + xs[k - 1] / (xs[k - 1] - xs[k])) * dt)
        }
        return ts
    }

    /// The mean spacing of successive crossings (s).
    static func period(_ xs: [Float]) -> Float? {
        let ts = downCrossings(xs)
        guard ts.count >= 3 else { return nil }
        return (ts.last! - ts.first!) / Float(ts.count - 1)
    }

    /// The local maxima of the samples (the positive peaks).
    static func peaks(_ xs: [Float]) -> [Float] {
        (1..<(xs.count - 1)).filter { xs[$0] > 0 && xs[$0] >= xs[$0 - 1] && xs[$0] > xs[$0 + 1] }.map { xs[$0] }
    }

    static func decayPerPeriod(_ zeta: Float) -> Float { expf(-2 * .pi * zeta / sqrtf(1 - zeta * zeta)) }
    static func dampedPeriod(hertz: Float, _ zeta: Float) -> Float { 1 / (hertz * sqrtf(1 - zeta * zeta)) }

    /// The damping ratio the sub-stepped soft spring shows: the one set plus about 2π · hertz · h
    /// (h the sub-step), the implicit step's own loss (the spring row runs in the biased and the
    /// relax pass; each scales the velocity by 1 − (hω)² at ζ = 0).
    static func effectiveDamping(hertz: Float, _ zeta: Float, dt: Float = dt, subSteps: Int = 4) -> Float {
        zeta + 2 * .pi * hertz * dt / Float(subSteps)
    }

    /// Where a spring of `hertz` whose rest is 0 settles against a limit at `limit`: the limit
    /// yields like a spring of the world's joint frequency on the same effective mass.
    static func restAgainstSoftLimit(_ limit: Float, hertz: Float) -> Float {
        let ratio = hertz / WorldSettings().jointHertz
        return limit / (1 + ratio * ratio)
    }

    // MARK: - Free oscillation

    @Test("revolute spring at 1 Hz, ζ = 0: period 1 s (±1%) for inertias 173 and 325 000; decay per period is the step's own")
    func revolutePeriodIndependentOfInertia() throws {
        let w = TestWorld.make(gravity: .zero)
        let spring: (inout JointDef) -> Void = { d in d.enableSpring = true; d.hertz = 1; d.dampingRatio = 0 }
        let (light, _) = try Self.rotor(w, at: Vec2(0, 0), angle: 0.1, configure: spring)
        let (heavy, _) = try Self.rotor(w, at: Vec2(1000, 0), size: Vec2(300, 200), density: 5, angle: 0.1, configure: spring)
        #expect(w.inertia(heavy) > 1000 * w.inertia(light))
        var a: [Float] = [], b: [Float] = []
        _ = Self.record(w, seconds: 6) { a.append(w.angle(light)); b.append(w.angle(heavy)); return 0 }
        for (label, xs) in [("light", a), ("heavy", b)] {
            let period = try #require(Self.period(xs))
            #expect(abs(period - 1) <= 0.01, "\(label): period \(period) s, analytic 1 s")
            // No physical damping: the amplitude shrinks only by the step's numerical damping.
            let p = Self.peaks(xs)
            try #require(p.count >= 5)
            let ratio = p[1] / p[0], expected = Self.decayPerPeriod(Self.effectiveDamping(hertz: 1, 0))
            #expect(abs(ratio - expected) <= 0.02 * expected, "\(label): decay per period \(ratio), expected \(expected)")
            #expect(ratio > 0.8, "\(label): an undamped spring keeps most of its swing (\(ratio))")
            // The same motion whatever the inertia: the spring's stiffness scales with it.
            #expect(abs(xs[90]) <= 0.1 && abs(xs[90] - a[90]) <= 1.0e-4)
        }
    }

    @Test("revolute spring at 1 Hz, ζ = 0.1: damped period and decay per period exp(−2πζ/√(1−ζ²)) (±2%)")
    func revoluteDampedDecay() throws {
        let w = TestWorld.make(gravity: .zero)
        let (b, _) = try Self.rotor(w, at: .zero, angle: 0.1) { d in d.enableSpring = true; d.hertz = 1; d.dampingRatio = 0.1 }
        let xs = Self.record(w, seconds: 5) { w.angle(b) }
        let zeta = Self.effectiveDamping(hertz: 1, 0.1)
        let period = try #require(Self.period(xs))
        #expect(abs(period - Self.dampedPeriod(hertz: 1, zeta)) <= 0.01 * period, "period \(period) s")
        let p = Self.peaks(xs)
        try #require(p.count >= 3)
        for k in 1..<3 {
            let ratio = p[k] / p[k - 1], expected = Self.decayPerPeriod(zeta)
            #expect(abs(ratio - expected) <= 0.02 * expected, "decay per period \(ratio), expected \(expected)")
        }
    }

    @Test("with short steps the decay per period approaches the continuous exp(−2πζ/√(1−ζ²)) (ζ = 0.1, ±4%)")
    func revoluteDecayConverges() throws {
        let w = TestWorld.make(gravity: .zero)
        let (b, _) = try Self.rotor(w, at: .zero, angle: 0.1) { d in d.enableSpring = true; d.hertz = 1; d.dampingRatio = 0.1 }
        var xs: [Float] = [w.angle(b)]
        for _ in 0..<2100 { w.step(dt: 1.0 / 600.0); xs.append(w.angle(b)) }
        let p = (1..<(xs.count - 1)).filter { xs[$0] > 0 && xs[$0] >= xs[$0 - 1] && xs[$0] > xs[$0 + 1] }.map { xs[$0] }
        try #require(p.count >= 2)
        let ratio = p[1] / p[0], expected = Self.decayPerPeriod(0.1)
        #expect(abs(ratio - expected) <= 0.04 * expected, "decay per period \(ratio), continuous \(expected)")
    }

    @Test("revolute spring at 1 Hz, ζ = 1: no overshoot, and near the critically damped θ₀(1 + ωt)e^(−ωt) at 0.5 s and 1 s (±10% + 0.005·θ₀)")
    func revoluteCriticalDamping() throws {
        let w = TestWorld.make(gravity: .zero)
        let theta0: Float = 0.1
        let (b, _) = try Self.rotor(w, at: .zero, angle: theta0) { d in d.enableSpring = true; d.hertz = 1; d.dampingRatio = 1 }
        let xs = Self.record(w, seconds: 4) { w.angle(b) }
        let lowest = xs.min()!
        #expect(lowest >= -1.0e-4 * theta0, "overshot to \(lowest) rad")
        let omega = 2 * Float.pi
        for (k, t) in [(30, Float(0.5)), (60, Float(1))] {
            let analytic = theta0 * (1 + omega * t) * expf(-omega * t)
            #expect(abs(xs[k] - analytic) <= 0.1 * analytic + 0.005 * theta0, "θ(\(t) s) = \(xs[k]), analytic \(analytic)")
        }
    }

    @Test("a bar pinned at its end: the spring's stiffness is I_c·ω² (inertia about the centre), so ω' = ω·√(I_c / I_pin) (±1%)")
    func revoluteOffCentrePin() throws {
        let w = TestWorld.make(gravity: .zero)
        let b = try TestWorld.box(w, at: Vec2(50, 0), size: Vec2(100, 20), angle: 0)
        var def = JointDef(type: .revolute, bodyA: nil, bodyB: b)
        def.localAnchorA = .zero; def.localAnchorB = Vec2(-50, 0)
        def.enableSpring = true; def.hertz = 1; def.dampingRatio = 0
        def.referenceAngle = -0.1  // starts 0.1 rad from the spring's rest
        w.createJoint(def)
        let ic = w.inertia(b), ipin = ic + w.mass(b) * 50 * 50
        let xs = Self.record(w, seconds: 8) { w.angle(b) + 0.1 }
        let period = try #require(Self.period(xs))
        let analytic = 1 / sqrtf(ic / ipin)
        #expect(abs(period - analytic) <= 0.01 * analytic, "period \(period) s, analytic \(analytic) s")
    }

    @Test("prismatic spring along a diagonal axis, 2 Hz: period and decay per period (ζ = 0 and 0.1, ±2%); no motion across the axis",
          arguments: [Float(0), 0.1])
    func prismaticOscillation(zeta: Float) throws {
        let w = TestWorld.make(gravity: .zero)
        let axis = Vec2(0.6, 0.8), anchor = Vec2(100, 200)
        let (b, _) = try Self.slider(w, anchor: anchor, axis: axis, offset: 30) { d in
            d.enableSpring = true; d.hertz = 2; d.dampingRatio = zeta
        }
        var across: Float = 0
        let xs = Self.record(w, seconds: 3) {
            let d = w.position(b) - anchor
            across = max(across, abs(cross(axis, d)))
            return dot(axis, d)
        }
        let z = Self.effectiveDamping(hertz: 2, zeta)
        let period = try #require(Self.period(xs))
        #expect(abs(period - Self.dampedPeriod(hertz: 2, z)) <= 0.01 * period, "period \(period) s")
        let p = Self.peaks(xs)
        try #require(p.count >= 3)
        let ratio = p[1] / p[0], expected = Self.decayPerPeriod(z)
        #expect(abs(ratio - expected) <= 0.02 * expected, "decay per period \(ratio), expected \(expected)")
        #expect(across < 0.01, "moved \(across) pt across the axis")
    }

    // MARK: - With limits and motors

    @Test("revolute spring whose rest (0) lies below the limits [0.3, 0.8] rests at the lower limit (less the soft limit's yield, ±1e-4 rad); without limits at 0")
    func revoluteSpringAgainstLimit() throws {
        let w = TestWorld.make(gravity: .zero)
        let spring: (inout JointDef) -> Void = { d in d.enableSpring = true; d.hertz = 2; d.dampingRatio = 0.7 }
        let (limited, _) = try Self.rotor(w, at: .zero, angle: 0.5) { d in
            spring(&d); d.enableLimit = true; d.lower = 0.3; d.upper = 0.8
        }
        let (above, _) = try Self.rotor(w, at: Vec2(500, 0), angle: -0.5) { d in
            spring(&d); d.enableLimit = true; d.lower = -0.8; d.upper = -0.3
        }
        let (free, _) = try Self.rotor(w, at: Vec2(1000, 0), angle: 0.5, configure: spring)
        var lowest: Float = .infinity
        TestWorld.run(w, seconds: 3) { lowest = min(lowest, w.angle(limited)) }
        // The limit is itself soft (`WorldSettings.jointHertz`, 60 Hz): spring and limit balance
        // where f²·θ = F²·(lower − θ), a yield of (f / F)² of the spring's pull.
        let rest = Self.restAgainstSoftLimit(0.3, hertz: 2)
        #expect(abs(w.angle(limited) - rest) <= 1.0e-4, "rests at \(w.angle(limited)) rad, analytic \(rest) (limit 0.3)")
        #expect(lowest >= 0.3 - 0.01, "went \(0.3 - lowest) rad past the limit")
        #expect(abs(w.angle(above) + rest) <= 1.0e-4, "rests at \(w.angle(above)) rad, analytic \(-rest) (limit −0.3)")
        #expect(abs(w.angle(free)) <= 2.0e-3, "without limits: \(w.angle(free)) rad")
    }

    @Test("prismatic spring whose rest (0) lies below the limits [20, 60] pt rests at 20 pt (less the soft limit's yield, ±0.002 pt); without limits at 0")
    func prismaticSpringAgainstLimit() throws {
        let w = TestWorld.make(gravity: .zero)
        let spring: (inout JointDef) -> Void = { d in d.enableSpring = true; d.hertz = 2; d.dampingRatio = 0.7 }
        let (limited, _) = try Self.slider(w, anchor: .zero, axis: Vec2(1, 0), offset: 40) { d in
            spring(&d); d.enableLimit = true; d.lower = 20; d.upper = 60
        }
        let (free, _) = try Self.slider(w, anchor: Vec2(0, 500), axis: Vec2(1, 0), offset: 40, configure: spring)
        TestWorld.run(w, seconds: 3)
        let rest = Self.restAgainstSoftLimit(20, hertz: 2)
        #expect(abs(w.position(limited).x - rest) <= 2.0e-3, "rests at \(w.position(limited).x) pt, analytic \(rest) (limit 20)")
        #expect(abs(w.position(free).x) <= 0.05, "without limits: \(w.position(free).x) pt")
    }

    @Test("revolute spring against a motor of max torque T: rests where k·θ = T, k = ω²/(1/I_A + 1/I_B) (±1%)")
    func revoluteSpringAgainstMotor() throws {
        let w = TestWorld.make(gravity: .zero)
        let b = try TestWorld.box(w, at: .zero, size: Vec2(100, 20))
        let omega = 2 * Float.pi * 2
        let k = w.inertia(b) * omega * omega  // body A is the world: effective inertia I_B
        let theta: Float = 0.25
        var def = JointDef(type: .revolute, bodyA: nil, bodyB: b)
        def.enableSpring = true; def.hertz = 2; def.dampingRatio = 1
        def.enableMotor = true; def.motorSpeed = 1; def.maxMotorTorque = k * theta
        w.createJoint(def)
        TestWorld.run(w, seconds: 4)
        #expect(abs(w.angle(b) - theta) <= 0.01 * theta, "rests at \(w.angle(b)) rad, analytic \(theta)")
        #expect(abs(w.angularVelocity(b)) < 1.0e-3)
    }

    @Test("prismatic spring against a motor of max force F: rests where k·x = F, k = m·ω² (±1%)")
    func prismaticSpringAgainstMotor() throws {
        let w = TestWorld.make(gravity: .zero)
        let b = try TestWorld.box(w, at: .zero, size: Vec2(30, 30))
        let omega = 2 * Float.pi * 2
        let k = w.mass(b) * omega * omega
        let x: Float = 15
        var def = JointDef(type: .prismatic, bodyA: nil, bodyB: b)
        def.localAxisA = Vec2(0, 1)
        def.enableSpring = true; def.hertz = 2; def.dampingRatio = 1
        def.enableMotor = true; def.motorSpeed = 100; def.maxMotorTorque = k * x
        w.createJoint(def)
        TestWorld.run(w, seconds: 4)
        #expect(abs(w.position(b).y - x) <= 0.01 * x, "rests at \(w.position(b).y) pt, analytic \(x)")
        #expect(abs(w.position(b).x) < 0.01)
    }

    // MARK: - Off, and deterministic

    /// A pendulum on a revolute joint with a limit and a motor and a slider on a diagonal
    /// prismatic joint with a limit and a motor, under gravity, each joint's spring set by
    /// `spring`; and the state after 2 s.
    static func springScene(_ spring: @escaping (inout JointDef) -> Void) throws -> World {
        let w = TestWorld.make()
        let bar = try TestWorld.box(w, at: Vec2(50, 0), size: Vec2(100, 10))
        var rev = JointDef(type: .revolute, bodyA: nil, bodyB: bar)
        rev.localAnchorB = Vec2(-50, 0)
        rev.enableLimit = true; rev.lower = -0.2; rev.upper = 1.2
        rev.enableMotor = true; rev.motorSpeed = -0.5; rev.maxMotorTorque = 2000
        spring(&rev)
        w.createJoint(rev)
        let block = try TestWorld.box(w, at: Vec2(500, 0), size: Vec2(20, 20))
        var pri = JointDef(type: .prismatic, bodyA: nil, bodyB: block)
        pri.localAnchorA = Vec2(500, 0); pri.localAxisA = Vec2(0.6, 0.8)
        pri.enableLimit = true; pri.lower = -50; pri.upper = 150
        pri.enableMotor = true; pri.motorSpeed = -40; pri.maxMotorTorque = 100
        spring(&pri)
        w.createJoint(pri)
        return w
    }

    @Test("enableSpring with hertz 0, and hertz without enableSpring, change nothing (bit for bit); hertz 3 with it does")
    func springOffIsNoSpring() throws {
        func state(_ spring: @escaping (inout JointDef) -> Void) throws -> [UInt32] {
            try ParallelDeterminismTests.run({ try Self.springScene(spring) }, workers: 1, steps: 120)
        }
        let none = try state { _ in }
        #expect(try state { d in d.enableSpring = true; d.hertz = 0; d.dampingRatio = 0.5 } == none)
        #expect(try state { d in d.enableSpring = false; d.hertz = 3; d.dampingRatio = 0.5 } == none)
        #expect(try state { d in d.enableSpring = true; d.hertz = 3; d.dampingRatio = 0.5 } != none)
    }

    /// Chains of spring-jointed links (with limits, motors or both) falling onto a ground, and
    /// sliders with springs, limits and motors.
    static func springChains() throws -> World {
        let w = TestWorld.make(sleep: true)
        try TestWorld.ground(w, top: 300)
        for c in 0..<4 {
            var prev: BodyHandle? = nil
            for k in 0..<20 {
                let b = try w.createBody(BodyDef(type: .dynamic, position: Vec2(Float(c) * 500 + Float(k) * 20, -200)),
                                         shapes: [ShapeDef(.box(halfWidth: 10, halfHeight: 3))])
                var def = JointDef(type: .revolute, bodyA: prev, bodyB: b)
                def.localAnchorA = prev == nil ? Vec2(Float(c) * 500 - 10, -200) : Vec2(10, 0)
                def.localAnchorB = Vec2(-10, 0)
                def.enableSpring = true; def.hertz = 2 + Float(c); def.dampingRatio = 0.2 * Float(c)
                if c % 2 == 1 { def.enableLimit = true; def.lower = -0.4; def.upper = 0.6 }
                if c >= 2 { def.enableMotor = true; def.maxMotorTorque = 200; def.motorSpeed = c == 2 ? 0 : 1 }
                w.createJoint(def)
                prev = b
            }
        }
        for k in 0..<6 {
            let p = Vec2(-400 - Float(k) * 60, 0)
            let b = try TestWorld.box(w, at: p, size: Vec2(20, 20))
            var def = JointDef(type: .prismatic, bodyA: nil, bodyB: b)
            def.localAnchorA = p + Vec2(0, -40); def.localAxisA = Vec2(Float(k) * 0.1, 1)
            def.enableSpring = true; def.hertz = 1 + Float(k); def.dampingRatio = 0.1 * Float(k)
            if k % 2 == 0 { def.enableLimit = true; def.lower = -20; def.upper = 30 }
            if k % 3 == 0 { def.enableMotor = true; def.motorSpeed = 50; def.maxMotorTorque = 300 }
            w.createJoint(def)
        }
        return w
    }

    @Test("spring joints: 1 and 2 workers agree bit for bit")
    func workersAgree() throws {
        let one = try ParallelDeterminismTests.run(Self.springChains, workers: 1, steps: 150)
        let two = try ParallelDeterminismTests.run(Self.springChains, workers: 2, steps: 150)
        #expect(one == two)
    }

    @Test("spring joints: a world restored from its snapshot mid-swing continues bit for bit (spring impulses kept)")
    func snapshotResumes() throws {
        let w = try Self.springChains()
        for _ in 0..<40 { w.step(dt: Self.dt) }
        let springing = w.joints.view
        #expect((0..<Int(w.jointSlots.count)).contains { springing[$0].alive && springing[$0].springImpulse != 0 })
        try SnapshotTests.checkResume("spring chains", before: 40, after: 60, workers: 2, make: Self.springChains)
    }
}
