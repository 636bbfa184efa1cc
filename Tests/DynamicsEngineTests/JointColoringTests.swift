import Testing
import DynamicsSolverKernels
@testable import DynamicsEngine

/// Joint colouring: the solve order of a big jointed island's joints (`ColoredJoints`) and
/// the parallel solve it allows.
@Suite("Joint colouring", .serialized)
struct JointColoringTests {
    /// A grid of `n` × `n` circles, 30 pt apart, pinned to their right and lower neighbours
    /// by revolute joints, and the top row to a static body: one island of n² bodies.
    func grid(_ n: Int, hub spokes: Int = 0) throws -> World {
        let world = World(gravity: Vec2(0, -1000))
        var groundDef = BodyDef(); groundDef.type = .static
        let ground = try world.createBody(groundDef, shapes: [ShapeDef(.circle(radius: 1))])
        var bodies: [BodyHandle] = []
        for i in 0..<n {
            for k in 0..<n {
                var def = BodyDef(); def.position = Vec2(Float(k) * 30, Float(-i) * 30)
                bodies.append(try world.createBody(def, shapes: [ShapeDef(.circle(radius: 10))]))
            }
        }
        func pin(_ a: BodyHandle?, _ b: BodyHandle, at p: Vec2) {
            var j = JointDef(type: .revolute, bodyA: a, bodyB: b)
            j.localAnchorA = a == nil ? p : p - world.position(a!)
            j.localAnchorB = p - world.position(b)
            world.createJoint(j)
        }
        for i in 0..<n {
            for k in 0..<n {
                let b = bodies[i * n + k], p = world.position(b)
                if k + 1 < n { pin(b, bodies[i * n + k + 1], at: p + Vec2(15, 0)) }
                if i + 1 < n { pin(b, bodies[(i + 1) * n + k], at: p + Vec2(0, -15)) }
                if i == 0 && k % 4 == 0 { pin(ground, b, at: p + Vec2(0, 15)) }
            }
        }
        // A hub: one body pinned to more bodies than there are colours.
        for s in 0..<spokes { pin(bodies[0], bodies[1 + s], at: world.position(bodies[0])) }
        return world
    }

    @Test("every joint of a big island appears once in the solve order; no dynamic body twice in a colour; a hub's extra joints go last")
    func colours() throws {
        let world = try grid(12, hub: ColoredBatches.colorCount + 6)
        world.step(dt: 1.0 / 60)
        let ib = world.islands
        #expect(ib.groupCount == 1)
        let cj = world.batches.joints
        let j0 = Int(ib.groupJointStart[0]), j1 = Int(ib.groupJointStart[1])
        #expect(j1 - j0 == world.jointCount && world.jointCount >= ColoredJoints.coloredFrom)
        let order = (j0..<j1).map { Int(cj.order[$0]) }
        #expect(Set(order) == Set((j0..<j1).map { Int(ib.jointList[$0]) }) && Set(order).count == order.count)
        let k = ColoredBatches.colorCount
        let cs = (0..<ColoredJoints.stride).map { Int(cj.colorStart[$0]) }
        #expect(cs[0] == j0 && cs[k + 1] == j1 && zip(cs, cs.dropFirst()).allSatisfy { $0 <= $1 })
        for q in 0..<k {
            var seen = Set<Int>()
            for t in cs[q]..<cs[q + 1] {
                let j = world.joints[order[t - j0]]
                for b in [Int(j.bodyA), Int(j.bodyB)] where world.metas[b].type == .dynamic {
                    #expect(seen.insert(b).inserted, "body \(b) twice in colour \(q)")
                }
            }
        }
        // Body 0's joints: its right and lower neighbours, the ground pin and 30 spokes; every
        // colour holds one of them, the rest have none.
        #expect(cs[k + 1] - cs[k] == 33 - k, "\(cs[k + 1] - cs[k]) joints without a colour")
        // Without the hub, the grid's joints need only a few colours.
        let plain = try grid(12)
        plain.step(dt: 1.0 / 60)
        let pc = (0..<ColoredJoints.stride).map { Int(plain.batches.joints.colorStart[$0]) }
        #expect(pc[6] == pc[k + 1], "the grid's joints fit in 6 colours: \(pc)")
    }

