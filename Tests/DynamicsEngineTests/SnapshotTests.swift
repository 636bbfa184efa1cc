import Testing
@testable import DynamicsEngine

/// `World.snapshot()` / `World(snapshot:)`: a restored world continues bit for bit as the
/// original does (with 1 or 2 workers), and bad bytes are refused with a saying error.
@Suite("World snapshots")
struct SnapshotTests {
    // MARK: - Whole-state comparison

    /// Every difference between two worlds' states (empty when they agree bit for bit): the
    /// snapshots (placements, velocities, sleep, contacts with impulses and caches, joints,
    /// groups, boundaries, events, counters), and the state a snapshot does not hold but a
    /// restore rebuilds (mass properties, masks, shape lists, vertices, boxes of awake shapes).
    static func differences(_ a: World, _ b: World, atRestore: Bool = false) -> [String] {
        var out: [String] = []
        let sa = a.snapshot(), sb = b.snapshot()
        if sa != sb {
            let first = zip(sa, sb).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(sa.count, sb.count)
            out.append("snapshots differ (\(sa.count) vs \(sb.count) bytes, first at \(first))")
        }
        if a.bodySlots.count != b.bodySlots.count { return out + ["body slot counts differ"] }
        func bits(_ v: Vec2) -> [UInt32] { [v.x.bitPattern, v.y.bitPattern] }
        for i in 0..<Int(a.bodySlots.count) where a.metas[i].alive {
            let x = a.sims[i], y = b.sims[i]
            let fx = [x.xf.p.x, x.xf.p.y, x.xf.q.c, x.xf.q.s, x.center.x, x.center.y, x.center0.x, x.center0.y,
                      x.localCenter.x, x.localCenter.y, x.force.x, x.force.y, x.torque, x.mass, x.inertia, x.invMass,
                      x.invInertia, x.linearDamping, x.angularDamping, x.gravity.x, x.gravity.y, x.maxExtent, x.coreRadius]
            let fy = [y.xf.p.x, y.xf.p.y, y.xf.q.c, y.xf.q.s, y.center.x, y.center.y, y.center0.x, y.center0.y,
                      y.localCenter.x, y.localCenter.y, y.force.x, y.force.y, y.torque, y.mass, y.inertia, y.invMass,
                      y.invInertia, y.linearDamping, y.angularDamping, y.gravity.x, y.gravity.y, y.maxExtent, y.coreRadius]
            if fx.map(\.bitPattern) != fy.map(\.bitPattern) { out.append("body \(i): simulation record differs") }
            let u = a.states[i], v = b.states[i]
            if bits(u.v) + [u.w.bitPattern] + bits(u.dp) + [u.dq.c.bitPattern, u.dq.s.bitPattern]
                != bits(v.v) + [v.w.bitPattern] + bits(v.dp) + [v.dq.c.bitPattern, v.dq.s.bitPattern] {
                out.append("body \(i): velocity state differs")
            }
            let m = a.metas[i], n = b.metas[i]
            if m != n || m.sleepThreshold.bitPattern != n.sleepThreshold.bitPattern || m.sleepTime.bitPattern != n.sleepTime.bitPattern { out.append("body \(i): record differs") }
            if Set(a.groups.ofBody[i]) != Set(b.groups.ofBody[i]) { out.append("body \(i): groups differ") }
        }
        if a.shapeSlots.count != b.shapeSlots.count { return out + ["shape slot counts differ"] }
        for s in 0..<Int(a.shapeSlots.count) where a.shapes[s].alive {
            let x = a.shapes[s], y = b.shapes[s]
            if x.vertexCount > 0 && a.polygonVertices(s) != b.polygonVertices(s) { out.append("shape \(s): vertices differ") }
            let st = Int(x.vertexStart), su = Int(y.vertexStart)
            for k in 0..<Int(x.vertexCount) where bits(a.pool.normals[st + k]) != bits(b.pool.normals[su + k]) {
                out.append("shape \(s): normal \(k) differs")
            }
            func fields(_ r: ShapeRecord) -> [UInt64] {
                [UInt64(bitPattern: Int64(r.body)), UInt64(r.kind.rawValue), r.alive ? 1 : 0, r.isBoundary ? 1 : 0, r.isStatic ? 1 : 0,
                 UInt64(r.generation), UInt64(r.vertexCount), UInt64(r.center.x.bitPattern), UInt64(r.center.y.bitPattern),
                 UInt64(r.radius.bitPattern), UInt64(r.friction.bitPattern), UInt64(r.restitution.bitPattern),
                 UInt64(r.density.bitPattern), UInt64(bitPattern: Int64(r.boundaryGroup)), r.boundaryID, r.oneSided ? 1 : 0, r.filtered ? 1 : 0]
            }
            if fields(x) != fields(y) { out.append("shape \(s): record differs") }
            if a.broadPhase.filters[s] != b.broadPhase.filters[s] { out.append("shape \(s): filter differs") }
            if bits(a.broadPhase.fatBoxes[s].lower) + bits(a.broadPhase.fatBoxes[s].upper) != bits(b.broadPhase.fatBoxes[s].lower) + bits(b.broadPhase.fatBoxes[s].upper) {
                out.append("shape \(s): fat box differs")
            }
            // (A moving shape's box is scratch of the step's box update, read by nothing else —
            // a body woken during a step keeps a stale one — so only static boxes are state.)
            if x.isStatic,
               bits(a.broadPhase.boxes[s].lower) + bits(a.broadPhase.boxes[s].upper) != bits(b.broadPhase.boxes[s].lower) + bits(b.broadPhase.boxes[s].upper) {
                out.append("shape \(s): box differs")
            }
            if a.shapeNext[s] != b.shapeNext[s] { out.append("shape \(s): body's shape list differs") }
        }
        // (Contacts ended between steps are dropped by the next step, and not written.)
        let la = a.contacts.indices.filter { a.contacts[$0].shapeA >= 0 }, lb = b.contacts.indices.filter { b.contacts[$0].shapeA >= 0 }
        if la.count != lb.count { return out + ["contact counts differ (\(la.count) vs \(lb.count))"] }
        for (k, (ka, kb)) in zip(la, lb).enumerated() {
            var c = a.contacts[ka], d = b.contacts[kb]
            let mc = a.contacts.data[Int(c.slot)], md = b.contacts.data[Int(d.slot)]
            c.slot = 0; d.slot = 0
            if c != d { out.append("contact \(k): record differs") }
            if mc.manifold.pointCount != md.manifold.pointCount { out.append("contact \(k): point counts differ"); continue }
            var wc = bits(mc.cachedOffset) + [mc.cachedQA.c, mc.cachedQA.s, mc.cachedQB.c, mc.cachedQB.s].map(\.bitPattern)
            var wd = bits(md.cachedOffset) + [md.cachedQA.c, md.cachedQA.s, md.cachedQB.c, md.cachedQB.s].map(\.bitPattern)
            if mc.manifold.pointCount > 0 { wc += bits(mc.manifold.normal); wd += bits(md.manifold.normal) }
            // At a restore, points and separations the next step rewrites are not restored.
            let rewritten = atRestore && World.updatedByNextStep(c, a.metas.view)
            for p in 0..<mc.manifold.pointCount {
                for (q0, into) in [(mc.manifold[p], 0), (md.manifold[p], 1)] {
                    var q = q0
                    if rewritten { q.point = .zero; q.separation = 0 }
                    let w = bits(q.point) + bits(q.anchorA) + [q.separation.bitPattern, q.id, q.normalImpulse.bitPattern,
                                                               q.tangentImpulse.bitPattern, q.maxNormalImpulse.bitPattern,
                                                               q.baseSeparation.bitPattern]
                    if into == 0 { wc += w } else { wd += w }
                }
            }
            if wc != wd { out.append("contact \(k): manifold differs") }
        }
        for j in 0..<Int(a.jointSlots.count) where a.joints[j].alive {
            let x = a.joints[j], y = b.joints[j]
            let fx = [x.restLength, x.referenceAngle, x.linearImpulse.x, x.linearImpulse.y, x.angularImpulse, x.springImpulse,
                      x.lowerImpulse, x.upperImpulse, x.motorImpulse].map(\.bitPattern)
            let fy = [y.restLength, y.referenceAngle, y.linearImpulse.x, y.linearImpulse.y, y.angularImpulse, y.springImpulse,
                      y.lowerImpulse, y.upperImpulse, y.motorImpulse].map(\.bitPattern)
            if fx != fy || x.bodyA != y.bodyA || x.bodyB != y.bodyB { out.append("joint \(j) differs") }
        }
        // The static grid: the order in which the continuous step's sweeps and the queries
        // visit static shapes follows its cells.
        if a.broadPhase.staticDirty != b.broadPhase.staticDirty {
            out.append("static grid: one is due for a rebuild, the other not")
        } else if !a.broadPhase.staticDirty {
            // Each grid's cells and the shapes each lists, in order.
            func cells(_ g: UniformGrid) -> [Int32] {
                let n = Int(g.nx) * Int(g.ny)
                guard n > 0 else { return [] }
                return (0...n).map { g.cellStart[$0] } + (0..<Int(g.cellStart[n])).map { g.entries[$0] }
            }
            let g = a.broadPhase.staticGrid, h = b.broadPhase.staticGrid
            if a.broadPhase.staticCellSize.bitPattern != b.broadPhase.staticCellSize.bitPattern || g.cellSize.bitPattern != h.cellSize.bitPattern
                || g.nx != h.nx || g.ny != h.ny || bits(g.origin) != bits(h.origin) || cells(g) != cells(h)
                || !a.broadPhase.staticLarge.elementsEqual(b.broadPhase.staticLarge) {
                out.append("static grid differs (cell \(a.broadPhase.staticCellSize) vs \(b.broadPhase.staticCellSize))")
            }
        }
        if a.contactBeginEvents != b.contactBeginEvents || a.contactEndEvents != b.contactEndEvents { out.append("events differ") }
        if a.stepCount != b.stepCount || a.continuousHits != b.continuousHits { out.append("counters differ") }
        return out
    }

