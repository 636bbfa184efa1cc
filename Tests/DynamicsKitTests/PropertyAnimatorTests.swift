@testable import DynamicsKit
import Foundation
import Testing

/// `ViewPropertyAnimator` against UIKit's semantics, each on its own clock: model and
/// presentation, pause, scrub, reverse, stop and finish, continue with a spring, additive
/// composition, and the programmer errors (in child processes, with their messages).
@Suite("View property animators")
struct PropertyAnimatorTests {
    static func view(x: CGFloat = 0) -> DynamicView { DynamicView(frame: CGRect(x: x - 10, y: -10, width: 20, height: 20)) }   // centre (x, 0)
    static let frame = 1.0 / 60

    @Test("the model changes when the animator starts; the presentation follows the curve; one completion at .end")
    func modelAndPresentation() {
        let clock = AnimationClock()
        let v = Self.view()
        var done: [ViewAnimatingPosition] = []
        let a = ViewPropertyAnimator(duration: 1, curve: .easeIn, clock: clock) { v.center.x = 100 }
        a.addCompletion { done.append($0) }
        #expect(v.center.x == 0 && a.state == .inactive && !a.isRunning, "the block runs when the animator starts")
        a.startAnimation()
        #expect(v.center.x == 100 && v.presentation.center.x == 0)
        #expect(a.state == .active && a.isRunning)
        for i in 1..<60 {
            clock.advance(by: Self.frame)
            let f = Double(i) / 60
            #expect(abs(Double(v.presentation.center.x) - 100 * AnimationCurve.easeIn.value(at: f)) < 1e-9, "frame \(i)")
            #expect(abs(Double(a.fractionComplete) - f) < 1e-9)
        }
        #expect(done.isEmpty)
        clock.advance(by: Self.frame)
        #expect(done == [.end] && a.state == .inactive && !a.isRunning && !v.isAnimating)
        clock.run(for: 1)
        #expect(done == [.end])
        #expect(clock.isIdle)
    }

    @Test("pausing freezes the presentation; resuming goes on along the same curve")
    func pauseFreezes() {
        let clock = AnimationClock()
        let v = Self.view()
        let a = ViewPropertyAnimator(duration: 2, curve: .easeInOut, clock: clock) { v.center.x = 200 }
        a.startAnimation()
        clock.run(for: 0.5)
        a.pauseAnimation()
        let frozen = v.presentation.center.x
        #expect(a.state == .active && !a.isRunning)
        clock.run(for: 3)
        #expect(v.presentation.center.x == frozen && abs(Double(a.fractionComplete) - 0.25) < 1e-9)
        #expect(clock.isIdle, "a paused animator leaves the clock idle")
        a.startAnimation()
        clock.run(for: 0.5)
        #expect(abs(Double(v.presentation.center.x) - 200 * AnimationCurve.easeInOut.value(at: 0.5)) < 1e-9)
        // Pausing an inactive animator runs its blocks and holds them at the start.
        let w = Self.view()
        let b = ViewPropertyAnimator(duration: 1, curve: .linear, clock: clock) { w.alpha = 0 }
        b.pauseAnimation()
        #expect(w.alpha == 0 && w.presentation.alpha == 1 && b.state == .active && !b.isRunning)
        b.stopAnimation(true)
    }

    @Test("scrubbing a paused animator places the views linearly (scrubsLinearly) or along the curve, and continues from there")
    func scrubbing() {
        let clock = AnimationClock()
        let v = Self.view()
        let a = ViewPropertyAnimator(duration: 1, curve: .easeInOut, clock: clock) { v.center.x = 100 }
        #expect(a.scrubsLinearly)
        a.pauseAnimation()
        for f in [0.1, 0.3, 0.75, 0.4] {
            a.fractionComplete = CGFloat(f)
            #expect(abs(Double(v.presentation.center.x) - 100 * f) < 1e-9, "linear scrub to \(f)")
        }
        a.scrubsLinearly = false
        a.fractionComplete = 0.3
        #expect(abs(Double(v.presentation.center.x) - 100 * AnimationCurve.easeInOut.value(at: 0.3)) < 1e-9)
        // Along the curve, resuming simply goes on along it.
        a.startAnimation()
        clock.run(for: 0.2)
        #expect(abs(Double(v.presentation.center.x) - 100 * AnimationCurve.easeInOut.value(at: 0.5)) < 1e-9)
        a.fractionComplete = 0.9
        #expect(abs(Double(v.presentation.center.x) - 100 * AnimationCurve.easeInOut.value(at: 0.5)) < 1e-9, "ignored while running")
        a.stopAnimation(true)
    }

