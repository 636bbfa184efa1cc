import Foundation
import Testing
@testable import DynamicsKit
import DynamicsEngine

/// A behavior type the animator has never heard of: a constant force on each of its items,
/// applied every tick. It only overrides the compilation hooks of `DynamicBehavior`.
final class ConstantWind: ItemListBehavior {
    /// The force on each item (mass · pt/s²); zero: the wind has died down.
    var force: CGVector { didSet { dynamicAnimator?.resume() } }

    init(items: [any DynamicItem], force: CGVector) {
        self.force = force
        super.init(items: items)
    }

    override func contribute(to state: inout CompiledState) { state.applyForcesEachTick(self) }
    override var actsEveryTick: Bool { force != .zero }
    override func applyForces(_ animator: AnimatorCore, dt: Double) {
        guard force != .zero else { return }
        for h in bodies { animator.world.applyForce(h, Vec2(Float(force.dx), Float(force.dy))) }
    }
}

/// Another new type: a uniform acceleration of its items, contributed like gravity.
final class Updraft: ItemListBehavior {
    var acceleration: CGVector = CGVector(dx: 0, dy: -1000) { didSet { dynamicAnimator?.itemPropertiesChanged() } }

    override func contribute(to state: inout CompiledState) {
        state.addGravity(Vec2(Float(acceleration.dx), Float(acceleration.dy)), to: bodies)
    }
}

/// Behaviors compile themselves: a behavior type defined outside DynamicsKit moves items as
/// the physics says, and the animator pauses and idles around it, without the animator
/// knowing the type.
@Suite("DynamicsKit new behavior types")
struct NewBehaviorTests {
    let bounds = CGRect(x: -5000, y: -5000, width: 10000, height: 10000)

    /// A 100 × 100 pt item: mass 1 at the default density.
    func item() -> DynamicView { DynamicView(frame: CGRect(x: -50, y: -50, width: 100, height: 100)) }

    @Test("a constant wind moves an item by ½·(F/m)·t², keeps the animator running, and lets it pause once it dies down")
    func constantWind() {
        let animator = DynamicAnimator(referenceBounds: bounds, clock: AnimationClock())
        let v = item()
        let props = DynamicItemBehavior(items: [v])
        props.allowsRotation = false
        let wind = ConstantWind(items: [v], force: CGVector(dx: 100, dy: 0))
        animator.addBehavior(props)
        animator.addBehavior(wind)
        #expect(animator.isRunning)

        // F = 100, m = 1: x(2 s) = ½ · 100 · 2² = 200 pt. Tolerance 1 %: the fixed-step
        // integrator's bias over 2 s of 1/120 s steps is at most 1/240 ≈ 0.4 %.
        animator.run(for: 2)
        #expect(abs(v.center.x - 200) <= 2, "x = \(v.center.x), expected 200 ± 2")
        #expect(abs(v.center.y) < 1e-3, "y = \(v.center.y)")
        #expect(abs(props.linearVelocity(for: v).x - 200) <= 2, "v = \(props.linearVelocity(for: v))")
        // Acting every tick, it never lets the animator pause.
        #expect(!animator.runUntilPaused(timeout: 1))

        // The wind dies down and the item brakes: the animator pauses once the body sleeps,
        // then idles: nothing moves while the clock runs on.
        wind.force = .zero
        props.resistance = 20
        #expect(animator.runUntilPaused(timeout: 5))
        let rest = v.center
        animator.run(for: 1)
        #expect(!animator.isRunning && v.center == rest, "\(v.center) vs \(rest)")

        // The wind rises again: the animator resumes and the item moves on.
        wind.force = CGVector(dx: 0, dy: 100)
        #expect(animator.isRunning)
        props.resistance = 0
        animator.run(for: 1)
        #expect(abs(v.center.y - rest.y - 50) <= 1, "y moved \(v.center.y - rest.y), expected 50 ± 1")  // ½ · 100 · 1² (± 2 %)

        // Leaving the animator, it takes its bodies with it.
        animator.removeBehavior(wind)
        #expect(wind.bodies.isEmpty)
    }

    @Test("a gravity-like contribution adds to GravityBehavior's, item by item, and follows items joining and leaving")
    func updraft() {
        let animator = DynamicAnimator(referenceBounds: bounds, clock: AnimationClock())
        let a = item(), b = item()
        b.center = CGPoint(x: 500, y: 0)
        let gravity = GravityBehavior(items: [a, b])          // 1000 pt/s² down
        let updraft = Updraft(items: [a])                      // 1000 pt/s² up on a only
        animator.addBehavior(gravity)
        animator.addBehavior(updraft)
        animator.run(for: 1)
        // a floats; b falls ½ · 1000 · 1² = 500 pt (1 %: the step bias is at most 1/120).
        #expect(abs(a.center.y) < 1e-3, "a.y = \(a.center.y)")
        #expect(abs(b.center.y - 500) <= 5, "b.y = \(b.center.y), expected 500 ± 5")

        // b joins the updraft (its cached body follows): it stops accelerating.
        updraft.addItem(b)
        #expect(updraft.bodies.count == 2)
        let v1 = b.center.y
        animator.run(for: 0.5)
        let v2 = b.center.y
        animator.run(for: 0.5)
        // Constant velocity: equal distances in equal times.
        #expect(abs((b.center.y - v2) - (v2 - v1)) < 0.5, "\(v2 - v1) then \(b.center.y - v2)")

        // a leaves it: it falls again.
        updraft.removeItem(a)
        #expect(updraft.bodies.count == 1)
        animator.run(for: 1)
        #expect(abs(a.center.y - 500) <= 5, "a.y = \(a.center.y), expected 500 ± 5")

        // Nothing moves any more and nothing acts every tick: the animator pauses.
        animator.removeBehavior(gravity)
        animator.removeBehavior(updraft)
        #expect(!animator.isRunning)
    }

    @Test("a field whose closure takes another item out mid-tick skips that item's body, now gone")
    func fieldRemovesItemMidTick() {
        let animator = DynamicAnimator(referenceBounds: bounds, clock: AnimationClock())
        let a = item(), b = item()
        b.center = CGPoint(x: 500, y: 0)
        let field = FieldBehavior.field(evaluationBlock: { f, _, _, _, _, _ in
            if f.items.count > 1 { f.removeItem(f.items[1]) }   // b, held by nothing else: its body goes
            return CGVector(dx: 100, dy: 0)
        })
        field.addItem(a)
        field.addItem(b)
        animator.addBehavior(field)
        animator.run(for: 1)
        #expect(field.items.count == 1 && field.bodies.count == 1)
        #expect(abs(a.center.x - 50) <= 1 && b.center == CGPoint(x: 500, y: 0), "a \(a.center), b \(b.center)")  // ½ · 100 · 1² (± 2 %: the step bias is at most 1/120)
    }
}