    /// Runs `make()`'s world `before` steps, restores a copy from its snapshot (with
    /// `workers` workers, every parallel path on), and checks both agree after each of
    /// `after` more steps. `between` changes the original before its snapshot; `afterRestore`
    /// changes both worlds alike after the restore.
    static func checkResume(_ label: String, before: Int, after: Int, workers: Int,
                            dt: Float = 1.0 / 60.0, compareEvery: Int = 1, make: () throws -> World,
                            between: ((World) throws -> Void)? = nil,
                            afterRestore: ((World) throws -> Void)? = nil) throws {
        let a = try make()
        a.workerCount = 1
        for _ in 0..<before { a.step(dt: dt) }
        try between?(a)
        let bytes = a.snapshot()
        let b = try World(snapshot: bytes)
        b.workerCount = workers
        if workers > 1 { b.options.minWorkForParallel = 0 }
        #expect(b.snapshot() == bytes, "\(label): a restored world's snapshot differs from the one it was restored from")
        let atRestore = differences(a, b, atRestore: true)
        #expect(atRestore.isEmpty, "\(label) at restore: \(atRestore.prefix(5))")
        if let afterRestore { try afterRestore(a); try afterRestore(b) }
        for k in 0..<after {
            a.step(dt: dt); b.step(dt: dt)
            if (k + 1) % compareEvery != 0 && k + 1 != after { continue }
            let d = differences(a, b)
            if !d.isEmpty {
                Issue.record("\(label): \(workers) workers, step \(k + 1) after restoring at step \(before): \(d.prefix(5))")
                return
            }
        }
    }

