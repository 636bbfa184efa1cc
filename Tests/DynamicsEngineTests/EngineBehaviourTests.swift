import Testing
@testable import DynamicsEngine

/// Behaviour of the world beyond analytic physics: determinism, tunnelling, joints,
/// collision groups, events, sleeping and queries.
@Suite("World behaviour")
struct EngineBehaviourTests {
    /// A small mixed scene: boxes, circles, an ellipse polygon and a chain of pins.
    static func mixedWorld() throws -> World {
        let w = TestWorld.make(sleep: true)
        try TestWorld.ground(w, top: 0, width: 1200)
        for k in 0..<30 {
            let x = Float(k % 6) * 45 - 120 + Float(k / 6 % 2) * 10
            let y = -60 - Float(k / 6) * 50
            if k % 3 == 0 {
                try TestWorld.circle(w, at: Vec2(x, y), radius: 18)
            } else if k % 3 == 1 {
                try TestWorld.box(w, at: Vec2(x, y), size: Vec2(36, 30), angle: 0.1 * Float(k))
            } else {
                try w.createBody(BodyDef(type: .dynamic, position: Vec2(x, y)), shapes: [ShapeDef(.ellipse(halfWidth: 20, halfHeight: 12))])
            }
        }
        var prev: BodyHandle? = nil
        for k in 0..<5 {
            let b = try TestWorld.box(w, at: Vec2(300 + Float(k) * 30, -400), size: Vec2(30, 8))
            var def = JointDef(type: .revolute, bodyA: prev, bodyB: b)
            def.localAnchorA = prev == nil ? Vec2(285, -400) : Vec2(15, 0)
            def.localAnchorB = Vec2(-15, 0)
            w.createJoint(def)
            prev = b
        }
        return w
    }

    static func snapshot(_ w: World) -> [Float] {
        w.bodies.flatMap { b -> [Float] in
            let p = w.position(b), v = w.linearVelocity(b)
            return [p.x, p.y, w.angle(b), v.x, v.y, w.angularVelocity(b)]
        }
    }

    @Test("same inputs give bit-identical results")
    func determinism() throws {
        let a = try Self.mixedWorld(), b = try Self.mixedWorld()
        for _ in 0..<240 { a.step(dt: 1.0 / 60.0); b.step(dt: 1.0 / 60.0) }
        let sa = Self.snapshot(a), sb = Self.snapshot(b)
        #expect(sa.map(\.bitPattern) == sb.map(\.bitPattern))
        #expect(a.touchingContactCount > 20, "the scene should be in contact")
    }

    @Test("an item at 20 000 pt/s against a line boundary stays inside")
    func noTunnelling() throws {
        let w = TestWorld.make(gravity: .zero)
        let g = CollisionGroupID.default
        // A 1000 × 1000 box of boundary lines.
        try w.addBoundaryPath([Vec2(0, 0), Vec2(1000, 0), Vec2(1000, 1000), Vec2(0, 1000)], closed: true, group: g)
        let m = Material(friction: 0, restitution: 0.5)
        let box = try TestWorld.box(w, at: Vec2(500, 500), size: Vec2(20, 20), material: m, velocity: Vec2(20_000, 7_000))
        let ball = try TestWorld.circle(w, at: Vec2(300, 300), radius: 5, material: m, velocity: Vec2(-6_000, 20_000))
        for _ in 0..<300 {
            w.step(dt: 1.0 / 60.0)
            for b in [box, ball] {
                let p = w.position(b)
                #expect(p.x > 0 && p.x < 1000 && p.y > 0 && p.y < 1000, "escaped to \(p)")
            }
        }
    }

