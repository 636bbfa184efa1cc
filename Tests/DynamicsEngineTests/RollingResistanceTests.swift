import Testing
@testable import DynamicsEngine

/// Rolling resistance (`Material.rollingResistance`) against the rigid-body results it must
/// give: a ball of radius R whose contact resists turning with a torque of at most
/// c·R·N rolls without slipping with (I + mR²)·dv/dt = −c·R²·N, and for a solid disc
/// (I = mR²/2) on the flat that is dv/dt = −⅔·c·g; on a slope of angle θ it rolls down at
/// ⅔·g·(sin θ − c·cos θ) when tan θ > c and stays put when tan θ < c. The slope is made by
/// tilting gravity over flat ground (y down, gravity 1000 pt/s²).
@Suite("Rolling resistance")
struct RollingResistanceTests {
    static let g: Float = 1000, radius: Float = 50

    /// Flat ground (a box: no rounding radius of its own) and a ball resting on it at
    /// x = -5000, rolling at `speed` without slipping.
    static func ballOnGround(resistance: Float, speed: Float = 0, gravity: Vec2 = Vec2(0, g)) throws -> (World, BodyHandle) {
        let w = TestWorld.make(gravity: gravity)
        try TestWorld.ground(w, top: 0, width: 20_000)
        var def = BodyDef(type: .dynamic, position: Vec2(-5000, -radius))
        def.linearVelocity = Vec2(speed, 0)
        def.angularVelocity = speed / radius
        let ball = try w.createBody(def, shapes: [ShapeDef(.circle(radius: radius), material: Material(rollingResistance: resistance))])
        return (w, ball)
    }

    @Test("a ball rolling on the flat slows at ⅔ × resistance × g without slipping; without resistance it keeps its speed",
          arguments: [Float(0), 0.05, 0.1])
    func flatRolling(resistance: Float) throws {
        let (w, ball) = try Self.ballOnGround(resistance: resistance, speed: 300)
        TestWorld.run(w, seconds: 0.5)
        let v1 = w.linearVelocity(ball).x
        TestWorld.run(w, seconds: 2)
        let v2 = w.linearVelocity(ball).x
        let expected = 2.0 / 3.0 * resistance * Self.g * 2
        // ±2 % of the loss, and 0.5 pt/s for the soft contact's settling.
        #expect(abs((v1 - v2) - expected) <= 0.02 * expected + 0.5, "c = \(resistance): lost \(v1 - v2) pt/s in 2 s, expected \(expected)")
        #expect(abs(w.angularVelocity(ball) * Self.radius - v2) < 1, "c = \(resistance): the ball slips")
    }

    @Test("a rolling ball with resistance stops after v²/(2a) and stays stopped")
    func stoppingDistance() throws {
        let resistance: Float = 0.1, speed: Float = 100
        let (w, ball) = try Self.ballOnGround(resistance: resistance, speed: speed)
        let start = w.position(ball).x
        TestWorld.run(w, seconds: 3)  // it stops after v / a = 1.5 s
        let a = 2.0 / 3.0 * resistance * Self.g
        let expected = speed * speed / (2 * a)
        let travelled = w.position(ball).x - start
        #expect(abs(travelled - expected) <= 0.03 * expected, "travelled \(travelled) pt, expected \(expected)")
        #expect(abs(w.linearVelocity(ball).x) < 0.5 && abs(w.angularVelocity(ball)) < 0.01)
        let stopped = w.position(ball).x
        TestWorld.run(w, seconds: 1)
        #expect(abs(w.position(ball).x - stopped) < 0.1, "the stopped ball crept \(w.position(ball).x - stopped) pt")
    }

    @Test("on a slope a ball rolls down at ⅔·g·(sin θ − c·cos θ), and stays put where tan θ < c",
          arguments: [(Float(0), Float(0.05)), (0.02, 0.05), (0.04, 0.1), (0.1, 0.05), (0.3, 0.2)])
    func slope(resistance: Float, tangent: Float) throws {
        let cosT = 1 / (1 + tangent * tangent).squareRoot(), sinT = tangent * cosT
        let (w, ball) = try Self.ballOnGround(resistance: resistance, gravity: Vec2(Self.g * sinT, Self.g * cosT))
        TestWorld.run(w, seconds: 0.5)
        let v1 = w.linearVelocity(ball).x, x1 = w.position(ball).x
        TestWorld.run(w, seconds: 2)
        let v2 = w.linearVelocity(ball).x
        if tangent < resistance {
            #expect(abs(w.position(ball).x - x1) < 0.5 && abs(v2) < 0.1, "c = \(resistance), tan θ = \(tangent): it moved")
        } else {
            let expected = 2.0 / 3.0 * Self.g * (sinT - resistance * cosT) * 2
            #expect(abs((v2 - v1) - expected) <= 0.02 * expected, "c = \(resistance), tan θ = \(tangent): gained \(v2 - v1) pt/s, expected \(expected)")
        }
    }