    // MARK: - Scenes

    /// Boxes, circles, ellipses and polygons in a cup, sleep on: most of it falls asleep in
    /// islands while a few bodies keep rolling.
    static func mixedPile() throws -> World {
        let w = TestWorld.make(sleep: true)
        try TestWorld.ground(w, top: 0, width: 2400)
        for x: Float in [-1100, 1100] {
            try w.createBody(BodyDef(type: .static, position: Vec2(x, -400)), shapes: [ShapeDef(.box(halfWidth: 20, halfHeight: 400))])
        }
        var rng = TestRandom(seed: 11)
        for k in 0..<90 {
            let p = Vec2(rng.float(-900, 900), -60 - Float(k) * 14)
            let g: Geometry
            switch k % 4 {
            case 0: g = .box(halfWidth: rng.float(8, 25), halfHeight: rng.float(8, 25))
            case 1: g = .circle(radius: rng.float(8, 20))
            case 2: g = Geometry.ellipse(halfWidth: rng.float(12, 25), halfHeight: rng.float(6, 12), segments: 12)
            default: g = .polygon([Vec2(-15, 10), Vec2(0, -14), Vec2(15, 10)])
            }
            var def = BodyDef(type: .dynamic, position: p, angle: rng.float(0, 3))
            def.linearVelocity = Vec2(rng.float(-50, 50), 0)
            try w.createBody(def, shapes: [ShapeDef(g, material: Material(density: 1, friction: 0.6, restitution: k % 9 == 0 ? 0.4 : 0))])
        }
        // A two-shape body and a kinematic paddle that keeps its neighbours awake.
        try w.createBody(BodyDef(type: .dynamic, position: Vec2(0, -900)),
                         shapes: [ShapeDef(.box(halfWidth: 30, halfHeight: 8)), ShapeDef(.circle(radius: 12, center: Vec2(30, 0)))])
        var k = BodyDef(type: .kinematic, position: Vec2(-600, -40))
        k.angularVelocity = 1
        try w.createBody(k, shapes: [ShapeDef(.box(halfWidth: 60, halfHeight: 6))])
        // A body that cannot turn, one that starts asleep, one that may never sleep.
        var fixed = BodyDef(type: .dynamic, position: Vec2(300, -1000))
        fixed.fixedRotation = true
        try w.createBody(fixed, shapes: [ShapeDef(.box(halfWidth: 20, halfHeight: 20))])
        var asleep = BodyDef(type: .dynamic, position: Vec2(-300, -1000))
        asleep.startsAsleep = true
        try w.createBody(asleep, shapes: [ShapeDef(.circle(radius: 15))])
        var restless = BodyDef(type: .dynamic, position: Vec2(0, -1100))
        restless.allowSleep = false
        try w.createBody(restless, shapes: [ShapeDef(.box(halfWidth: 10, halfHeight: 10))])
        return w
    }

