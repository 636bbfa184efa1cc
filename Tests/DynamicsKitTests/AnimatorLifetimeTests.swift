import DynamicsKit
import Foundation
import Testing

/// An animator lives as long as the app holds it (its clock does not keep it alive), and
/// letting go of it is safe at any moment: from one of its own call-outs in the middle of a
/// frame, or on another thread while its clock advances.
@Suite("DynamicsKit animator lifetime")
struct AnimatorLifetimeTests {
    static let bounds = CGRect(x: 0, y: 0, width: 400, height: 800)

    /// What an app keeps: the animator, strongly, until it lets go.
    final class Holder: DynamicAnimatorDelegate {
        var animator: DynamicAnimator?
        var pauses = 0
        func dynamicAnimatorDidPause(_ animator: DynamicAnimator) {
            pauses += 1
            self.animator = nil
        }
    }

    @Test("an animator the app lets go of is freed at once, and its clock stops stepping it")
    func freedWhenDropped() {
        let clock = AnimationClock()
        let view = DynamicView(frame: CGRect(x: 100, y: 100, width: 20, height: 20))
        weak var weakAnimator: DynamicAnimator?
        do {
            let animator = DynamicAnimator(referenceBounds: Self.bounds, clock: clock)
            animator.addBehavior(GravityBehavior(items: [view]))
            weakAnimator = animator
            clock.advance(by: 1.0 / 60)
            #expect(view.center.y > 100, "gravity moved the view while the animator was held")
            #expect(!clock.isIdle)
        }
        #expect(weakAnimator == nil, "the clock does not keep an animator alive")
        #expect(clock.isIdle, "a freed animator leaves its clock")
        let y = view.center.y
        clock.run(for: 0.5)
        #expect(view.center.y == y, "nothing steps the freed animator's items")
    }

    @Test("an animator dropped from its own action finishes the frame and is freed after it")
    func droppedFromAction() {
        let clock = AnimationClock()
        let view = DynamicView(frame: CGRect(x: 100, y: 100, width: 20, height: 20))
        let other = DynamicView(frame: CGRect(x: 200, y: 100, width: 20, height: 20))
        let holder = Holder()
        weak var weakAnimator: DynamicAnimator?
        var actionCalls = 0
        do {
            let animator = DynamicAnimator(referenceBounds: Self.bounds, clock: clock)
            let gravity = GravityBehavior(items: [view])
            gravity.action = { [unowned holder] in
                actionCalls += 1
                holder.animator = nil
            }
            animator.addBehavior(gravity)
            holder.animator = animator
            weakAnimator = animator
        }
        // A second animator on the clock, after the first: the frame goes on to step it after
        // the first was dropped.
        let second = DynamicAnimator(referenceBounds: Self.bounds, clock: clock)
        second.addBehavior(GravityBehavior(items: [other]))
        #expect(weakAnimator != nil)
        clock.advance(by: 1.0 / 60)
        // The frame's first tick ran the action, which dropped the animator; the second tick
        // of the same frame still ran (the frame is two 1/120 s ticks), then it was freed.
        #expect(actionCalls == 2, "the frame's ticks all ran (got \(actionCalls))")
        #expect(weakAnimator == nil, "freed once the frame was done")
        #expect(other.center.y > 100, "the clock went on to the other animator")
        let y = view.center.y, otherY = other.center.y
        clock.advance(by: 1.0 / 60)
        #expect(view.center.y == y && actionCalls == 2, "the dropped animator is not stepped again")
        #expect(other.center.y > otherY, "the other animator still is")
        #expect(second.behaviors.count == 1)
        // Its item is free to join another animator.
        let third = DynamicAnimator(referenceBounds: Self.bounds, clock: clock)
        third.addBehavior(GravityBehavior(items: [view]))
        #expect(third.items.count == 1)
    }

    @Test("an animator dropped from its delegate's pause call is freed after the frame")
    func droppedFromPause() {
        let clock = AnimationClock()
        let view = DynamicView(frame: CGRect(x: 100, y: 100, width: 20, height: 20))
        let holder = Holder()
        weak var weakAnimator: DynamicAnimator?
        do {
            let animator = DynamicAnimator(referenceBounds: Self.bounds, clock: clock)
            animator.delegate = holder
            animator.addBehavior(SnapBehavior(item: view, snapTo: CGPoint(x: 150, y: 150)))
            holder.animator = animator
            weakAnimator = animator
        }
        #expect(clock.runUntilIdle(timeout: 10), "the snap comes to rest")
        #expect(holder.pauses == 1 && holder.animator == nil)
        #expect(weakAnimator == nil)
        #expect(abs(view.center.x - 150) < 1 && abs(view.center.y - 150) < 1, "at the snap point (\(view.center))")
    }

    @Test("animators let go of on another thread while their clock advances")
    func droppedOnAnotherThread() {
        // The clock's thread makes each animator (an animator is used from its clock's thread)
        // and hands it over; the other thread lets go of it, possibly while the clock steps it.
        let clock = AnimationClock()
        let handOver = HandOver()
        let rounds = 300
        let dropper = Thread {
            var dropped = 0
            while dropped < rounds {
                // (The animator taken is let go of at the end of this block, on this thread.)
                if let animator = handOver.take() { withExtendedLifetime(animator) { dropped += 1 } } else { Thread.sleep(forTimeInterval: 0.0001) }
            }
            handOver.finish()
        }
        dropper.start()
        var views: [DynamicView] = []
        for i in 0..<rounds {
            let view = DynamicView(frame: CGRect(x: 100, y: 100, width: 20, height: 20))
            views.append(view)
            let animator = DynamicAnimator(referenceBounds: Self.bounds, clock: clock)
            animator.addBehavior(GravityBehavior(items: [view]))
            animator.addBehavior(CollisionBehavior(items: [view]))
            animator.addBehavior(PushBehavior(items: [view], mode: .continuous))
            handOver.give(animator)
            clock.advance(by: 1.0 / 60)
            if i % 8 == 0 { clock.advance(by: 1.0 / 30) }
        }
        while !handOver.finished { clock.advance(by: 1.0 / 60) }
        #expect(clock.isIdle, "every animator was freed and left the clock")
        let ys = views.map(\.center.y)
        clock.run(for: 0.25)
        #expect(views.map(\.center.y) == ys, "nothing steps them any more")
        #expect(views.allSatisfy { $0.center.y.isFinite && $0.center.y >= 100 })
    }

    /// One animator at a time from the clock's thread to the dropping thread.
    final class HandOver: @unchecked Sendable {
        private let lock = NSLock()
        private var waiting: [DynamicAnimator] = []
        private var done = false
        func give(_ a: DynamicAnimator) { lock.withLock { waiting.append(a) } }
        func take() -> DynamicAnimator? {
            lock.withLock { waiting.isEmpty ? nil : waiting.removeFirst() }
        }
        func finish() { lock.withLock { done = true } }
        var finished: Bool { lock.withLock { done } }
    }
}
