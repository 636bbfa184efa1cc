import Testing
@testable import DynamicsEngine

/// What a body and a contact cost (a million-body pile must fit in 1 GB): record sizes,
/// how large columns grow, and the per-body collision-group table.
@Suite("Memory footprint")
struct MemoryFootprintTests {
    @Test("records keep their sizes: body meta and shape 64 bytes, contact 40, contact data 128")
    func recordSizes() {
        #expect(MemoryLayout<BodyMeta>.stride == 64)
        #expect(MemoryLayout<ShapeRecord>.stride == 64)
        #expect(MemoryLayout<Contact>.stride == 40)
        #expect(MemoryLayout<ContactData>.stride == 128)
    }

    @Test("a body's placement, centre, extent and inverse mass lie in its record's first 32 bytes, which share a cache line")
    func bodySimHotFields() {
        // 96-byte records start at a line's start or middle, so their first 32 bytes never
        // straddle two lines: the narrow phase reads one line a body, the contact preparation
        // one or (for the inverse inertia right after) two.
        #expect(MemoryLayout<BodySim>.stride == 96)
        let hot: [PartialKeyPath<BodySim>] = [\BodySim.xf, \BodySim.center, \BodySim.maxExtent, \BodySim.invMass]
        for field in hot {
            let offset = MemoryLayout<BodySim>.offset(of: field) ?? 96
            #expect(offset + 4 <= 32, "a field the narrow phase reads lies at byte \(offset)")
        }
    }

    @Test("a large column grows by about an eighth, a small one doubles; refill discards and leaves little room")
    func growth() {
        let small = Column<Int32>()
        for i in 0..<1000 { small.append(Int32(i)) }
        #expect(small.capacity == 1024)

        // 8-byte elements: 4 MiB from 524 288 on.
        let big = Column<UInt64>()
        big.grow(to: 600_000, with: 1)
        #expect(big.capacity >= 600_000 && big.capacity < 600_000 + 600_000 / 4)
        let before = big.capacity
        big.grow(to: before + 1, with: 2)
        #expect(big.capacity >= before + before / 8 && big.capacity < 2 * before)
        #expect(big[0] == 1 && big[before] == 2 && big.count == before + 1)

        let out = Column<UInt64>()
        out.grow(to: 10, with: 5)
        out.refill(count: 700_000, with: 9)
        #expect(out.count == 700_000 && out.allSatisfy { $0 == 9 })
        #expect(out.capacity >= 700_000 && out.capacity < 700_000 + 700_000 / 4)
        out.refill(count: 3, with: 4)
        #expect(Array(out) == [4, 4, 4] && out.capacity >= 700_000)

        let data = Column<UInt64>()
        data.grow(to: 600_000, with: 0)
        let c = data.capacity
        data.reserveRoom(for: c - data.count + 1)
        #expect(data.capacity >= c + 1 && data.count == 600_000)
    }

    @Test("a body's groups keep their order through joins, leaves, destruction and slot reuse")
    func groupTable() throws {
        let w = TestWorld.make()
        let g = (0..<70).map { _ in w.createCollisionGroup() }
        var bodies: [BodyHandle] = []
        for k in 0..<6 { bodies.append(try TestWorld.box(w, at: Vec2(Float(k) * 300, 0))) }
        let d = CollisionGroupID.default
        #expect(w.groups(of: bodies[0]) == [d])
        w.addBody(bodies[0], to: g[3]); w.addBody(bodies[0], to: g[66]); w.addBody(bodies[0], to: g[3])
        #expect(w.groups(of: bodies[0]) == [d, g[3], g[66]])
        w.removeBody(bodies[0], from: d)
        #expect(w.groups(of: bodies[0]) == [g[3], g[66]])
        w.removeBody(bodies[1], from: d)
        #expect(w.groups(of: bodies[1]).isEmpty)
        w.addBody(bodies[1], to: g[5])
        #expect(w.groups(of: bodies[1]) == [g[5]])
        w.addBody(bodies[2], to: g[7])
        w.destroyBody(bodies[0])
        // The destroyed body's list is reused by the next body that needs one.
        w.addBody(bodies[3], to: g[66])
        #expect(w.groups(of: bodies[3]) == [d, g[66]] && w.groups(of: bodies[2]) == [d, g[7]])
        let again = try TestWorld.box(w, at: Vec2(0, -500))
        #expect(w.groups(of: again) == [d])
        w.addBody(again, to: g[9])
        #expect(w.groups(of: again) == [d, g[9]])
        w.destroyCollisionGroup(g[66])
        #expect(w.groups(of: bodies[3]) == [d])
        w.step()
    }
}