    /// Chains of revolute joints, a distance rope, a weld, a prismatic slider and a target
    /// joint, over a ground.
    static func joints() throws -> World {
        let w = TestWorld.make(sleep: true)
        try TestWorld.ground(w, top: 400)
        for c in 0..<3 {
            var prev: BodyHandle? = nil
            for k in 0..<12 {
                let b = try w.createBody(BodyDef(type: .dynamic, position: Vec2(Float(c) * 400 + Float(k) * 20, -200)),
                                         shapes: [ShapeDef(.box(halfWidth: 10, halfHeight: 3))])
                var def = JointDef(type: .revolute, bodyA: prev, bodyB: b)
                def.localAnchorA = prev == nil ? Vec2(Float(c) * 400 - 10, -200) : Vec2(10, 0)
                def.localAnchorB = Vec2(-10, 0)
                if c == 1 { def.enableLimit = true; def.lower = -0.5; def.upper = 0.5 }
                if c == 2 { def.enableMotor = true; def.maxMotorTorque = 500; def.motorSpeed = 0 }
                w.createJoint(def)
                prev = b
            }
        }
        let a = try TestWorld.box(w, at: Vec2(-400, 0), size: Vec2(30, 30))
        let b = try TestWorld.box(w, at: Vec2(-300, 0), size: Vec2(30, 30))
        var rope = JointDef(type: .distance, bodyA: a, bodyB: b)
        rope.enableSpring = true; rope.hertz = 2; rope.dampingRatio = 0.3; rope.maxLength = 150
        w.createJoint(rope)
        let c = try TestWorld.box(w, at: Vec2(-200, 0), size: Vec2(20, 20))
        w.createJoint(JointDef(type: .weld, bodyA: b, bodyB: c))
        let slider = try TestWorld.box(w, at: Vec2(-600, 300), size: Vec2(20, 20))
        var pri = JointDef(type: .prismatic, bodyA: nil, bodyB: slider)
        pri.localAnchorA = Vec2(-600, 300); pri.enableLimit = true; pri.lower = -100; pri.upper = 100
        w.createJoint(pri)
        let dragged = try TestWorld.box(w, at: Vec2(800, 0), size: Vec2(20, 20))
        var target = JointDef(type: .target, bodyA: nil, bodyB: dragged)
        target.target = Vec2(850, -100); target.hertz = 3; target.dampingRatio = 0.7; target.maxForce = 1e6
        target.angularHertz = 2; target.angularDampingRatio = 1
        w.createJoint(target)
        return w
    }

    /// Collision groups (one only with boundaries, one only among themselves, more than 64
    /// groups for the slow path), a container of one-sided boundaries and an obstacle path.
    static func groupsAndBoundaries() throws -> World {
        let w = TestWorld.make(sleep: false)
        let walls = w.createCollisionGroup(mode: .boundaries)
        let items = w.createCollisionGroup(mode: .items)
        var many: [CollisionGroupID] = []
        for _ in 0..<66 { many.append(w.createCollisionGroup()) }
        w.destroyCollisionGroup(many.removeFirst())   // a free group slot
        try w.addBoundaryPath([Vec2(-500, -800), Vec2(500, -800), Vec2(500, 300), Vec2(-500, 300)], closed: true,
                              group: .default, id: 7, keepsBodiesInside: true)
        try w.addBoundaryPath([Vec2(-300, 0), Vec2(0, 60), Vec2(300, 0)], closed: false, group: walls, id: 9)
        for k in 0..<40 {
            var def = BodyDef(type: .dynamic, position: Vec2(Float(k % 10) * 70 - 320, -700 + Float(k / 10) * 60))
            switch k % 3 {
            case 0: def.groups = [.default]
            case 1: def.groups = [walls, items]
            default: def.groups = [.default, many[64]]
            }
            def.userData = UInt64(k)
            def.charge = Float(k % 2)
            def.linearDamping = k % 5 == 0 ? 0.5 : 0
            if k % 7 == 0 { def.gravity = Vec2(100, 800) }
            try w.createBody(def, shapes: [ShapeDef(k % 2 == 0 ? .circle(radius: 18) : .box(halfWidth: 15, halfHeight: 15))])
        }
        return w
    }

    /// Bullets and fast bodies against thin walls and each other (the continuous step).
    static func continuous() throws -> World {
        let w = TestWorld.make(gravity: Vec2(0, 500), sleep: true)
        try TestWorld.ground(w, top: 300)
        try w.createBody(BodyDef(type: .static, position: Vec2(400, 0)), shapes: [ShapeDef(.box(halfWidth: 2, halfHeight: 300))])
        for k in 0..<6 {
            var def = BodyDef(type: .dynamic, position: Vec2(-300, Float(k) * 40 - 100))
            def.linearVelocity = Vec2(20000 + Float(k) * 3000, 0)
            def.isBullet = k % 2 == 0
            try w.createBody(def, shapes: [ShapeDef(.circle(radius: 4))])
        }
        for k in 0..<8 { try TestWorld.box(w, at: Vec2(200, 250 - Float(k) * 21), size: Vec2(20, 20)) }
        return w
    }

