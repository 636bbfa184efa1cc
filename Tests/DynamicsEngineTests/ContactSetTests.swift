import Testing
@testable import DynamicsEngine

/// The contact set's per-shape lists: an operation on one body or boundary finds exactly its
/// contacts through them, and they stay right through merges, explicit ends, slot reuse and
/// snapshots.
@Suite("Contact set")
struct ContactSetTests {
    /// A ground box with a boundary segment on each side, level with it, and a pile of boxes
    /// and circles settled on them: some hundreds of contacts.
    static func pile(seed: UInt64, count: Int = 160) throws -> (World, [BodyHandle], [BoundaryHandle]) {
        let w = TestWorld.make()
        try TestWorld.ground(w, top: 0, width: 1200)
        let floor = [try w.addBoundary(Vec2(-1500, 0), Vec2(-600, 0), group: .default, id: 7),
                     try w.addBoundary(Vec2(600, 0), Vec2(1500, 0), group: .default, id: 8)]
        var rng = TestRandom(seed: seed)
        var bodies: [BodyHandle] = []
        for k in 0..<count {
            let p = Vec2(Float(k % 30) * 62 - 930 + rng.float(-4, 4), -40 - Float(k / 30) * 62)
            if k % 3 == 0 {
                bodies.append(try TestWorld.circle(w, at: p, radius: 28))
            } else {
                bodies.append(try TestWorld.box(w, at: p, size: Vec2(56, 56), angle: rng.float(-0.3, 0.3)))
            }
        }
        TestWorld.run(w, seconds: 0.5)
        return (w, bodies, floor)
    }

    /// The live contacts of body `i` (or shape `s`) by a scan of every contact, in key order.
    static func scan(_ w: World, body i: Int) -> [Int] {
        w.contacts.indices.filter { w.contacts[$0].shapeA >= 0 && (w.contacts[$0].bodyA == Int32(i) || w.contacts[$0].bodyB == Int32(i)) }
    }
    static func scan(_ w: World, shape s: Int) -> [Int] {
        w.contacts.indices.filter { w.contacts[$0].shapeA >= 0 && (w.contacts[$0].shapeA == Int32(s) || w.contacts[$0].shapeB == Int32(s)) }
    }

    /// Every body's and every shape's list gives what a scan gives; returns the first mismatch.
    static func listsMismatch(_ w: World) -> String? {
        for i in 0..<Int(w.bodySlots.count) where w.metas[i].alive {
            var got: [Int] = []
            w.forEachContact(ofBody: i) { got.append($0) }
            let want = scan(w, body: i)
            if got != want { return "body \(i): lists \(got), scan \(want)" }
        }
        for s in 0..<w.shapes.count where w.shapes[s].alive {
            var got: [Int] = []
            w.contacts.forEachContact(ofShape: s, wake: w.wakeBody(ofShape:)) { got.append($0) }
            let want = scan(w, shape: s)
            if got != want { return "shape \(s): lists \(got), scan \(want)" }
        }
        return nil
    }

