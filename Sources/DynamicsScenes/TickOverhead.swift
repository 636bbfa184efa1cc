import DynamicsEngine
import DynamicsKit
import Foundation

/// Measures what a `DynamicAnimator`'s tick costs above the step of its world
/// (`dynamics-bench tick`).
///
/// Each pair is two identical animators (375 × 667 pt bounds, one 100 × 100 pt `DynamicView`
/// held by three behaviors: gravity, collision with the bounds as boundary and a collision
/// delegate, an item behavior with elasticity 0.6). After one tick each (which compiles the
/// behaviors into the world), the first animator is ticked with `step(by: 1/120)` — forces,
/// world step, write-back, delegate calls, actions, pause check — and the second one's world is
/// stepped alone with `World.step(dt:)`. Both worlds then hold the same bodies and evolve bit
/// for bit alike (checked after every round), so the difference of the two times is the tick's
/// own cost.
public struct TickOverheadProbe: Sendable {
    /// The pairs per round, and the ticks timed.
    public let items: Int
    public let ticks: Int

    /// One round's measurement.
    public struct Round: Sendable, Codable {
        /// Seconds for `ticks` ticks of every animator.
        public var animatorSeconds: Double
        /// Seconds for `ticks` steps of every twin world.
        public var worldSeconds: Double
        /// Whether each animator's world ended bit for bit where its twin's did.
        public var identical: Bool
        /// Collision delegate calls made during the timed ticks (all animators).
        public var delegateCalls: Int

        /// Microseconds per item and tick: the animator's tick, the world's step, and their difference.
        public func perTick(items: Int, ticks: Int) -> (tick: Double, step: Double, overhead: Double) {
            let n = Double(items * ticks)
            let a = animatorSeconds / n * 1e6, w = worldSeconds / n * 1e6
            return (a, w, a - w)
        }
    }

    /// - Precondition: `items` and `ticks` are positive.
    public init(items: Int, ticks: Int) {
        precondition(items > 0 && ticks > 0, "TickOverheadProbe: items and ticks must be positive")
        self.items = items
        self.ticks = ticks
    }

    /// Counts the collision delegate's calls.
    final class Counter: CollisionBehaviorDelegate {
        var calls = 0
        func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item1: any DynamicItem, with item2: any DynamicItem, at p: CGPoint) { calls += 1 }
        func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item1: any DynamicItem, with item2: any DynamicItem) { calls += 1 }
        func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem, withBoundaryIdentifier identifier: String?, at p: CGPoint) { calls += 1 }
        func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: any DynamicItem, withBoundaryIdentifier identifier: String?) { calls += 1 }
    }

    /// Animator `i` of a round (its twin is built the same way).
    static func makeAnimator(_ i: Int, clock: AnimationClock, delegate: Counter) -> (DynamicAnimator, [AnyObject]) {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 375, height: 667), clock: clock)
        let view = DynamicView(frame: CGRect(x: 20 + CGFloat(i % 7) * 35, y: 40 + CGFloat(i % 11) * 25, width: 100, height: 100))
        let gravity = GravityBehavior(items: [view])
        let collision = CollisionBehavior(items: [view])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.collisionDelegate = delegate
        let properties = DynamicItemBehavior(items: [view])
        properties.elasticity = 0.6
        animator.addBehavior(gravity)
        animator.addBehavior(collision)
        animator.addBehavior(properties)
        return (animator, [view, gravity, collision, properties])
    }

    /// Builds the pairs, times the animators and the twin worlds (in the order asked), and
    /// checks that they ended alike.
    public func round(animatorFirst: Bool) -> Round {
        let clock = AnimationClock()
        let counter = Counter(), twinCounter = Counter()
        var animators: [DynamicAnimator] = [], twins: [DynamicAnimator] = [], keep: [AnyObject] = []
        animators.reserveCapacity(items); twins.reserveCapacity(items)
        for i in 0..<items {
            let (a, ka) = Self.makeAnimator(i, clock: clock, delegate: counter)
            let (b, kb) = Self.makeAnimator(i, clock: clock, delegate: twinCounter)
            animators.append(a); twins.append(b); keep += ka + kb
        }
        let dt = animators[0].fixedTimeStep
        for k in 0..<items { animators[k].step(by: dt); twins[k].step(by: dt) }
        let worlds = twins.map(\.physicsWorld)
        counter.calls = 0
        let clockNow = ContinuousClock()
        func timeAnimators() -> Double {
            let t0 = clockNow.now
            for _ in 0..<ticks { for a in animators { a.step(by: dt) } }
            return (clockNow.now - t0).seconds
        }
        func timeWorlds() -> Double {
            let t0 = clockNow.now
            let h = Float(dt)
            for _ in 0..<ticks { for w in worlds { w.step(dt: h) } }
            return (clockNow.now - t0).seconds
        }
        let a: Double, w: Double
        if animatorFirst { a = timeAnimators(); w = timeWorlds() } else { w = timeWorlds(); a = timeAnimators() }
        var identical = true
        for k in 0..<items {
            let x = animators[k].physicsWorld, y = worlds[k]
            let bx = x.bodies, by = y.bodies
            guard bx.count == by.count else { identical = false; break }
            for (p, q) in zip(bx, by) {
                let tp = x.transform(p), tq = y.transform(q)
                if tp.p != tq.p || tp.q.c != tq.q.c || tp.q.s != tq.q.s || x.linearVelocity(p) != y.linearVelocity(q) { identical = false }
            }
        }
        withExtendedLifetime(keep) {}
        return Round(animatorSeconds: a, worldSeconds: w, identical: identical, delegateCalls: counter.calls)
    }
}

extension Duration {
    fileprivate var seconds: Double {
        let c = components
        return Double(c.seconds) + Double(c.attoseconds) * 1e-18
    }
}
