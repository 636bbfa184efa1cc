import Testing
@testable import DynamicsEngine

/// A step keeps last step's islands, colours and batch layout when nothing they are made of
/// changed (`IslandBuilder.dirty`). In debug builds every kept step also rebuilds them and
/// asserts both agree, so every test that steps a world checks the rule; these tests check
/// that resting worlds do keep them, and that each kind of change is seen at once.
@Suite("Island reuse")
struct IslandReuseTests {
    /// Two separate stacks of three boxes on the ground, settled.
    static func stacks() throws -> (World, [BodyHandle]) {
        let w = TestWorld.make()
        try TestWorld.ground(w, top: 0)
        var boxes: [BodyHandle] = []
        for x in [Float(-500), 500] {
            for k in 0..<3 { boxes.append(try TestWorld.box(w, at: Vec2(x, -50 - Float(k) * 100))) }
        }
        TestWorld.run(w, seconds: 2)
        return (w, boxes)
    }

    @Test("resting stacks keep their islands step after step, with the results of rebuilding them")
    func restingWorldKeepsIslands() throws {
        let (w, boxes) = try Self.stacks()
        let (v, _) = try Self.stacks()
        let before = w.counters.islandsReusedSteps
        for _ in 0..<60 {
            w.step()
            // The same world rebuilding its islands every step.
            v.islands.dirty = true
            v.step()
        }
        #expect(w.counters.islandsReusedSteps - before >= 55, "kept islands in \(w.counters.islandsReusedSteps - before) of 60 resting steps")
        #expect(w.islandCount == 2)
        for b in boxes { #expect(w.position(b) == v.position(b)) }
    }

    @Test("a new body, a joint, a destroyed body, a type change and sleep are seen by the next step's islands")
    func changesRebuildIslands() throws {
        let (w, boxes) = try Self.stacks()
        #expect(w.islandCount == 2)
        // A body falling far from both stacks: a third island.
        let lone = try TestWorld.box(w, at: Vec2(0, -2000))
        w.step()
        #expect(w.islandCount == 3)
        // A joint between the stacks' tops joins them into one island.
        var def = JointDef(type: .distance, bodyA: boxes[2], bodyB: boxes[5])
        def.length = 1000
        let joint = w.createJoint(def)
        w.step()
        #expect(w.islandCount == 2)
        w.destroyJoint(joint)
        w.step()
        #expect(w.islandCount == 3)
        // A stack's middle box made static splits its stack's island off the ground contact:
        // the top box alone is one island, the bottom one another.
        w.setType(boxes[1], .static)
        w.step()
        #expect(w.islandCount == 4)
        w.destroyBody(lone)
        w.step()
        #expect(w.islandCount == 3)
        // Sleeping islands are in no island; woken, they are back.
        w.settings.isSleepEnabled = true
        TestWorld.run(w, seconds: 3)
        #expect(w.islandCount == 0)
        w.applyImpulse(boxes[0], Vec2(0, -10))
        w.step()
        #expect(w.islandCount > 0)
    }
}