    /// A small spinner (the `spinner` scene's ingredients, y up): a one-sided boundary loop of
    /// 360 segments keeping bodies inside, a long bar in a collision group of its own turned by
    /// an unlimited revolute motor, and `count` capsules, circles and squares it stirs. Bodies
    /// flung against the loop are swept against several of its segments in one step, in the
    /// order of the static grid's cells.
    static func spinner(count: Int = 10) throws -> World {
        let w = TestWorld.make(gravity: Vec2(0, -1000), sleep: true)
        let center = Vec2(0, 3200)
        let loop = (0..<360).map { center + Rot(angle: -2 * Float.pi * Float($0) / 360).rotate(Vec2(4000, 0)) }
        try w.addBoundaryPath(loop, closed: true, group: .default, material: Material(density: 1, friction: 0.1, restitution: 0),
                              keepsBodiesInside: true)
        let stirred = w.createCollisionGroup(mode: .items)
        var barDef = BodyDef(type: .dynamic, position: Vec2(0, 1200))
        barDef.allowSleep = false
        barDef.groups = [stirred]
        let bar = Geometry.roundedPolygon([Vec2(-40, -2000), Vec2(40, -2000), Vec2(40, 2000), Vec2(-40, 2000)], radius: 20)
        let b = try w.createBody(barDef, shapes: [ShapeDef(bar, material: Material(density: 1, friction: 0, restitution: 0))])
        var motor = JointDef(type: .revolute, bodyA: nil, bodyB: b)
        motor.localAnchorA = barDef.position
        motor.enableMotor = true; motor.motorSpeed = 5; motor.maxMotorTorque = .greatestFiniteMagnitude
        w.createJoint(motor)
        let material = Material(density: 0.25, friction: 0.1, restitution: 0.1)
        let shapes = [ShapeDef(.capsule(Vec2(-25, 0), Vec2(25, 0), radius: 25), material: material),
                      ShapeDef(.circle(radius: 35), material: material),
                      ShapeDef(.box(halfWidth: 35, halfHeight: 35), material: material)]
        for k in 0..<count {
            var def = BodyDef(type: .dynamic, position: Vec2(-2300 + 50 * Float(k % 92), 200 + 50 * Float(k / 92)))
            def.groups = [.default, stirred]
            try w.createBody(def, shapes: [shapes[k % 3]])
        }
        return w
    }

    /// Bodies of two categories falling onto a ground: one category passes through the other,
    /// shapes of group index −1 never meet each other, and of +1 always do.
    static func filtered() throws -> World {
        let w = TestWorld.make(gravity: Vec2(0, 1000), sleep: true)
        try TestWorld.ground(w, top: 0, width: 2000)
        let filters = [ShapeFilter(categoryBits: 2, maskBits: 1 | 2), ShapeFilter(categoryBits: 4, maskBits: 1 | 4),
                       ShapeFilter(categoryBits: 2, maskBits: 1, groupIndex: 1), ShapeFilter(categoryBits: 4, maskBits: .max, groupIndex: -1),
                       .default]
        for k in 0..<60 {
            let p = Vec2(Float(k % 12 - 6) * 45, -60 - 50 * Float(k / 12))
            let geometry: Geometry = k % 2 == 0 ? .box(halfWidth: 18, halfHeight: 18) : .capsule(Vec2(-12, 0), Vec2(12, 0), radius: 10)
            try w.createBody(BodyDef(type: .dynamic, position: p), shapes: [ShapeDef(geometry, filter: filters[k % filters.count])])
        }
        return w
    }

    @Test("a restored world continues bit for bit (1 and 2 workers)",
          arguments: [("mixed pile with sleeping islands", 150), ("joints and chains", 100),
                      ("groups and boundaries", 90), ("continuous collision", 40), ("pile without contact recycling", 120),
                      ("spinner in a one-sided loop", 20), ("shape filters", 90)], [1, 2])
    func resumes(scene: (String, Int), workers: Int) throws {
        let make: () throws -> World
        switch scene.0 {
        case "mixed pile with sleeping islands": make = Self.mixedPile
        case "joints and chains": make = Self.joints
        case "groups and boundaries": make = Self.groupsAndBoundaries
        case "spinner in a one-sided loop": make = { try Self.spinner() }
        case "shape filters": make = Self.filtered
        case "pile without contact recycling":
            make = { let w = try Self.mixedPile(); w.settings.contactRecycleDistance = 0; return w }
        default: make = Self.continuous
        }
        try Self.checkResume(scene.0, before: scene.1, after: 60, workers: workers, make: make)
    }

    @Test("the pile scene falls asleep: islands asleep in the snapshot stay exact")
    func sleepingIslands() throws {
        // Long enough that most of the pile sleeps; the kinematic paddle keeps some awake.
        let w = try Self.mixedPile()
        for _ in 0..<400 { w.step() }
        let asleep = w.bodies.filter { !w.isAwake($0) && w.type($0) == .dynamic }.count
        #expect(asleep > 20, "the scene should have sleeping islands (got \(asleep))")
        try Self.checkResume("pile asleep", before: 400, after: 40, workers: 2, make: Self.mixedPile) { a in
            // And one island woken between steps: the restored world wakes it the same way.
            if let b = a.bodies.first(where: { !a.isAwake($0) && a.type($0) == .dynamic }) { a.wake(b) }
        }
    }