    @Test("scrub, then continue: frame by frame, the rest of the way with the animator's curve over the time left")
    func scrubThenContinue() {
        let clock = AnimationClock()
        let v = Self.view()
        var done: [ViewAnimatingPosition] = []
        let a = ViewPropertyAnimator(duration: 1.2, curve: .easeOut, clock: clock) { v.center.x = 300 }
        a.addCompletion { done.append($0) }
        a.pauseAnimation()
        // A finger drags: one scrub a frame, the clock advancing; nothing moves but the finger.
        let drag: [Double] = [0.05, 0.12, 0.2, 0.31, 0.4, 0.38, 0.45, 0.5]
        for f in drag {
            a.fractionComplete = CGFloat(f)
            clock.advance(by: Self.frame)
            #expect(abs(Double(v.presentation.center.x) - 300 * f) < 1e-9)
        }
        a.startAnimation()
        // The rest: 0.5 of 1.2 s = 0.6 s = 36 frames, eased out from 150 to 300.
        for i in 1...36 {
            clock.advance(by: Self.frame)
            let s = Double(i) / 36
            let expected = 150 + 150 * AnimationCurve.easeOut.value(at: s)
            if i < 36 {
                #expect(abs(Double(v.presentation.center.x) - expected) < 1e-9, "frame \(i) after letting go")
                #expect(abs(Double(a.fractionComplete) - (0.5 + 0.5 * s)) < 1e-9)
            }
        }
        #expect(done == [.end] && v.presentation.center.x == 300 && v.center.x == 300)
    }

    @Test("reversing runs back along the curve and completes at .start with the model at the start values")
    func reversing() {
        let clock = AnimationClock()
        let v = Self.view()
        v.alpha = 0.2
        var done: [ViewAnimatingPosition] = []
        let a = ViewPropertyAnimator(duration: 1, curve: .easeInOut, clock: clock) { v.center.x = 100; v.alpha = 1 }
        a.addCompletion { done.append($0) }
        a.startAnimation()
        clock.run(for: 0.6)
        a.isReversed = true
        #expect(a.isReversed && a.isRunning)
        clock.run(for: 0.2)   // back to 0.4
        #expect(abs(Double(v.presentation.center.x) - 100 * AnimationCurve.easeInOut.value(at: 0.4)) < 1e-9)
        #expect(abs(Double(a.fractionComplete) - 0.4) < 1e-9)
        clock.run(for: 0.4)
        #expect(done == [.start])
        #expect(v.center.x == 0 && abs(v.alpha - 0.2) < 1e-12, "the model goes back to the start values")
        #expect(v.presentation.center.x == 0 && !v.isAnimating)

        // Reversed while paused after a linear scrub: back from the scrubbed place over the time used.
        let w = Self.view()
        var wDone: [ViewAnimatingPosition] = []
        let b = ViewPropertyAnimator(duration: 2, curve: .easeIn, clock: clock) { w.center.x = 200 }
        b.addCompletion { wDone.append($0) }
        b.pauseAnimation()
        b.fractionComplete = 0.25   // 50 pt, 0.5 s of the 2 s
        b.isReversed = true
        b.startAnimation()
        clock.run(for: 0.25)
        #expect(abs(Double(w.presentation.center.x) - 50 * (1 - AnimationCurve.easeIn.value(at: 0.5))) < 1e-9)
        clock.run(for: 0.25 + 1e-9)
        #expect(wDone == [.start] && w.center.x == 0)
    }

