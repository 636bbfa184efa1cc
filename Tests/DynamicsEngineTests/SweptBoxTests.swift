import Testing
@testable import DynamicsEngine

/// The broad phase's boxes cover each shape's path over the step (swept along its velocity),
/// not its reach in every direction: shapes that move side by side make no pair, shapes
/// that meet within the step do.
@Suite("Swept boxes")
struct SweptBoxTests {
    @Test("two boxes falling side by side at 3 000 pt/s, 60 pt apart, make no pair")
    func sideBySide() throws {
        let w = TestWorld.make(gravity: .zero)
        // 50 pt per step downwards: grown on every side by that, their boxes would overlap.
        let a = try TestWorld.box(w, at: Vec2(0, 0), size: Vec2(40, 40), velocity: Vec2(0, 3000))
        let b = try TestWorld.box(w, at: Vec2(100, 0), size: Vec2(40, 40), velocity: Vec2(0, 3000))
        for _ in 0..<5 {
            w.step(dt: 1.0 / 60.0)
            #expect(w.contactCount == 0, "\(w.contactCount) pairs")
        }
        #expect(abs(w.position(a).y - 250) < 0.1 && abs(w.position(b).y - 250) < 0.1)
    }

    @Test("a box moving at 6 000 pt/s toward a resting one 60 pt away is stopped against it: v = 0 after the hit, no overlap beyond the slop")
    func headOn() throws {
        let w = TestWorld.make(gravity: .zero)
        // 100 pt per step: the gap (60 pt) closes within the first step, so the pair must exist
        // before the boxes touch (a speculative contact), or the mover passes into the other.
        let mover = try TestWorld.box(w, at: Vec2(0, 0), size: Vec2(40, 40), velocity: Vec2(6000, 0))
        let heavy = try TestWorld.box(w, at: Vec2(100, 0), size: Vec2(40, 40), material: Material(density: 1000))
        w.step(dt: 1.0 / 60.0)
        #expect(w.contactCount == 1)
        // Perfectly inelastic against a body 1 000 times heavier: the mover ends next to it.
        let gap = (w.position(heavy).x - 20) - (w.position(mover).x + 20)
        #expect(gap > -1 && gap < 1, "gap \(gap)")
        #expect(w.linearVelocity(mover).x < 10, "v \(w.linearVelocity(mover))")
    }
}

