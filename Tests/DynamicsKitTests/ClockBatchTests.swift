import DynamicsEngine
import DynamicsKit
import Foundation
import Testing

/// `AnimationClock.advance(_:by:workers:)`: many independent clocks advanced together, in
/// shares taken by worker threads, end exactly where advancing each one alone ends.
@Suite("Advancing many clocks")
struct ClockBatchTests {
    /// One small scene per clock: a view falling onto the bottom of its bounds, pushed
    /// sideways now and then, and a view animation fading it.
    final class Scene {
        let clock = AnimationClock()
        let animator: DynamicAnimator
        let view: DynamicView
        let push: PushBehavior
        init(_ i: Int) {
            animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 320, height: 480), clock: clock)
            view = DynamicView(frame: CGRect(x: 40 + CGFloat(i % 7) * 30, y: 20 + CGFloat(i % 5) * 40, width: 50, height: 30))
            animator.addBehavior(GravityBehavior(items: [view]))
            let c = CollisionBehavior(items: [view])
            c.translatesReferenceBoundsIntoBoundary = true
            animator.addBehavior(c)
            push = PushBehavior(items: [view], mode: .instantaneous)
            push.active = false
            animator.addBehavior(push)
        }
        /// What a frame changes before the clocks advance: every 37 frames a push, every 50 a fade.
        func change(frame f: Int, _ i: Int) {
            if (f + i) % 37 == 0 {
                push.setAngle(CGFloat((f * 7 + i) % 628) / 100, magnitude: 0.3)
                push.active = true
            }
            if (f + 3 * i) % 50 == 0 {
                DynamicView.animate(withDuration: 0.4, delay: 0, options: [], clock: clock, animations: { [view] in
                    view.alpha = view.alpha > 0.5 ? 0.2 : 1
                }, completion: nil)
            }
        }
        var state: [Double] {
            [Double(view.center.x), Double(view.center.y), Double(view.transform.rotationAngle),
             Double(view.presentation.alpha), clock.time]
        }
    }

    @Test("1, 2 and 3 workers end bit for bit where advancing each clock alone ends", arguments: [1, 2, 3])
    func sameAsOneByOne(workers: Int) {
        // Enough clocks that one or two workers cut them into several shares (at least 32 a
        // worker); three workers take one share of 23 clocks each.
        let n = 70
        let alone = (0..<n).map(Scene.init)
        let together = (0..<n).map(Scene.init)
        let clocks = together.map(\.clock)
        for f in 0..<240 {
            for (i, s) in alone.enumerated() { s.change(frame: f, i) }
            for (i, s) in together.enumerated() { s.change(frame: f, i) }
            for s in alone { s.clock.advance(by: 1.0 / 60.0) }
            AnimationClock.advance(clocks, by: 1.0 / 60.0, workers: workers)
        }
        for i in 0..<n {
            #expect(alone[i].state == together[i].state, "scene \(i)")
        }
        // The scenes moved and landed: the comparison is not between two still pictures.
        let moved = zip(alone, (0..<n).map(Scene.init)).filter { $0.view.center != $1.view.center }.count
        #expect(moved == n)
        #expect(alone.allSatisfy { $0.view.center.y < 480 && $0.view.center.y > 0 })
    }

    /// Makes each frame's changes of its scenes' shares, recording the shares it was given.
    final class Changes: ClockSharePreparation, @unchecked Sendable {
        let scenes: [Scene]
        var frame = 0
        let lock = NSLock()
        var shares: [Range<Int>] = []
        init(_ scenes: [Scene]) { self.scenes = scenes }
        func prepare(_ share: Range<Int>) {
            lock.withLock { shares.append(share) }
            for i in share { scenes[i].change(frame: frame, i) }
        }
    }

    @Test("changes made in the advancing pass, per share: 1, 2 and 3 workers, 70 and 300 clocks end bit for bit where changing and advancing each clock alone ends",
          arguments: [1, 2, 3], [70, 300])
    func preparedShares(workers: Int, n: Int) {
        let alone = (0..<n).map(Scene.init)
        let together = Changes((0..<n).map(Scene.init))
        let clocks = together.scenes.map(\.clock)
        for f in 0..<(n > 100 ? 120 : 240) {
            for (i, s) in alone.enumerated() { s.change(frame: f, i); s.clock.advance(by: 1.0 / 60.0) }
            together.frame = f
            together.shares.removeAll()
            AnimationClock.advance(clocks, by: 1.0 / 60.0, workers: workers, preparing: together)
            // Disjoint shares covering every clock: one with one worker; with more, at least one
            // a worker, at most eight, none under 32 clocks while there are 32 a worker (70
            // clocks: one share a worker; 300: 9 shares of 33 or 34 clocks).
            let shares = together.shares.sorted { $0.lowerBound < $1.lowerBound }
            #expect(shares.first?.lowerBound == 0 && shares.last?.upperBound == n)
            #expect(zip(shares, shares.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
            #expect(shares.count == (workers == 1 ? 1 : n == 70 ? workers : 9))
            #expect(n < 32 * workers || shares.allSatisfy { $0.count >= 32 })
        }
        for i in 0..<n {
            #expect(alone[i].state == together.scenes[i].state, "scene \(i)")
        }
    }

    @Test("no clock, or more workers than clocks, is fine; a few clocks advance in one share each, with the same result")
    func noClocksOrMoreWorkersThanClocksAdvanceAsOneByOne() {
        AnimationClock.advance([], by: 1.0 / 60.0, workers: 4)
        let s = Scene(0)
        let before = s.view.center
        AnimationClock.advance([s.clock], by: 0.5, workers: 4)
        #expect(s.clock.time == 0.5 && s.view.center.y > before.y)
        let few = (0..<5).map(Scene.init), alone = (0..<5).map(Scene.init)
        for _ in 0..<60 {
            AnimationClock.advance(few.map(\.clock), by: 1.0 / 60.0)
            for a in alone { a.clock.advance(by: 1.0 / 60.0) }
        }
        #expect(zip(few, alone).allSatisfy { $0.state == $1.state })
    }
}