    @Test("stopAnimation(false) then finishAnimation(at: .current): the views stay where they were, the model too")
    func stopAndFinish() {
        let clock = AnimationClock()
        let v = Self.view()
        var done: [ViewAnimatingPosition] = []
        let a = ViewPropertyAnimator(duration: 1, curve: .linear, clock: clock) { v.center.x = 100; v.alpha = 0 }
        a.addCompletion { done.append($0) }
        a.startAnimation()
        clock.run(for: 0.3)
        a.stopAnimation(false)
        #expect(a.state == .stopped && !a.isRunning && done.isEmpty)
        #expect(abs(v.center.x - 30) < 1e-9 && abs(v.alpha - 0.7) < 1e-9, "the model is where the view was")
        #expect(v.presentation.center.x == v.center.x && !v.isAnimating)
        clock.run(for: 1)
        #expect(abs(v.presentation.center.x - 30) < 1e-9)
        a.finishAnimation(at: .current)
        #expect(done == [.current] && a.state == .inactive)
        #expect(abs(v.center.x - 30) < 1e-9 && abs(v.alpha - 0.7) < 1e-9)

        // .end and .start put the model at the end or start values.
        for (position, expected) in [(ViewAnimatingPosition.end, 100.0), (.start, 0.0)] {
            let w = Self.view()
            var got: [ViewAnimatingPosition] = []
            let b = ViewPropertyAnimator(duration: 1, curve: .linear, clock: clock) { w.center.x = 100 }
            b.addCompletion { got.append($0) }
            b.startAnimation()
            clock.run(for: 0.5)
            b.stopAnimation(false)
            b.finishAnimation(at: position)
            #expect(got == [position] && abs(Double(w.center.x) - expected) < 1e-9 && w.presentation.center.x == w.center.x)
        }
        // stopAnimation(true): inactive at once, no completion.
        let z = Self.view()
        var zDone: [ViewAnimatingPosition] = []
        let c = ViewPropertyAnimator(duration: 1, curve: .linear, clock: clock) { z.center.x = 100 }
        c.addCompletion { zDone.append($0) }
        c.startAnimation()
        clock.run(for: 0.25)
        c.stopAnimation(true)
        clock.run(for: 1)
        #expect(c.state == .inactive && zDone.isEmpty && abs(z.center.x - 25) < 1e-9)
    }

    @Test("continueAnimation with a spring and a finger's velocity finishes from where the finger let go, per axis")
    func continueWithSpring() {
        let clock = AnimationClock()
        let v = Self.view()   // centre (0, 0)
        var done: [ViewAnimatingPosition] = []
        let a = ViewPropertyAnimator(duration: 0.5, curve: .easeInOut, clock: clock) { v.center = CGPoint(x: 400, y: 200) }
        a.addCompletion { done.append($0) }
        a.pauseAnimation()
        a.fractionComplete = 0.4   // the finger has the view at (160, 80)
        // Let go moving at (600, 90) pt/s: normalized to the distance left (240, 120).
        let velocity = CGVector(dx: 600 / 240.0, dy: 90 / 120.0)
        let (m, k, c) = (1.0, 250.0, 22.0)
        a.continueAnimation(withTimingParameters: SpringTimingParameters(mass: m, stiffness: k, damping: c, initialVelocity: velocity), durationFactor: 0)
        let zeta = c / (2 * (k * m).squareRoot()), omega = (k / m).squareRoot()
        let times = (1...40).map { Double($0) / 60 }
        let xs = SpringTimingTests.oscillator(zeta: zeta, omega: omega, velocity: Double(velocity.dx), at: times)
        let ys = SpringTimingTests.oscillator(zeta: zeta, omega: omega, velocity: Double(velocity.dy), at: times)
        // (The spring settles after about 0.66 s: 39 frames before it ends.)
        for i in 0..<39 {
            clock.advance(by: Self.frame)
            let p = v.presentation.center
            #expect(abs(Double(p.x) - (160 + 240 * (1 - xs[i].0))) < 1e-6 * 400, "frame \(i + 1)")
            #expect(abs(Double(p.y) - (80 + 120 * (1 - ys[i].0))) < 1e-6 * 400, "frame \(i + 1)")
        }
        #expect(done.isEmpty)
        clock.run(for: 3)
        #expect(done == [.end] && v.presentation.center == CGPoint(x: 400, y: 200))

        // The view leaves at the finger's velocity: over a microsecond it moves 600 and 90 pt/s.
        let u = Self.view()
        let c2 = ViewPropertyAnimator(duration: 0.5, curve: .easeInOut, clock: clock) { u.center = CGPoint(x: 400, y: 200) }
        c2.pauseAnimation()
        c2.fractionComplete = 0.4
        c2.continueAnimation(withTimingParameters: SpringTimingParameters(mass: m, stiffness: k, damping: c, initialVelocity: velocity), durationFactor: 0)
        clock.advance(by: 1e-6)
        #expect(abs(Double(u.presentation.center.x - 160) * 1e6 - 600) < 0.1 && abs(Double(u.presentation.center.y - 80) * 1e6 - 90) < 0.1)
        c2.stopAnimation(true)

        // A ratio spring with a duration factor lasts factor × duration.
        let w = Self.view()
        var wDone = 0
        let b = ViewPropertyAnimator(duration: 1, curve: .linear, clock: clock) { w.center.x = 100 }
        b.addCompletion { _ in wDone += 1 }
        b.pauseAnimation()
        b.fractionComplete = 0.5
        b.continueAnimation(withTimingParameters: SpringTimingParameters(dampingRatio: 0.7), durationFactor: 0.5)
        clock.run(for: 0.5 - Self.frame)
        #expect(wDone == 0)
        clock.advance(by: Self.frame)
        #expect(wDone == 1 && w.presentation.center.x == 100)
    }