    @Test("changes between steps survive: forces, a destroyed body's pending end events, a new body")
    func changesBetweenSteps() throws {
        try Self.checkResume("between steps", before: 80, after: 40, workers: 2, make: Self.mixedPile) { a in
            let bodies = a.bodies.filter { a.type($0) == .dynamic }
            a.applyForce(bodies[3], Vec2(5000, -20000))
            a.applyTorque(bodies[4], 300)
            a.destroyBody(bodies[5])
            try a.createBody(BodyDef(type: .dynamic, position: Vec2(0, -1200)), shapes: [ShapeDef(.box(halfWidth: 20, halfHeight: 20))])
            a.setType(bodies[6], .static)
        }
        // A world never stepped (static grid still to build).
        try Self.checkResume("fresh world", before: 0, after: 30, workers: 2, make: Self.joints)
    }

    @Test("the static grid is rebuilt as the original's: at the restore, and after static geometry changes before the snapshot or after the restore")
    func staticGrid() throws {
        // The original built its grid at its first step, its cell size following the moving
        // shapes' sizes then.
        try Self.checkResume("spinner", before: 20, after: 20, workers: 2, make: { try Self.spinner(count: 100) })
        // A static body added before the snapshot: both rebuild the grid at the next step.
        func addPost(_ w: World) throws {
            try w.createBody(BodyDef(type: .static, position: Vec2(-1500, 600)), shapes: [ShapeDef(.box(halfWidth: 200, halfHeight: 20))])
        }
        try Self.checkResume("static body before the snapshot", before: 20, after: 20, workers: 2,
                             make: { try Self.spinner(count: 100) }, between: addPost)
        try Self.checkResume("static body after the restore", before: 20, after: 20, workers: 2,
                             make: { try Self.spinner(count: 100) }, afterRestore: addPost)
        // And a restored world that never stepped: the grid is still to build.
        try Self.checkResume("fresh spinner", before: 0, after: 5, workers: 1, make: { try Self.spinner(count: 100) })
    }