    @Test("collision groups: no shared group, no collision; modes filter items and boundaries")
    func collisionGroups() throws {
        let w = TestWorld.make()
        let ga = w.createCollisionGroup(mode: .everything)
        let gb = w.createCollisionGroup(mode: .boundaries)
        try w.addBoundary(Vec2(-1000, 0), Vec2(1000, 0), group: ga, id: 7)
        try w.addBoundary(Vec2(-1000, 0), Vec2(1000, 0), group: gb, id: 8)
        func item(_ x: Float, _ y: Float, _ groups: [CollisionGroupID]) throws -> BodyHandle {
            var def = BodyDef(type: .dynamic, position: Vec2(x, y))
            def.groups = groups
            return try w.createBody(def, shapes: [ShapeDef(.box(halfWidth: 20, halfHeight: 20))])
        }
        let lowA = try item(0, -21, [ga]), highA = try item(0, -70, [ga])      // stack in ga
        let lowB = try item(200, -21, [gb]), highB = try item(200, -70, [gb])  // gb: items pass through
        let none = try item(400, -21, [])                                       // no group: falls through
        TestWorld.run(w, seconds: 1.5)
        #expect(abs(w.position(lowA).y - -20) < 1.5)
        #expect(abs(w.position(highA).y - -60) < 2.5, "ga items stack: \(w.position(highA))")
        #expect(abs(w.position(lowB).y - -20) < 1.5)
        #expect(abs(w.position(highB).y - -20) < 1.5, "gb items overlap on the boundary: \(w.position(highB))")
        #expect(w.position(none).y > 500, "an item in no group falls through")
        // Many groups (beyond the 64-bit fast path) still filter correctly.
        var last = ga
        for _ in 0..<70 { last = w.createCollisionGroup(mode: .items) }
        let p = try item(600, -300, [last]), q = try item(600, -360, [last])
        let r = try item(640, -300, [])
        w.setGravity(q, Vec2(0, 2000))
        TestWorld.run(w, seconds: 0.2)
        #expect(w.position(q).y < w.position(p).y - 39, "items of group \(last) collide")
        _ = r
    }

