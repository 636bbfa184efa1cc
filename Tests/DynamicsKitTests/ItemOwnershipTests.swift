import DynamicsKit
import Foundation
import Testing

/// An item in one live animator at a time: views and groups carry their animator, so a second
/// animator is refused on any clock; items of other classes are checked on their clock.
@Suite("DynamicsKit item ownership")
struct ItemOwnershipTests {
    /// An item class of the app's own (it carries no animator).
    final class Token: DynamicItem {
        var center = CGPoint(x: 50, y: 50)
        var bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        var transform = CGAffineTransform.identity
    }

    static let bounds = CGRect(x: 0, y: 0, width: 100, height: 100)

    @Test("a view in two live animators on different clocks stops with a message")
    func viewOnTwoClocks() async {
        await #expect(processExitsWith: .failure) {
            let item = DynamicView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            let first = DynamicAnimator(referenceBounds: ItemOwnershipTests.bounds, clock: AnimationClock())
            let second = DynamicAnimator(referenceBounds: ItemOwnershipTests.bounds, clock: AnimationClock())
            first.addBehavior(GravityBehavior(items: [item]))
            second.addBehavior(GravityBehavior(items: [item]))
            withExtendedLifetime(first) {}
        }
    }

    @Test("an item group in two live animators on different clocks stops with a message")
    func groupOnTwoClocks() async {
        await #expect(processExitsWith: .failure) {
            let group = DynamicItemGroup(items: [DynamicView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))])
            let first = DynamicAnimator(referenceBounds: ItemOwnershipTests.bounds, clock: AnimationClock())
            let second = DynamicAnimator(referenceBounds: ItemOwnershipTests.bounds, clock: AnimationClock())
            first.addBehavior(GravityBehavior(items: [group]))
            second.addBehavior(CollisionBehavior(items: [group]))
            withExtendedLifetime(first) {}
        }
    }

    @Test("an item of the app's own class in two live animators on one clock stops with a message")
    func customItemOnOneClock() async {
        await #expect(processExitsWith: .failure) {
            let clock = AnimationClock()
            let item = Token()
            let first = DynamicAnimator(referenceBounds: ItemOwnershipTests.bounds, clock: clock)
            let second = DynamicAnimator(referenceBounds: ItemOwnershipTests.bounds, clock: clock)
            first.addBehavior(GravityBehavior(items: [item]))
            second.addBehavior(GravityBehavior(items: [item]))
            withExtendedLifetime(first) {}
        }
    }

    @Test("an item whose animator was freed, or let it go, may join another")
    func freedAnimatorLetsGo() {
        let view = DynamicView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        let group = DynamicItemGroup(items: [DynamicView(frame: CGRect(x: 20, y: 0, width: 10, height: 10))])
        let token = Token()
        let clock = AnimationClock()
        do {
            let first = DynamicAnimator(referenceBounds: Self.bounds, clock: clock)
            first.addBehavior(GravityBehavior(items: [view, group, token]))
            #expect(first.items.count == 3)
        }
        // On another clock and on the same one.
        let second = DynamicAnimator(referenceBounds: Self.bounds, clock: AnimationClock())
        second.addBehavior(GravityBehavior(items: [view, group]))
        let third = DynamicAnimator(referenceBounds: Self.bounds, clock: clock)
        third.addBehavior(GravityBehavior(items: [token]))
        #expect(second.items.count == 2 && third.items.count == 1)
        // Let go by removing the behavior, then taken by the other animator.
        second.removeAllBehaviors()
        third.addBehavior(CollisionBehavior(items: [view, group]))
        #expect(third.items.count == 3)
        // One animator may hold an item in several behaviors.
        third.addBehavior(PushBehavior(items: [view, token], mode: .continuous))
        #expect(third.items.count == 3)
    }
}

/// A collision behavior's boundaries are told apart from another's by a number its animator
/// gives it when it joins.
@Suite("DynamicsKit collision boundary ids")
struct CollisionBoundaryIDTests {
    final class Recorder: CollisionBehaviorDelegate {
        var began: [String] = []
        func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem, withBoundaryIdentifier identifier: String?, at p: CGPoint) {
            began.append(identifier ?? "nil")
        }
    }

    @Test("two collision behaviors holding one item each report only their own boundary, also after moving to another animator")
    func ownBoundariesOnly() {
        let item = DynamicView(frame: CGRect(x: 40, y: 20, width: 20, height: 20))
        let upper = CollisionBehavior(items: [item]), lower = CollisionBehavior(items: [item])
        upper.addBoundary(withIdentifier: "upper", from: CGPoint(x: 0, y: 100), to: CGPoint(x: 100, y: 100))
        lower.addBoundary(withIdentifier: "lower", from: CGPoint(x: 0, y: 200), to: CGPoint(x: 100, y: 200))
        let a = Recorder(), b = Recorder()
        upper.collisionDelegate = a
        lower.collisionDelegate = b
        let clock = AnimationClock()
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 100, height: 300), clock: clock)
        let gravity = GravityBehavior(items: [item])
        animator.addBehavior(lower)
        animator.addBehavior(upper)
        animator.addBehavior(gravity)
        clock.run(for: 1)
        #expect(!a.began.isEmpty && a.began.allSatisfy { $0 == "upper" } && b.began.isEmpty, "upper \(a.began), lower \(b.began)")
        // Both move to a new animator, joining in the other order: still only their own.
        animator.removeAllBehaviors()
        a.began = []; b.began = []
        item.center = CGPoint(x: 50, y: 30)
        let next = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 100, height: 300), clock: clock)
        next.addBehavior(upper)
        next.addBehavior(lower)
        next.addBehavior(gravity)
        clock.run(for: 1)
        #expect(!a.began.isEmpty && a.began.allSatisfy { $0 == "upper" } && b.began.isEmpty, "upper \(a.began), lower \(b.began)")
        withExtendedLifetime(animator) {}
    }
}