    @Test("handles stay valid across a restore; application data round-trips")
    func handlesAndApplicationData() throws {
        let w = try Self.joints()
        for _ in 0..<10 { w.step() }
        let bytes = w.snapshot(applicationData: Array("scene=joints".utf8))
        #expect(try World.applicationData(ofSnapshot: bytes) == Array("scene=joints".utf8))
        #expect(try World.applicationData(ofSnapshot: w.snapshot()) == [])
        let r = try World(snapshot: bytes)
        #expect(r.bodies == w.bodies)
        #expect(r.bodyCount == w.bodyCount && r.jointCount == w.jointCount)
        for b in w.bodies { #expect(r.mass(b).bitPattern == w.mass(b).bitPattern) }
        #expect(r.stateDigest() == w.stateDigest())
        w.step()
        #expect(r.stateDigest() != w.stateDigest())
    }

    // MARK: - Bad bytes

    static func small() throws -> [UInt8] {
        let w = TestWorld.make(sleep: true)
        try TestWorld.ground(w, top: 0)
        try TestWorld.box(w, at: Vec2(0, -60), size: Vec2(40, 40))
        try TestWorld.circle(w, at: Vec2(50, -60), radius: 15)
        let a = try TestWorld.box(w, at: Vec2(-80, -60), size: Vec2(20, 20))
        w.createJoint(JointDef(type: .revolute, bodyA: nil, bodyB: a))
        try w.addBoundary(Vec2(-300, -300), Vec2(300, -300), group: .default, id: 3)
        for _ in 0..<20 { w.step() }
        return w.snapshot()
    }

    /// Writes a correct checksum over a modified payload.
    static func resealed(_ b: [UInt8]) -> [UInt8] {
        var b = b
        let sum = b.withUnsafeBytes { SnapshotChecksum.of(UnsafeRawBufferPointer(rebasing: $0[SnapshotHeader.size...])) }
        for k in 0..<8 { b[24 + k] = UInt8(truncatingIfNeeded: sum >> UInt64(8 * k)) }
        return b
    }

    @Test("every truncation of a snapshot throws")
    func truncations() throws {
        let full = try Self.small()
        #expect(full.count > 200)
        for n in 0..<full.count {
            do {
                _ = try World(snapshot: Array(full.prefix(n)))
                Issue.record("a snapshot cut to \(n) of \(full.count) bytes was accepted")
            } catch let e as World.SnapshotError {
                switch e {
                case .truncated, .lengthMismatch, .notASnapshot: break
                default: Issue.record("cut to \(n): unexpected \(e)")
                }
                if n == 0 { #expect(e == .notASnapshot || "\(e)".contains("truncated")) }
            }
        }
        // Bytes appended are refused too.
        #expect(throws: World.SnapshotError.lengthMismatch(declared: full.count - 32, actual: full.count - 31)) {
            try World(snapshot: full + [0])
        }
        let cut = World.SnapshotError.lengthMismatch(declared: full.count - 32, actual: full.count - 40)
        #expect(cut.description.contains("truncated"))
    }

    @Test("a flipped byte is caught by the checksum, the header's fields by their own checks")
    func flippedBytes() throws {
        let full = try Self.small()
        var rng = TestRandom(seed: 5)
        for _ in 0..<300 {
            var b = full
            let at = SnapshotHeader.size + Int(rng.next() % UInt64(full.count - SnapshotHeader.size))
            b[at] ^= UInt8(1 << (rng.next() % 8))
            do {
                _ = try World(snapshot: b)
                Issue.record("a snapshot with byte \(at) flipped was accepted (replay: seed 5)")
            } catch let e as World.SnapshotError {
                guard case .checksumMismatch = e else { Issue.record("byte \(at): \(e)"); continue }
                #expect(e.description.contains("checksum mismatch"))
            }
        }
        var magic = full
        magic[0] = UInt8(ascii: "X")
        #expect(throws: World.SnapshotError.notASnapshot) { try World(snapshot: magic) }
        var sum = full
        sum[30] ^= 0x40
        #expect { try World(snapshot: sum) } throws: { ($0 as? World.SnapshotError).map { if case .checksumMismatch = $0 { true } else { false } } ?? false }
    }

    @Test("a newer format version is refused, saying so")
    func futureVersion() throws {
        var b = try Self.small()
        let current = SnapshotHeader.version
        #expect(b[8] == UInt8(current))
        b[8] = UInt8(current + 1)
        do {
            _ = try World(snapshot: b)
            Issue.record("version \(current + 1) accepted")
        } catch let e as World.SnapshotError {
            #expect(e == .unsupportedVersion(found: current + 1, supported: current))
            #expect(e.description.contains("version \(current + 1) is newer than the supported version \(current)"))
        }
    }

    /// `small()`'s snapshot as format version 1 wrote it (before the static grid's cell size).
    static let smallVersion1: [UInt8] = {
        let hex = [
        "444b574f524c44000100000000000000e305000000000000fd8f69b04297825e4150504c000000000000000057524c447300000000000000",
        "0000000000007a44040000000000f041000020410000964300007042000000400000c8420000003f0000a0400000807f0000807f0000003f",
        "0050c34801011400000000000000130000000000000000000000000500000000000000050000000000000001000000000000000100000000",
        "000000475255500e00000000000000010000000003010000000400000047454f4d6601000000000000050000000104000000000000000000",
        "0000009a99193f000000000000803f0000fac4000048c20000fa44000048c20000fa44000048420000fac40000484200000000000080bf00",
        "00803f00000080000000000000803f000080bf0000008001040000000000000000000000009a99193f000000000000803f0000a0c10000a0",
        "c10000a0410000a0c10000a0410000a0410000a0c10000a04100000000000080bf0000803f00000080000000000000803f000080bf000000",
        "8000000000704100000000000000009a99193f000000000000803f01040000000000000000000000009a99193f000000000000803f000020",
        "c1000020c100002041000020c10000204100002041000020c10000204100000000000080bf0000803f00000080000000000000803f000080",
        "bf0000008002020000000000000000000096c39a99193f000000000000803f000096c3000096c300009643000096c300000000000080bf00",
        "0000800000803f424f44592f010000000000004101000000800000000000000000000000803f000000000000000000000000000000000000",
        "0000000000000000003f0000000000000100040000004101000000000000000000000048420000803f000000000000000000004842000000",
        "00000000000000000000004842000000000100000000004d0100000008004ce403414d300ac2eb2d683f62acd73e4de403414c300ac2a055",
        "7a42f8993341779d9b40ffff9f4100000000aac9e640686d0ac20100010000004d0100000008000000484269f46fc10000803f0000000000",
        "00484269f46fc100000000000000000000000000007041cecc4c3d000048424cfa6fc10100020000004d0100000000009cc531c188c320c1",
        "cf397f3fb5279f3d9bc531c187c320c1995fbfbe000046b7f7bb18bdffff1f41cdcccc3d01000300000053484150a9000000000000000501",
        "000000000000000020fac4000080bf0020fa440000ca420020fac4000080bf0020fa440000ca420101000000010000001c1abdc1d6e982c2",
        "a3012942cef263c001010000000200000000000042a8ea38c2000088422c00ce40010100000003000000d0e2c0c1c561b8c136d3f13fecf1",
        "3c40070100000004000000000000000300000000000000008096c3008096c300809643008095c3008096c3008096c300809643008095c34a",
        "4f4e549000000000000000010100000001000400000001000000000000000000000000000000000000000000803f00000000000000000000",
        "0000807f0000000000000000000000000000000000000000000000000000000000000000000000000000000000807f000000000000000000",
        "000000040000000000c8420000000040e5503e1c4927430000000000000000000000000000000000000000434f4e541c0100000000000004",
        "000000828080801088cb262bc2aadd9cc16645703f72b3b03e0000803f0000000001bb26018a417e15c5c1cc00763faaae8d3e93ce7e3f80",
        "7ec53daaae8dbecc00763f03000000000000000000008000000000ec39c6c1f0545c4180bc373e020100009447d23de5557cbd201bfc3d6c",
        "dfd8c0a684894180934dc0fdffffff0f9b000048c2010082420000803f000000000000803f0000000000000000000080bf00000000e3cb96",
        "3e000000000011de3b00004842010048c2000000378080808010bbaedb5b41393371420000803f000000000000803f98778f340000000000",
        "0080bf0102000063bcbd42135c073e801a543fc86e6fc09c9948c2009c993e00030000f854914218d407b48034f93fd9edbdc19d9948c200",
        "9d993e45564e540c00000000000000000000000000000000000000",
        ].joined()
        var out: [UInt8] = []
        var i = hex.startIndex
        while i < hex.endIndex {
            let j = hex.index(i, offsetBy: 2)
            out.append(UInt8(hex[i..<j], radix: 16)!)
            i = j
        }
        return out
    }()

    @Test("a version 1 snapshot still restores: the same world as the current version's, written again in the current version")
    func version1() throws {
        let old = try World(snapshot: Self.smallVersion1)
        let now = try World(snapshot: try Self.small())
        // The version-1 world was made by an engine that also kept the manifolds of contacts
        // with a circle (contact recycling); today's computes those afresh, so their records
        // and caches may differ. Everything else must not.
        let live = now.contacts.indices.filter { now.contacts[$0].shapeA >= 0 }
        let round = live.enumerated().filter { _, c in
            now.shapes[Int(now.contacts[c].shapeA)].kind == .circle || now.shapes[Int(now.contacts[c].shapeB)].kind == .circle
        }.map(\.offset)
        #expect(!round.isEmpty, "the small world has contacts with its circle")
        let d = Self.differences(old, now).filter { line in
            !line.hasPrefix("snapshots differ") && !line.hasPrefix("static grid")
                && !round.contains { line.hasPrefix("contact \($0): record differs") || line.hasPrefix("contact \($0): manifold differs") }
        }
        #expect(d.isEmpty, "\(d.prefix(5))")
        let again = old.snapshot()
        #expect(again[8] == UInt8(SnapshotHeader.version))
        let restored = try World(snapshot: again)
        #expect(Self.differences(old, restored).isEmpty)
        for _ in 0..<10 { old.step(); restored.step() }
        #expect(old.stateDigest() == restored.stateDigest())
    }

    @Test("garbage is refused: random bytes, and random payloads behind a valid header")
    func randomBytesAndPayloadsAreRefused() throws {
        var rng = TestRandom(seed: 9)
        for n in [0, 3, 8, 31, 32, 100, 5000] {
            let bytes = (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            #expect(throws: World.SnapshotError.self) { try World(snapshot: bytes) }
        }
        // Valid header, length and checksum; the payload is noise: parsing must throw.
        for seed in 0..<40 {
            var g = TestRandom(seed: UInt64(seed))
            let n = 20 + Int(g.next() % 3000)
            var b = SnapshotHeader.magic + [1, 0, 0, 0, 0, 0, 0, 0]
            b += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(n) >> UInt64(8 * $0)) } + [UInt8](repeating: 0, count: 8)
            b += (0..<n).map { _ in UInt8(truncatingIfNeeded: g.next()) }
            #expect(throws: World.SnapshotError.self, "noise payload, seed \(seed)") { try World(snapshot: Self.resealed(b)) }
        }
    }