    @Test("changing one body's material changes exactly that body's contacts, with the mixing rule")
    func materialChangeTouchesOnlyItsContacts() throws {
        let (w, bodies, _) = try Self.pile(seed: 3)
        #expect(w.contactCount > 300, "contacts: \(w.contactCount)")
        // A body deep in the pile, with several contacts.
        let target = try #require(bodies.dropFirst(40).first { Self.scan(w, body: Int($0.index)).count >= 3 })
        let t = Int32(target.index)
        let before = w.contacts.view.map { ($0.key, $0.friction, $0.restitution) }
        w.setMaterial(target, Material(density: 2, friction: 0.1, restitution: 0.5))
        var changed = 0
        for k in w.contacts.indices {
            let c = w.contacts[k]
            #expect(c.key == before[k].0)
            if c.shapeA >= 0 && (c.bodyA == t || c.bodyB == t) {
                // The other shape keeps the default material (friction 0.6, restitution 0).
                #expect(c.friction == (0.1 * Float(0.6)).squareRoot(), "contact \(k)")
                #expect(c.restitution == 0.5, "contact \(k)")
                changed += 1
            } else {
                #expect(c.friction.bitPattern == before[k].1.bitPattern && c.restitution.bitPattern == before[k].2.bitPattern,
                        "contact \(k) of bodies \(c.bodyA), \(c.bodyB) changed")
            }
        }
        #expect(changed >= 3)
    }

    @Test("destroying one body ends exactly its contacts; removing a boundary exactly the boundary's")
    func destroyEndsOnlyItsContacts() throws {
        let (w, bodies, floor) = try Self.pile(seed: 5)
        let target = try #require(bodies.dropFirst(60).first { Self.scan(w, body: Int($0.index)).count >= 3 })
        let mine = Set(Self.scan(w, body: Int(target.index)))
        let touching = mine.filter { w.contacts[$0].flags & Contact.touching != 0 }.count
        let liveBefore = w.contacts.indices.filter { w.contacts[$0].shapeA >= 0 }
        w.destroyBody(target)
        let ended = Set(liveBefore.filter { w.contacts[$0].shapeA < 0 })
        #expect(ended == mine)
        #expect(w.contacts.pendingEndEvents.count == touching)
        #expect(w.contacts.pendingEndEvents.allSatisfy { $0.body == target || $0.other == .body(target) })

        // A boundary segment: its contacts only (the other segment and the ground keep theirs).
        let seg = Int(floor[1].shape)
        let onSegment = Set(Self.scan(w, shape: seg))
        #expect(!onSegment.isEmpty)
        let live = w.contacts.indices.filter { w.contacts[$0].shapeA >= 0 }
        w.removeBoundary(floor[1])
        #expect(Set(live.filter { w.contacts[$0].shapeA < 0 }) == onSegment)
        w.step()
        #expect(Self.listsMismatch(w) == nil)
    }

    @Test("the lists match a scan of every contact through merges, ends, slot reuse and snapshots")
    func listsMatchScan() throws {
        let seed: UInt64 = 11
        let (w, start, floor) = try Self.pile(seed: seed, count: 120)
        var rng = TestRandom(seed: seed)
        var bodies = start
        var boundaries = floor
        let replay = "replay: swift test --filter ContactSetTests/listsMatchScan (seed \(seed))"
        try #require(Self.listsMismatch(w) == nil, "\(replay)")
        for round in 0..<40 {
            switch rng.next() % 6 {
            case 0, 1:  // destroy a body, make one (reusing the shape and body slots) and do not step yet
                let k = Int(rng.next() % UInt64(bodies.count))
                w.destroyBody(bodies.remove(at: k))
                bodies.append(try TestWorld.box(w, at: Vec2(rng.float(-500, 500), -300), size: Vec2(50, 50)))
            case 2:  // change a body's type
                let b = bodies[Int(rng.next() % UInt64(bodies.count))]
                w.setType(b, w.type(b) == .dynamic ? .kinematic : .dynamic)
            case 3:  // remove a boundary segment (or add one back)
                if let h = boundaries.popLast() { w.removeBoundary(h) }
                else { boundaries.append(try w.addBoundary(Vec2(-1500, 0), Vec2(1500, 0), group: .default)) }
            default:
                TestWorld.run(w, seconds: 0.1)
            }
            if let m = Self.listsMismatch(w) { Issue.record("round \(round): \(m); \(replay)"); return }
            if round % 10 == 9 {
                // A restored world rebuilds the lists from its contacts.
                w.step()
                let copy = try World(snapshot: w.snapshot())
                if let m = Self.listsMismatch(copy) { Issue.record("restored, round \(round): \(m); \(replay)"); return }
                #expect(copy.contactCount == w.contactCount)
            }
        }
        #expect(w.contactCount > 100)
    }

    @Test("a restored world builds its lists on first use, also after steps that changed its contacts")
    func restoredListsBuiltLate() throws {
        let seed: UInt64 = 5
        let (w, bodies, _) = try Self.pile(seed: seed, count: 120)
        let replay = "replay: swift test --filter ContactSetTests/restoredListsBuiltLate (seed \(seed))"
        let copy = try World(snapshot: w.snapshot())
        // Steps whose merges end and begin contacts before any list is asked for: a few bodies
        // thrown across the pile, and one destroyed (its shapes' slots reused next).
        var rng = TestRandom(seed: seed)
        for (k, b) in bodies.enumerated() where k % 9 == 0 {
            copy.setLinearVelocity(b, Vec2(rng.float(-900, 900), rng.float(-1200, -400)))
        }
        var changed = 0
        for _ in 0..<20 {
            let keys = Set(copy.contacts.view.map(\.key))
            copy.step()
            changed += Set(copy.contacts.view.map(\.key)).symmetricDifference(keys).count
        }
        #expect(changed > 20, "the steps changed \(changed) contacts; \(replay)")
        // The first single-body operation builds the lists from the contacts as they now are.
        copy.destroyBody(bodies[60])
        if let m = Self.listsMismatch(copy) { Issue.record("after the destroy: \(m); \(replay)"); return }
        copy.step()
        if let m = Self.listsMismatch(copy) { Issue.record("a step later: \(m); \(replay)") }
    }

    @Test("lists no operation asks for are dropped after some merges and built again, right, by the next one")
    func unusedListsDroppedAndRebuilt() throws {
        let seed: UInt64 = 7
        let (w, bodies, _) = try Self.pile(seed: seed, count: 120)
        let replay = "replay: swift test --filter ContactSetTests/unusedListsDroppedAndRebuilt (seed \(seed))"
        try #require(Self.listsMismatch(w) == nil, "\(replay)")
        #expect(!w.contacts.listsStale)
        // Merges that change contacts, and no single-body operation: bodies thrown across the
        // pile, stepped until more merges than `unusedListMerges` have run.
        var rng = TestRandom(seed: seed)
        var merges = 0, steps = 0
        while merges <= ContactSet.unusedListMerges + 2 && steps < 2000 {
            if steps % 20 == 0 {
                for (k, b) in bodies.enumerated() where k % 7 == steps % 7 {
                    w.setLinearVelocity(b, Vec2(rng.float(-900, 900), rng.float(-1200, -400)))
                }
            }
            let keys = w.contacts.view.map(\.key)
            w.step()
            if w.contacts.view.map(\.key) != keys { merges += 1 }
            steps += 1
        }
        try #require(merges > ContactSet.unusedListMerges, "only \(merges) merges in \(steps) steps; \(replay)")
        #expect(w.contacts.listsStale, "the lists were kept through \(merges) merges no operation asked for")
        // The next operation builds them from the contacts as they now are.
        w.destroyBody(bodies[50])
        if let m = Self.listsMismatch(w) { Issue.record("after the destroy: \(m); \(replay)"); return }
        w.step()
        if let m = Self.listsMismatch(w) { Issue.record("a step later: \(m); \(replay)") }
    }
}
