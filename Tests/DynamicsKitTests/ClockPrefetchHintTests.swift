import DynamicsEngine
@testable import DynamicsKit
import Foundation
import Testing

/// The clock's prefetching hint (`AnimationClock.prefetchPart`): after a frame in which its
/// sole animator only checked that it is paused and no view animation ran, the next frame of
/// `advance(_:by:workers:)` asks only for the plan's idle prefix; after one that ended with no
/// contact in the animator's world, for the part a step without contacts reads; after one that
/// ended at a rest point (and no view animation ran), for the part a step at rest reads. A stale hint
/// would leave a busy frame's memory cold (no result depends on it), so these tests pin when
/// each part is chosen and when the hint is cleared.
@Suite("The clock's prefetching hint")
struct ClockPrefetchHintTests {
    static func scene() -> (AnimationClock, DynamicAnimator, DynamicView) {
        let clock = AnimationClock()
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 320, height: 480), clock: clock)
        let view = DynamicView(frame: CGRect(x: 100, y: 380, width: 60, height: 40))
        animator.addBehavior(GravityBehavior(items: [view]))
        let c = CollisionBehavior(items: [view])
        c.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(c)
        return (clock, animator, view)
    }

    @Test("idle once the paused animator idles, motion while its item falls, all while it touches; a resume, a new behavior or a view animation clears it at once")
    func setAndCleared() {
        let (clock, animator, view) = Self.scene()
        #expect(clock.prefetchPart == .all)
        clock.advance(by: 1.0 / 60.0)
        #expect(clock.prefetchPart == .motion)   // falling, far from the bottom: no contact
        #expect(animator.physicsWorld.contactCount == 0)
        // Resting on the bottom (a contact), still awake: every part, or the rest part once
        // its world is at a rest point.
        var f = 0
        while animator.physicsWorld.touchingContactCount == 0 && f < 600 { clock.advance(by: 1.0 / 60.0); f += 1 }
        clock.advance(by: 1.0 / 60.0)
        let atRest = (animator.physicsWorld.nextStepPart == .rest)
        #expect(animator.isRunning && animator.physicsWorld.contactCount > 0 && clock.prefetchPart == (atRest ? .rest : .all))
        // Come to rest on the bottom (settled), still awake: the rest part; with a view
        // animation running, every part.
        f = 0
        while !(animator.physicsWorld.nextStepPart == .rest) && f < 120 { clock.advance(by: 1.0 / 60.0); f += 1 }
        #expect(animator.isRunning && (animator.physicsWorld.nextStepPart == .rest) && clock.prefetchPart == .rest)
        let other = DynamicView(frame: .zero)
        DynamicView.animate(withDuration: 0.05, clock: clock, animations: { other.alpha = 0.5 })
        clock.advance(by: 1.0 / 60.0)
        #expect((animator.physicsWorld.nextStepPart == .rest) && clock.prefetchPart == .all)
        #expect(animator.runUntilPaused(timeout: 10))
        clock.advance(by: 1.0 / 60.0)
        #expect(clock.prefetchPart == .idle && animator.lastTickIdled)

        // A push resumes the animator: busy before the next frame starts.
        let push = PushBehavior(items: [view], mode: .instantaneous)
        push.setAngle(-.pi / 2, magnitude: 0.5)
        animator.addBehavior(push)
        #expect(clock.prefetchPart != .idle)
        clock.advance(by: 1.0 / 60.0)
        #expect(clock.prefetchPart != .idle)
        #expect(animator.runUntilPaused(timeout: 10))
        clock.advance(by: 1.0 / 60.0)
        #expect(clock.prefetchPart == .idle)

        // A view animation on the clock: busy until it ends.
        DynamicView.animate(withDuration: 0.1, clock: clock, animations: { view.alpha = 0.5 })
        #expect(clock.prefetchPart != .idle)
        clock.advance(by: 1.0 / 60.0)
        #expect(clock.prefetchPart != .idle)
        for _ in 0..<12 { clock.advance(by: 1.0 / 60.0) }
        #expect(clock.prefetchPart == .idle)
    }

    @Test("never quiet while a paused animator still acts each tick (an action), or with two animators")
    func neverQuiet() {
        let (clock, animator, _) = Self.scene()
        #expect(animator.runUntilPaused(timeout: 10))
        let watcher = DynamicBehavior()
        var calls = 0
        watcher.action = { calls += 1 }
        animator.addBehavior(watcher)
        for _ in 0..<10 { clock.advance(by: 1.0 / 60.0) }
        #expect(calls == 20 && clock.prefetchPart != .idle)

        let (shared, first, _) = Self.scene()
        let second = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 100, height: 100), clock: shared)
        #expect(first.runUntilPaused(timeout: 10) && !second.isRunning)
        for _ in 0..<3 { shared.advance(by: 1.0 / 60.0) }
        #expect(shared.prefetchPart == .all)
    }
}
