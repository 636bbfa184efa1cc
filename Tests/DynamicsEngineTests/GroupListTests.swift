import Testing
@testable import DynamicsEngine

/// Bodies in several collision groups coming and going, as rain's ragdolls do.
@Suite("Group lists reused")
struct GroupListReuseTests {
    @Test("bodies of four groups destroyed and made again reuse their group lists: the table stops growing, and each keeps its groups")
    func reuse() throws {
        let world = World(gravity: .zero)
        let groups = (0..<4).map { _ in world.createCollisionGroup(mode: .items) }
        var def = BodyDef(); def.groups = groups
        func cycle() throws -> [BodyHandle] {
            try (0..<50).map { k in
                def.position = Vec2(Float(k) * 30, 0)
                return try world.createBody(def, shapes: [ShapeDef(.circle(radius: 10))])
            }
        }
        var bodies = try cycle()
        for b in bodies { world.destroyBody(b) }
        bodies = try cycle()
        let table = world.groups.ofBody
        let pool = table.pool.count, lists = table.listStart.count
        for _ in 0..<5 {
            for b in bodies { world.destroyBody(b) }
            bodies = try cycle()
        }
        #expect(table.pool.count == pool && table.listStart.count == lists, "the group table grew")
        for b in bodies { #expect(world.groups(of: b) == groups) }
        // Leaving one group keeps the others, in order.
        world.removeBody(bodies[0], from: groups[1])
        #expect(world.groups(of: bodies[0]) == [groups[0], groups[2], groups[3]])
    }
}
