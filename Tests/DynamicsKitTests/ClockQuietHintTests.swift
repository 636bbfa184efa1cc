import DynamicsEngine
@testable import DynamicsKit
import Foundation
import Testing

/// The clock's prefetching hint (`AnimationClock.isQuiet`): after a frame in which its sole
/// animator only checked that it is paused and no view animation ran, the next frame of
/// `advance(_:by:workers:)` asks only for the plan's idle prefix. A stale hint would leave a
/// busy frame's memory cold (no result depends on it), so these tests pin when it is set and
/// when it is cleared.
@Suite("The clock's quiet hint")
struct ClockQuietHintTests {
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

    @Test("quiet once the paused animator idles; a resume, a new behavior or a view animation clears it at once")
    func setAndCleared() {
        let (clock, animator, view) = Self.scene()
        #expect(!clock.isQuiet)
        clock.advance(by: 1.0 / 60.0)
        #expect(!clock.isQuiet)   // falling: every tick steps the world
        #expect(animator.runUntilPaused(timeout: 10))
        clock.advance(by: 1.0 / 60.0)
        #expect(clock.isQuiet && animator.lastTickIdled)

        // A push resumes the animator: busy before the next frame starts.
        let push = PushBehavior(items: [view], mode: .instantaneous)
        push.setAngle(-.pi / 2, magnitude: 0.5)
        animator.addBehavior(push)
        #expect(!clock.isQuiet)
        clock.advance(by: 1.0 / 60.0)
        #expect(!clock.isQuiet)
        #expect(animator.runUntilPaused(timeout: 10))
        clock.advance(by: 1.0 / 60.0)
        #expect(clock.isQuiet)

        // A view animation on the clock: busy until it ends.
        DynamicView.animate(withDuration: 0.1, clock: clock, animations: { view.alpha = 0.5 })
        #expect(!clock.isQuiet)
        clock.advance(by: 1.0 / 60.0)
        #expect(!clock.isQuiet)
        for _ in 0..<12 { clock.advance(by: 1.0 / 60.0) }
        #expect(clock.isQuiet)
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
        #expect(calls == 20 && !clock.isQuiet)

        let (shared, first, _) = Self.scene()
        let second = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 100, height: 100), clock: shared)
        #expect(first.runUntilPaused(timeout: 10) && !second.isRunning)
        for _ in 0..<3 { shared.advance(by: 1.0 / 60.0) }
        #expect(!shared.isQuiet)
    }
}