    @Test("a big jointed island steps bit for bit alike on 1, 2 and 3 workers")
    func workers() throws {
        func state(_ workers: Int) throws -> [UInt32] {
            let world = try grid(40)
            world.workerCount = workers
            for _ in 0..<30 { world.step(dt: 1.0 / 60) }
            return world.bodies.flatMap { b -> [UInt32] in
                let p = world.position(b), v = world.linearVelocity(b)
                return [p.x.bitPattern, p.y.bitPattern, world.angle(b).bitPattern, v.x.bitPattern, v.y.bitPattern]
            }
        }
        let one = try state(1)
        #expect(try state(2) == one)
        #expect(try state(3) == one)
    }
    /// A big island of every kind of joint: a grid of circles and boxes of mixed sizes pinned
    /// by revolute joints, most with a spring, a motor or limits (or several), the rest plain;
    /// weld, distance and prismatic joints among them; some pins to a static body. Seeded.
    func mixedGrid(_ n: Int, seed: UInt64) throws -> World {
        var rng = SplitMix64(seed: seed)
        func uniform(_ lo: Float, _ hi: Float) -> Float { lo + (hi - lo) * Float(rng.next() >> 40) / Float(1 << 24) }
        let world = try grid(n)
        let bodies = world.bodies
        let all = world.joints.indices.filter { world.joints[$0].alive }
        for (t, j) in all.enumerated() {
            let h = world.jointHandle(j)
            world.updateJoint(h) { d in
                switch t % 5 {
                case 0: d.enableSpring = true; d.hertz = uniform(0.5, 8); d.dampingRatio = uniform(0, 1.5)
                case 1: d.enableMotor = true; d.motorSpeed = uniform(-3, 3); d.maxMotorTorque = uniform(0, 4e6)
                case 2: d.enableLimit = true; d.lower = uniform(-0.6, 0); d.upper = uniform(0, 0.6)
                case 3: d.enableSpring = true; d.hertz = uniform(1, 4); d.enableLimit = true; d.lower = -0.2; d.upper = 0.3
                    d.enableMotor = true; d.maxMotorTorque = 1e5
                default: break
                }
            }
        }
        // Other joint types in the same island, and a heavier body here and there. Distance
        // joints of every kind: rods, springs, springs with a minimum or maximum length or both.
        for (t, i) in stride(from: 0, to: bodies.count - n - 1, by: 5).enumerated() {
            let a = bodies[i], b = bodies[i + n + 1]
            var def = JointDef(type: [.weld, .distance, .weld, .prismatic, .distance, .distance][t % 6], bodyA: a, bodyB: b)
            def.localAnchorB = Vec2(3, 0)
            if def.type == .distance {
                switch (t / 6) % 5 {
                case 0: break
                case 1: def.enableSpring = true; def.hertz = uniform(0.5, 6); def.dampingRatio = uniform(0, 1.5)
                case 2: def.enableSpring = true; def.hertz = uniform(1, 4); def.minLength = uniform(20, 40); def.maxLength = uniform(50, 70)
                case 3: def.enableSpring = true; def.hertz = 0; def.maxLength = uniform(30, 45)
                default: def.enableSpring = true; def.hertz = uniform(1, 3); def.enableLimit = true; def.minLength = 0
                }
            } else if def.type == .prismatic {
                def.localAxisA = Vec2(uniform(-1, 1), uniform(0.2, 1))
                switch (t / 6) % 4 {
                case 0: break
                case 1: def.enableSpring = true; def.hertz = uniform(0.5, 6); def.dampingRatio = uniform(0, 1.5)
                case 2: def.enableMotor = true; def.motorSpeed = uniform(-40, 40); def.maxMotorTorque = uniform(0, 4e5)
                default: def.enableLimit = true; def.lower = uniform(-20, 0); def.upper = uniform(0, 20)
                    def.enableSpring = true; def.hertz = uniform(1, 3)
                }
            }
            world.createJoint(def)
        }
        for i in stride(from: 0, to: bodies.count, by: 11) { world.setMaterial(bodies[i], Material(density: uniform(0.5, 4))) }
        return world
    }

    /// The bodies' positions, angles and velocities, and every joint's impulses, as bits.
    static func bits(_ world: World) -> [UInt32] {
        let bodies = world.bodies.flatMap { b -> [UInt32] in
            let p = world.position(b), v = world.linearVelocity(b)
            return [p.x.bitPattern, p.y.bitPattern, world.angle(b).bitPattern, v.x.bitPattern, v.y.bitPattern,
                    world.angularVelocity(b).bitPattern]
        }
        let joints = world.joints.filter(\.alive).flatMap { j -> [UInt32] in
            [j.linearImpulse.x, j.linearImpulse.y, j.springImpulse, j.motorImpulse, j.lowerImpulse, j.upperImpulse,
             j.angularImpulse].map(\.bitPattern)
        }
        return bodies + joints
    }

