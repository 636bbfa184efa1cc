import DynamicsKit
import Foundation
import Testing

/// UIView-style property animations on a headless clock. Every test uses its own clock
/// (tests run in parallel; `.main` is never advanced here).
@Suite("View animations")
struct ViewAnimationTests {
    final class Recorder: ViewAnimationDelegate {
        var log: [String] = []
        var contexts: [UnsafeMutableRawPointer?] = []
        func animationWillStart(_ animationID: String?, context: UnsafeMutableRawPointer?) {
            log.append("willStart \(animationID ?? "nil")"); contexts.append(context)
        }
        func animationDidStop(_ animationID: String?, finished: Bool, context: UnsafeMutableRawPointer?) {
            log.append("didStop \(animationID ?? "nil") \(finished)"); contexts.append(context)
        }
    }

    /// An independent evaluation of a cubic-Bézier timing curve: sample the parametric curve
    /// densely and interpolate between the samples around x.
    static func bruteForce(_ x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        func b(_ t: Double, _ p1: Double, _ p2: Double) -> Double { 3 * (1 - t) * (1 - t) * t * p1 + 3 * (1 - t) * t * t * p2 + t * t * t }
        let n = 200_000
        var prevX = 0.0, prevY = 0.0
        for i in 1...n {
            let t = Double(i) / Double(n)
            let cx = b(t, x1, x2), cy = b(t, y1, y2)
            if cx >= x { let w = (x - prevX) / max(cx - prevX, 1e-15); return prevY + w * (cy - prevY) }
            prevX = cx; prevY = cy
        }
        return 1
    }

    @Test("timing curves: Core Animation's Béziers at known fractions, symmetric where they should be")
    func curves() {
        let cases: [(AnimationCurve, (Double, Double, Double, Double))] = [
            (.easeInOut, (0.42, 0, 0.58, 1)), (.easeIn, (0.42, 0, 1, 1)), (.easeOut, (0, 0, 0.58, 1)),
        ]
        for (curve, p) in cases {
            for x in stride(from: 0.05, through: 0.95, by: 0.15) {
                let expected = Self.bruteForce(x, p.0, p.1, p.2, p.3)
                #expect(abs(curve.value(at: x) - expected) < 1e-5, "\(curve) at \(x): \(curve.value(at: x)) vs \(expected)")
            }
        }
        // Published values of CSS's identical curves: ease-in-out(0.25) = 0.1291, ease-in(0.5) = 0.3154.
        #expect(abs(AnimationCurve.easeInOut.value(at: 0.5) - 0.5) < 1e-9)
        #expect(abs(AnimationCurve.easeInOut.value(at: 0.25) - 0.1291) < 1e-3)
        #expect(abs(AnimationCurve.easeIn.value(at: 0.5) - 0.3154) < 1e-3)
        for x in [0.1, 0.3, 0.7] {
            #expect(abs(AnimationCurve.easeOut.value(at: x) - (1 - AnimationCurve.easeIn.value(at: 1 - x))) < 1e-9)
        }
        #expect(AnimationCurve.linear.value(at: 0.37) == 0.37)
        #expect(AnimationCurve.easeIn.value(at: -1) == 0 && AnimationCurve.easeIn.value(at: 2) == 1)
    }

    @Test("block animation: the model takes the final value at once; the presentation follows the curve; completion(true) once at the end")
    func blockAnimation() {
        let clock = AnimationClock()
        let v = DynamicView(frame: CGRect(x: 0, y: 0, width: 100, height: 50))
        v.alpha = 0
        var completions: [Bool] = []
        DynamicView.animate(withDuration: 1, options: .curveLinear, clock: clock, animations: {
            v.alpha = 1
            v.center = CGPoint(x: 250, y: 25)
        }, completion: { completions.append($0) })
        #expect(v.alpha == 1 && v.center.x == 250, "model values change at once, as in UIKit")
        #expect(v.presentation.alpha == 0 && v.presentation.center.x == 50)
        clock.advance(by: 0.25)
        #expect(abs(v.presentation.alpha - 0.25) < 1e-9)
        #expect(abs(v.presentation.center.x - 100) < 1e-9)
        clock.advance(by: 0.5)
        #expect(abs(v.presentation.alpha - 0.75) < 1e-9)
        #expect(completions.isEmpty)
        clock.advance(by: 0.25)
        #expect(completions == [true])
        #expect(v.presentation.alpha == 1 && !v.isAnimating)
        clock.advance(by: 1)
        #expect(completions == [true])
        #expect(clock.isIdle)
    }