    @Test("begin and end events for body–boundary pairs carry the boundary id and a point on it")
    func contactEvents() throws {
        let w = TestWorld.make()
        try w.addBoundary(Vec2(-500, 0), Vec2(500, 0), group: .default, id: 42)
        let b = try TestWorld.box(w, at: Vec2(10, -100), size: Vec2(40, 40))
        var began: [ContactEvent] = []
        var ended: [ContactEvent] = []
        TestWorld.run(w, seconds: 1) { began += w.contactBeginEvents; ended += w.contactEndEvents }
        #expect(began.count == 1)
        let e = try #require(began.first)
        #expect(e.body == b)
        if case let .boundary(_, id) = e.other { #expect(id == 42) } else { Issue.record("partner should be the boundary") }
        #expect(abs(e.point.y) < 1, "the point lies on the line: \(e.point)")
        #expect(e.point.x > -12 && e.point.x < 32)
        #expect(ended.isEmpty)
        w.applyImpulse(b, Vec2(0, -1500))
        TestWorld.run(w, seconds: 0.2) { ended += w.contactEndEvents }
        #expect(ended.count == 1)
    }

    @Test("a fast body that strikes and bounces off within one step touches: one begin (the step after the strike), then one end event, per bounce")
    func bounceWithinOneStep() throws {
        // Falling at ~900 pt/s onto a line with restitution 0.8: the speculative contact stops
        // the box within one step and it leaves at once, its points never within the slop.
        // Impacts at about 0.9, 2.3 and 3.5 s.
        let w = TestWorld.make()
        try w.addBoundary(Vec2(-500, 0), Vec2(500, 0), group: .default, id: 7)
        let b = try TestWorld.box(w, at: Vec2(0, -420), size: Vec2(40, 40), material: Material(density: 1, friction: 0.3, restitution: 0.8))
        var began: [(step: Int, e: ContactEvent)] = [], ended: [Int] = []
        var step = 0, firstImpactStep: Int?
        var lastVy: Float = 0
        TestWorld.run(w, seconds: 4) {
            step += 1
            let vy = w.linearVelocity(b).y
            if firstImpactStep == nil && lastVy > 500 && vy < 0 { firstImpactStep = step }
            lastVy = vy
            began += w.contactBeginEvents.map { (step, $0) }
            ended += w.contactEndEvents.map { _ in step }
        }
        let impact = try #require(firstImpactStep, "the box should strike the line and bounce")
        // The first bounce: a begin event in the step after the one that reversed the velocity
        // (the narrow phase reads the strike's impulses), on the line.
        let first = try #require(began.first, "the strike should report a begin event")
        #expect(first.step == impact + 1, "begin in step \(first.step), velocity reversed in step \(impact)")
        if case let .boundary(_, id) = first.e.other { #expect(id == 7) } else { Issue.record("partner should be the boundary") }
        #expect(abs(first.e.point.y) < 2, "the point lies on the line: \(first.e.point)")
        // Every begin is matched by a later end (the box bounces several times, then rests).
        #expect(began.count >= 3, "several bounces: \(began.count) begin events")
        #expect(ended.count == began.count || ended.count == began.count - 1, "begins \(began.count), ends \(ended.count)")
        for (k, e) in ended.enumerated() { #expect(e > began[k].step, "end \(k) in step \(e) not after its begin") }
    }

    @Test("removing a boundary a body rests on, then changing the body before the next step: one end event, no stale contact touched")
    func removeBoundaryThenChangeBody() throws {
        let w = TestWorld.make()
        let line = try w.addBoundary(Vec2(-500, 0), Vec2(500, 0), group: .default, id: 9)
        let b = try TestWorld.box(w, at: Vec2(0, -30), size: Vec2(40, 40))
        TestWorld.run(w, seconds: 0.5)
        w.removeBoundary(line)
        // The ended contact stays in the list until the next step; these must skip it.
        w.setMaterial(b, Material(density: 2, friction: 0.5, restitution: 0.3))
        var ended: [ContactEvent] = []
        TestWorld.run(w, seconds: 0.2) { ended += w.contactEndEvents }
        #expect(ended.count == 1)
        #expect(w.position(b).y > 0, "with the line gone the box falls through where it was")
    }

    @Test("a loop that keeps bodies inside pushes a box squeezed past its side back in; a two-sided loop pushes it out", arguments: [true, false])
    func oneSidedLoop(inside: Bool) throws {
        let w = TestWorld.make()
        w.gravity = .zero
        // A 1000 × 1000 box loop, wound clockwise in y-up terms (the winding must not matter).
        try w.addBoundaryPath([Vec2(0, 0), Vec2(0, 1000), Vec2(1000, 1000), Vec2(1000, 0)], closed: true,
                              group: .default, keepsBodiesInside: inside)
        // A 40 pt box and a 20 pt circle whose centres are 5 pt past the right side (x = 1000).
        let box = try TestWorld.box(w, at: Vec2(1005, 500), size: Vec2(40, 40))
        let ball = try w.createBody(BodyDef(type: .dynamic, position: Vec2(1005, 300)), shapes: [ShapeDef(.circle(radius: 10))])
        TestWorld.run(w, seconds: 1)
        if inside {
            #expect(w.position(box).x <= 1000 - 19, "box at \(w.position(box))")
            #expect(w.position(ball).x <= 1000 - 9, "ball at \(w.position(ball))")
        } else {
            #expect(w.position(box).x >= 1000 + 19)
            #expect(w.position(ball).x >= 1000 + 9)
        }
        #expect(abs(w.position(box).y - 500) < 1 && abs(w.position(ball).y - 300) < 1, "pushed straight along the side's normal")
    }

    @Test("joints: revolute angle limits, prismatic axis and limits, weld, rope and target")
    func jointKinds() throws {
        let w = TestWorld.make()
        // Revolute pinned at the world with limits ±30°: a bar starting horizontal hangs at ≤ 30°.
        let bar = try TestWorld.box(w, at: Vec2(50, 0), size: Vec2(100, 10))
        var rev = JointDef(type: .revolute, bodyA: nil, bodyB: bar)
        rev.localAnchorA = Vec2(0, 0); rev.localAnchorB = Vec2(-50, 0)
        rev.enableLimit = true; rev.lower = -Float.pi / 6; rev.upper = Float.pi / 6
        w.createJoint(rev)
        // Prismatic along x with limits [−50, 80]: gravity across the axis does nothing.
        let slider = try TestWorld.box(w, at: Vec2(500, 0), size: Vec2(20, 20))
        var pri = JointDef(type: .prismatic, bodyA: nil, bodyB: slider)
        pri.localAnchorA = Vec2(500, 0); pri.localAxisA = Vec2(1, 0)
        pri.enableLimit = true; pri.lower = -50; pri.upper = 80
        w.createJoint(pri)
        w.setLinearVelocity(slider, Vec2(400, 0))
        // Weld two boxes: they fall as one rigid body.
        let wa = try TestWorld.box(w, at: Vec2(900, 0), size: Vec2(20, 20))
        let wb = try TestWorld.box(w, at: Vec2(930, 0), size: Vec2(20, 20))
        var weld = JointDef(type: .weld, bodyA: wa, bodyB: wb)
        weld.localAnchorA = Vec2(15, 0); weld.localAnchorB = Vec2(-15, 0)
        w.createJoint(weld)
        // Rope of 100 pt from the world: the body falls until taut, never further.
        let hang = try TestWorld.box(w, at: Vec2(1300, 0), size: Vec2(10, 10))
        var rope = JointDef(type: .distance, bodyA: nil, bodyB: hang)
        rope.localAnchorA = Vec2(1300, -20)
        rope.enableSpring = true; rope.hertz = 0; rope.minLength = 0; rope.maxLength = 100; rope.enableLimit = true
        w.createJoint(rope)
        // Target: pull a box to (1600, −200) and its rotation to 0.
        let tb = try TestWorld.box(w, at: Vec2(1500, 0), size: Vec2(30, 30), angle: 1)
        w.setGravity(tb, .zero)
        var tgt = JointDef(type: .target, bodyA: nil, bodyB: tb)
        tgt.target = Vec2(1600, -200); tgt.hertz = 4; tgt.dampingRatio = 0.7
        tgt.angularHertz = 4; tgt.angularDampingRatio = 0.7
        w.createJoint(tgt)

        var maxAngle: Float = 0, maxSlide: Float = -.infinity, minSlide: Float = .infinity, maxRope: Float = 0
        TestWorld.run(w, seconds: 3) {
            maxAngle = max(maxAngle, abs(w.angle(bar)))
            let x = w.position(slider).x - 500
            maxSlide = max(maxSlide, x); minSlide = min(minSlide, x)
            #expect(abs(w.position(slider).y) < 0.5)
            maxRope = max(maxRope, distance(w.position(hang), Vec2(1300, -20)))
        }
        #expect(maxAngle <= Float.pi / 6 + 0.03, "revolute limit exceeded: \(maxAngle)")
        #expect(maxAngle > Float.pi / 6 - 0.05, "the bar should reach its limit")
        #expect(maxSlide <= 80.5 && maxSlide > 75, "slider max \(maxSlide)")
        #expect(abs(distance(w.position(wa), w.position(wb)) - 30) < 0.3)
        #expect(abs(w.angle(wa) - w.angle(wb)) < 0.01)
        #expect(w.position(wa).y > 1000, "welded pair falls")
        #expect(maxRope <= 100.6, "rope stretched to \(maxRope)")
        #expect(maxRope > 99)
        #expect(distance(w.position(tb), Vec2(1600, -200)) < 1)
        #expect(abs(w.angle(tb)) < 0.01)
    }

    @Test("sleeping islands wake on contact with an awake body; property changes wake")
    func sleepAndWake() throws {
        let w = TestWorld.make(sleep: true)
        try TestWorld.ground(w, top: 0)
        let rest = try TestWorld.box(w, at: Vec2(0, -50), size: Vec2(100, 100))
        TestWorld.run(w, seconds: 2)
        #expect(!w.isAwake(rest))
        #expect(!w.hasAwakeBodies)
        let falling = try TestWorld.box(w, at: Vec2(0, -400), size: Vec2(50, 50))
        #expect(w.hasAwakeBodies)
        var woke = false
        TestWorld.run(w, seconds: 1) { if w.isAwake(rest) { woke = true } }
        #expect(woke, "a falling box landing on a sleeping one wakes it")
        TestWorld.run(w, seconds: 3)
        #expect(!w.isAwake(rest) && !w.isAwake(falling))
        w.setMaterial(rest, Material(density: 2))
        #expect(w.isAwake(rest) && w.isAwake(falling), "a property change wakes the island")
    }

    @Test("queries: bodies overlapping a box, ray cast")
    func queries() throws {
        let w = TestWorld.make(gravity: .zero)
        let a = try TestWorld.box(w, at: Vec2(0, 0), size: Vec2(20, 20))
        let b = try TestWorld.circle(w, at: Vec2(100, 0), radius: 10)
        let found = w.bodies(overlapping: AABB(lower: Vec2(-5, -5), upper: Vec2(95, 5)))
        #expect(found == [a, b])
        #expect(w.bodies(overlapping: AABB(lower: Vec2(20, 20), upper: Vec2(30, 30))).isEmpty)
        let hit = try #require(w.rayCast(from: Vec2(-100, 0), translation: Vec2(400, 0)))
        #expect(hit.body == a)
        #expect(abs(hit.point.x - -10) < 1.0e-3)
        #expect(abs(hit.normal.x - -1) < 1.0e-4)
        let hit2 = try #require(w.rayCast(from: Vec2(50, 0), translation: Vec2(400, 0)))
        #expect(hit2.body == b && abs(hit2.point.x - 90) < 1.0e-3)
        #expect(w.rayCast(from: Vec2(-100, 50), translation: Vec2(400, 0)) == nil)
    }

    @Test("destroying a body ends its contacts and invalidates its handle")
    func destroyBody() throws {
        let w = TestWorld.make()
        try TestWorld.ground(w, top: 0)
        let b = try TestWorld.box(w, at: Vec2(0, -20), size: Vec2(40, 40))
        TestWorld.run(w, seconds: 0.5)
        #expect(w.touchingContactCount == 1)
        w.destroyBody(b)
        #expect(!w.isValid(b))
        w.step()
        #expect(w.contactEndEvents.count == 1)
        #expect(w.touchingContactCount == 0)
        let c = try TestWorld.box(w, at: Vec2(0, -20), size: Vec2(40, 40))
        #expect(c.index == b.index && c != b, "the slot is reused with a new generation")
        #expect(!w.isValid(b))
    }
}