    @Test("a contact's lever arm is the larger coefficient × the larger rounding radius: none between two plain polygons")
    func leverArm() throws {
        let w = TestWorld.make()
        let rough = Material(rollingResistance: 0.2)
        let ground = try TestWorld.ground(w, top: 0, material: Material(rollingResistance: 0.05))
        let ball = try TestWorld.circle(w, at: Vec2(-1000, -40), radius: 40, material: Material(rollingResistance: 0.1))
        let capsule = try w.createBody(BodyDef(type: .dynamic, position: Vec2(0, -30)),
                                       shapes: [ShapeDef(.capsule(Vec2(-60, 0), Vec2(60, 0), radius: 30), material: rough)])
        let box = try TestWorld.box(w, at: Vec2(1000, -50), material: rough)
        w.step(dt: 1.0 / 60.0)
        func lever(_ b: BodyHandle) -> Float? {
            let slot = w.slot(b)
            for k in w.contacts.indices where w.contacts[k].shapeA >= 0
                && (Int(w.contacts[k].bodyA) == slot || Int(w.contacts[k].bodyB) == slot) {
                return w.contacts.data[Int(w.contacts[k].slot)].rollingResistance
            }
            return nil
        }
        #expect(lever(ball) == 0.1 * 40)
        #expect(lever(capsule) == 0.2 * 30)
        #expect(lever(box) == 0)
        // A new material reaches the contact: the ground's coefficient is now the larger; with
        // neither, the contact has none, and no rolling impulse either.
        w.setMaterial(ball, Material(rollingResistance: 0))
        #expect(lever(ball) == 0.05 * 40)
        w.setMaterial(ground, Material(rollingResistance: 0))
        #expect(lever(ball) == 0)
        for k in w.contacts.indices where w.contacts[k].shapeA >= 0 && w.contacts.data[Int(w.contacts[k].slot)].rollingResistance == 0 {
            #expect(w.contacts.data[Int(w.contacts[k].slot)].rollingImpulse == 0)
        }
    }

    @Test("taking the resistance away lets the ball roll on at its speed")
    func materialChange() throws {
        let (w, ball) = try Self.ballOnGround(resistance: 0.1, speed: 300)
        TestWorld.run(w, seconds: 0.5)
        w.setMaterial(ball, Material(rollingResistance: 0))
        TestWorld.run(w, seconds: 0.1)
        let v1 = w.linearVelocity(ball).x
        TestWorld.run(w, seconds: 1)
        #expect(abs(w.linearVelocity(ball).x - v1) < 0.5)
    }

    @Test("a negative or non-finite rolling resistance is refused by createBody and addBoundary")
    func badMaterial() throws {
        let w = TestWorld.make()
        for bad: Float in [-0.1, .nan, .infinity] {
            #expect(throws: WorldError.self) {
                try TestWorld.circle(w, at: .zero, radius: 10, material: Material(rollingResistance: bad))
            }
            let group = w.createCollisionGroup(mode: .everything)
            #expect(throws: WorldError.self) {
                try w.addBoundary(Vec2(0, 0), Vec2(100, 0), group: group, material: Material(rollingResistance: bad))
            }
        }
        #expect(w.bodies.isEmpty)
    }

    /// A pile of balls and boxes with rolling resistance, its solve shared by two workers.
    static func roughPile() throws -> World {
        let w = TestWorld.make()
        try TestWorld.ground(w, top: 0, width: 3000)
        let rough = Material(rollingResistance: 0.1)
        for i in 0..<300 {
            let p = Vec2(Float(i % 25 - 12) * 105 + (i / 25 % 2 == 0 ? 0 : 30), -60 - 105 * Float(i / 25))
            if i % 3 == 0 { try TestWorld.box(w, at: p, material: rough) } else { try TestWorld.circle(w, at: p, radius: 50, material: rough) }
        }
        return w
    }

    @Test("a rough pile: a snapshot restores its rolling impulses exactly, and 1 and 2 workers agree bit for bit")
    func snapshotAndWorkers() throws {
        let w = try Self.roughPile()
        TestWorld.run(w, seconds: 1.5)
        let impulses = w.contacts.indices.filter { w.contacts[$0].shapeA >= 0 }
            .map { w.contacts.data[Int(w.contacts[$0].slot)].rollingImpulse }
        #expect(impulses.contains { $0 != 0 }, "the pile has rolling impulses")
        let restored = try World(snapshot: w.snapshot())
        #expect(restored.stateDigest() == w.stateDigest())
        let two = try World(snapshot: w.snapshot())
        two.workerCount = 2
        two.options.minWorkForParallel = 0
        for _ in 0..<60 { w.step(dt: 1.0 / 60.0); restored.step(dt: 1.0 / 60.0); two.step(dt: 1.0 / 60.0) }
        #expect(restored.stateDigest() == w.stateDigest(), "the restored world diverged")
        #expect(two.stateDigest() == w.stateDigest(), "two workers diverged from one")
    }
}