    @Test("revolute, weld, distance and prismatic joints solved in lanes give the same bits as solved one by one (every row kind, 1 and 2 workers, both kernels)")
    func lanesMatchScalar() throws {
        defer { WideJoint.lanesOff.store(false, ordering: .relaxed); dk_wide_force_baseline(0) }
        for seed: UInt64 in [1, 2] {
            func run(lanes: Bool, workers: Int, baseline: Bool) throws -> [UInt32] {
                WideJoint.lanesOff.store(!lanes, ordering: .relaxed)
                dk_wide_force_baseline(baseline ? 1 : 0)
                let world = try mixedGrid(24, seed: seed)
                world.workerCount = workers
                for step in 0..<40 {
                    world.step(dt: 1.0 / 60)
                    if step == 0 {
                        // (The lanes are used, or not, as asked.)
                        #expect((world.batches.joints.wideCount > 0) == lanes, "seed \(seed): lanes \(lanes)")
                    }
                }
                return Self.bits(world)
            }
            let scalar = try run(lanes: false, workers: 1, baseline: false)
            #expect(try run(lanes: true, workers: 1, baseline: false) == scalar, "seed \(seed): lanes differ from the scalar solve")
            #expect(try run(lanes: true, workers: 2, baseline: false) == scalar, "seed \(seed): lanes at 2 workers differ")
            #expect(try run(lanes: true, workers: 1, baseline: true) == scalar, "seed \(seed): the baseline kernels differ")
        }
    }

    @Test("each colour's joints in lanes are in its batches once, four to a batch, one kind a batch; target joints are solved one by one")
    func batchLayout() throws {
        WideJoint.lanesOff.store(false, ordering: .relaxed)
        let world = try mixedGrid(12, seed: 3)
        world.step(dt: 1.0 / 60)
        let cj = world.batches.joints, ib = world.islands
        #expect(ib.groupCount == 1)
        let k = ColoredBatches.colorCount
        var inBatches: [Int] = []
        for q in 0..<k {
            let c = ColoredJoints.colour(q, group: 0, wideStart: cj.wideStart.view, wideFrom: cj.wideFrom.view,
                                         colorStart: cj.colorStart.view)
            let colour = Int(cj.colorStart[q])..<Int(cj.colorStart[q + 1])
            let lanes = c.single.upperBound..<colour.upperBound
            let kindOf: (Int) -> Int = { WideJoint.kind(world.joints[$0].def.type) }
            let laneJoints = lanes.map { Int(cj.order[$0]) }
            let byKind = (0..<3).map { x in laneJoints.filter { kindOf($0) == x } }
            // Revolute and weld joints, then distance joints, then prismatic joints, each kind in
            // batches of its own.
            #expect(laneJoints == byKind.flatMap { $0 }, "colour \(q)")
            #expect(c.single.lowerBound == colour.lowerBound && c.batches.count == byKind.map { ($0.count + 3) / 4 }.reduce(0, +))
            for t in c.single { #expect(!WideJoint.takes(world.joints[Int(cj.order[t])].def.type)) }
            for b in c.batches {
                let lanesOfBatch = (0..<4).map { Int(cj.wide[b].joint[$0]) }
                let real = lanesOfBatch.filter { $0 >= 0 }
                #expect(!real.isEmpty && lanesOfBatch.drop(while: { $0 >= 0 }).allSatisfy { $0 < 0 }, "padding only at a batch's end, colour \(q)")
                #expect(Set(real.map(kindOf)).count == 1, "a batch of two kinds in colour \(q)")
            }
            let slots = c.batches.flatMap { b in (0..<4).map { Int(cj.wide[b].joint[$0]) } }
            #expect(slots.filter { $0 >= 0 } == laneJoints, "colour \(q)")
            inBatches += slots.filter { $0 >= 0 }
        }
        let laned: (Int) -> Bool = { WideJoint.takes(world.joints[$0].def.type) }
        let revolutes = world.joints.indices.filter { world.joints[$0].alive && laned($0) }
        let tail = Int(cj.colorStart[k])..<Int(cj.colorStart[k + 1])
        let uncoloured = tail.map { Int(cj.order[$0]) }.filter(laned)
        #expect(Set(inBatches).count == inBatches.count && Set(inBatches + uncoloured) == Set(revolutes))
        #expect(inBatches.contains { world.joints[$0].def.type == .weld }, "no weld joint in lanes")
        #expect(inBatches.contains { world.joints[$0].def.type == .distance }, "no distance joint in lanes")
        #expect(inBatches.contains { world.joints[$0].def.type == .prismatic }, "no prismatic joint in lanes")
        #expect(cj.wideCount == cj.wideStart[k] && cj.wideCount > 0)
    }
}