    @Test("several animators on one property compose additively, each ending on the model value")
    func additive() {
        let clock = AnimationClock()
        let v = Self.view()
        let a = ViewPropertyAnimator(duration: 1, curve: .linear, clock: clock) { v.center.x = 100 }
        a.startAnimation()
        clock.run(for: 0.5)
        let b = ViewPropertyAnimator(duration: 1, curve: .linear, clock: clock) { v.center.x = 300 }
        b.startAnimation()
        #expect(abs(v.presentation.center.x - 50) < 1e-9, "no jump when the second starts")
        clock.run(for: 0.25)
        // 300 + (0 − 100)(1 − 0.75) + (100 − 300)(1 − 0.25)
        #expect(abs(v.presentation.center.x - 125) < 1e-9)
        clock.run(for: 0.25)
        #expect(a.state == .inactive && b.state == .active)
        #expect(abs(v.presentation.center.x - 200) < 1e-9)
        clock.run(for: 0.5)
        #expect(v.presentation.center.x == 300 && !v.isAnimating)
        // Stopping one leaves the other running on top of the new model value.
        let w = Self.view()
        let c = ViewPropertyAnimator(duration: 1, curve: .linear, clock: clock) { w.center.x = 100 }
        c.startAnimation()
        clock.run(for: 0.5)
        let d = ViewPropertyAnimator(duration: 1, curve: .linear, clock: clock) { w.center.y = 100 }
        d.startAnimation()
        c.stopAnimation(true)
        #expect(abs(w.center.x - 50) < 1e-9 && abs(w.presentation.center.x - 50) < 1e-9)
        clock.run(for: 0.5)
        #expect(abs(w.presentation.center.y - 50) < 1e-9 && abs(w.presentation.center.x - 50) < 1e-9)
        clock.run(for: 0.5)
        #expect(d.state == .inactive)
    }

    @Test("delay factors, start after a delay, pausing on completion, and a direct set taking a property away")
    func delaysAndOptions() {
        let clock = AnimationClock()
        let v = Self.view()
        let a = ViewPropertyAnimator(duration: 1, curve: .linear, clock: clock) { v.center.x = 100 }
        a.addAnimations({ v.alpha = 0 }, delayFactor: 0.5)
        a.startAnimation(afterDelay: 0.5)
        #expect(a.delay == 0.5 && v.alpha == 0 && v.presentation.alpha == 1)
        clock.run(for: 0.5)
        #expect(v.presentation.center.x == 0)
        clock.run(for: 0.5)
        #expect(abs(v.presentation.center.x - 50) < 1e-9 && v.presentation.alpha == 1)
        clock.run(for: 0.25)
        #expect(abs(v.presentation.center.x - 75) < 1e-9 && abs(v.presentation.alpha - 0.5) < 1e-9)
        // Added while running at 0.75: starts half the remaining quarter late.
        a.addAnimations({ v.center.y = 80 }, delayFactor: 0.5)
        #expect(v.center.y == 80 && v.presentation.center.y == 0)
        clock.run(for: 0.125)
        #expect(abs(v.presentation.center.y) < 1e-9)
        clock.run(for: 0.0625)
        #expect(abs(v.presentation.center.y - 40) < 1e-9)
        clock.run(for: 0.0625)
        #expect(a.state == .inactive && v.presentation.center.y == 80)

        let w = Self.view()
        var done = 0
        let b = ViewPropertyAnimator(duration: 0.5, curve: .linear, clock: clock) { w.center.x = 100; w.alpha = 0.5 }
        b.pausesOnCompletion = true
        b.addCompletion { _ in done += 1 }
        b.startAnimation()
        clock.run(for: 1)
        #expect(b.state == .active && !b.isRunning && done == 0 && b.fractionComplete == 1)
        #expect(w.presentation.center.x == 100 && w.isAnimating)
        w.alpha = 0.9   // a direct set ends that property's track only
        #expect(w.presentation.alpha == 0.9 && w.isAnimating)
        b.isReversed = true
        b.startAnimation()
        clock.run(for: 0.25)
        #expect(abs(w.presentation.center.x - 50) < 1e-9)
        clock.run(for: 0.25)
        #expect(b.state == .active && !b.isRunning && done == 0)
        b.stopAnimation(false)
        b.finishAnimation(at: .start)
        #expect(done == 1 && w.center.x == 0 && w.alpha == 0.9)
    }