    @Test("values a world cannot hold are refused even under a valid checksum")
    func invalidValues() throws {
        let full = try Self.small()
        // The boundary id (3) is a u64 in the shape section; the box at x = -80 a float.
        func replacing(_ pattern: [UInt8], with new: [UInt8]) -> [UInt8]? {
            guard let at = (SnapshotHeader.size..<(full.count - pattern.count)).first(where: { Array(full[$0 ..< $0 + pattern.count]) == pattern })
            else { return nil }
            var b = full
            for k in 0..<new.count { b[at + k] = new[k] }
            return Self.resealed(b)
        }
        func le(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> UInt32(8 * $0)) } }
        // A body's rotation cosine turned into NaN.
        let w = try World(snapshot: full)
        let body = w.bodies.first { w.type($0) == .dynamic }!
        let c = w.transform(body).q.c
        let nanned = try #require(replacing(le(c.bitPattern), with: le(Float.nan.bitPattern)))
        do {
            _ = try World(snapshot: nanned)
            Issue.record("a NaN was accepted")
        } catch let e as World.SnapshotError {
            guard case let .invalidValue(_, field, _, reason) = e else { Issue.record("\(e)"); return }
            #expect(reason.contains("not finite") || reason.contains("unit"), "\(e)")
            #expect(!field.isEmpty)
        }
        // Random single-byte changes under a valid checksum: each either throws, or restores a
        // world that steps without NaN.
        var rng = TestRandom(seed: 21)
        for trial in 0..<200 {
            var b = full
            let at = SnapshotHeader.size + Int(rng.next() % UInt64(full.count - SnapshotHeader.size))
            b[at] = UInt8(truncatingIfNeeded: rng.next())
            guard let r = try? World(snapshot: Self.resealed(b)) else { continue }
            for _ in 0..<5 { r.step() }
            for h in r.bodies {
                #expect(r.position(h).isFinite && r.linearVelocity(h).isFinite, "trial \(trial): byte \(at) gave a NaN (replay: seed 21)")
            }
        }
    }
}