    @Test("one block over three views: each follows the curve, a direct set takes one over, the end leaves every view at its model value")
    func blockOverSeveralViews() {
        let clock = AnimationClock()
        let views = (0..<3).map { DynamicView(frame: CGRect(x: CGFloat($0) * 100, y: 0, width: 50, height: 50)) }
        for v in views { v.alpha = 0 }
        var completions: [Bool] = []
        DynamicView.animate(withDuration: 1, options: .curveLinear, clock: clock, animations: {
            for v in views { v.alpha = 1 }
            views[0].center.y += 100   // a second property of the first view
            views[2].center.y += 100
        }, completion: { completions.append($0) })
        clock.advance(by: 0.5)
        for v in views { #expect(abs(v.presentation.alpha - 0.5) < 1e-9 && v.isAnimating) }
        #expect(abs(views[0].presentation.center.y - 75) < 1e-9 && abs(views[2].presentation.center.y - 75) < 1e-9)
        views[1].alpha = 0.2   // a direct set: that view's track is taken away
        #expect(views[1].presentation.alpha == 0.2 && !views[1].isAnimating)
        clock.advance(by: 0.25)
        #expect(abs(views[0].presentation.alpha - 0.75) < 1e-9 && abs(views[2].presentation.alpha - 0.75) < 1e-9)
        #expect(views[0].isAnimating && views[2].isAnimating && completions.isEmpty)
        clock.advance(by: 0.25)
        #expect(completions.count == 1)
        for v in views { #expect(!v.isAnimating && v.presentation.alpha == v.alpha && v.presentation.center == v.center) }
        #expect(clock.isIdle)
    }

    @Test("the default curve is ease-in-out; delay shows the old value until it has passed")
    func delayAndDefaultCurve() {
        let clock = AnimationClock()
        let v = DynamicView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        v.alpha = 0
        DynamicView.animate(withDuration: 2, delay: 0.5, clock: clock, animations: { v.alpha = 1 })
        clock.advance(by: 0.4)
        #expect(v.presentation.alpha == 0, "still in the delay")
        clock.advance(by: 0.6)   // 0.5 s into the 2 s animation: a quarter
        #expect(abs(v.presentation.alpha - AnimationCurve.easeInOut.value(at: 0.25)) < 1e-9)
        clock.advance(by: 1.5)
        #expect(v.presentation.alpha == 1 && !v.isAnimating)
    }

    @Test("transform, frame and background colour animate; rotation takes the short way")
    func otherProperties() {
        let clock = AnimationClock()
        let v = DynamicView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        v.backgroundColor = .black
        DynamicView.animate(withDuration: 1, options: .curveLinear, clock: clock, animations: {
            v.transform = CGAffineTransform(rotationAngle: .pi / 2).scaledBy(x: 2, y: 2)
            v.frame = CGRect(x: 100, y: 0, width: 200, height: 100)
            v.backgroundColor = .white
        })
        clock.advance(by: 0.5)
        let p = v.presentation
        #expect(abs(p.transform.rotationAngle - .pi / 4) < 1e-9)
        #expect(abs((p.transform.a * p.transform.a + p.transform.b * p.transform.b).squareRoot() - 1.5) < 1e-9)
        #expect(abs(p.size.width - 150) < 1e-9 && abs(p.center.x - 125) < 1e-9)
        #expect(abs(p.backgroundColor.red - 0.5) < 1e-9)

        let w = DynamicView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        w.transform = CGAffineTransform(rotationAngle: 3)
        DynamicView.animate(withDuration: 1, options: .curveLinear, clock: clock, animations: {
            w.transform = CGAffineTransform(rotationAngle: -3)
        })
        clock.advance(by: 0.5)
        // From 3 rad to −3 rad the short way passes through π, not through 0.
        #expect(abs(abs(w.presentation.transform.rotationAngle) - .pi) < 1e-6)
    }

    @Test("repeat count and autoreverse: cycles, reversal and the end at the model value")
    func repeatAndAutoreverse() {
        let clock = AnimationClock()
        let v = DynamicView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        v.alpha = 0
        let rec = Recorder()
        DynamicView.beginAnimations("twice", context: nil)
        DynamicView.setAnimationClock(clock)
        DynamicView.setAnimationDuration(1)
        DynamicView.setAnimationCurve(.linear)
        DynamicView.setAnimationRepeatCount(2)
        DynamicView.setAnimationDelegate(rec)
        v.alpha = 1
        DynamicView.commitAnimations()
        clock.advance(by: 1.25)
        #expect(abs(v.presentation.alpha - 0.25) < 1e-9, "second cycle starts again from the old value")
        clock.advance(by: 0.5)
        #expect(rec.log == ["willStart twice"])
        clock.advance(by: 0.25)
        #expect(rec.log == ["willStart twice", "didStop twice true"])

        let w = DynamicView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        w.alpha = 0
        var done: [Bool] = []
        DynamicView.animate(withDuration: 1, options: [.curveLinear, .autoreverse], clock: clock, animations: { w.alpha = 1 },
                            completion: { done.append($0) })
        clock.advance(by: 0.5)
        #expect(abs(w.presentation.alpha - 0.5) < 1e-9)
        clock.advance(by: 1.0)   // 1.5 s: half way back
        #expect(abs(w.presentation.alpha - 0.5) < 1e-9)
        clock.advance(by: 0.25)
        #expect(abs(w.presentation.alpha - 0.25) < 1e-9)
        clock.advance(by: 0.25)
        #expect(done == [true])
        #expect(w.presentation.alpha == 1, "after autoreverse UIKit shows the model value")

        // .repeat runs until interrupted.
        let r = DynamicView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        var rDone: [Bool] = []
        DynamicView.animate(withDuration: 0.5, options: [.repeat, .curveLinear], clock: clock, animations: { r.alpha = 0 },
                            completion: { rDone.append($0) })
        clock.run(for: 10)
        #expect(rDone.isEmpty && r.isAnimating)
        r.removeAllAnimations()
        clock.advance(by: 1.0 / 60.0)
        #expect(rDone == [false])
    }

    @Test("interrupting: the old animation finishes with false; the new one jumps to the old target, or starts from the presented value with beginFromCurrentState")
    func interruption() {
        let clock = AnimationClock()
        let a = DynamicView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        a.alpha = 0
        var first: [Bool] = [], second: [Bool] = []
        DynamicView.animate(withDuration: 1, options: .curveLinear, clock: clock, animations: { a.alpha = 1 }, completion: { first.append($0) })
        clock.advance(by: 0.5)
        DynamicView.animate(withDuration: 1, options: .curveLinear, clock: clock, animations: { a.alpha = 0 }, completion: { second.append($0) })
        #expect(a.presentation.alpha == 1, "default: starts from the model value (the old target)")
        clock.advance(by: 0.25)
        #expect(first == [false])
        #expect(abs(a.presentation.alpha - 0.75) < 1e-9)
        clock.advance(by: 0.75)
        #expect(second == [true])

        let b = DynamicView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        b.alpha = 0
        DynamicView.animate(withDuration: 1, options: .curveLinear, clock: clock, animations: { b.alpha = 1 })
        clock.advance(by: 0.5)
        DynamicView.animate(withDuration: 1, options: [.curveLinear, .beginFromCurrentState], clock: clock, animations: { b.alpha = 0 })
        #expect(abs(b.presentation.alpha - 0.5) < 1e-9, "beginFromCurrentState: from the presented value")
        clock.advance(by: 0.5)
        #expect(abs(b.presentation.alpha - 0.25) < 1e-9)

        // Setting the property directly ends its animation.
        let c = DynamicView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        var cDone: [Bool] = []
        DynamicView.animate(withDuration: 1, clock: clock, animations: { c.alpha = 0 }, completion: { cDone.append($0) })
        clock.advance(by: 0.2)
        c.alpha = 0.7
        #expect(c.presentation.alpha == 0.7 && !c.isAnimating)
        clock.advance(by: 0.1)
        #expect(cDone == [false])
    }

    @Test("begin/commit: changes animate only after commit; will-start after the delay, then did-stop with id, finished flag and context, in order")
    func beginCommitOrder() {
        let clock = AnimationClock()
        let rec = Recorder()
        let v = DynamicView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        var token = 42
        withUnsafeMutablePointer(to: &token) { ctx in
            DynamicView.beginAnimations("slide", context: UnsafeMutableRawPointer(ctx))
            DynamicView.setAnimationClock(clock)
            DynamicView.setAnimationDelegate(rec)
            DynamicView.setAnimationDuration(0.5)
            DynamicView.setAnimationDelay(0.2)
            DynamicView.setAnimationCurve(.linear)
            v.center = CGPoint(x: 105, y: 5)
            #expect(!v.isAnimating, "nothing animates before commit")
            DynamicView.commitAnimations()
            #expect(v.isAnimating && rec.log.isEmpty)
            clock.advance(by: 0.1)
            #expect(rec.log.isEmpty, "will-start waits for the delay")
            clock.advance(by: 0.1)
            #expect(rec.log == ["willStart slide"])
            clock.advance(by: 0.25)
            #expect(abs(v.presentation.center.x - 55) < 1e-9)
            clock.advance(by: 0.25)
            #expect(rec.log == ["willStart slide", "didStop slide true"])
            #expect(rec.contexts.allSatisfy { $0 == UnsafeMutableRawPointer(ctx) })
        }

        // Two committed blocks report in commit order; closures work like the delegate.
        var order: [String] = []
        for name in ["A", "B"] {
            DynamicView.beginAnimations(name, context: nil)
            DynamicView.setAnimationClock(clock)
            DynamicView.setAnimationDuration(name == "A" ? 0.3 : 0.1)
            DynamicView.setAnimationWillStart { id, _ in order.append("start \(id!)") }
            DynamicView.setAnimationDidStop { id, fin, _ in order.append("stop \(id!) \(fin)") }
            v.alpha = name == "A" ? 0.5 : 0.5   // B animates nothing new
            DynamicView.commitAnimations()
        }
        clock.run(for: 0.5)
        #expect(order == ["start A", "start B", "stop B true", "stop A true"])
        // Outside a block the setters do nothing and commit is harmless.
        DynamicView.setAnimationDuration(3)
        DynamicView.commitAnimations()
    }

    @Test("performWithoutAnimation applies changes at once inside an animation block")
    func withoutAnimation() {
        let clock = AnimationClock()
        let v = DynamicView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        DynamicView.animate(withDuration: 1, clock: clock, animations: {
            v.alpha = 0
            DynamicView.performWithoutAnimation { v.center = CGPoint(x: 500, y: 5) }
        })
        #expect(v.presentation.center.x == 500)
        clock.advance(by: 0.5)
        #expect(v.presentation.alpha > 0 && v.presentation.alpha < 1)
    }

    @Test("a clock steps its animators with its view animations: free fall 500 pt in 1 s, same as stepping the animator alone")
    func clockDrivesAnimators() {
        let clock = AnimationClock()
        let bounds = CGRect(x: 0, y: 0, width: 320, height: 2000)
        let onClock = DynamicAnimator(referenceBounds: bounds, clock: clock)
        let alone = DynamicAnimator(referenceBounds: bounds, clock: AnimationClock())
        let a = DynamicView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let b = DynamicView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        onClock.addBehavior(GravityBehavior(items: [a]))
        alone.addBehavior(GravityBehavior(items: [b]))
        let fade = DynamicView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        DynamicView.animate(withDuration: 1, clock: clock, animations: { fade.alpha = 0 })
        for _ in 0..<60 { clock.advance(by: 1.0 / 60.0); alone.step(by: 1.0 / 60.0) }
        #expect(abs(a.center.y - 50 - 500) <= 10, "fell \(a.center.y - 50)")
        #expect(a.center == b.center, "the clock steps an animator exactly as step(by:) does")
        #expect(onClock.clock === clock && abs(onClock.elapsedTime - 1) < 1e-9)
        #expect(fade.presentation.alpha == 0 && !fade.isAnimating)
        #expect(!clock.isIdle, "the falling item keeps the animator running")
    }

    /// Plays a fade of `v`'s alpha from 1 to 0 on `clock` (0.1 s delay, 0.5 s, linear,
    /// autoreversing) and returns the presented alpha of every 1/60 s frame until it ends, and
    /// what its completion got.
    static func fadeFrames(_ v: DynamicView, clock: AnimationClock) -> (frames: [CGFloat], finished: [Bool]) {
        v.alpha = 1
        var finished: [Bool] = []
        DynamicView.animate(withDuration: 0.5, delay: 0.1, options: [.curveLinear, .autoreverse], clock: clock,
                            animations: { v.alpha = 0 }, completion: { finished.append($0) })
        var frames: [CGFloat] = []
        for _ in 0..<90 { clock.advance(by: 1.0 / 60.0); frames.append(v.presentation.alpha) }
        return (frames, finished)
    }

    @Test("animations one after another on one clock, each started from the last one's completion, play exactly as on a new clock")
    func animationsAfterEachOther() {
        // A clock keeps ended animations' objects for its next ones, and `animate` its blocks:
        // each must start as new (delay, elapsed time, curve, callbacks).
        let fresh = Self.fadeFrames(DynamicView(frame: CGRect(x: 0, y: 0, width: 10, height: 10)), clock: AnimationClock())
        #expect(fresh.finished == [true])
        #expect(fresh.frames[3] == 1 && fresh.frames.last == 0, "the delay shows the old value; the end shows the model value")
        #expect(fresh.frames.contains { $0 > 0.1 && $0 < 0.9 })

        let clock = AnimationClock()
        let v = DynamicView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        var log: [String] = []
        var again: [CGFloat] = []
        // A first animation of another duration and curve, whose completion starts the next.
        DynamicView.animate(withDuration: 0.25, options: .curveEaseIn, clock: clock, animations: { v.center = CGPoint(x: 50, y: 5) },
                            completion: { finished in
                                log.append("first \(finished)")
                                DynamicView.animate(withDuration: 0.3, clock: clock, animations: { v.center = CGPoint(x: 5, y: 5) },
                                                    completion: { log.append("second \($0)") })
                            })
        for _ in 0..<60 { clock.advance(by: 1.0 / 60.0) }
        #expect(log == ["first true", "second true"])
        #expect(v.presentation.center == CGPoint(x: 5, y: 5) && clock.runningViewAnimationCount == 0)
        for round in 0..<3 {
            let played = Self.fadeFrames(v, clock: clock)
            #expect(played.frames == fresh.frames, "round \(round): the fade played differently from a new clock's")
            #expect(played.finished == [true])
            again = played.frames
        }
        #expect(again == fresh.frames)
    }

    @Test("an ended animation lets go of its completion (and what it captured); so does the finished block")
    func endedAnimationReleasesCallbacks() {
        final class Token {}
        let clock = AnimationClock()
        let v = DynamicView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        weak var captured: Token?
        var calls = 0
        do {
            let token = Token()
            captured = token
            DynamicView.animate(withDuration: 0.2, clock: clock, animations: { v.alpha = 0.5 },
                                completion: { _ in withExtendedLifetime(token) { calls += 1 } })
        }
        #expect(captured != nil, "the running animation holds its completion")
        for _ in 0..<30 { clock.advance(by: 1.0 / 60.0) }
        #expect(calls == 1)
        #expect(captured == nil, "the ended animation (kept for reuse) still holds its completion")

        // Nor does the block this thread keeps for its next `animate` hold on to the clock.
        weak var weakClock: AnimationClock?
        do {
            let own = AnimationClock()
            weakClock = own
            DynamicView.animate(withDuration: 0.1, clock: own, animations: { v.alpha = 0.25 })
            #expect(own.runUntilIdle(timeout: 1))
        }
        #expect(weakClock == nil, "a finished animate block keeps its clock alive")
    }
}