    @Test("runningPropertyAnimator starts at once with the options' curve; a completion from a completion starts another")
    func runningAnimator() {
        let clock = AnimationClock()
        let v = Self.view()
        var log: [String] = []
        ViewPropertyAnimator.runningPropertyAnimator(withDuration: 1, delay: 0, options: .curveEaseOut, clock: clock, animations: {
            v.center.x = 100
        }, completion: { p in
            log.append("first \(p)")
            ViewPropertyAnimator.runningPropertyAnimator(withDuration: 0.5, delay: 0, options: .curveLinear, clock: clock,
                                                         animations: { v.center.x = 0 }, completion: { log.append("second \($0)") })
        })
        clock.run(for: 0.5)
        #expect(abs(Double(v.presentation.center.x) - 100 * AnimationCurve.easeOut.value(at: 0.5)) < 1e-9)
        clock.run(for: 0.5)
        #expect(log == ["first end"])
        clock.run(for: 0.25)
        #expect(abs(v.presentation.center.x - 50) < 1e-9)
        clock.run(for: 0.25 + 1e-9)
        #expect(log == ["first end", "second end"])
    }

    @Test("the same animator runs again after it finished: new animations, new completions, nothing kept from the last run")
    func reuse() {
        let clock = AnimationClock()
        let v = Self.view()
        var done: [ViewAnimatingPosition] = []
        let a = ViewPropertyAnimator(duration: 0.5, curve: .linear, clock: clock)
        var previous = 0.0
        for target in [100.0, 0.0, 50.0] {
            a.addAnimations { v.center.x = CGFloat(target) }
            a.addCompletion { done.append($0) }
            a.startAnimation()
            clock.run(for: 0.25)
            #expect(abs(Double(v.presentation.center.x) - (previous + target) / 2) < 1e-9)
            previous = target
            clock.run(for: 0.25 + 1e-9)
            #expect(v.presentation.center.x == CGFloat(target))
        }
        #expect(done == [.end, .end, .end])
    }

    // MARK: Programmer errors

    static func expectMessage(_ result: ExitTest.Result?, _ message: String) {
        guard let result else { return }
        let err = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(err.contains(message), "stderr: \(err.suffix(400))")
    }

    @Test("starting a stopped animator stops with UIKit's message")
    func startWhileStopped() async {
        let r = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let v = DynamicView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            let a = ViewPropertyAnimator(duration: 1, curve: .linear, clock: AnimationClock()) { v.alpha = 0 }
            a.startAnimation()
            a.stopAnimation(false)
            a.startAnimation()
        }
        Self.expectMessage(r, "cannot be started while stopped")
    }

    @Test("finishing an animator that is not stopped stops with UIKit's message")
    func finishWhileNotStopped() async {
        let r = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let v = DynamicView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            let a = ViewPropertyAnimator(duration: 1, curve: .linear, clock: AnimationClock()) { v.alpha = 0 }
            a.startAnimation()
            a.finishAnimation(at: .end)
        }
        Self.expectMessage(r, "should only be called on a stopped animator!")
    }

    @Test("a negative duration or delay, and stopping twice, stop with UIKit's messages")
    func badDurations() async {
        let r1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ViewPropertyAnimator(duration: -1, curve: .linear, clock: AnimationClock())
        }
        Self.expectMessage(r1, "The duration should be greater than or equal to zero.")
        let r2 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ViewPropertyAnimator(duration: 1, curve: .linear, clock: AnimationClock()).startAnimation(afterDelay: -0.5)
        }
        Self.expectMessage(r2, "The delay should be greater than or equal to zero.")
        let r3 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let v = DynamicView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            let a = ViewPropertyAnimator(duration: 1, curve: .linear, clock: AnimationClock()) { v.alpha = 0 }
            a.startAnimation()
            a.stopAnimation(false)
            a.stopAnimation(false)
        }
        Self.expectMessage(r3, "is already stopped!")
        let r4 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let a = ViewPropertyAnimator(duration: 1, curve: .linear, clock: AnimationClock())
            a.isInterruptible = false
            a.pauseAnimation()
        }
        Self.expectMessage(r4, "that is not interruptible cannot be paused!")
    }
}
