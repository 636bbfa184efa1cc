import Testing
@testable import DynamicsEngine

/// Joint colouring: the solve order of a big jointed island's joints (`ColoredJoints`) and
/// the parallel solve it allows.
@Suite("Joint colouring")
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
}
